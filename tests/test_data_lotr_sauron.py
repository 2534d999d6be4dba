"""lotr-sauron (seed 003) as data: the contents list, the Nazgûl and Sauron cards, the setup and the gaps."""
from __future__ import annotations

import pytest

from solver import expr
from solver.engine.run import run_setup
from solver.game.loader import load_game
from solver.game.setup import CombineStep, DealStep, GiveStep, PlaceStep

GAME = "lotr-sauron"
PLAYERS = range(3, 7)

# seed 003, 内容物: component id -> count as listed (expansion, then the extra set)
CONTENTS = {
    "black-rider-figure": 1, "sauron-character-card": 1, "sauron-cards": 30, "nazgul-cards": 9,
    "gandalf-cards": 2, "fellowship-cards": 5, "resource-cards": 6, "resource-chips": 12,
    "sauron-event-tiles": 4, "rulebook": 1, "bag": 1,
    "dark-event-tiles": 23, "extra-cards": 2,
}


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


@pytest.fixture(scope="module")
def gaps(game):
    return {g.id: g for g in game.meta.gaps}


def stated_or_total(comp):
    return comp.stated_total.value if comp.stated_total else comp.total


def test_metadata_names_the_base_game(game):
    m = game.meta
    assert (m.players.min, m.players.max) == (3, 6)
    assert (m.play_time_minutes.min, m.play_time_minutes.max) == (90, 120)
    assert "Knizia" in m.notes["en"] and "expansion" in m.notes["en"]
    assert "基本ゲーム" in m.notes["ja"]
    assert any(d["en"] == "Reiner Knizia" and d["ja"] == "ライナー・クニツィア" for d in m.designer)


def test_contents_list_with_its_counts(game):
    in_box = {c.id: c for c in game.components if c.group != "base-game"}
    assert set(in_box) == set(CONTENTS)
    for cid, n in CONTENTS.items():
        assert stated_or_total(in_box[cid]) == n, cid
    assert sum(CONTENTS.values()) == 97
    assert sum(stated_or_total(c) for c in in_box.values()) == 97


def test_stated_totals_against_item_sums(game, gaps):
    gap_components = {g.component for g in gaps.values()}
    for comp in game.components:
        if comp.stated_total is None:
            continue
        if comp.total is None:
            assert comp.id in gap_components, comp.id
        else:
            assert comp.total == comp.stated_total.value, comp.id
    # the three components whose split the seed does not give
    assert {c.id for c in game.components if c.total is None} == \
        {"resource-chips", "sauron-event-tiles", "dark-event-tiles"}


def test_nine_nazgul_cards(game):
    deck = game.component("nazgul-cards")
    names = {i.id: (i.name["ja"], i.name["en"]) for i in deck.items}
    assert names == {
        "nazgul-tempt": ("誘惑", "Tempt"), "nazgul-bewitch": ("魅了", "Bewitch"),
        "nazgul-paralyse": ("麻痺", "Paralyse"), "nazgul-strike": ("襲撃", "Strike"),
        "nazgul-assault": ("強襲", "Assault"), "nazgul-ambush": ("奇襲", "Ambush"),
        "nazgul-mobilise": ("結集", "Mobilise"), "nazgul-terrify": ("恐怖", "Terrify"),
        "nazgul-charge": ("突撃", "Charge"),
    }
    assert all(i.count == 1 and i.text["ja"] and i.text["en"] for i in deck.items)
    assert deck.total == deck.stated_total.value == 9
    by_id = {i.id: i for i in deck.items}
    assert "5戦闘シンボル" in by_id["nazgul-assault"].text["ja"]
    assert "6マス" in by_id["nazgul-charge"].text["ja"]
    assert by_id["nazgul-assault"].attrs["symbol"] == "black-circle"
    assert [i.id for i in deck.items if i.attrs.get("symbol")] == ["nazgul-assault"]


def test_sauron_card_symbols(game):
    comp = game.component("sauron-cards")
    symbols = comp.attrs["symbols"]
    assert symbols == ["black-horse", "eye-of-sauron", "black-circle", "white-square", "green-circle",
                       "ring", "shield", "die"]
    for s in symbols:
        effect = comp.attrs[f"symbol-{s}"]
        assert effect["ja"] and effect["en"], s
    assert comp.total == 30


def test_fellowship_gandalf_resource_and_extra_cards(game):
    assert sorted(i.attrs["hobbit"] for i in game.component("fellowship-cards").items) == \
        ["bolger", "frodo", "merry", "pippin", "sam"]
    assert {i.id for i in game.component("gandalf-cards").items} == {"gandalf-protection", "gandalf-foresight-bag"}
    assert {i.name["en"] for i in game.component("resource-cards").items} == \
        {"Narya", "Nenya", "Vilya", "Star of Elendil", "Gwaihir the Windlord", "The Red Arrow"}
    assert {i.id for i in game.component("extra-cards").items} == {"the-one-ring", "watchful-peace"}
    for cid in ("fellowship-cards", "gandalf-cards", "resource-cards", "extra-cards"):
        for item in game.component(cid).items:
            assert item.text["ja"] and item.text["en"], item.id


