"""The engine's counting (solver/engine/runner.py) where a stated total leaves copies nobody names, on
small original games written here; every figure is worked by hand below each game.

The harbour (2 players): 6 dice of which 2 are used; a spare deck of 4 that a step only shuffles;
3 crates no step mentions. Only the crates are untouched; all 4 + 4 + 3 left in the box go back.

The greens: a deck of 10 stated, 2 green cards `a`, an uncounted green kind `g` and an uncounted red
kind `b`, so 8 cards nobody names. The green cards are combined into a pile and dealt.
  - each 2 at 2 players: the pile holds the 2 a; the 4 dealt take 2 more from the 8 unnamed, whose
    other 6 go back to the box; the deck is still 10 and nothing is assumed;
  - each 6: 12 dealt, 2 + 8 unnamed are not enough: 2 more assumed (the deck must hold 12);
  - proposed.yaml gives g 3: they come out of the 8 unnamed into the pile (5 cards), 4 are dealt,
    1 is left to draw, and 5 unnamed go back to the box;
  - a removal of 2 g per player count takes them from the unnamed copies: nothing assumed, 10 back
    in the box; a removal of 9 g takes the 8 and assumes 1 (11 in all).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamefiles import write_game
from solver.engine.run import run_setup
from solver.errors import DataError
from solver.game.loader import load_game

GAME = "id: {id}\ntitle: {{en: {id}}}\nplayers: {{min: 2, max: 3}}\nsource_language: en\nlanguages: [en]\n"
HARBOUR = """\
components:
  - {id: dice, kind: dice, name: {en: Dice}, count: 6}
  - {id: crates, kind: tokens, name: {en: Crates}, count: 3}
  - id: spare
    kind: deck
    name: {en: Spare}
    size: poker
    items:
      - {id: s, name: {en: S}, count: 4}
"""
GREENS = """\
components:
  - id: deck
    kind: deck
    name: {en: Deck}
    size: poker
    stated_total: {value: 10, source: "rules 1"}
    items:
      - {id: a, name: {en: A}, count: 2, attrs: {colour: green}}
      - {id: g, name: {en: G}, count: null, attrs: {colour: green}}
      - {id: b, name: {en: B}, count: null, attrs: {colour: red}}
