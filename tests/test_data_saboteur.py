"""saboteur-the-lost-mines (seed 001) as data: the inventory, the dwarf deck, the setup per player count, the gaps."""
from __future__ import annotations

import pytest

from solver import expr
from solver.engine.run import run_setup
from solver.game.loader import load_game
from solver.game.setup import CombineStep, DealStep, PlaceStep, RemoveStep, SetAsideStep, UseStep

GAME = "saboteur-the-lost-mines"
PLAYERS = range(3, 10)


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


@pytest.fixture(scope="module")
def gaps(game):
    return {g.id: g for g in game.meta.gaps}


def active(game, n):
    """The setup steps whose `when` holds at `n` players."""
    return [s for s in game.setup.steps if s.when is None or expr.evaluate(s.when, {"players": n})]


def test_metadata(game):
    m = game.meta
    assert m.title == {"ja": "お邪魔者:失われた鉱山", "en": "Saboteur: The Lost Mines", "fr": "Saboteur : Les Mines perdues"}
    assert (m.players.min, m.players.max) == (3, 9)
    assert (m.play_time_minutes.min, m.play_time_minutes.max) == (30, 60)
    assert m.year == 2018 and m.age_min == 10


def test_ten_dwarf_cards_in_one_deck(game):
    deck = game.component("dwarf-cards")
    assert deck.kind == "deck"
    expected = {f"dwarf-{clan}-{role}": n for clan in ("blue", "yellow")
                for role, n in (("loyal", 3), ("selfish", 1), ("saboteur", 1))}
    assert {i.id: i.count for i in deck.items} == expected
    for item in deck.items:
        _, clan, role = item.id.split("-")
        assert item.attrs == {"clan": clan, "role": role}
        assert item.back is not None and item.back.attrs["clan"] == clan
    assert deck.total == deck.stated_total.value == 10
    other_decks = [c.id for c in game.components if c.id != "dwarf-cards"
                   and any(i.attrs.get("role") for i in c.items)]
    assert other_decks == []


def test_mines_and_start_cards(game):
    mines = game.component("mine-cards")
    assert {i.attrs["mine"]: i.count for i in mines.items} == {"gems": 1, "gold": 1, "silver": 1, "dragon": 1}
    assert mines.total == mines.stated_total.value == 4
    start = game.component("start-cards")
    assert sorted(i.attrs["clan"] for i in start.items) == ["blue", "yellow"]
    assert start.total == start.stated_total.value == 2


def test_every_path_and_action_kind_the_text_names(game):
    path = game.component("path-cards")
    action = game.component("action-cards")
    assert {i.id for i in path.items if i.attrs["special"] != "none"} == {
        "obstacle-fallen-tree", "obstacle-pond", "obstacle-hole", "rock", "camp"}
    # plain paths are one kind per tunnel shape (gap path-card-shapes-assumed), each with an open edge
    plain = [i for i in path.items if i.attrs["special"] == "none"]
    assert len(plain) == 9 and all(any(i.attrs.get(f"open-{e}") for e in "nesw") for i in plain)
    assert {i.attrs["obstacle"] for i in path.items if i.attrs.get("special") == "obstacle"} == \
        {"fallen-tree", "pond", "hole"}
    assert {i.id for i in action.items} == {"tool-fallen-tree", "tool-pond", "tool-hole", "information",
                                            "trap", "troll", "storm"}
    # one tool per obstacle
    assert sorted(i.attrs["obstacle"] for i in action.items if i.attrs.get("action") == "tool") == \
        ["fallen-tree", "hole", "pond"]
    # per-kind counts are unknown; the totals are public facts, not the seed's
    assert all(i.count is None for i in path.items + action.items)
    assert path.total is None and action.total is None
    assert path.stated_total.value == 40 and "public" in path.stated_total.source
    assert action.stated_total.value == 23 and "public" in action.stated_total.source
    for item in [i for i in path.items if i.attrs["special"] != "none"] + action.items:  # plain paths: the shape says it
        assert item.text and item.text.get("ja") and item.text.get("en"), item.id


def test_tokens_chips_pieces_and_tiles(game):
    forest = game.component("forest-tokens")
    assert {i.attrs["type"] for i in forest.items} == {"tool", "trap", "troll"}
    assert {i.attrs.get("obstacle") for i in forest.items if i.attrs["type"] == "tool"} == \
        {"fallen-tree", "pond", "hole"}
    assert game.component("dragon-token").total == 1
    assert game.component("point-chips").total is None
    for cid in ("dwarf-pieces", "dwarf-tiles"):
        comp = game.component(cid)
        assert sorted(i.attrs["clan"] for i in comp.items) == ["blue", "yellow"]
        assert all(i.count is None for i in comp.items)
    treasure = game.component("treasure-cards")
    assert {i.attrs["mine"] for i in treasure.items} == {"gems", "gold", "silver"}


def test_unknown_counts_all_have_an_unspecified_gap(game, gaps):
    unspecified = {g.component for g in gaps.values() if g.kind == "unspecified"}
    unknown = {c.id for c in game.components if c.total is None}
    assert unknown == {"treasure-cards", "path-cards", "action-cards", "forest-tokens", "point-chips",
                       "dwarf-pieces", "dwarf-tiles"}
    assert unknown <= unspecified


