"""The setup's flow model (solver/proof/feasibility.py) and the compiling of its rules
(solver/proof/constraints.py) on a tiny hand-made game: stated totals, combined piles, counts read
from a CSV file, rules switched on by `when:`, a choice as the only chance, and bad rules as located
data errors. Every expectation is worked out by hand from the data below.

The box: cards from cards.csv (red-1 ×2, red-2 ×1, blue-1 ×3); a bag whose gold and silver counts
are not given but whose total is (5, with the one iron); heroes knight and archer, one each. The red
cards and the grey tokens (silver, iron) are combined into `mixed`, shuffled, one dealt to each
player; one hero is chosen and placed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from solver.engine.run import run_setup
from solver.errors import DataError
from solver.game.loader import load_game
from solver.proof.checker import prove_player_count

COMPONENTS = """\
components:
  - id: cards
    kind: deck
    name: {en: Cards}
    items_file: cards.csv
  - id: bag
    kind: tokens
    name: {en: Bag}
    stated_total: {value: 5, source: "rules 1"}
    items:
      - {id: gold, count: null, attrs: {colour: yellow}}
      - {id: silver, count: null, attrs: {colour: grey}}
      - {id: iron, count: 1, attrs: {colour: grey}}
  - id: heroes
    kind: counters
    name: {en: Heroes}
    items:
      - {id: knight}
      - {id: archer}
  - id: dice
    kind: dice
    name: {en: Dice}
    count: 2
"""
CSV = "id,count,colour\nred-1,2,red\nred-2,1,red\nblue-1,3,blue\n"
SIDES_AND_STEPS = """\
sides:
  - {id: first, name: {en: the first player}}
steps:
  - combine: [cards, bag]
    into: mixed
    where: {colour: [red, grey]}
  - shuffle: mixed
  - deal: mixed
    each: 1
    hand: false
  - place: heroes
    count: 1
    chosen_by: first
constraints:
"""


def game_with(tmp_path: Path, rules: str):
    folder = tmp_path / "feas"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text("id: feas\ntitle: {en: Feas}\nplayers: {min: 2, max: 3}\n"
                                      "source_language: en\n", encoding="utf-8")
    (folder / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    (folder / "cards.csv").write_text(CSV, encoding="utf-8")
    (folder / "setup.yaml").write_text(SIDES_AND_STEPS + rules, encoding="utf-8")
    return load_game(folder)


def verdict(tmp_path: Path, rules: str, players: int = 2):
    game = game_with(tmp_path, rules)
    return prove_player_count(game, run_setup(game, players))


def line_in(text: str, needle: str) -> int:
    return next(i for i, row in enumerate(text.splitlines(), 1) if needle in row)


def core_of(v) -> list[tuple[str, str, str]]:
    return sorted((a.kind, a.label, a.source.split("feas/")[-1]) for a in v.core)


HOLDS = """\
  - id: one-each
    require: dealt(mixed) == players
  - id: bag-total
    require: owned(bag) == 5
  - id: unknown-share
    require: owned(gold) + owned(silver) == 4
  - id: gold-stays
    require: dealt(gold) == 0 and dealt(blue-1) == 0
  - id: csv-counts
    require: owned(red-1) == 2 and owned(cards) == 6
  - id: not-three
    require: not players == 3
    when: players == 2
  - id: either
    require: players == 2 or dealt(mixed) == 100
  - id: hero-placed
    require: placed(heroes) == 1 and in_play(heroes) == 1 and returned_to_box(heroes) == 1
  - id: doubled
    require: dealt(mixed) * 2 == 2 * players and 3 * dealt(mixed) == players * 3