"""
DEAL_GREENS = "steps:\n  - combine: [deck]\n    where: {{colour: green}}\n    into: greens\n  - shuffle: greens\n" \
              "  - deal: greens\n    each: {each}\n"


def write(tmp_path: Path, gid: str, components: str, setup: str, proposed: str | None = None):
    files = {"game.yaml": GAME.format(id=gid), "components.yaml": components, "setup.yaml": setup}
    return load_game(write_game(tmp_path / gid, files | ({"proposed.yaml": proposed} if proposed is not None else {})))


def test_only_what_no_step_mentions_is_untouched(tmp_path):
    game = write(tmp_path, "harbour", HARBOUR, "steps:\n  - use: dice\n    count: 2\n  - shuffle: spare\n")
    result = run_setup(game, 2)
    assert result.untouched == {"crates": 3}
    assert result.report()["in_play"] == {"dice": 2}
    assert result.report()["returned_to_box"] == {"crates": 3, "dice": 4, "spare": 4}


def test_a_count_written_as_a_condition_is_a_number_of_copies(tmp_path):
    """`count: players >= 2` is 1 copy at 2 players; there are no crates: the report says it needs 1."""
    game = write(tmp_path, "harbour", HARBOUR.replace("name: {en: Crates}, count: 3", "name: {en: Crates}, count: 0"),
                 "steps:\n  - place: crates\n    count: players >= 2\n")
    report = run_setup(game, 2).report()
    assert json.dumps(report) == '{"cannot_set_up": [{"step": 0, "needs": 1, "has": 0}]}'


def test_a_deal_takes_the_copies_a_stated_total_leaves_unnamed(tmp_path):
    result = run_setup(write(tmp_path, "greens", GREENS, DEAL_GREENS.format(each=2)), 2)
    assert (result.owned, result.assumed) == ({"deck": 10}, {})
    row = result.report()
    assert (row["dealt"], row["in_play"], row["returned_to_box"]) == ({"greens": 4}, {"greens": 4}, {"deck": 6})


def test_a_deal_beyond_the_unnamed_copies_assumes_the_rest(tmp_path):
    result = run_setup(write(tmp_path, "greens", GREENS, DEAL_GREENS.format(each=6)), 2)
    assert (result.owned, result.assumed) == ({"deck": 12}, {"deck": 2})
    row = result.report()
    assert (row["dealt"], row["returned_to_box"]) == ({"greens": 12}, {})


def test_a_proposed_count_picked_out_of_a_stated_total_joins_the_pile(tmp_path):
    proposed = "objective: by hand\nproposals:\n  - {component: deck, item: g, count: 3}\n"
    result = run_setup(write(tmp_path, "greens", GREENS, DEAL_GREENS.format(each=2), proposed), 2)
    assert result.draws[0].pool == {("deck", "a"): 2, ("deck", "g"): 3}
    assert (result.owned, result.assumed) == ({"deck": 10}, {})
    row = result.report()
    assert (row["dealt"], row["draw_pile"], row["returned_to_box"]) == ({"greens": 4}, 1, {"deck": 5})
    # without the proposal g stays uncounted: the pile is the 2 a (as in the deal above)
    assert run_setup(write(tmp_path, "bare", GREENS,
                           DEAL_GREENS.format(each=2)), 2).draws[0].pool == {("deck", "a"): 2}


def test_a_removal_of_an_uncounted_kind_takes_the_unnamed_copies_first(tmp_path):
    two = run_setup(write(tmp_path, "two", GREENS, "steps:\n  - remove: {component: deck, items: [g], each: 2}\n"), 2)
    assert (two.owned, two.assumed, two.report()["returned_to_box"]) == ({"deck": 10}, {}, {"deck": 10})
    nine = run_setup(write(tmp_path, "nine", GREENS, "steps:\n  - remove: {component: deck, items: [g], each: 9}\n"), 2)
    assert (nine.owned, nine.assumed, nine.report()["returned_to_box"]) == ({"deck": 11}, {"deck": 1}, {"deck": 11})


# ---------------------------------------------------------------- touched, returned, free amounts
def test_a_component_only_removed_from_or_placed_from_is_touched(tmp_path):
    """1 crate returned to the box and 2 spare cards placed: the 2 crates and 2 cards left are not
    untouched; the 6 dice no step names are."""
    game = write(tmp_path, "harbour", HARBOUR, "steps:\n  - remove: {component: crates, each: 1}\n"
                 "  - place: spare\n    items: [s]\n    count: 2\n")
    result = run_setup(game, 2)
    assert result.untouched == {"dice": 6}
    assert result.report()["placed"] == {"spare": 2}


def test_return_rest_moves_the_copies_left_in_the_box(tmp_path):
    result = run_setup(write(tmp_path, "harbour", HARBOUR, "steps:\n  - use: dice\n    count: 2\n"
                             "  - return_rest: dice\n"), 2)
    assert result.items[("dice", "dice")]["returned"] == 4 and result.items[("dice", "dice")]["box"] == 0
    assert [m.step for m in result.moves] == [0, 1]


FREE_SETUP = "steps:\n  - use: deck\n  - remove: {component: deck, where: {colour: red}, each: free}\n"
FREE_DECK = """\
components:
  - id: deck
    kind: deck
    name: {en: Deck}
    size: poker
    items:
      - {id: a, name: {en: A}, count: 5, attrs: {colour: green}}
      - {id: r, name: {en: R}, count: 4, attrs: {colour: red}}
"""


def test_a_free_removal_takes_what_designed_yaml_holds_for_the_count_else_none(tmp_path):
    """designed.yaml: 3 red cards out at 2 players, nothing said for 3: 9 - 3 = 6 in play at 2, 9 at 3."""
    game = write(tmp_path, "free", FREE_DECK, FREE_SETUP)
    assert run_setup(game, 2).report()["in_play"] == {"deck": 9}
    (game.folder / "designed.yaml").write_text(
        "objective: by hand\namounts:\n  - {step: 1, players: 2, each: 3}\n", encoding="utf-8")
    designed = load_game(game.folder)
    assert run_setup(designed, 2).report()["in_play"] == {"deck": 6}
    assert run_setup(designed, 2).report()["returned_to_box"] == {"deck": 3}
    assert run_setup(designed, 3).report()["in_play"] == {"deck": 9}


# ---------------------------------------------------------------- give, and matched gives
ROLES = """\
components:
  - id: roles
    kind: deck
    name: {en: Roles}
    size: poker
    items:
      - {id: smith, name: {en: Smith}, count: 3, attrs: {guild: iron}}
      - {id: weaver, name: {en: Weaver}, count: 3, attrs: {guild: cloth}}
  - id: tokens
    kind: tokens
    name: {en: Tokens}
    items:
      - {id: iron, name: {en: Iron}, count: 3, attrs: {guild: iron}}
      - {id: cloth, name: {en: Cloth}, count: 3, attrs: {guild: cloth}}
  - {id: coins, kind: tokens, name: {en: Coins}, count: 20}