@pytest.mark.parametrize("n", PLAYERS)
def test_dwarf_cards_prepared_per_player_count(game, n):
    steps = active(game, n)
    uses = [s for s in steps if isinstance(s, UseStep) and s.use == "dwarf-cards"]
    assert len(uses) == 1, "exactly one rule prepares the dwarf cards at every count"
    removed = [s.remove for s in steps if isinstance(s, RemoveStep) and s.remove.component == "dwarf-cards"]
    per_loyal = sum(expr.evaluate(r.each, {"players": n}) for r in removed if r.where == {"role": "loyal"})
    assert all(r.where == {"role": "loyal"} for r in removed)
    assert per_loyal == {3: 2, 4: 2, 5: 1, 6: 1}.get(n, 0)
    deals = [s for s in steps if isinstance(s, DealStep) and s.deal == "dwarf-cards"]
    assert len(deals) == 1 and deals[0].each == 1 and deals[0].hand is False


def test_eight_and_nine_players_rest_on_the_recorded_assumption(game, gaps):
    seven_up = [s for s in game.setup.steps if isinstance(s, UseStep) and s.use == "dwarf-cards"
                and s.when == "players >= 7"]
    assert len(seven_up) == 1 and "dwarf-cards-seven-or-more" in seven_up[0].source
    unspecified = gaps["dwarf-cards-8-9-players-unspecified"]
    assert unspecified.kind == "unspecified" and unspecified.player_counts == [8, 9]
    assumption = gaps["dwarf-cards-seven-or-more"]
    assert assumption.kind == "assumption" and "English rulebook" in assumption.source
    assert {8, 9} <= set(assumption.player_counts)


@pytest.mark.parametrize("n", PLAYERS)
def test_engine_deals_the_dwarf_cards(game, n):
    result = run_setup(game, n)
    prepared = {3: 6, 4: 6, 5: 8, 6: 8}.get(n, 10)
    # every prepared card is dealt but one per player; the rest go back to the box unseen
    assert result.dealt["dwarf-cards"] == n
    assert result.in_play["dwarf-cards"] == n
    assert result.returned_to_box.get("dwarf-cards", 0) == 10 - n
    assert sum(d.count for d in result.draws if d.pile == "dwarf-cards") == n
    assert sum(sum(d.pool.values()) for d in result.draws if d.pile == "dwarf-cards") == prepared
    assert result.hand_size == (5 if n <= 6 else 4)


@pytest.mark.parametrize("n", PLAYERS)
def test_deck_treasures_and_hands(game, n):
    steps = active(game, n)
    combine = [s for s in steps if isinstance(s, CombineStep)]
    assert len(combine) == 1 and set(combine[0].combine) == {"path-cards", "action-cards"}
    pile = combine[0].into
    set_aside = [s for s in steps if isinstance(s, SetAsideStep)]
    assert [(s.set_aside, s.count) for s in set_aside] == [(pile, 10)]
    hands = [s for s in steps if isinstance(s, DealStep) and s.deal == pile]
    assert len(hands) == 1 and hands[0].hand and hands[0].each == (5 if n <= 6 else 4)
    treasures = [s for s in steps if isinstance(s, PlaceStep) and s.place == "treasure-cards"]
    assert len(treasures) == 1 and expr.evaluate(treasures[0].count, {"players": n}) == n


def test_constraints_the_rules_state(game):
    cons = {c.id: c for c in game.setup.constraints}
    assert cons["dwarf-card-per-player"].kind == "at_least" and cons["dwarf-card-per-player"].value == "players"
    assert (cons["clan-at-most-five"].kind, cons["clan-at-most-five"].per, cons["clan-at-most-five"].value) == \
        ("at_most", "clan", 5)
    for cid, role, cap in (("clan-at-most-three-loyal", "loyal", 3), ("clan-at-most-one-selfish", "selfish", 1),
                           ("clan-at-most-one-saboteur", "saboteur", 1)):
        c = cons[cid]
        assert (c.kind, c.per, c.value, c.of.where) == ("at_most", "clan", cap, {"role": role})
    assert cons["treasures-for-every-player"].kind == "at_least"
    assert cons["treasures-for-every-player"].of.component == "treasure-cards"
    for cid, hand, when in (("deck-covers-set-aside-and-hands-5", 5, "players <= 6"),
                            ("deck-covers-set-aside-and-hands-4", 4, "players >= 7")):
        c = cons[cid]
        assert c.when == when and f"10 + {hand} * players" in c.require
    # the dwarf rules hold on the data at every count
    for n in PLAYERS:
        assert run_setup(game, n).in_play["dwarf-cards"] >= n


def test_recorded_gaps(gaps):
    expected = {
        "path-action-totals-public": "assumption", "path-card-kind-counts-unspecified": "unspecified",
        "action-card-kind-counts-unspecified": "unspecified", "treasure-count-unspecified": "unspecified",
        "forest-tokens-count-unspecified": "unspecified", "point-chips-count-unspecified": "unspecified",
        "dwarf-pieces-count-unspecified": "unspecified", "dwarf-tiles-count-unspecified": "unspecified",
        "dragon-token-one": "assumption", "piece-and-tile-by-clan": "assumption",
        "combined-deck-pile": "assumption", "troll-clause-typo": "erratum", "publisher-public": "assumption",
    }
    for gid, kind in expected.items():
        assert gaps[gid].kind == kind, gid
    for gap in gaps.values():
        assert gap.clause.startswith("seed 001"), gap.id
        assert gap.resolution and gap.resolution.get("ja") and gap.resolution.get("en"), gap.id
