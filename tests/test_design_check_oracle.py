"""`pnp check` on targets.yaml and designed.yaml (solver/counts/design_check.py), finding by finding.

A small original game (a lantern deck of thieves, guards and lamps, one card dealt to each of
3-5 players, one lamp out at three players, an optional rule dealing to all but one player at
four) with targets of every kind and a designed.yaml written by hand. Every expected value is
counted here over the physical cards (itertools.combinations); every message is written out as
the player reads it; every location is the line a text search of the file gives.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from gamefiles import line_of, write_game
from solver.counts.design import DesignResult
from solver.counts.design_check import check_design, design_yaml, spans, value_json
from solver.counts.measure import Value
from solver.game.designs import DesignFile
from solver.game.loader import load_game

GAME = {"id": "lanterns", "title": {"en": "Lanterns"}, "players": {"min": 3, "max": 5}, "source_language": "en"}
DECK = {"thief": {"role": "thief", "evil": True}, "guard": {"role": "guard", "evil": False},
        "lamp": {"role": "lamp", "evil": False}}
STATED = {"thief": 2, "guard": 4, "lamp": 3}
STEPS = [{"use": "deck"},
         {"remove": {"component": "deck", "where": {"role": "lamp"}, "each": 1}, "when": "players <= 3"},
         {"shuffle": "deck"},
         {"deal": "deck", "each": 1, "hand": False, "when": "not variant('short-table')"},
         {"deal": "deck", "each": 1, "hand": False, "recipients": "players - 1", "when": "variant('short-table')"},
         {"return_rest": "deck"}]
VARIANTS = [{"id": "short-table", "name": {"en": "Short table"}, "player_counts": [4]}]


def dump(d) -> str:
    return yaml.safe_dump(d, sort_keys=False, allow_unicode=True)


def make(tmp_path: Path, targets: list[dict] | None, counts=STATED, designed: str | None = None,
         steps=STEPS, constraints=()) -> Path:
    items = [{"id": i, "name": {"en": i}, "count": counts.get(i), "attrs": a} for i, a in DECK.items()]
    files = {"game.yaml": dump(GAME),
             "components.yaml": dump({"components": [{"id": "deck", "kind": "deck", "name": {"en": "Deck"},
                                                      "size": "poker", "items": items}]}),
             "setup.yaml": dump({"variants": VARIANTS, "steps": steps, "constraints": list(constraints)})}
    if targets is not None:
        files["targets.yaml"] = dump({"targets": targets})
    if designed is not None:
        files["designed.yaml"] = designed
    return write_game(tmp_path / "lanterns", files)


def check(folder: Path):
    return check_design(load_game(folder))


def at(folder: Path, name: str, needle: str) -> str:
    text = (folder / name).read_text(encoding="utf-8")
    return f"{folder / name}:{line_of(text, needle)}"


def rows(result):
    return [(f.severity, f.code, f.message, f.source, f.player_counts) for f in result.findings]


# ---------------------------------------------------------------------- the oracle
@lru_cache(maxsize=None)
def chance(matched: int, other: int, dealt: int, lo: int, hi: int) -> Fraction:
    """P(lo <= matched cards among those dealt <= hi), every hand of the physical cards counted."""
    cards = [1] * matched + [0] * other
    hands = list(itertools.combinations(range(len(cards)), dealt))
    return Fraction(sum(lo <= sum(cards[i] for i in h) <= hi for h in hands), len(hands))


def pile(n: int, box=STATED) -> tuple[int, int, int]:
    return box["thief"], box["guard"], box["lamp"] - (n <= 3)


def p_str(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} ≈ {float(p):.4f}"


@pytest.mark.parametrize("counts,text", [([3, 4, 5, 7], "3-5, 7"), ([5, 3, 4, 4], "3-5"), ([1, 3, 5], "1, 3, 5"),
                                         ([9, 10, 11, 13, 14], "9-11, 13-14"), ([2], "2"), ([], "")])
def test_spans_of_player_counts(counts, text):
    assert spans(counts) == text


# ---------------------------------------------------------------------- targets at the printed counts
TARGETS = [
    {"id": "thief-seen", "odds": {"deal": "deck", "where": {"role": "thief"}, "dealt_at_least": 1,
                                  "probability_at_least": "4/5"}},
    {"id": "no-lone-evil", "odds": {"deal": "deck", "where": {"evil": True}, "dealt_at_least": 1,
                                    "dealt_at_most": 1, "probability_at_most": "0.6"}},
    {"id": "good-seen", "odds": {"deal": "deck", "where": {"evil": False}, "dealt_at_least": 2,
                                 "probability_at_least": "1/2"}},
    {"id": "fair", "seat_expectation": {"deal": "deck", "where": {"role": "guard"}}},
    {"id": "per-role", "range": {"component": "deck", "per": "role", "min": 2, "max": 4}},
    {"id": "deck-size", "total": {"component": "deck", "min": 9}},
    {"id": "thief-share", "share": {"component": "deck", "where": {"role": "thief"}, "near": "1/4"}},
    {"id": "never", "when": "players > 9",  # no run: no value, no finding
     "odds": {"deal": "deck", "dealt_at_least": 1, "probability_at_least": "1/2"}},
]


def test_each_target_is_one_finding_with_its_values(tmp_path):
    folder = make(tmp_path, TARGETS)
    result = check(folder)
    loc = {t["id"]: at(folder, "targets.yaml", f"id: {t['id']}") for t in TARGETS}
    seen = {n: chance(2, 4 + 3 - (n <= 3), n, 1, 99) for n in (3, 4, 5)}  # 9/14, 13/18, 5/6
    lone = {n: chance(2, 4 + 3 - (n <= 3), n, 1, 1) for n in (3, 4, 5)}
    good = {n: chance(4 + 3 - (n <= 3), 2, n, 2, 99) for n in (3, 4, 5)}
    assert seen[5] >= Fraction(4, 5) > max(seen[3], seen[4]) and max(lone.values()) <= Fraction(3, 5)
    todo = "run `pnp design lanterns` or change the target"
    worst_lone = max((3, 4, 5), key=lambda n: lone[n])
    worst_good = min((3, 4, 5), key=lambda n: good[n])
    want = [("error", "target-missed", f"odds thief-seen fails at {n} players: {p_str(seen[n])} against "
             f"P(role=thief dealt ≥ 1) ≥ 4/5; {todo}", loc["thief-seen"], [n]) for n in (3, 4)]
    short = chance(2, 7, 3, 1, 99)  # the optional rule at 4 players: 3 of the 9 cards dealt
    want += [("error", "target-missed", f"variant short-table: odds thief-seen fails at 4 players optional rule "
              f"short-table: {p_str(short)} against P(role=thief dealt ≥ 1) ≥ 4/5; {todo}", loc["thief-seen"], [4])]
    want += [("info", "target-met", f"odds no-lone-evil holds at 3-5 players: P(evil=true dealt 1..1) ≤ 0.6; closest "
              f"{p_str(lone[worst_lone])} at {worst_lone} players", loc["no-lone-evil"], [3, 4, 5]),
             ("info", "target-met", f"odds good-seen holds at 3-5 players: P(evil=false dealt ≥ 2) ≥ 1/2; closest "
              f"{p_str(good[worst_good])} at {worst_good} players", loc["good-seen"], [3, 4, 5]),
             ("info", "target-met", "seat_expectation fair holds at 3-5 players: E(role=guard per seat) equal at every "
              "seat, holds by symmetry: every seat is dealt 1 from one shuffled pile, so each expects the same",
              loc["fair"], [3, 4, 5]),
             ("error", "target-missed", "variant short-table: seat_expectation fair fails at 4 players optional rule "
              f"short-table: {p_str(Fraction(4, 9))} against E(role=guard per seat) equal at every seat; {todo}",
              loc["fair"], [4]),
             ("info", "target-met", "range per-role holds: 4 [role=guard], 3 [role=lamp], 2 [role=thief] "
              "(copies of deck: 2..4)", loc["per-role"], []),
             ("info", "target-met", "total deck-size holds: 9 (copies of deck: ≥ 9)", loc["deck-size"], []),
             ("info", "target-slack", "share thief-share: 2/9 of the copies (share of role=thief near 1/4; slack 1/36)",
              loc["thief-share"], [])]
    assert rows(result) == want
    # the base game's values, as --json gives them (the optional rule's only in its finding)
    derived = result.derived["targets"]
    assert [(r["target"], r["players"], r["part"]) for r in derived] == (
        [(t, n, None) for t in ("thief-seen", "no-lone-evil", "good-seen", "fair") for n in (3, 4, 5)]
        + [("per-role", None, f"role={r}") for r in ("guard", "lamp", "thief")]
        + [("deck-size", None, None), ("thief-share", None, None)])
    assert derived[0] == {"target": "thief-seen", "kind": "odds", "players": 3, "variant": None, "part": None,
                          "value": "9/14", "decimal": round(9 / 14, 6), "bound": "P(role=thief dealt ≥ 1) ≥ 4/5",
                          "holds": False}
    assert derived[-1]["slack"] == "1/36" and "note" not in derived[-1]
    assert derived[9]["note"].startswith("holds by symmetry")


def test_a_failing_box_target_and_a_miss_worse_than_its_neighbours(tmp_path):
    targets = [{"id": "small", "range": {"component": "deck", "where": {"role": "guard"}, "max": 3}},
               {"id": "seen-rarely", "odds": {"deal": "deck", "where": {"role": "thief"}, "dealt_at_least": 1,
                                              "probability_at_most": "2/3"}}]
    folder = make(tmp_path, targets)
    todo = "run `pnp design lanterns` or change the target"
    assert rows(check(folder)) == [
        ("error", "target-missed", f"range small fails at the box: 4 ≈ 4.0000 against copies of role=guard: ≤ 3; {todo}",
         at(folder, "targets.yaml", "id: small"), []),
        ("error", "target-missed", f"odds seen-rarely fails at 4 players: 13/18 ≈ 0.7222 against "
         f"P(role=thief dealt ≥ 1) ≤ 2/3; {todo}", at(folder, "targets.yaml", "id: seen-rarely"), [4]),
        ("error", "target-missed", f"odds seen-rarely fails at 5 players: 5/6 ≈ 0.8333 against "
         f"P(role=thief dealt ≥ 1) ≤ 2/3; {todo}", at(folder, "targets.yaml", "id: seen-rarely"), [5])]


def test_an_upper_bound_on_a_chance_is_closest_at_its_largest_value(tmp_path):
    """A thief dealt at most nine games in ten: it holds at 3-5 players, nearest the bound where
    the chance is largest (5 players: 5/6), though its condition reads `dealt ≥ 1`."""
    target = {"id": "rare", "odds": {"deal": "deck", "where": {"role": "thief"}, "dealt_at_least": 1,
                                     "probability_at_most": "9/10"}}
    folder = make(tmp_path, [target])
    seen = {n: chance(2, 4 + 3 - (n <= 3), n, 1, 99) for n in (3, 4, 5)}
    worst = max((3, 4, 5), key=lambda n: seen[n])
    assert worst == 5 and max(seen.values()) <= Fraction(9, 10)
    base = [r for r in rows(check(folder)) if "variant" not in r[2]]
    assert base == [("info", "target-met", f"odds rare holds at 3-5 players: P(role=thief dealt ≥ 1) ≤ 9/10; closest "
                     f"{p_str(seen[worst])} at {worst} players", at(folder, "targets.yaml", "id: rare"), [3, 4, 5])]


def test_a_target_measured_on_an_unknown_count_says_why(tmp_path):
    folder = make(tmp_path, [{"id": "deck-size", "total": {"component": "deck", "min": 9}}],
                  counts={"thief": 2, "guard": None, "lamp": 3})
    [f] = check(folder).findings
    assert f.message == ("total deck-size fails at the box: 0 ≈ 0.0000 against known counts (a count of deck is "
                         "unknown); run `pnp design lanterns` or change the target")


def test_an_expression_that_does_not_evaluate_stops_the_check_there(tmp_path):
    targets = TARGETS[:1] + [{"id": "typo", "when": "plyers > 3", "total": {"component": "deck", "min": 1}}]
    folder = make(tmp_path, targets)
    [f] = check(folder).findings
    assert (f.severity, f.code, f.source) == ("error", "target-expression", at(folder, "targets.yaml", "plyers"))
    assert f.message.startswith("when: ") and "plyers" in f.message
    assert f.message.endswith("; use `players`, numbers, + - * // % min() max() and variant()")


def test_no_targets_no_design_nothing_to_say(tmp_path):
    result = check(make(tmp_path, None))
    assert result.findings == [] and result.derived == {}


def test_a_design_without_targets_is_a_warning(tmp_path):
    folder = make(tmp_path, None, designed='objective: "by hand"\ncounts: []\n')
    assert rows(check(folder)) == [("warning", "design-without-targets", "designed.yaml is there but targets.yaml is "
                                    "not: delete designed.yaml or restore the targets", f"{folder / 'designed.yaml'}:1", [])]


# ---------------------------------------------------------------------- designed.yaml
def designed(counts: dict[str, int], values: list[str], amounts: list[str] = ()) -> str:
    text = 'objective: "by hand"\ncounts:' + ("\n" if counts else " []\n") + "".join(
        f"  - {{component: deck, item: {k}, count: {n}}}\n" for k, n in counts.items())
    if amounts:
        text += "amounts:\n" + "".join(f"  - {a}\n" for a in amounts)
    return text + "values:" + ("\n" if values else " []\n") + "".join(f"  - {v}\n" for v in values)


def test_designed_values_and_counts_are_proved_again(tmp_path):
    """thief and guard are open (count: null) and designed; lamp is stated 3 and designed 3 (the
    design found it again); a recorded value that the deal no longer gives is stale."""
    seen = {n: chance(2, 4 + 3 - (n <= 3), n, 1, 99) for n in (3, 4, 5)}
    values = [f'{{target: thief-seen, players: 3, value: "{seen[3].numerator}/{seen[3].denominator}", bound: b}}',
              '{target: thief-seen, players: 4, value: "1/2", bound: b}',
              '{target: thief-seen, players: 9, value: "1/2", bound: b}',
              '{target: deck-size, value: "9", bound: b}',
              '{target: deck-size, value: "10", bound: b, part: "x=y"}']
    folder = make(tmp_path, TARGETS[:1] + TARGETS[5:6], counts={"thief": None, "guard": None, "lamp": 3},
                  designed=designed({"thief": 2, "guard": 4, "lamp": 3}, values))
    found = [r for r in rows(check(folder)) if r[1].startswith("design")]
    run = "run `pnp design lanterns`"
    assert found == [
        ("error", "design-stale", f"designed.yaml records thief-seen = 1/2 at 4 but the counts and setup give "
         f"{seen[4].numerator}/{seen[4].denominator}: {run}", at(folder, "designed.yaml", 'players: 4, value: "1/2"'), [4]),
        ("error", "design-stale", f"designed.yaml records thief-seen = 1/2 at 9 but the counts and setup give nothing: "
         f"{run}", at(folder, "designed.yaml", "players: 9"), [9]),
        ("error", "design-stale", f"designed.yaml records deck-size = 10 at the box but the counts and setup give "
         f"nothing: {run}", at(folder, "designed.yaml", 'value: "10"'), []),
        ("info", "design-reproduces-stated", "designed.yaml finds the stated counts again from the targets and the "
         "rules alone: lamp", f"{folder / 'designed.yaml'}:1", [])]


def test_a_design_that_differs_from_a_stated_count_is_measured_at_the_stated_one(tmp_path):
    folder = make(tmp_path, TARGETS[5:6], counts={"thief": 2, "guard": 4, "lamp": 3},
                  designed=designed({"thief": 2, "guard": 5, "lamp": 3}, ['{target: deck-size, value: "9", bound: b}']))
    found = [r for r in rows(check(folder)) if r[1].startswith("design")]
    assert found == [
        ("warning", "design-differs-from-stated", "deck/guard: the design chose 5, the data states 4 (printed); the "
         "targets were measured at the stated count", at(folder, "designed.yaml", "item: guard"), []),
        ("info", "design-reproduces-stated", "designed.yaml finds the stated counts again from the targets and the "
         "rules alone: thief, lamp", f"{folder / 'designed.yaml'}:1", [])]


def test_designed_counts_that_break_a_rule_of_the_setup(tmp_path):
    rule = {"id": "three-thieves", "require": "owned(thief) >= 3"}
    good = designed({"thief": 3, "guard": 4}, [])
    bad = designed({"thief": 2, "guard": 4}, [])
    kw = dict(counts={"thief": None, "guard": None, "lamp": 3}, constraints=[rule])
    ok = make(tmp_path / "ok", TARGETS[5:6], designed=good, **kw)
    assert not [r for r in rows(check(ok)) if r[0] == "error"]
    broken = make(tmp_path / "broken", TARGETS[5:6], designed=bad, **kw)
    assert [r for r in rows(check(broken)) if r[1] == "design-breaks-rules"] == [
        ("error", "design-breaks-rules", "the counts of designed.yaml do not satisfy the rules of setup.yaml: run "
         "`pnp design lanterns`", f"{broken / 'designed.yaml'}:1", [])]


FREE = [{"use": "deck"},
        {"remove": {"component": "deck", "where": {"role": "lamp"}, "each": "free"}},
        {"shuffle": "deck"},
        {"deal": "deck", "each": 1, "hand": False, "when": "not variant('short-table')"},
        {"deal": "deck", "each": 1, "hand": False, "recipients": "players - 1", "when": "variant('short-table')"},
        {"return_rest": "deck"}]


def test_free_removals_need_an_amount_at_every_count_they_run(tmp_path):
    """Amounts at 3 players and for the optional rule at 4: 4 and 5 players have none; an amount
    for step 0 (a `use`) is for no free removal. The amount taken enters the deal's values."""
    amounts = ["{step: 1, players: 3, each: 1}", "{step: 1, players: 4, variant: short-table, each: 2}",
               "{step: 0, players: 3, each: 1}"]
    values = ['{target: thief-seen, players: 3, value: "9/14", bound: b}',
              '{target: thief-seen, players: 4, value: "13/18", bound: b}']
    folder = make(tmp_path, TARGETS[:1], steps=FREE, designed=designed({}, values, amounts))
    found = [r for r in rows(check(folder)) if r[1] in ("design-stale", "free-amount-not-designed")]
    assert found == [
        ("error", "design-stale", "designed.yaml has an amount for step 0, which is not a `remove` with `each: free`: "
         "run `pnp design lanterns`", at(folder, "designed.yaml", "step: 0"), []),
        ("warning", "free-amount-not-designed", "a `remove` with `each: free` has no designed amount at 4-5 players "
         "and takes none: run `pnp design lanterns`", at(folder, "setup.yaml", "- remove:"), [4, 5])]