"""
DEAL_ROLES = "steps:\n  - use: roles\n  - shuffle: roles\n  - deal: roles\n    each: {each}\n    hand: false\n"


def test_give_hands_each_player_each_copies(tmp_path):
    """2 coins to each of 3 players: 6 placed before the players, 14 back in the box."""
    game = write(tmp_path, "coins", ROLES, "steps:\n  - give: coins\n    each: 2\n")
    row = run_setup(game, 3).report()
    assert row["placed"] == {"coins": 6} and row["returned_to_box"]["coins"] == 14
    assert row["placements"] == [{"component": "coins", "count": 6, "on": "players"}]


def test_a_matched_give_places_one_token_per_card_dealt(tmp_path):
    """One role each at 3 players: 3 guild tokens placed before the players, whichever roles are dealt."""
    game = write(tmp_path, "guilds", ROLES, DEAL_ROLES.format(each=1) + "  - give: tokens\n    match: {guild: roles}\n")
    row = run_setup(game, 3).report()
    assert row["placed"] == {"tokens": 3}
    assert row["placements"] == [{"component": "tokens", "count": 3, "on": "players"}]


def test_a_match_after_a_deal_of_no_cards_gives_nothing(tmp_path):
    """`each: players - 2` deals nothing at 2 players: the matched give has nothing to give, no error."""
    game = write(tmp_path, "guilds", ROLES, DEAL_ROLES.format(each="players - 2")
                 + "  - give: tokens\n    match: {guild: roles}\n")
    assert run_setup(game, 2).report()["placed"] == {}
    assert run_setup(game, 3).report()["placed"] == {"tokens": 3}


@pytest.mark.parametrize("steps, says", [
    ("steps:\n  - give: tokens\n    match: {guild: roles}\n  - use: roles\n", "nothing is dealt from roles"),
    (DEAL_ROLES.format(each=1) + "  - give: coins\n    match: {guild: roles}\n", "'guild' is not an attribute"),
])
def test_a_match_that_cannot_be_made_is_a_located_error(tmp_path, steps, says):
    game = write(tmp_path, "guilds", ROLES, steps)
    with pytest.raises(DataError) as e:
        run_setup(game, 2)
    match_line = steps.splitlines().index("    match: {guild: roles}") + 1
    assert f"setup.yaml:{match_line}:" in str(e.value) and says in str(e.value)


@pytest.mark.parametrize("count", ["\"'three'\"", "\"[1, 2]\""])
def test_a_count_that_is_no_number_is_a_located_error(tmp_path, count):
    """Text or a list where copies are counted: one located line (it was a traceback)."""
    setup = f"steps:\n  - use: dice\n    count: 2\n  - place: crates\n    count: {count}\n"
    game = write(tmp_path, "harbour", HARBOUR, setup)
    with pytest.raises(DataError) as e:
        run_setup(game, 2)
    line = setup.splitlines().index(f"    count: {count}") + 1
    assert f"setup.yaml:{line}:" in str(e.value) and "not a whole number" in str(e.value)


def test_a_matched_place_puts_one_piece_per_card_dealt(tmp_path):
    game = write(tmp_path, "guilds", ROLES, DEAL_ROLES.format(each=1) + "  - place: tokens\n    match: {guild: roles}\n")
    row = run_setup(game, 2).report()
    assert row["placed"] == {"tokens": 2}
    assert row["placements"] == [{"component": "tokens", "count": 2, "on": "table"}]


def test_a_deal_beyond_a_pile_with_no_stated_total_assumes_the_uncounted_kind(tmp_path):
    """No stated total: the 2 a make the pile, the 4 dealt at 2 players need 2 uncounted g."""
    result = run_setup(write(tmp_path, "greens", GREENS.replace('    stated_total: {value: 10, source: "rules 1"}\n', ""),
                             DEAL_GREENS.format(each=2)), 2)
    assert (result.owned, result.assumed) == ({"deck": 4}, {"deck": 2})


def test_a_proposal_file_without_the_kind_leaves_it_uncounted(tmp_path):
    proposed = "objective: by hand\nproposals:\n  - {component: deck, item: b, count: 2}\n"
    result = run_setup(write(tmp_path, "greens", GREENS, DEAL_GREENS.format(each=2), proposed), 2)
    assert result.draws[0].pool == {("deck", "a"): 2}


SIDES = "sides:\n  - {id: lead, name: {en: the lead}, players: players - 2}\n"


@pytest.mark.parametrize("steps, placed, dealt", [
    ("steps:\n  - give: coins\n    recipients: players - 2\n", {}, {}),
    (SIDES + "steps:\n  - give: coins\n    to: lead\n", {}, {}),
    (SIDES + DEAL_ROLES.format(each=1).replace("hand: false", "hand: false\n    to: lead"), {}, {}),
])
def test_no_one_may_receive(tmp_path, steps, placed, dealt):
    """`players - 2` at 2 players: nobody receives, which is no error (at 3 players one does)."""
    game = write(tmp_path, "nobody", ROLES, steps)
    row = run_setup(game, 2).report()
    assert (row["placed"], row["dealt"]) == (placed, dealt)
    row = run_setup(game, 3).report()
    assert sum(row["placed"].values()) + sum(row["dealt"].values()) == 1


def test_more_recipients_than_players_is_a_located_error(tmp_path):
    steps = "steps:\n  - give: coins\n    recipients: players + 1\n"
    with pytest.raises(DataError) as e:
        run_setup(write(tmp_path, "many", ROLES, steps), 2)
    assert "setup.yaml:3:" in str(e.value) and "recipients: players + 1 is 3 at 2 players" in str(e.value)


def test_a_combine_whose_selector_matches_nothing_is_a_located_error(tmp_path):
    steps = "steps:\n  - combine: [deck]\n    where: {colour: blue}\n    into: blues\n"
    with pytest.raises(DataError) as e:
        run_setup(write(tmp_path, "blues", GREENS, steps), 2)
    assert "setup.yaml:3:" in str(e.value) and "no item of deck matches" in str(e.value)


def test_a_matched_give_of_two_per_card(tmp_path):
    """One role each at 2 players, 2 tokens for each card: 4 placed."""
    game = write(tmp_path, "guilds", ROLES, DEAL_ROLES.format(each=1)
                 + "  - give: tokens\n    match: {guild: roles}\n    each: 2\n")
    assert run_setup(game, 2).report()["placed"] == {"tokens": 4}


def test_supply_and_two_placements_from_one_component(tmp_path):
    """Coins: 2 placed on the table, then 3 more, then the other 15 made the supply."""
    steps = ("steps:\n  - place: coins\n    count: 2\n  - place: coins\n    count: 3\n"
             "  - supply: coins\n")
    row = run_setup(write(tmp_path, "bank", ROLES, steps), 2).report()
    assert [p["count"] for p in row["placements"]] == [2, 3]
    assert (row["placed"], row["supply"]) == ({"coins": 5}, {"coins": 15})


# ---------------------------------------------------------------------- return_rest after a deal
SPLIT_DECK = """\
components:
  - id: deck
    kind: deck
    name: {{en: Deck}}
    size: poker
    items:
      - {{id: saboteur, name: {{en: S}}, count: {s}, attrs: {{role: saboteur}}}}
      - {{id: miner, name: {{en: M}}, count: {m}, attrs: {{role: miner}}}}