def test_event_tiles(game):
    assert game.component("sauron-event-tiles").stated_total.value == 4
    assert len(game.component("sauron-event-tiles").items) == 2
    dark = game.component("dark-event-tiles")
    assert dark.stated_total.value == 23 and dark.group == "extra-set"
    assert all(i.count is None for i in dark.items)


def test_base_game_parts_are_marked_not_in_box(game):
    base = [c for c in game.components if c.group == "base-game"]
    assert {c.id for c in base} == {"hobbit-character-cards", "base-gandalf-foresight", "base-event-tiles"}
    assert all(c.attrs["in-box"] is False for c in base)
    assert game.component("base-event-tiles").total == 23


@pytest.mark.parametrize("n", PLAYERS)
def test_setup_per_player_count(game, n):
    steps = [s for s in game.setup.steps if s.when is None or expr.evaluate(s.when, {"players": n})]
    placed = {s.place: (expr.evaluate(s.count, {"players": n}) if s.count is not None else None)
              for s in steps if isinstance(s, PlaceStep)}
    assert placed["resource-chips"] == 4
    # the Sauron player gets one character card, the others one hobbit and their Fellowship card each
    sides = {side.id: expr.evaluate(side.players, {"players": n}) for side in game.setup.sides}
    assert sides == {"sauron": 1, "hobbits": n - 1}
    given = {s.give: (sides[s.to] if s.to else expr.evaluate(s.recipients, {"players": n})) * expr.evaluate(s.each, {"players": n})
             for s in steps if isinstance(s, GiveStep)}
    assert given == {"sauron-character-card": 1, "hobbit-character-cards": n - 1, "fellowship-cards": n - 1}
    # which hobbit's Fellowship card each takes is their choice (the checker proves one exists)
    assert [s.chosen_by for s in steps if isinstance(s, GiveStep) and s.give == "fellowship-cards"] == ["hobbits"]
    # only the Sauron player is dealt: two Sauron cards as a hand, two Nazgul cards face up
    dealt = {s.deal: (sides[s.to] if s.to else expr.evaluate(s.recipients, {"players": n}), s.each, s.hand)
             for s in steps if isinstance(s, DealStep)}
    assert {s.to for s in steps if isinstance(s, DealStep)} == {"sauron"}
    assert dealt == {"sauron-cards": (1, 2, True), "nazgul-cards": (1, 2, False)}
    bag = [s for s in steps if isinstance(s, CombineStep)]
    assert len(bag) == 1 and set(bag[0].combine) == {"base-event-tiles", "sauron-event-tiles"}
    result = run_setup(game, n)
    assert result.placed["sauron-character-card"] == 1
    assert result.placed["hobbit-character-cards"] == n - 1
    assert result.placed["fellowship-cards"] == n - 1
    assert result.returned_to_box["fellowship-cards"] == 5 - (n - 1)
    assert result.dealt == {"sauron-cards": 2, "nazgul-cards": 2}
    assert result.hand_size == 0 and result.draw_pile == 30 - 2  # the Sauron deck; no hand for everyone
    assert result.returned_to_box["extra-cards"] == 2
    assert result.returned_to_box["base-gandalf-foresight"] == 1


def test_constraints(game):
    cons = {c.id for c in game.setup.constraints}
    assert {"one-sauron-player", "hobbit-per-other-player", "fellowship-card-per-hobbit", "sauron-hand-refill",
            "resource-chips-last-three-scenarios", "bag-holds-base-and-sauron-events"} <= cons


def test_recorded_gaps(gaps):
    expected = {
        "sauron-card-faces-unspecified": "unspecified", "discard-symbol-lost": "assumption",
        "nazgul-symbols-unspecified": "unspecified", "resource-chip-kinds-unspecified": "unspecified",
        "sauron-event-kinds-unspecified": "unspecified", "dark-event-kinds-unspecified": "unspecified",
        "gandalf-integrity-not-in-box": "assumption", "base-game-components-in-setup": "assumption",
        "hobbit-character-count-public": "assumption", "sauron-only-deal": "assumption",
        "fellowship-cards-non-sauron": "assumption", "resource-chip-spaces-wording": "discrepancy",
        "designer-public": "assumption", "year-age-unspecified": "unspecified",
    }
    for gid, kind in expected.items():
        assert gaps[gid].kind == kind, gid
    for gap in gaps.values():
        assert gap.clause.startswith("seed 003"), gap.id
        assert gap.resolution and gap.resolution.get("ja") and gap.resolution.get("en"), gap.id
