"""Every target measured at a box's counts (solver/counts/measure.py) against answers worked out here.

A small original game (a lantern deck of thieves, guards and lamps dealt one to each player, one
lamp out at three players, an optional rule dealing to all but one player) and a targets.yaml of
every kind. The expected values are counted in this file: each odds value by going through every
hand of the physical cards (itertools.combinations), each seat's expectation by going through
every ordered deal and counting the first and the last seat's cards, each box value by adding the
counts written in components.yaml; bounds are written out as the targets read.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from gamefiles import line_of, write_game
from solver.counts.measure import expression_problems, measure, shown, targets_of, with_counts
from solver.game.loader import load_game

GAME = {"id": "lanterns", "title": {"en": "Lanterns"}, "players": {"min": 3, "max": 5}, "source_language": "en"}
DECK = {"thief": ({"role": "thief", "evil": True}, 2), "guard": ({"role": "guard", "evil": False}, 4),
        "lamp": ({"role": "lamp", "evil": False}, 3)}
STEPS = [{"use": "deck"},
         {"remove": {"component": "deck", "where": {"role": "lamp"}, "each": 1}, "when": "players <= 3"},
         {"shuffle": "deck"},
         {"deal": "deck", "each": 1, "hand": False, "when": "not variant('short-table')"},
         {"deal": "deck", "each": 1, "hand": False, "recipients": "players - 1", "when": "variant('short-table')"},
         {"return_rest": "deck"}]
PLAIN = STEPS[:3] + [{"deal": "deck", "each": 1, "hand": False}, STEPS[5]]  # no optional rule
VARIANTS = [{"id": "short-table", "name": {"en": "Short table"}, "player_counts": [4]}]


def components(counts: dict[str, int | None], tokens: int | None = 6) -> dict:
    items = [{"id": i, "name": {"en": i}, "count": counts[i], "attrs": a} for i, (a, _) in DECK.items()]
    return {"components": [{"id": "deck", "kind": "deck", "name": {"en": "Deck"}, "size": "poker", "items": items},
                           {"id": "tokens", "kind": "tokens", "name": {"en": "Tokens"}, "count": tokens}]}


def make(tmp_path: Path, targets: list[dict], counts: dict[str, int | None] | None = None, steps=STEPS,
         variants=VARIANTS, tokens: int | None = 6) -> Path:
    counts = counts or {k: n for k, (_, n) in DECK.items()}
    steps = PLAIN if not variants and steps is STEPS else steps
    dump = lambda d: yaml.safe_dump(d, sort_keys=False, allow_unicode=True)  # noqa: E731
    return write_game(tmp_path / "lanterns", {
        "game.yaml": dump(GAME), "components.yaml": dump(components(counts, tokens)),
        "setup.yaml": dump({"variants": variants, "steps": steps}), "targets.yaml": dump({"targets": targets})})


def values(folder: Path):
    game = load_game(folder)
    return measure(game, targets_of(game))


# ---------------------------------------------------------------------- the oracle
def pile(n: int) -> dict[str, int]:
    """The deck at the deal: every copy, one lamp fewer at three players."""
    return {"thief": 2, "guard": 4, "lamp": 3 - (n <= 3)}


@lru_cache(maxsize=None)
def chance(matched: int, other: int, dealt: int, lo: int, hi: int) -> Fraction:
    """P(lo <= matched cards among `dealt` <= hi), every hand of the physical cards counted."""
    cards = [1] * matched + [0] * other
    hands = list(itertools.combinations(range(len(cards)), dealt))
    return Fraction(sum(lo <= sum(cards[i] for i in h) <= hi for h in hands), len(hands))


def seat_expectations(matched: int, other: int, seats: int) -> tuple[Fraction, Fraction]:
    """What the first and the last seat expect, one card each, every ordered deal counted."""
    cards = [1] * matched + [0] * other
    deals = list(itertools.permutations(range(len(cards)), seats))
    return (Fraction(sum(cards[d[0]] for d in deals), len(deals)),
            Fraction(sum(cards[d[-1]] for d in deals), len(deals)))


def split(n: int, roles: tuple[str, ...]) -> tuple[int, int]:
    p = pile(n)
    a = sum(v for k, v in p.items() if k in roles)
    return a, sum(p.values()) - a


def test_the_oracle_by_hand():
    # 3 players: 2 thieves among 8 cards, 3 dealt: no thief in C(6,3) = 20 of C(8,3) = 56 hands
    assert chance(2, 6, 3, 1, 99) == 1 - Fraction(20, 56)
    assert seat_expectations(2, 6, 3) == (Fraction(1, 4), Fraction(1, 4))


# ---------------------------------------------------------------------- odds
ODDS = [
    {"id": "thief-seen", "odds": {"deal": "deck", "where": {"role": "thief"}, "dealt_at_least": 1,
                                  "probability_at_least": "4/5"}},
    {"id": "few-evil", "odds": {"deal": "deck", "where": {"evil": True}, "dealt_at_least": 1,
                                "dealt_at_most": "players // 2", "probability_at_most": "0.6"}},
    {"id": "no-guard", "when": "players >= 4",
     "odds": {"deal": "deck", "where": {"role": "guard"}, "dealt_at_most": 0, "probability_at_most": "1/20"}},
    {"id": "all-cards", "odds": {"deal": "deck", "dealt_at_least": "players", "probability_at_least": 1}},
]


def test_odds_values_bounds_and_verdicts_at_every_count(tmp_path):
    got = [(v.target, v.players, v.variant, v.value, v.bound, v.holds, v.note)
           for v in values(make(tmp_path, ODDS, variants=[]))]
    want = []
    for n in (3, 4, 5):
        p = chance(*split(n, ("thief",)), n, 1, 10**9)
        want.append(("thief-seen", n, None, p, "P(role=thief dealt ≥ 1) ≥ 4/5", p >= Fraction(4, 5), ""))
    for n in (3, 4, 5):
        p = chance(*split(n, ("thief",)), n, 1, n // 2)
        want.append(("few-evil", n, None, p, f"P(evil=true dealt 1..players // 2 = {n // 2}) ≤ 0.6",
                     p <= Fraction(3, 5), ""))
    for n in (4, 5):
        p = chance(*split(n, ("guard",)), n, 0, 0)
        want.append(("no-guard", n, None, p, "P(role=guard dealt ≤ 0) ≤ 1/20", p <= Fraction(1, 20), ""))
    for n in (3, 4, 5):
        want.append(("all-cards", n, None, Fraction(1), f"P(cards dealt ≥ players = {n}) ≥ 1", True, ""))
    assert got == want
    # both verdicts occur, so neither is a constant
    assert {w[5] for w in want if w[0] == "thief-seen"} == {True, False}


def test_an_optional_rule_is_measured_at_its_own_counts(tmp_path):
    """short-table (4 players) deals 3 cards, to all but one player: its value is of 3 cards."""
    got = [(v.players, v.variant, v.value) for v in values(make(tmp_path, ODDS[:1])) if v.target == "thief-seen"]
    assert got == [(3, None, chance(2, 6, 3, 1, 99)), (4, None, chance(2, 7, 4, 1, 99)),
                   (5, None, chance(2, 7, 5, 1, 99)), (4, "short-table", chance(2, 7, 3, 1, 99))]


def test_a_deal_after_a_random_draw_is_not_known_exactly(tmp_path):
    steps = PLAIN[:3] + [{"set_aside": "deck", "count": 1}] + PLAIN[3:]
    [v, *_] = values(make(tmp_path, ODDS[:1], steps=steps, variants=[]))
    assert (v.value, v.bound, v.holds) == (0, "a deal from a known pile", False)
    assert v.note == "the pile of deck is not known exactly at the deal"


def test_a_deal_larger_than_its_pile_says_so(tmp_path):
    """Five players dealt one card each from a deck of 2 thieves and 2 guards (the lamps left in
    the box): the pile is known exactly, it is short. Each run's value says which it is."""
    steps = [{"use": "deck"}, {"remove": {"component": "deck", "where": {"role": "lamp"}, "each": 3}}] + PLAIN[2:]
    got = values(make(tmp_path, ODDS[:1] + [{"id": "fair", "seat_expectation": {"deal": "deck", "where": {"role": "thief"}}}],
                      counts={"thief": 2, "guard": 2, "lamp": 3}, steps=steps, variants=[]))
    short = [(v.target, v.players, v.value, v.bound, v.holds, v.note) for v in got if v.players == 5]
    note = "the pile of deck holds 4 cards at the deal, fewer than the 5 dealt"
    assert short == [("thief-seen", 5, 0, "a deal the pile covers", False, note),
                     ("fair", 5, 0, "a deal the pile covers", False, note)]
    assert [(v.players, v.value) for v in got if v.target == "thief-seen" and v.players != 5] == [
        (3, chance(2, 2, 3, 1, 99)), (4, chance(2, 2, 4, 1, 99))]


