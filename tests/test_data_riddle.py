"""riddle-of-the-ring (seed 000) as data: the inventory, the 80-card deck, the setup and the recorded gaps."""
from __future__ import annotations

import re

import pytest

from solver.game.loader import load_game
from solver.game.setup import DealStep, GiveStep

GAME = "riddle-of-the-ring"


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


@pytest.fixture(scope="module")
def cards(game):
    return {i.id: i for i in game.component("play-cards").items}


@pytest.fixture(scope="module")
def gaps(game):
    return {g.id: g for g in game.meta.gaps}


def test_metadata(game):
    m = game.meta
    assert m.title == {"ja": "指輪の謎", "en": "Riddle of the Ring"}
    assert (m.players.min, m.players.max) == (2, 8)
    assert m.year == 1982 and m.age_min == 13
    assert (m.play_time_minutes.min, m.play_time_minutes.max) == (120, 120)


def test_component_list_of_the_seed(game):
    # 『コンポーネント』: map 1, rulebook 1, counter sheet 1, die 1, play cards 80
    assert game.component("game-map").kind == "map" and game.component("game-map").total == 1
    assert game.component("rulebook").kind == "booklet" and game.component("rulebook").total == 1
    die = game.component("die")
    assert die.kind == "dice" and die.total == 1 and die.attrs["sides"] == 6
    markers = game.component("character-markers")
    assert markers.kind == "counters" and markers.attrs["sheets"] == 1
    deck = game.component("play-cards")
    assert deck.kind == "deck" and deck.stated_total.value == 80


def test_markers_four_hobbits_four_black_riders(game):
    markers = game.component("character-markers")
    assert markers.total == 8 and markers.max_players == 8
    sides = [i.attrs["side"] for i in markers.items]
    assert sides.count("hobbit") == 4 and sides.count("black-rider") == 4
    for item in markers.items:
        assert item.front and item.back, item.id
        assert re.fullmatch(r"#[0-9a-f]{6}", item.front.colour), item.id
        assert item.front.label["ja"] and item.front.label["en"]
    assert len({i.front.colour for i in markers.items}) == 8  # each character its own colour


NAMED_CARDS = {
    # id: (type, kind) — type None where the seed gives no basis for one
    "the-ring": ("special", "ring"), "gollum": (None, "gollum"), "bilbo": (None, "bilbo"),
    "shelob": (None, "shelob"), "gandalf": ("character", "wizard"), "galadriel": ("character", "wizard"),
    "sauron": ("character", "wizard"), "balrog": ("character", "wizard"),
    "elven-ring": ("special", "elven-ring"), "palantir": ("special", "palantir"), "spy": ("special", "spy"),
    "riddle": ("special", "riddle"), "cloak": ("travel", "terrain"), "rope": ("travel", "terrain"),
    "boat": ("travel", "terrain"), "horse": ("travel", "movement"), "eagle": ("travel", "movement"),
    "flying-beast": ("travel", "movement"), "tom-bombadil": ("character", "movement"), "army": ("army", "army"),
    "gimli": ("character", "reroll"), "ugluk": ("character", "reroll"),
}


def test_every_card_the_seed_names(cards):
    for cid, (ctype, kind) in NAMED_CARDS.items():
        card = cards[cid]
        assert card.attrs.get("type") == ctype, cid
        assert card.attrs["kind"] == kind, cid
        assert card.name["ja"] and card.name["en"], cid
        assert card.text["ja"] and card.text["en"], cid
        assert card.source.startswith("seed 000"), cid
    characters = [c for c in cards.values() if c.attrs["kind"] == "character"]
    assert sorted(c.attrs["side"] for c in characters) == ["black-rider"] * 4 + ["hobbit"] * 4
    assert len(cards) == len(NAMED_CARDS) + 8


def test_counts_the_seed_states_or_implies(cards):
    assert cards["elven-ring"].count == 3          # 選択ルール (7) 「3つとも」
    assert cards["the-ring"].count == 1
    for cid in ("tom-bombadil", "sauron", "gandalf", "galadriel", "balrog"):  # (14) 「前3枚」
        assert cards[cid].count == 1, cid
    unknown = {cid for cid, c in cards.items() if c.count is None}
    assert "army" in unknown and "riddle" in unknown and "character-frodo" in unknown
    assert len(unknown) == len(cards) - 7  # the seven kinds above


def test_total_unknown_but_known_part_fits_the_stated_80(game, cards):
    deck = game.component("play-cards")
    assert deck.total is None  # some counts unknown: no invented total
    known = sum(c.count for c in cards.values() if c.count is not None)
    assert known == 9 and known <= deck.stated_total.value