"""


def test_stated_totals_combined_piles_and_csv_counts_are_proved(tmp_path):
    v = verdict(tmp_path, HOLDS)
    assert v.feasible and v.rules == 9 and v.can_fail == []
    # unknown-share counts gold and silver, whose counts are not given: proved only for the total
    assert v.unproven == []
    # the choice is a valid one: one hero
    [(step, taken)] = v.choices
    assert step == 3 and sum(taken.values()) == 1 and set(taken) <= {("heroes", "knight"), ("heroes", "archer")}
    assert v.totals["in_play"]["heroes"] == 1 and v.totals["returned_to_box"]["heroes"] == 1


def test_a_rule_only_some_choice_breaks_can_fail_with_the_solvers_setup_as_example(tmp_path):
    v = verdict(tmp_path, "  - id: knight-out\n    require: placed(knight) == 1\n")
    assert v.feasible
    [(con, example)] = v.can_fail
    assert con.id == "knight-out" and example == "the solver's setup"  # nothing dealt or set aside to show


def test_a_rule_against_the_stated_total_names_the_total_and_its_line(tmp_path):
    v = verdict(tmp_path, "  - id: six\n    require: owned(bag) == 6\n")
    assert not v.feasible and v.core_confirmed
    assert core_of(v) == [
        ("constraint", "rule 'six' (owned(bag) == 6)", f"setup.yaml:{line_in(SIDES_AND_STEPS, 'constraints:') + 1}"),
        ("inventory", "bag ×5 in all", f"components.yaml:{line_in(COMPONENTS, 'stated_total')}"),
    ]


def test_a_count_from_a_csv_file_is_named_at_its_row(tmp_path):
    v = verdict(tmp_path, "  - id: three-red\n    require: owned(red-1) == 3\n")
    assert not v.feasible
    inventory = [a for a in v.core if a.kind == "inventory"]
    assert [(a.label, a.source.split("feas/")[-1]) for a in inventory] == [
        ("red-1 ×2", f"cards.csv:{line_in(CSV, 'red-1,')}")]


def test_a_rule_is_active_only_where_its_when_holds(tmp_path):
    rules = ("  - id: at-three\n    require: owned(bag) == 99\n    when: players == 3\n"
             "  - id: never\n    require: owned(bag) == 98\n")
    two = verdict(tmp_path, rules, 2)  # the rule after an inactive one still counts
    assert not two.feasible and [a.label for a in two.core if a.kind == "constraint"] == [
        "rule 'never' (owned(bag) == 98)"]
    rules = "  - id: at-three\n    require: owned(bag) == 99\n    when: players == 3\n"
    two = verdict(tmp_path, rules, 2)
    assert two.feasible and two.rules == 0
    three = verdict(tmp_path, rules, 3)
    assert not three.feasible and "rule 'at-three'" in " ".join(a.label for a in three.core)


def test_a_wrong_when_is_a_data_error_at_the_rules_line(tmp_path):
    rules = "  - id: at-three\n    require: owned(bag) == 5\n    when: plyers == 3\n"
    with pytest.raises(DataError) as err:
        verdict(tmp_path, rules)
    line = line_in(SIDES_AND_STEPS + rules, "when: plyers == 3")  # refused as it loads, at its own line
    assert f"setup.yaml:{line}:" in str(err.value) and "unknown name 'plyers'" in str(err.value)


BAD = {  # a rule that cannot be compiled, and a word of what its error says
    "count(nothing) >= 1": "nothing",
    "count(cards, attic) >= 1": "attic",
    "count(cards, dealt, placed) >= 1": "count()",
    "dealt(cards, placed) >= 1": "dealt()",
    "foo(cards) >= 1": "foo()",
    "min(dealt(cards), 1) >= 1": "min()",
    "max() >= 1": "max()",
    "dealt(cards) // 2 >= 1": "//",
    "dealt(cards) % 2 >= 1": "%",
    "1 // 0 >= 0": "zero",
    "'x' >= 1": "'x'",
    "[1] >= 1": "list",
    "dealt(cards) in 3": "`in`",
    "dealt(cards) + 1": "comparison",
    "seats >= 1": "seats",
    "dealt(3) >= 1": "component id",
    "dealt(cards) * (1000000000 * 1000 + 1000000000 * 1000) >= 1": "out of range",
}


@pytest.mark.parametrize("rule", list(BAD))
def test_a_rule_that_cannot_be_compiled_is_a_data_error_at_its_line(tmp_path, rule):
    rules = f"  - id: bad\n    require: \"{rule}\"\n"
    with pytest.raises(DataError) as err:
        verdict(tmp_path, rules)
    text = str(err.value)
    assert f"setup.yaml:{line_in(SIDES_AND_STEPS + rules, '- id: bad')}:0:" in text  # the rule's line
    assert "constraint 'bad'" in text and BAD[rule] in text
    assert "\n" not in text.strip()  # one line


def test_a_number_as_a_rule_holds_when_it_is_not_zero(tmp_path):
    """`require: players` is true at any count; `players - 2` is 0, false, at two players."""
    assert verdict(tmp_path, "  - id: some\n    require: players\n").feasible
    v = verdict(tmp_path, "  - id: none\n    require: players - 2\n")
    assert not v.feasible and [a.label for a in v.core] == ["rule 'none' (players - 2)"]


def test_a_rule_some_unknown_count_breaks_is_unproven_naming_that_count(tmp_path):
    """Silver's count is not given: whether a silver token is dealt depends on it."""
    v = verdict(tmp_path, "  - id: no-silver\n    require: dealt(silver) == 0\n")
    assert v.feasible and v.can_fail == []
    assert [(con.id, keys) for con, keys in v.unproven] == [("no-silver", [("bag", "silver")])]