def test_free_removals_with_no_design_at_all(tmp_path):
    folder = make(tmp_path, TARGETS[:1], steps=FREE)
    [f] = [r for r in rows(check(folder)) if r[1] == "free-amount-not-designed"]
    assert "at 3-5 players" in f[2] and f[4] == [3, 4, 5]


# ---------------------------------------------------------------------- designed.yaml's text
def test_design_yaml_reads_back_as_what_was_designed():
    v = [Value("seen", "odds", Fraction(9, 14), "P(role=thief dealt ≥ 1) ≥ 4/5", True, players=3),
         Value("seen", "odds", Fraction(2, 3), "P(x)", True, players=4, variant="short-table"),
         Value("suits", "range", Fraction(4), "copies of deck: 2..4", True, part="role=guard"),
         Value("share", "share", Fraction(2, 9), "share of role=thief near 1/4", True, slack=Fraction(1, 36))]
    result = DesignResult(counts={("deck", "thief"): 2, ("deck", "guard"): 4},
                          amounts={(1, 3, None): 1, (1, 4, "short-table"): 2}, values=v)
    text = design_yaml(result, "lanterns", "the least box", {1: 'remove "lamp"'})
    assert text == (
        "# Counts designed by `pnp design lanterns` to meet targets.yaml (solver/counts/design.py).\n"
        "# Not stated facts: accept one by writing its count into components.yaml; `pnp check` measures\n"
        "# every target again at these counts; delete this file to drop the design.\n"
        'objective: "the least box"\n'
        "counts:\n"
        "  - {component: deck, item: thief, count: 2}\n"
        "  - {component: deck, item: guard, count: 4}\n"
        "amounts:\n"
        '  - {step: 1, players: 3, each: 1, label: "remove \\"lamp\\""}\n'
        '  - {step: 1, players: 4, variant: short-table, each: 2, label: "remove \\"lamp\\""}\n'
        "values:\n"
        '  - {target: seen, players: 3, value: "9/14", bound: "P(role=thief dealt ≥ 1) ≥ 4/5"}\n'
        '  - {target: seen, players: 4, variant: short-table, value: "2/3", bound: "P(x)"}\n'
        '  - {target: suits, part: "role=guard", value: "4", bound: "copies of deck: 2..4"}\n'
        '  - {target: share, value: "2/9", bound: "share of role=thief near 1/4", slack: "1/36"}\n')
    back = DesignFile.model_validate(yaml.safe_load(text))
    assert back.count_of("deck", "guard") == 4 and back.amount_of(1, 4, "short-table") == 2
    assert [(r.target, r.players, r.variant, r.part, r.value, r.slack) for r in back.values] == [
        ("seen", 3, None, None, "9/14", None), ("seen", 4, "short-table", None, "2/3", None),
        ("suits", None, None, "role=guard", "4", None), ("share", None, None, None, "2/9", "1/36")]


def test_an_empty_design_writes_empty_lists():
    text = design_yaml(DesignResult(), "g", "o", {})
    assert text.splitlines()[3:] == ['objective: "o"', "counts: []", "values: []"]
    assert DesignFile.model_validate(yaml.safe_load(text)).counts == []


def test_value_json_keeps_the_exact_fraction_and_rounds_the_decimal():
    v = Value("t", "seat_expectation", Fraction(1, 3), "E(x per seat) ≥ 1/4", True, players=5, note="why")
    assert value_json(v) == {"target": "t", "kind": "seat_expectation", "players": 5, "variant": None, "part": None,
                             "value": "1/3", "decimal": 0.333333, "bound": "E(x per seat) ≥ 1/4", "holds": True,
                             "note": "why"}