def test_combat_alignment_and_returns(cards):
    for cid in ("the-ring", "eagle", "flying-beast", "army"):  # パワープレイ (4)
        assert cards[cid].attrs["combat"] == "yes", cid
    assert {cid: cards[cid].attrs["alignment"] for cid in ("gandalf", "galadriel", "sauron", "balrog")} == \
        {"gandalf": "good", "galadriel": "good", "sauron": "evil", "balrog": "evil"}
    assert cards["the-ring"].attrs["returns"] == "yes"  # 戦闘後の捨て札
    assert cards["character-frodo"].attrs["returns"] == "own"
    # far-sight: Elven rings and the Palantír can be refused, wizards and the spy cannot
    assert {cid for cid, c in cards.items() if c.attrs.get("refusable") == "yes"} == {"elven-ring", "palantir"}
    assert {cid for cid, c in cards.items() if c.attrs.get("refusable") == "no"} == \
        {"gandalf", "galadriel", "sauron", "balrog", "spy"}
    assert {cid for cid, c in cards.items() if c.attrs["shelob"] == "cannot-take"} == {"the-ring", "gollum"}


def test_setup_two_cards_each_hand_limit_ten(game):
    setup = game.setup
    assert setup.player_counts == list(range(2, 9))
    assert setup.hand_limit == 10
    deals = [s for s in setup.steps if isinstance(s, DealStep)]
    assert [(d.deal, d.each, d.when) for d in deals] == [
        ("play-cards", 2, None),
        ("play-cards", 1, "variant('team-play') and players % 2 == 1")]  # 選択ルール (1): the larger team
    gives = [s for s in setup.steps if isinstance(s, GiveStep)]
    assert [(g.give, g.each, g.when) for g in gives] == [
        ("character-markers", 1, "not variant('extended-two-player')")]  # (16) places one of each side
    assert {(v.id, tuple(v.player_counts)) for v in setup.variants} == {
        ("team-play", (4, 5, 6, 7, 8)), ("extended-two-player", (2,))}
    ids = {c.id for c in setup.constraints}
    assert {"enough-cards-to-deal", "a-marker-for-every-player", "at-most-four-per-side",
            "the-ring-in-the-deck", "three-elven-rings"} <= ids


def test_discrepancy_80_vs_96_recorded(gaps):
    gap = gaps["card-total-80-vs-96"]
    assert gap.kind == "discrepancy" and gap.component == "play-cards"
    assert "80" in gap.text["en"] and "96" in gap.text["en"]
    split = [int(n) for n in re.findall(r"(\d+) (?:travel|army|character|special)", gap.text["en"])]
    assert split == [25, 18, 28, 25] and sum(split) == 96


def test_gaps_recorded(gaps):
    expected = {
        "card-copies-unstated": "unspecified", "card-list-incomplete": "unspecified",
        "one-ring-single": "assumption", "wizard-and-bombadil-counts": "assumption",
        "wizard-alignment": "assumption", "card-alignment-unstated": "unspecified",
        "combat-points-unstated": "unspecified", "card-types-inferred": "assumption",
        "card-text-from-rules": "assumption", "character-roster-public": "assumption",
        "card-size": "assumption", "counter-sheet-contents": "unspecified", "marker-faces": "assumption",
        "die-sides": "assumption", "edition-components": "discrepancy", "publisher-public": "assumption",
        "character-choice": "unspecified", "english-setup-several-characters": "discrepancy", "markers-start-on-shire": "assumption",
        "team-play-even-teams": "assumption", "extended-two-player-reserve": "assumption",
        "victory-condition-indirect": "unspecified",
        "kayu-village-is-bree": "erratum", "evil-rider-typo": "erratum",
        "bilbo-rule-retranslated": "erratum", "barad-dur-spelling": "erratum",
    }
    assert {gid: gaps[gid].kind for gid in expected} == expected
    for gap in gaps.values():
        assert gap.clause.startswith("seed 000"), gap.id
        assert gap.resolution and gap.resolution["ja"] and gap.resolution["en"], gap.id


def test_gaps_named_in_sources_exist(game, gaps):
    """A source that cites an assumption or gap by id must point at a recorded one."""
    sources = [i.source or "" for c in game.components for i in c.items]
    sources += [s.source or "" for s in game.setup.steps] + [c.source for c in game.setup.constraints]
    cited = {m for s in sources for m in re.findall(r"(?:assumption|gap) ([a-z0-9]+(?:-[a-z0-9]+)+)", s)}
    assert cited, "the card list cites its assumptions"
    assert cited <= set(gaps)