def test_a_condition_with_no_upper_bound_counts_every_hand_however_large(tmp_path):
    """95 thieves and 5 guards, 19 cards to each of 5 players: every hand holds 90 to 95 thieves,
    so "at least one thief" holds in every deal: P = 1 exactly (no upper bound cuts it off)."""
    steps = [{"use": "deck"}, {"shuffle": "deck"}, {"deal": "deck", "each": 19, "hand": False}]
    target = {"id": "many", "when": "players == 5",
              "odds": {"deal": "deck", "where": {"role": "thief"}, "dealt_at_least": 1, "probability_at_least": 1}}
    [v] = values(make(tmp_path, [target], counts={"thief": 95, "guard": 5, "lamp": 0}, steps=steps, variants=[]))
    assert (v.players, v.value, v.holds) == (5, 1, True)


def test_a_target_on_a_pile_nobody_deals_gives_no_value(tmp_path):
    steps = [{"use": "deck"}, {"shuffle": "deck"}, {"return_rest": "deck"}]
    targets = ODDS[:1] + [{"id": "box", "total": {"component": "deck", "min": 1}}]
    assert [v.target for v in values(make(tmp_path, targets, steps=steps, variants=[]))] == ["box"]


# ---------------------------------------------------------------------- seats
def test_seat_expectation_with_every_seat_dealt_holds_by_symmetry(tmp_path):
    targets = [{"id": "guards", "seat_expectation": {"deal": "deck", "where": {"role": "guard"},
                                                     "at_least": "1/3", "at_most": "1/2"}}]
    got = values(make(tmp_path, targets))
    for v in got:
        seats = v.players - (v.variant == "short-table")
        first, last = seat_expectations(*split(v.players, ("guard",)), seats)
        assert v.value == first == last
        assert v.bound == "E(role=guard per seat) equal at every seat, ≥ 1/3, ≤ 1/2"
        if v.variant is None:
            assert v.note.startswith("holds by symmetry: every seat is dealt 1 from one shuffled pile")
            assert v.holds == (Fraction(1, 3) <= first <= Fraction(1, 2))
        else:  # a seat dealt nothing expects no guard: not equal, and below 1/3
            assert v.note == "" and v.holds is False
    assert [(v.players, v.variant) for v in got] == [(3, None), (4, None), (5, None), (4, "short-table")]
    assert [v.holds for v in got[:3]] == [True, True, True]  # 4/8, 4/9, 4/9