"""
REST_RETURNED = ("steps:\n  - use: deck\n  - remove: {component: deck, where: {role: miner}, each: free}\n  - shuffle: deck\n"
            "  - deal: deck\n    each: 1\n    hand: false\n  - return_rest: deck\n")


@pytest.mark.parametrize("s,m,players,rest", [(3, 7, 2, 8), (3, 7, 3, 7), (1, 1, 2, None), ("null", "null", 2, 0),
                                              ("null", 4, 3, 1), ("null", 2, 3, 0)])
def test_the_rest_of_a_dealt_pile_goes_back_as_one_draw_marked_rest(tmp_path, s, m, players, rest):
    """3 saboteurs and 7 miners, one card each: the rest (10 - players) goes back as one draw of the
    pile marked `rest` (every copy left, whatever the counts: the checker's model varies them); a
    deal that takes every card leaves none to send back; with uncounted kinds the engine may count
    none left (it assumed only what the deal took: 2 miners, 3 dealt) but still sends the rest back."""
    result = run_setup(write(tmp_path, "roles", SPLIT_DECK.format(s=s, m=m), REST_RETURNED), players)
    back = [mv for mv in result.moves if mv.step == 4 and mv.src == ("pile",)]
    if rest is None:
        assert back == []
        return
    [mv] = back
    assert (mv.dst, mv.total, mv.rest, mv.pile) == ("returned", rest, True, "deck")
    assert {("deck", "saboteur"), ("deck", "miner")} <= set(mv.items)  # and the copies assumed for the deal
    assert not any(other.rest for other in result.moves if other is not mv)


def test_a_pile_nobody_drew_from_has_no_rest_draw(tmp_path):
    setup = "steps:\n  - use: deck\n  - return_rest: deck\n"
    result = run_setup(write(tmp_path, "undrawn", SPLIT_DECK.format(s="null", m=4), setup), 2)
    assert [(mv.src, mv.rest) for mv in result.moves if mv.step == 1] == [(("box",), False)]