def test_a_counterexample_names_at_most_eight_cards(tmp_path):
    """Twelve one-copy cards, ten of them marked; five dealt to each of two players. A deal of all
    ten marked cards breaks `at most 9 marked`: the example names the first eight of them."""
    folder = tmp_path / "many"
    folder.mkdir()
    cards = "\n".join(f"      - {{id: k{i}, attrs: {{hi: {'yes' if i <= 10 else 'no'}}}}}" for i in range(1, 13))
    (folder / "game.yaml").write_text("id: many\ntitle: {en: Many}\nplayers: {min: 2, max: 2}\n"
                                      "source_language: en\n", encoding="utf-8")
    (folder / "components.yaml").write_text("components:\n  - id: cards\n    kind: deck\n    name: {en: Cards}\n"
                                            "    items:\n" + cards + "\n", encoding="utf-8")
    (folder / "setup.yaml").write_text(
        "steps:\n  - use: cards\n  - shuffle: cards\n  - deal: cards\n    each: 5\n    hand: false\n"
        "constraints:\n  - id: nine-marked\n    kind: at_most\n    of: {component: cards, zone: dealt, where: {hi: yes}}\n"
        "    value: 9\n", encoding="utf-8")
    game = load_game(folder)
    v = prove_player_count(game, run_setup(game, 2))
    [(con, example)] = v.can_fail
    # the breaking deal must hold all ten marked cards; they are named in id order, eight of them
    assert example == ", ".join(f"dealt {k}×1" for k in sorted(f"k{i}" for i in range(1, 11))[:8])


def test_a_count_of_a_thing_without_kinds_is_named_at_its_count(tmp_path):
    v = verdict(tmp_path, "  - id: three-dice\n    require: owned(dice) == 3\n")
    assert not v.feasible
    dice_count = next(i for i, row in enumerate(COMPONENTS.splitlines(), 1)
                      if i > line_in(COMPONENTS, "id: dice") and row.strip() == "count: 2")
    assert [(a.label, a.source.split("feas/")[-1]) for a in v.core if a.kind == "inventory"] == [
        ("dice ×2", f"components.yaml:{dice_count}")]


def test_a_setup_that_moves_nothing_is_carried_out(tmp_path):
    game = game_with(tmp_path, "  - id: two\n    require: players == 2\n")
    (game.folder / "setup.yaml").write_text("steps:\n  - shuffle: cards\n", encoding="utf-8")
    game = load_game(game.folder)
    v = prove_player_count(game, run_setup(game, 2))
    assert v.feasible and v.rules == 0
    # everything stays in the box; the bag holds its stated total of 5
    assert v.totals == {"returned_to_box": {"bag": 5, "cards": 6, "dice": 2, "heroes": 2}}


def test_the_rest_returned_is_every_copy_left_whatever_a_free_removal_takes(tmp_path):
    """3 saboteurs and 7 miners; miners removed with `each: free`, one card dealt to each of 3
    players, the rest returned. The engine runs the removal at 0 (a rest of 7); the model, with the
    removal at 2, returns the 5 left: in play only the 3 dealt, back in the box 2 + 5."""
    from ortools.sat.python import cp_model

    from solver.proof.cpsat import solve
    from solver.proof.feasibility import setup_model

    folder = tmp_path / "split"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: split\ntitle: {en: Split}\nplayers: {min: 3, max: 3}\n"
                                      "source_language: en\nlanguages: [en]\n", encoding="utf-8")
    (folder / "components.yaml").write_text(
        "components:\n  - id: deck\n    kind: deck\n    name: {en: Deck}\n    size: poker\n    items:\n"
        "      - {id: saboteur, name: {en: S}, count: 3, attrs: {role: saboteur}}\n"
        "      - {id: miner, name: {en: M}, count: 7, attrs: {role: miner}}\n", encoding="utf-8")
    (folder / "setup.yaml").write_text(
        "steps:\n  - use: deck\n  - remove: {component: deck, where: {role: miner}, each: free}\n  - shuffle: deck\n"
        "  - deal: deck\n    each: 1\n    hand: false\n  - return_rest: deck\n", encoding="utf-8")
    game = load_game(folder)
    result = run_setup(game, 3)
    for removed, feasible in ((2, True), (7, True), (8, False)):  # 8 miners cannot be removed: 7 exist
        m = cp_model.CpModel()
        sm = setup_model(game, result, m, {1: m.new_int_var(removed, removed, "free")})
        status, solver = solve(m, [a.lit for a in sm.assumptions])
        assert (status in (cp_model.OPTIMAL, cp_model.FEASIBLE)) == feasible
        if feasible:
            keys = [("deck", "saboteur"), ("deck", "miner")]
            assert sum(solver.value(sm.zone_expr(k, "in_play")) for k in keys) == 3
            assert sum(solver.value(sm.zone_expr(k, "returned_to_box")) for k in keys) == 7