def test_two_cards_to_each_seat(tmp_path):
    """Each seat is dealt two cards: it expects what a hand of two from the pile holds, every pair
    of cards counted; every seat is dealt, so `equal` holds by symmetry."""
    steps = PLAIN[:3] + [{"deal": "deck", "each": 2, "hand": False}] + PLAIN[4:]
    targets = [{"id": "guards", "when": "players <= 4",  # 10 cards would be more than the deck's 9
                "seat_expectation": {"deal": "deck", "where": {"role": "guard"}, "at_most": "1"}}]
    got = values(make(tmp_path, targets, steps=steps, variants=[]))
    for v in got:
        a, b = split(v.players, ("guard",))
        cards = [1] * a + [0] * b
        pairs = list(itertools.combinations(range(a + b), 2))
        assert v.value == Fraction(sum(cards[i] + cards[j] for i, j in pairs), len(pairs))
        assert v.note == "holds by symmetry: every seat is dealt 2 from one shuffled pile, so each expects the same"
        assert v.holds == (v.value <= 1)
    assert [(v.players, v.holds) for v in got] == [(3, True), (4, True)]  # 1 and 8/9


@pytest.mark.parametrize("spec,holds", [
    ({"equal": False, "at_most": "1/2"}, True),      # the undealt seat expects 0 ≤ 1/2
    ({"equal": False, "at_least": "0"}, True),
    ({"equal": False, "at_least": "1/9"}, False),    # the undealt seat expects 0 < 1/9
    ({"equal": True}, False),
    ({"equal": False, "at_most": "4/10"}, False),    # a dealt seat expects 4/9 > 2/5
])
def test_seat_bounds_with_a_seat_dealt_nothing(tmp_path, spec, holds):
    targets = [{"id": "guards", "when": "variant('short-table')",
                "seat_expectation": {"deal": "deck", "where": {"role": "guard"}, **spec}}]
    [v] = values(make(tmp_path, targets))
    assert (v.players, v.variant, v.value, v.holds) == (4, "short-table", Fraction(4, 9), holds)
    words = (["equal at every seat"] if spec["equal"] else []) + [
        f"{'≥' if k == 'at_least' else '≤'} {spec[k]}" for k in ("at_least", "at_most") if k in spec]
    assert v.bound == "E(role=guard per seat) " + ", ".join(words)


