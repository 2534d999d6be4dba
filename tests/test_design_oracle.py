"""`pnp design` (solver/counts/design.py) beyond tests/test_design.py: the exact odds test it tables,
the piles it refuses (each a located one-line error), seats dealt nothing, the setup's own
conflicts, conflicts over the box alone, both forms of the tie-break, and a stated total.

Small original games written into a temp folder; every answer is worked out here: chances by
going through every hand of the physical cards, boxes by going through every box.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from gamefiles import line_of, write_game
from cpsat_limits import solvers_stopping_after
from generator.cli import main
from solver.counts.design import design, meets
from solver.errors import DataError
from solver.game.loader import load_game

ROLES = {"saboteur": {"role": "saboteur"}, "miner": {"role": "miner"}}
DEAL = [{"use": "deck"}, {"shuffle": "deck"}, {"deal": "deck", "each": 1, "hand": False}, {"return_rest": "deck"}]


def dump(d) -> str:
    return yaml.safe_dump(d, sort_keys=False, allow_unicode=True)


def make(folder: Path, targets: list[dict], steps=DEAL, items=ROLES, counts=None, players=(3, 4), max_pile=10,
         constraints=(), stated_total=None) -> Path:
    deck = {"id": "deck", "kind": "deck", "name": {"en": "Deck"}, "size": "poker",
            "items": [{"id": i, "name": {"en": i}, "count": (counts or {}).get(i), "attrs": a} for i, a in items.items()]}
    if stated_total is not None:
        deck["stated_total"] = {"value": stated_total, "source": "rules 1.1"}
    return write_game(folder, {
        "game.yaml": dump({"id": folder.name, "title": {"en": "T"}, "players": {"min": players[0], "max": players[1]},
                           "source_language": "en"}),
        "components.yaml": dump({"components": [deck]}),
        "setup.yaml": dump({"steps": steps, "constraints": list(constraints)}),
        "targets.yaml": dump({"max_pile": max_pile, "targets": targets})})


def boxed(folder: Path):
    return design(load_game(folder))


SEEN = {"id": "seen", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                               "probability_at_least": "1/2"}}


# ---------------------------------------------------------------------- the table's test, by every hand
@lru_cache(maxsize=None)
def chance(a: int, b: int, m: int, lo: int, hi: int) -> Fraction:
    cards = [1] * a + [0] * b
    hands = list(itertools.combinations(range(a + b), m))
    return Fraction(sum(lo <= sum(cards[i] for i in h) <= hi for h in hands), len(hands))


def test_meets_against_every_hand():
    """Every pile of up to 7 cards, every deal size and condition, three thresholds either way."""
    for a, b in itertools.product(range(0, 5), range(0, 4)):
        for m in range(0, a + b + 1):
            for lo, hi in ((0, 0), (1, 9), (1, 1), (2, 3), (-1, 1), (3, 2)):
                p_true = chance(a, b, m, lo, hi)
                for p in (Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10), Fraction(1), p_true):
                    assert meets(m, lo, hi, p, True, a, b) == (p_true >= p), (a, b, m, lo, hi, p)
                    assert meets(m, lo, hi, p, False, a, b) == (p_true <= p), (a, b, m, lo, hi, p)


@pytest.mark.parametrize("m,a,b", [(3, 1, 1), (1, -1, 5), (1, 5, -1), (0, -1, 0)])
def test_a_pile_short_or_negative_never_meets(m, a, b):
    assert not meets(m, 0, 9, Fraction(0), True, a, b)
    assert not meets(m, 0, 9, Fraction(1), False, a, b)


# ---------------------------------------------------------------------- piles the table cannot read
def one_line_error(folder: Path, capsys) -> str:
    assert main(["design", str(folder), "--dry-run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    return err[0]


@pytest.mark.parametrize("steps,what,todo", [
    ([{"use": "deck"}, {"shuffle": "deck"}, {"set_aside": "deck", "count": 1}] + DEAL[2:],
     "odds seen: deck is drawn from before the deal at 3 players", "aim odds at the first deal of a pile"),
    ([{"use": "deck"}, {"place": "deck", "items": ["miner"], "count": 1}] + DEAL[1:],
     "odds seen: a step takes an uncounted number of miner before the deal",
     "aim odds at a pile whose removals count each item"),
    (DEAL[1:], "odds seen: the pile at the deal is not miner's copies less what the steps remove",
     "put the whole component into play (`use`) before the deal"),
    ([{"use": "deck"}, {"shuffle": "deck"}, {"return_rest": "deck"}],
     "odds seen: no step deals deck to the players at the counts it applies to", "name the pile of a `deal` step, or widen `when`"),
])
def test_a_pile_the_odds_cannot_be_tabled_for_is_located(tmp_path, capsys, steps, what, todo):
    folder = make(tmp_path / "g", [{"id": "box", "total": {"component": "deck", "min": 2}}, SEEN], steps=steps,
                  counts={"miner": 5})
    line = line_of((folder / "targets.yaml").read_text(encoding="utf-8"), "id: seen")
    assert one_line_error(folder, capsys) == f"{folder / 'targets.yaml'}:{line}:0: {what}; {todo}"


def test_a_target_whose_when_excludes_every_count_is_refused(tmp_path):
    folder = make(tmp_path / "g", [{**SEEN, "when": "players > 8"}])
    with pytest.raises(DataError) as e:
        boxed(folder)
    [p] = e.value.problems
    assert (p.line, p.what) == (line_of((folder / "targets.yaml").read_text(encoding="utf-8"), "id: seen"),
                                "odds seen: no step deals deck to the players at the counts it applies to")


def test_no_targets_no_design_and_a_bad_expression_is_refused(tmp_path):
    folder = make(tmp_path / "g", [SEEN])
    (folder / "targets.yaml").unlink()
    assert boxed(folder) is None
    folder = make(tmp_path / "h", [{**SEEN, "when": "player > 3"}])
    with pytest.raises(DataError) as e:
        boxed(folder)
    assert e.value.problems[0].line == line_of((folder / "targets.yaml").read_text(encoding="utf-8"), "player > 3")


# ---------------------------------------------------------------------- seats dealt nothing
SHORT = [{"use": "deck"}, {"shuffle": "deck"},
         {"deal": "deck", "each": 1, "hand": False, "recipients": "players - 1"}, {"return_rest": "deck"}]


def seats_target(**spec):
    return {"id": "fair", "seat_expectation": {"deal": "deck", "where": {"role": "saboteur"}, **spec}}


@pytest.mark.parametrize("spec", [{}, {"equal": False, "at_least": "1/10"}])
def test_a_seat_dealt_nothing_cannot_expect_a_saboteur(tmp_path, spec):
    """One seat is dealt no card: it expects no saboteur, so `equal` (or any positive `at_least`)
    holds only with no saboteur in the pile, and the saboteur is a named kind (at least one)."""
    result = boxed(make(tmp_path / "g", [seats_target(**spec)], steps=SHORT))
    assert result.conflict == ["seat_expectation fair"] and result.conflict_players == ["3", "4"]
    assert result.counts == {} and result.notes == []


def test_a_seat_dealt_nothing_still_meets_an_upper_bound(tmp_path):
    """At most 1/3 saboteur per dealt seat: the least box of every (saboteur, miner) is 1 and 2."""
    result = boxed(make(tmp_path / "g", [seats_target(equal=False, at_most="1/3")], steps=SHORT))
    good = [(s, m) for s in range(1, 11) for m in range(1, 11) if s + m <= 10 and Fraction(s, s + m) <= Fraction(1, 3)
            and s + m >= 3]  # 3 cards dealt at 4 players
    best = min(good, key=lambda x: (x[0] + x[1], -x[0]))
    assert result.counts == {("deck", "saboteur"): best[0], ("deck", "miner"): best[1]}
    assert [(v.players, v.value) for v in result.values] == [(3, Fraction(best[0], sum(best)))] * 1 + [
        (4, Fraction(best[0], sum(best)))]


def test_every_seat_dealt_holds_by_symmetry_and_says_so(tmp_path):
    result = boxed(make(tmp_path / "g", [seats_target()]))
    assert result.notes == ["seat_expectation fair: equal at every seat at 3-4 players, holds by symmetry: every seat "
                            "is dealt the same number of cards from one shuffled pile; nothing to solve"]
    # nothing else asks anything: the least box of named kinds, 4 cards to deal at 4 players, earlier larger
    assert result.counts == {("deck", "saboteur"): 3, ("deck", "miner"): 1}


# ---------------------------------------------------------------------- conflicts
def test_the_setups_own_rules_conflict(tmp_path, capsys):
    rules = [{"id": "many", "require": "owned(saboteur) >= 3"}, {"id": "few", "require": "owned(saboteur) <= 2"}]
    folder = make(tmp_path / "g", [SEEN], constraints=rules)
    result = boxed(folder)
    assert result.counts == {} and result.conflict == [] and result.confirmed
    assert len(result.setup_conflict) == 2 and all("setup.yaml" in line for line in result.setup_conflict)
    assert {("many" in line, "few" in line) for line in result.setup_conflict} == {(True, False), (False, True)}
    assert main(["design", str(folder)]) == 1
    assert "the setup's own rules cannot all hold" in capsys.readouterr().err
    assert not (folder / "designed.yaml").exists()


def test_box_targets_that_conflict_name_no_player_count(tmp_path):
    targets = [{"id": "few", "range": {"component": "deck", "where": {"role": "saboteur"}, "max": 1}},
               {"id": "many", "range": {"component": "deck", "where": {"role": "saboteur"}, "min": 2}},
               {"id": "big", "total": {"component": "deck", "min": 4}}]
    result = boxed(make(tmp_path / "g", targets))
    assert sorted(result.conflict) == ["range few", "range many"] and result.conflict_players == []


def test_a_per_run_conflict_with_a_box_target_names_its_counts(tmp_path):
    """A saboteur dealt nine games in ten, at most one saboteur in the box: the box must deal four
    cards at 4 players, and one saboteur among 1 + m cards is dealt to n players n / (1 + m) of the
    time: the counts where no miner count m does it are the counts named."""
    targets = [{"id": "one", "range": {"component": "deck", "where": {"role": "saboteur"}, "max": 1}},
               {"id": "often", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                        "probability_at_least": "9/10"}}]
    result = boxed(make(tmp_path / "g", targets))
    assert sorted(result.conflict) == ["odds often", "range one"]
    boxes = [m for m in range(1, 10) if 1 + m >= 4]  # one saboteur, m miners, four cards dealt at 4 players
    assert not [m for m in boxes if all(chance(1, m, n, 1, 9) >= Fraction(9, 10) for n in (3, 4))]
    where = [n for n in (3, 4) if not any(chance(1, m, n, 1, 9) >= Fraction(9, 10) for m in boxes)]
    assert where == [3] and result.conflict_players == ["3"]


# ---------------------------------------------------------------------- the objective's tie-break
def kinds(tmp_path: Path, n: int, max_pile: int) -> dict:
    items = {f"kind-{i}": {"role": "x"} for i in range(n)}
    targets = [{"id": "box", "total": {"component": "deck", "min": 10}}]
    folder = make(tmp_path / f"kinds-{n}-{max_pile}", targets, steps=[{"use": "deck"}], items=items, max_pile=max_pile)
    return {k[1]: c for k, c in boxed(folder).counts.items()}


@pytest.mark.parametrize("n,max_pile", [(7, 12), (7, 400), (8, 400)])
def test_ties_go_to_the_earlier_item_in_either_form_of_the_tie_break(tmp_path, n, max_pile):
    """n named kinds, at least ten pieces: the least box is ten; of those, the first kind takes
    the most. At max_pile 400, 401 ** 7 is past 2 ** 52: one stage per item instead of one sum
    (with eight kinds one sum would need weights past what CP-SAT's integers hold)."""
    assert 401 ** 7 >= 2 ** 52 > 13 ** 7
    assert kinds(tmp_path, n, max_pile) == {"kind-0": 10 - (n - 1), **{f"kind-{i}": 1 for i in range(1, n)}}


def test_a_box_larger_than_max_pile_is_a_conflict(tmp_path):
    result = boxed(make(tmp_path / "g", [{"id": "big", "total": {"component": "deck", "min": 11}}], max_pile=10))
    assert result.conflict == ["total big"] and result.counts == {}


def test_a_stated_total_bounds_and_fixes_the_box(tmp_path):
    """The sources say the deck has 7 cards: the box is 7 whatever the least would be, the saboteur
    odds holding; by every box of 7."""
    folder = make(tmp_path / "g", [SEEN], stated_total=7, max_pile=12)
    result = boxed(folder)
    good = [(s, 7 - s) for s in range(1, 7) if all(chance(s, 7 - s, n, 1, 9) >= Fraction(1, 2) for n in (3, 4))]
    best = max(good)  # every box has 7 cards: the tie-break gives the earlier item the most
    assert result.counts == {("deck", "saboteur"): best[0], ("deck", "miner"): best[1]}


def test_a_stated_total_below_what_a_target_needs_is_a_conflict(tmp_path, capsys):
    folder = make(tmp_path / "g", [{"id": "big", "total": {"component": "deck", "min": 8}}], stated_total=7)
    assert main(["design", str(folder), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["conflict"]["targets"] == ["total big"]


# ---------------------------------------------------------------------- a stage its time limit stops
def test_a_stage_stopped_before_any_answer_keeps_the_least_box_and_says_so(tmp_path, monkeypatch):
    """The tie-break (stage 2 of 2) stopped: the box is the first stage's, the fewest copies that
    meet the odds by every box, and the answer says the later stage is not optimised."""
    import solver.counts.design as design_module
    monkeypatch.setattr(design_module, "_solver", solvers_stopping_after(1, design_module._solver))
    result = boxed(make(tmp_path / "g", [SEEN]))
    good = [b for b in itertools.product(range(1, 11), repeat=2) if 4 <= sum(b) <= 10
            and all(chance(b[0], b[1], n, 1, 9) >= Fraction(1, 2) for n in (3, 4))]
    box = (result.counts[("deck", "saboteur")], result.counts[("deck", "miner")])
    assert box in good and sum(box) == min(sum(b) for b in good)
    assert [n for n in result.notes if "stage 2 of 2" in n and "not proven the least box" in n]


def test_no_stage_with_an_answer_is_a_located_error(tmp_path, monkeypatch, capsys):
    import solver.counts.design as design_module
    folder = make(tmp_path / "g", [SEEN])
    monkeypatch.setattr(design_module, "_solver", solvers_stopping_after(0, design_module._solver))
    assert main(["design", str(folder)]) == 2
    [err] = capsys.readouterr().err.strip().splitlines()
    assert err == (f"{folder / 'targets.yaml'}:1:0: the solver found no box within 60 s; try fewer or looser "
                   "targets, or a smaller max_pile")
    assert not (folder / "designed.yaml").exists()


# ---------------------------------------------------------------------- piles with no matched or no other card
@pytest.mark.parametrize("where,dealt", [({"role": "dragon"}, Fraction(0)), ({"role": ["saboteur", "miner"]}, Fraction(1))])
def test_odds_over_a_pile_with_no_matched_or_no_other_card(tmp_path, where, dealt):
    """No card is a dragon (the matched side is empty), or every card matches (the other side is):
    the chance is 0 or 1 whatever the box, so the box is the least of named kinds that deals four
    cards at 4 players, the earlier kind larger; by every box and every hand."""
    target = {"id": "t", "odds": {"deal": "deck", "where": where, "dealt_at_least": 1,
                                  "probability_at_most" if dealt == 0 else "probability_at_least": str(dealt)}}
    result = boxed(make(tmp_path / "g", [target]))
    best = min(((s, m) for s in range(1, 11) for m in range(1, 11) if 4 <= s + m <= 10), key=lambda x: (sum(x), -x[0]))
    assert result.conflict == [] and result.counts == {("deck", "saboteur"): best[0], ("deck", "miner"): best[1]}
    matched = 0 if where == {"role": "dragon"} else sum(best)
    assert [(v.players, v.value) for v in result.values] == [
        (n, chance(matched, sum(best) - matched, n, 1, 99)) for n in (3, 4)]
    assert [v.value for v in result.values] == [dealt, dealt]


# ---------------------------------------------------------------------- a deal of no card at one count
def test_a_seat_dealt_no_card_at_one_count_expects_none_there(tmp_path):
    """Each player is dealt players - 1 cards: at 2 players both seats get one (equal by symmetry),
    at 1 player the only seat gets none and so expects no saboteur, which a named kind cannot give."""
    steps = [{"use": "deck"}, {"shuffle": "deck"}, {"deal": "deck", "each": "players - 1", "hand": False},
             {"return_rest": "deck"}]
    result = boxed(make(tmp_path / "g", [seats_target()], steps=steps, players=(1, 2)))
    assert result.conflict == ["seat_expectation fair"] and result.conflict_players == ["1"]
    assert result.notes == ["seat_expectation fair: equal at every seat at 2 players, holds by symmetry: every seat "
                            "is dealt the same number of cards from one shuffled pile; nothing to solve"]


def expected_in_hand(a: int, b: int, each: int) -> Fraction:
    """The mean number of matched cards in one seat's hand of `each`, over every such hand."""
    cards = [1] * a + [0] * b
    hands = list(itertools.combinations(range(a + b), each))
    return Fraction(sum(sum(cards[i] for i in h) for h in hands), len(hands))


def test_a_seat_expectation_counts_every_card_of_a_hand(tmp_path):
    """Two cards a seat, at least half a saboteur expected in each hand: the least box of 8 cards
    (4 players), miners listed first so the tie-break asks for the fewest saboteurs that do it."""
    items = {"miner": {"role": "miner"}, "saboteur": {"role": "saboteur"}}
    steps = [{"use": "deck"}, {"shuffle": "deck"}, {"deal": "deck", "each": 2, "hand": False}, {"return_rest": "deck"}]
    result = boxed(make(tmp_path / "g", [seats_target(equal=False, at_least="1/2")], steps=steps, items=items,
                        max_pile=12))
    good = [(m, s) for m in range(1, 12) for s in range(1, 12)
            if 8 <= m + s <= 12 and expected_in_hand(s, m, 2) >= Fraction(1, 2)]
    best = min(good, key=lambda x: (sum(x), -x[0]))
    assert best == (6, 2)
    assert result.counts == {("deck", "miner"): best[0], ("deck", "saboteur"): best[1]}
    assert [(v.players, v.value) for v in result.values] == [(n, expected_in_hand(2, 6, 2)) for n in (3, 4)]


# ---------------------------------------------------------------------- the objective's later stages
@pytest.mark.parametrize("near", ["1/2", "9/10"])
def test_a_share_far_from_its_aim_is_still_minimised(tmp_path, near):
    """At most one saboteur and at least 80 cards, a share asking for half (or nine tenths) saboteurs:
    the box is one saboteur and 79 miners, 1/80 saboteur, a weighted distance |2·1 - 80| = 78 from
    half (|10·1 - 9·80| = 710 from nine tenths)."""
    targets = [{"id": "one", "range": {"component": "deck", "where": {"role": "saboteur"}, "max": 1}},
               {"id": "big", "total": {"component": "deck", "min": 80}},
               {"id": "aim", "share": {"component": "deck", "where": {"role": "saboteur"}, "near": near}}]
    result = boxed(make(tmp_path / "g", targets, max_pile=100))
    assert result.counts == {("deck", "saboteur"): 1, ("deck", "miner"): 79}
    assert {v.target: v.value for v in result.values} == {"one": 1, "big": 80, "aim": Fraction(1, 80)}


FREE = [{"use": "deck"}, {"remove": {"component": "deck", "where": {"role": "saboteur"}, "each": "free"}},
        {"shuffle": "deck"}, {"deal": "deck", "each": 1, "hand": False}, {"return_rest": "deck"}]


def test_the_fewest_removed_come_before_the_earlier_item_larger(tmp_path):
    """Saboteurs may be removed (`each: free`) before one card each is dealt; a saboteur dealt at
    most half the time, eight cards at least. Removing saboteurs would let the box hold more of
    them (the earlier item), but the fewest copies removed come first in the objective: by every
    box and every removal at 3 and 4 players."""
    targets = [{"id": "box", "total": {"component": "deck", "min": 8}},
               {"id": "rare", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                       "probability_at_most": "1/2"}}]
    result = boxed(make(tmp_path / "g", targets, steps=FREE, max_pile=12))

    def fewest_removed(s, m, n):
        ok = [r for r in range(s + 1) if s - r + m >= n and chance(s - r, m, n, 1, 99) <= Fraction(1, 2)]
        return min(ok) if ok else None

    good = {(s, m): [fewest_removed(s, m, n) for n in (3, 4)] for s in range(1, 12) for m in range(1, 12)
            if 8 <= s + m <= 12 and None not in [fewest_removed(s, m, n) for n in (3, 4)]}
    best = min(good, key=lambda b: (sum(b), sum(good[b]), -b[0]))
    assert best == (1, 7) and max(s for s, m in good if s + m == 8) == 4  # more saboteurs only by removing them
    assert result.counts == {("deck", "saboteur"): best[0], ("deck", "miner"): best[1]}
    assert result.amounts == {(1, 3, None): good[best][0], (1, 4, None): good[best][1]}
    assert {(v.target, v.players): v.value for v in result.values if v.target == "rare"} == {
        ("rare", n): chance(best[0], best[1], n, 1, 99) for n in (3, 4)}


def test_nothing_to_design_still_solves_the_open_counts(tmp_path):
    """The targets name only a deck whose counts are stated; another component has no counts and
    no target: nothing is designed, and the box's values are read at the stated counts."""
    def comp(cid, ids, counts):
        return {"id": cid, "kind": "deck", "name": {"en": cid}, "size": "poker",
                "items": [{"id": i, "name": {"en": i}, "count": counts.get(i), "attrs": {"role": i}} for i in ids]}
    folder = write_game(tmp_path / "g", {
        "game.yaml": dump({"id": "g", "title": {"en": "T"}, "players": {"min": 3, "max": 4}, "source_language": "en"}),
        "components.yaml": dump({"components": [comp("deck", ["saboteur", "miner"], {"saboteur": 2, "miner": 3}),
                                                comp("spare", ["gold", "coal"], {})]}),
        "setup.yaml": dump({"steps": [{"use": "deck"}, {"use": "spare"}] + DEAL[1:]}),
        "targets.yaml": dump({"max_pile": 10, "targets": [{"id": "box", "total": {"component": "deck", "min": 2}}]})})
    result = boxed(folder)
    assert result.counts == {} and result.conflict == [] and result.setup_conflict == []
    assert [(v.target, v.value) for v in result.values] == [("box", 5)]


@pytest.mark.parametrize("near", ["1/15000000", "0.00000001"])
def test_a_share_near_a_fine_fraction_still_gives_the_least_box(tmp_path, near):
    """A share aimed at a fraction with a large denominator: its weighted distance |q·matched - p·total|
    is then tens of millions even for the best box (two saboteurs at least), and the box must still be
    the least one that meets the hard targets (four cards at least), the saboteurs as few as they can be."""
    targets = [{"id": "big", "total": {"component": "deck", "min": 4}},
               {"id": "two", "range": {"component": "deck", "where": {"role": "saboteur"}, "min": 2}},
               {"id": "tiny", "share": {"component": "deck", "where": {"role": "saboteur"}, "near": near}}]
    result = boxed(make(tmp_path / "g", targets))
    aim = Fraction(near)
    best = min(((s, m) for s in range(2, 11) for m in range(1, 11) if 4 <= s + m <= 10),
               key=lambda x: (sum(x), abs(Fraction(x[0], sum(x)) - aim), -x[0]))
    assert best == (2, 2)
    assert result.counts == {("deck", "saboteur"): best[0], ("deck", "miner"): best[1]}
    assert {v.target: v.value for v in result.values} == {"big": 4, "two": 2, "tiny": Fraction(1, 2)}


# ---------------------------------------------------------------------- removals before the deal
PICK = {"saboteur": {"role": "saboteur"}, "miner": {"role": "miner", "tool": "pick"}, "elder": {"role": "miner"}}
ONE_PICK_OUT = [{"use": "deck"}, {"remove": {"component": "deck", "where": {"tool": "pick"}, "each": 1}},
                {"shuffle": "deck"}, {"deal": "deck", "each": 1, "hand": False}, {"return_rest": "deck"}]


def test_a_stated_deck_thinned_is_measured_not_designed(tmp_path):
    """Every count stated (2 saboteurs, 4 miners, 1 elder), one copy of each kind with a pick removed
    before the deal (the only elder too): nothing to design, the odds those of the 5 cards left."""
    items = {**PICK, "elder": {"role": "miner", "tool": "pick"}}
    result = boxed(make(tmp_path / "g", [SEEN], steps=ONE_PICK_OUT, items=items,
                        counts={"saboteur": 2, "miner": 4, "elder": 1}))
    assert result.conflict == [] and result.setup_conflict == [] and result.counts == {}
    assert [(v.players, v.value) for v in result.values] == [(n, chance(2, 3, n, 1, 99)) for n in (3, 4)]


def test_the_odds_count_the_pile_less_a_stated_kinds_removal(tmp_path):
    """Miners and elders stated, one miner removed before the deal, the saboteurs designed: the
    fewest saboteurs that are dealt half the time at 3 and 4 players among 3 miners and 2 elders."""
    result = boxed(make(tmp_path / "g", [SEEN], steps=ONE_PICK_OUT, items=PICK, counts={"miner": 4, "elder": 2}))
    s = min(s for s in range(1, 5) if all(chance(s, 5, n, 1, 99) >= Fraction(1, 2) for n in (3, 4)))
    assert result.counts == {("deck", "saboteur"): s}
    assert [(v.players, v.value) for v in result.values] == [(n, chance(s, 5, n, 1, 99)) for n in (3, 4)]


def test_a_seat_expectation_counts_the_pile_less_what_is_removed(tmp_path):
    """One saboteur and one miner removed before one card each is dealt; each seat expects between
    a third and a half of a saboteur: by every box, the expectation read over the pile left."""
    steps = [{"use": "deck"}, {"remove": {"component": "deck", "where": {"role": "saboteur"}, "each": 1}},
             {"remove": {"component": "deck", "where": {"role": "miner"}, "each": 1}}] + DEAL[1:]
    result = boxed(make(tmp_path / "g", [seats_target(equal=False, at_least="1/3", at_most="1/2")], steps=steps))
    good = [(s, m) for s in range(1, 11) for m in range(1, 11) if s + m <= 10 and s + m - 2 >= 4
            and Fraction(1, 3) <= expected_in_hand(s - 1, m - 1, 1) <= Fraction(1, 2)]
    best = min(good, key=lambda x: (sum(x), -x[0]))
    assert best == (3, 3)
    assert result.counts == {("deck", "saboteur"): best[0], ("deck", "miner"): best[1]}
    assert [(v.players, v.value) for v in result.values] == [(n, expected_in_hand(2, 2, 1)) for n in (3, 4)]