# ---------------------------------------------------------------------- the box
BOX = [
    {"id": "per-role", "range": {"component": "deck", "per": "role", "min": 2, "max": 3}},
    {"id": "evil-few", "range": {"component": "deck", "where": {"evil": True}, "max": 1}},
    {"id": "guards", "range": {"component": "deck", "where": {"role": "guard"}, "min": 4}},
    {"id": "nobody", "range": {"component": "deck", "where": {"role": "king"}, "min": 0, "max": 0}},
    {"id": "deck-size", "total": {"component": "deck", "min": 10}},
    {"id": "deck-small", "total": {"component": "deck", "max": 9}},
    {"id": "thief-share", "share": {"component": "deck", "where": {"role": "thief"}, "near": "1/4"}},
    {"id": "tokens", "total": {"component": "tokens", "min": 5, "max": 6}},
]


def test_box_targets_are_the_counts_added_up(tmp_path):
    got = [(v.target, v.kind, v.value, v.bound, v.holds, v.part, v.slack) for v in values(make(tmp_path, BOX))]
    assert got == [
        ("per-role", "range", 4, "copies of deck: 2..3", False, "role=guard", None),
        ("per-role", "range", 3, "copies of deck: 2..3", True, "role=lamp", None),
        ("per-role", "range", 2, "copies of deck: 2..3", True, "role=thief", None),
        ("evil-few", "range", 2, "copies of evil=true: ≤ 1", False, None, None),
        ("guards", "range", 4, "copies of role=guard: ≥ 4", True, None, None),
        ("nobody", "range", 0, "copies of role=king: 0..0", True, None, None),
        ("deck-size", "total", 9, "copies of deck: ≥ 10", False, None, None),
        ("deck-small", "total", 9, "copies of deck: ≤ 9", True, None, None),
        ("thief-share", "share", Fraction(2, 9), "share of role=thief near 1/4", True, None, Fraction(1, 36)),
        ("tokens", "total", 6, "copies of tokens: 5..6", True, None, None)]


def test_an_item_with_no_copies_counts_as_none(tmp_path):
    """No lamp in the box (count 0): the roles hold 2, 4 and 0 copies, the thieves a third of 6."""
    got = [(v.target, v.part, v.value) for v in values(make(tmp_path, BOX[:1] + BOX[6:7], counts={
        "thief": 2, "guard": 4, "lamp": 0}))]
    assert got == [("per-role", "role=guard", 4), ("per-role", "role=lamp", 0), ("per-role", "role=thief", 2),
                   ("thief-share", None, Fraction(2, 6))]


def test_a_box_with_an_unknown_count_is_not_measured_until_it_is_given(tmp_path):
    folder = make(tmp_path, BOX[4:5] + BOX[7:], counts={"thief": 2, "guard": None, "lamp": 3}, tokens=None)
    game = load_game(folder)
    got = measure(game, targets_of(game))
    assert [(v.target, v.value, v.bound, v.holds, v.note) for v in got] == [
        ("deck-size", 0, "known counts", False, "a count of deck is unknown"),
        ("tokens", 0, "known counts", False, "a count of tokens is unknown")]
    given = with_counts(game, {("deck", "guard"): 7, ("tokens", "tokens"): 5})
    assert [(v.target, v.value, v.holds) for v in measure(given, targets_of(game))] == [
        ("deck-size", 2 + 7 + 3, True), ("tokens", 5, True)]
    # with_counts leaves the game it was given alone
    assert [(v.target, v.note) for v in measure(game, targets_of(game))][0][1] == "a count of deck is unknown"


def test_shown_writes_counts_as_integers_and_the_rest_as_fractions(tmp_path):
    got = {(v.target, v.part): shown(v) for v in values(make(tmp_path, BOX[:1] + BOX[4:5] + BOX[6:7] + ODDS[3:4],
                                                              variants=[]))}
    assert got == {("per-role", "role=guard"): "4", ("per-role", "role=lamp"): "3", ("per-role", "role=thief"): "2",
                   ("deck-size", None): "9", ("thief-share", None): "2/9", ("all-cards", None): "1/1"}


# ---------------------------------------------------------------------- expressions that do not evaluate
def test_an_expression_failing_at_some_count_is_located_once(tmp_path):
    """`players // (players - 4)` divides by zero at 4 players only; `plyers` is no name anywhere;
    `variant('short-table')` evaluates everywhere; an integer is never evaluated."""
    targets = [{"id": "ok", "when": "variant('short-table') or players > 3",
                "odds": {"deal": "deck", "where": {"role": "thief"}, "dealt_at_least": 1, "dealt_at_most": 3,
                         "probability_at_least": "1/2"}},
               {"id": "divides", "odds": {"deal": "deck", "where": {"role": "thief"},
                                          "dealt_at_least": "players // (players - 4)", "probability_at_least": "1/2"}},
               {"id": "typo", "when": "plyers > 3", "total": {"component": "deck", "min": 1}},
               {"id": "high", "odds": {"deal": "deck", "dealt_at_most": "plyers", "probability_at_most": "1/2"}}]
    folder = make(tmp_path, targets)
    game = load_game(folder)
    problems = expression_problems(game, targets_of(game))
    text = (folder / "targets.yaml").read_text(encoding="utf-8")
    path = str(folder / "targets.yaml")
    assert [(p.path, p.line, p.column) for p in problems] == [
        (path, line_of(text, "dealt_at_least: players // (players - 4)"), 0),
        (path, line_of(text, "when: plyers > 3"), 0),
        (path, line_of(text, "dealt_at_most: plyers"), 0)]
    assert [p.what.split(":")[0] for p in problems] == ["dealt_at_least", "when", "dealt_at_most"]
    assert all("plyers" in p.what for p in problems[1:])
    assert {p.todo for p in problems} == {"use `players`, numbers, + - * // % min() max() and variant()"}
