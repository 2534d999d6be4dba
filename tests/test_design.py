"""Inverse design (`pnp design`, solver/counts/design.py): every answer against a brute force.

Each case is a small original game written to a temp folder (a role or suit deck, a setup that
uses it, removes some cards at some counts and deals it) with a set of targets. The oracle here
enumerates every box up to `max_pile` copies, and every deal of every box card by card
(itertools.combinations over the physical cards, counted with fractions.Fraction): no formula or
code of the project is shared. It checks that the command's box is the least one that meets the
targets (ties as documented), that every value printed equals the oracle's exact fraction, and,
for an infeasible set, that the conflict named is infeasible and minimal and holds at the counts named.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from generator.cli import main

ROLE_ITEMS = [("saboteur", {"role": "saboteur"}), ("miner", {"role": "miner"})]


def write_game(folder: Path, items, steps, targets, players=(3, 6), max_pile=12, counts=None) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(yaml.safe_dump({
        "id": folder.name, "title": {"en": "Test"}, "players": {"min": players[0], "max": players[1]},
        "source_language": "en"}), encoding="utf-8")
    comp = {"id": "deck", "kind": "deck", "name": {"en": "Deck"}, "size": "poker",
            "items": [{"id": i, "name": {"en": i}, "count": (counts or {}).get(i), "attrs": a} for i, a in items]}
    (folder / "components.yaml").write_text(yaml.safe_dump({"components": [comp]}, sort_keys=False), encoding="utf-8")
    (folder / "setup.yaml").write_text(yaml.safe_dump({"steps": steps}, sort_keys=False), encoding="utf-8")
    (folder / "targets.yaml").write_text(yaml.safe_dump({"max_pile": max_pile, "targets": targets}, sort_keys=False),
                                         encoding="utf-8")
    return folder


def deal_steps(each=1, removals=()):
    return ([{"use": "deck"}] + list(removals) + [{"shuffle": "deck"},
            {"deal": "deck", "each": each, "hand": False}, {"return_rest": "deck"}])


def run_design(folder: Path, capsys) -> tuple[int, dict]:
    code = main(["design", str(folder), "--json"])
    return code, json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------------- the oracle
@lru_cache(maxsize=None)
def chance(a: int, b: int, m: int, lo: int, hi: int) -> Fraction:
    """P(lo <= matched cards <= hi) when m of a matched and b other cards are dealt: every m-subset
    of the physical cards counted one by one."""
    cards = [1] * a + [0] * b
    hits = total = 0
    for hand in itertools.combinations(range(len(cards)), m):
        total += 1
        hits += lo <= sum(cards[i] for i in hand) <= hi
    return Fraction(hits, total)


def boxes(names, max_pile):
    """Every box: each named kind at least once, at most max_pile copies in all."""
    for xs in itertools.product(range(1, max_pile + 1), repeat=len(names)):
        if sum(xs) <= max_pile:
            yield dict(zip(names, xs))


def pile(box, removed):
    return {k: box[k] - removed.get(k, 0) for k in box}


def least(candidates, names, share=None):
    """The documented order: fewest copies, then the share's distance, then the earlier item larger."""
    def key(box):
        dist = abs(Fraction(box[share[0]], sum(box.values())) - share[1]) if share else 0
        return (sum(box.values()), dist, tuple(-box[n] for n in names))
    return min(candidates, key=key)


def odds_value(box, n, each, removed, lo, hi, matched=("saboteur",)):
    p = pile(box, removed(n))
    a = sum(v for k, v in p.items() if k in matched)
    return chance(a, sum(p.values()) - a, n * each, lo, hi)


def values_of(out, target):
    return {v["players"]: Fraction(v["value"]) for v in out["values"] if v["target"] == target}


def feasible_setup(box, counts, each, removed):
    return all(min(pile(box, removed(n)).values()) >= 0 and sum(pile(box, removed(n)).values()) >= n * each
               for n in counts)


# ---------------------------------------------------------------------- cases with an answer
ODDS_CASES = [
    # (name, targets as (dealt lo, dealt hi, at_least?, p), players, each, max_pile)
    ("one-saboteur-9-10", [(1, 99, True, "9/10")], (3, 6), 1, 12),
    ("one-saboteur-4-5", [(1, 99, True, "4/5")], (3, 5), 1, 10),
    ("not-half-3-5-1-4", [(1, 99, True, "3/5"), ("half", 99, False, "1/4")], (3, 6), 1, 12),
    ("exactly-one-half", [(1, 1, True, "1/2")], (3, 5), 1, 10),
    ("hands-of-two", [(1, 99, True, "4/5"), (3, 99, False, "1/2")], (2, 4), 2, 12),
]


@pytest.mark.parametrize("name,conds,players,each,max_pile", ODDS_CASES, ids=[c[0] for c in ODDS_CASES])
def test_odds_targets_give_the_least_box_and_exact_values(tmp_path, capsys, name, conds, players, each, max_pile):
    targets = []
    for i, (lo, hi, at_least, p) in enumerate(conds):
        odds = {"deal": "deck", "where": {"role": "saboteur"},
                "dealt_at_least": "(players + 1) // 2" if lo == "half" else lo}
        if hi != 99:
            odds["dealt_at_most"] = hi
        odds["probability_at_least" if at_least else "probability_at_most"] = p
        targets.append({"id": f"t{i}", "odds": odds})
    folder = write_game(tmp_path / name, ROLE_ITEMS, deal_steps(each), targets, players, max_pile)
    counts = range(players[0], players[1] + 1)
    no_removal = lambda n: {}  # noqa: E731

    def lohi(lo, hi, n):
        return ((n + 1) // 2 if lo == "half" else lo), hi

    def meets(box):
        if not feasible_setup(box, counts, each, no_removal):
            return False
        for lo, hi, at_least, p in conds:
            for n in counts:
                v = odds_value(box, n, each, no_removal, *lohi(lo, hi, n))
                if (v < Fraction(p)) if at_least else (v > Fraction(p)):
                    return False
        return True

    good = [b for b in boxes(["saboteur", "miner"], max_pile) if meets(b)]
    code, out = run_design(folder, capsys)
    assert good, "each case here has an answer"
    assert code == 0
    best = least(good, ["saboteur", "miner"])
    assert {c["item"]: c["count"] for c in out["counts"]} == best
    for i, (lo, hi, _, _) in enumerate(conds):
        assert values_of(out, f"t{i}") == {n: odds_value(best, n, each, no_removal, *lohi(lo, hi, n)) for n in counts}
    assert all(v["holds"] for v in out["values"])
    # the file written is what `pnp check` proves again: no error, every target met
    assert main(["check", str(folder)]) == 0
    capsys.readouterr()


def test_removals_per_player_count_enter_the_pile(tmp_path, capsys):
    """Two loyal miners leave the pile at 3-4 players before the deal: the odds are of what is left."""
    removals = [{"remove": {"component": "deck", "where": {"role": "miner"}, "each": 2}, "when": "players <= 4"}]
    targets = [{"id": "seen", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                       "probability_at_least": "5/6"}}]
    folder = write_game(tmp_path / "removals", ROLE_ITEMS, deal_steps(1, removals), targets, (3, 6), 12)
    counts = range(3, 7)
    removed = lambda n: {"miner": 2} if n <= 4 else {}  # noqa: E731
    good = [b for b in boxes(["saboteur", "miner"], 12) if feasible_setup(b, counts, 1, removed)
            and all(odds_value(b, n, 1, removed, 1, 99) >= Fraction(5, 6) for n in counts)]
    code, out = run_design(folder, capsys)
    assert code == 0
    best = least(good, ["saboteur", "miner"])
    assert {c["item"]: c["count"] for c in out["counts"]} == best
    assert values_of(out, "seen") == {n: odds_value(best, n, 1, removed, 1, 99) for n in counts}


def test_when_limits_a_target_to_some_counts(tmp_path, capsys):
    targets = [{"id": "big-tables", "when": "players >= 5",
                "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 2,
                         "probability_at_least": "1/2"}}]
    folder = write_game(tmp_path / "when", ROLE_ITEMS, deal_steps(), targets, (3, 6), 12)
    counts = range(3, 7)
    good = [b for b in boxes(["saboteur", "miner"], 12) if feasible_setup(b, counts, 1, lambda n: {})
            and all(odds_value(b, n, 1, lambda n: {}, 2, 99) >= Fraction(1, 2) for n in (5, 6))]
    code, out = run_design(folder, capsys)
    assert code == 0
    best = least(good, ["saboteur", "miner"])
    assert {c["item"]: c["count"] for c in out["counts"]} == best
    assert set(values_of(out, "big-tables")) == {5, 6}


SUITS = [(f"{s}-{k}", {"suit": s, "kind": k}) for s in ("red", "blue") for k in ("low", "high")]


def test_range_per_suit_and_total_give_the_least_deck(tmp_path, capsys):
    """Each suit 3-5 cards, at least 2 high cards, a deck of at least 9: the least deck, by enumeration."""
    targets = [{"id": "suit-size", "range": {"component": "deck", "per": "suit", "min": 3, "max": 5}},
               {"id": "highs", "range": {"component": "deck", "where": {"kind": "high"}, "min": 2}},
               {"id": "deck-size", "total": {"component": "deck", "min": 9}}]
    folder = write_game(tmp_path / "suits", SUITS, deal_steps(), targets, (2, 3), 12)
    names = [n for n, _ in SUITS]

    def meets(b):
        suits = [b["red-low"] + b["red-high"], b["blue-low"] + b["blue-high"]]
        return all(3 <= s <= 5 for s in suits) and b["red-high"] + b["blue-high"] >= 2 and sum(b.values()) >= 9
    good = [b for b in boxes(names, 12) if meets(b)]
    code, out = run_design(folder, capsys)
    assert code == 0
    best = least(good, names)
    assert {c["item"]: c["count"] for c in out["counts"]} == best
    parts = {v["part"]: int(v["value"]) for v in out["values"] if v["target"] == "suit-size"}
    assert parts == {"suit=red": best["red-low"] + best["red-high"], "suit=blue": best["blue-low"] + best["blue-high"]}
    assert [int(v["value"]) for v in out["values"] if v["target"] == "deck-size"] == [sum(best.values())]


def test_a_soft_share_breaks_ties_and_reports_its_slack(tmp_path, capsys):
    targets = [{"id": "box", "total": {"component": "deck", "min": 8}},
               {"id": "third", "share": {"component": "deck", "where": {"role": "saboteur"}, "near": "1/3", "weight": 2}}]
    folder = write_game(tmp_path / "share", ROLE_ITEMS, deal_steps(), targets, (3, 4), 12)
    good = [b for b in boxes(["saboteur", "miner"], 12) if sum(b.values()) >= 8]
    code, out = run_design(folder, capsys)
    assert code == 0
    best = least(good, ["saboteur", "miner"], share=("saboteur", Fraction(1, 3)))
    assert {c["item"]: c["count"] for c in out["counts"]} == best
    share = next(v for v in out["values"] if v["target"] == "third")
    assert Fraction(share["value"]) == Fraction(best["saboteur"], 8)
    assert Fraction(share["slack"]) == abs(Fraction(best["saboteur"], 8) - Fraction(1, 3))


def test_seat_expectation_bounds_and_symmetry(tmp_path, capsys):
    """Every seat is dealt one card of one pile: `equal` holds by symmetry (said, not solved); the
    bound each seat expects at least 1/3 saboteur is each·A/(A+B) >= 1/3, enumerated here."""
    targets = [{"id": "fair", "seat_expectation": {"deal": "deck", "where": {"role": "saboteur"}, "at_least": "1/3"}},
               {"id": "box", "total": {"component": "deck", "min": 7}}]
    folder = write_game(tmp_path / "seats", ROLE_ITEMS, deal_steps(), targets, (3, 5), 12)
    good = [b for b in boxes(["saboteur", "miner"], 12) if sum(b.values()) >= 7
            and Fraction(b["saboteur"], sum(b.values())) >= Fraction(1, 3)]
    code, out = run_design(folder, capsys)
    assert code == 0
    best = least(good, ["saboteur", "miner"])
    assert {c["item"]: c["count"] for c in out["counts"]} == best
    # the expectation per seat, by enumerating every deal and counting the first seat's saboteurs
    cards = [1] * best["saboteur"] + [0] * best["miner"]
    for n, value in values_of(out, "fair").items():
        deals = list(itertools.permutations(range(len(cards)), n))
        assert value == Fraction(sum(cards[d[0]] for d in deals), len(deals))
    assert any("symmetry" in note for note in out["notes"])


# ---------------------------------------------------------------------- conflicts
def test_infeasible_targets_name_a_minimal_conflict_and_where(tmp_path, capsys):
    """Seen nine times in ten, yet at least half the table at most once in twenty: no box of up to
    12 cards does both at 3 and 4 players; a third target that agrees with both is left out."""
    targets = [{"id": "saboteur-dealt", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                                 "probability_at_least": "9/10"}},
               {"id": "small-box", "total": {"component": "deck", "max": 12}},
               {"id": "saboteurs-not-half", "odds": {"deal": "deck", "where": {"role": "saboteur"},
                                                     "dealt_at_least": "(players + 1) // 2", "probability_at_most": "1/20"}}]
    folder = write_game(tmp_path / "clash", ROLE_ITEMS, deal_steps(), targets, (3, 6), 12)
    counts = range(3, 7)
    none = lambda n: {}  # noqa: E731

    def ok(box, which, at=counts):
        if not feasible_setup(box, counts, 1, none):
            return False
        checks = {"saboteur-dealt": lambda n: odds_value(box, n, 1, none, 1, 99) >= Fraction(9, 10),
                  "saboteurs-not-half": lambda n: odds_value(box, n, 1, none, (n + 1) // 2, 99) <= Fraction(1, 20)}
        return all(checks[t](n) for t in which for n in at)

    all_boxes = list(boxes(["saboteur", "miner"], 12))
    code, out = run_design(folder, capsys)
    assert code == 1
    named = [t.split(" ", 1)[1] for t in out["conflict"]["targets"]]
    assert sorted(named) == ["saboteur-dealt", "saboteurs-not-half"]
    assert not any(ok(b, named) for b in all_boxes)  # they conflict
    for t in named:  # and each alone has a box: the set is minimal
        assert any(ok(b, [x for x in named if x != t]) for b in all_boxes)
    where = [n for n in counts if not any(ok(b, named, [n]) for b in all_boxes)]
    assert out["conflict"]["players"] == [str(n) for n in where] and where == [3, 4]
    assert out["conflict"]["confirmed"] is True
    assert not (folder / "designed.yaml").exists()
    main(["design", str(folder)])
    err = capsys.readouterr().err
    assert "odds saboteur-dealt and odds saboteurs-not-half at 3 and 4 players" in err


def test_a_bad_target_is_a_located_one_line_error(tmp_path, capsys):
    targets = [{"id": "t", "odds": {"deal": "deck", "dealt_at_least": 1, "probability_at_least": "nine tenths"}}]
    folder = write_game(tmp_path / "bad", ROLE_ITEMS, deal_steps(), targets, (3, 4), 12)
    assert main(["design", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(str(folder / "targets.yaml") + ":") and "fraction" in err[0]


def test_check_finds_a_hand_edited_design(tmp_path, capsys):
    targets = [{"id": "seen", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                       "probability_at_least": "4/5"}}]
    folder = write_game(tmp_path / "edited", ROLE_ITEMS, deal_steps(), targets, (3, 4), 10)
    assert run_design(folder, capsys)[0] == 0
    text = (folder / "designed.yaml").read_text(encoding="utf-8")
    saboteurs = next(c for c in yaml.safe_load(text)["counts"] if c["item"] == "saboteur")["count"]
    (folder / "designed.yaml").write_text(text.replace(f"item: saboteur, count: {saboteurs}", "item: saboteur, count: 1"),
                                          encoding="utf-8")
    assert main(["check", str(folder), "--json"]) == 1
    codes = {f["code"] for f in json.loads(capsys.readouterr().out)["findings"] if f["severity"] == "error"}
    assert {"target-missed", "design-stale"} <= codes


# ---------------------------------------------------------------------- the Saboteur example
def test_saboteur_example_finds_the_seed_split_with_the_odds_it_guarantees(tmp_path, capsys):
    """Its targets.yaml reopens the dwarf cards: the design is the seed's 3 loyal, 1 selfish, 1
    saboteur per clan (10 cards), and every value equals a count of every deal of the physical pile
    (two loyal per clan out at 3-4 players, one at 5-6) and the checker's own p_no_saboteur."""
    import shutil

    from solver.game.folders import GAMES_DIR

    folder = tmp_path / "saboteur-the-lost-mines"
    shutil.copytree(GAMES_DIR / "saboteur-the-lost-mines", folder)
    (folder / "designed.yaml").unlink()
    code, out = run_design(folder, capsys)
    assert code == 0
    assert {c["item"]: c["count"] for c in out["counts"]} == {
        "dwarf-blue-loyal": 3, "dwarf-blue-selfish": 1, "dwarf-blue-saboteur": 1,
        "dwarf-yellow-loyal": 3, "dwarf-yellow-selfish": 1, "dwarf-yellow-saboteur": 1}
    for n, value in values_of(out, "saboteur-dealt").items():
        loyal = 6 - (4 if n <= 4 else 2 if n <= 6 else 0)
        assert value == chance(2, loyal + 2, n, 1, 99)
        assert value >= Fraction(4, 5)
    for n, value in values_of(out, "saboteurs-not-half").items():
        loyal = 6 - (4 if n <= 4 else 2 if n <= 6 else 0)
        assert value == chance(2, loyal + 2, n, (n + 1) // 2, 99)
    assert main(["check", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for n, value in values_of(out, "saboteur-dealt").items():
        assert value == 1 - Fraction(report["derived"]["p_no_saboteur_exact"][str(n)])
    codes = {f["code"] for f in report["findings"]}
    assert "design-reproduces-stated" in codes and "target-missed" not in codes
    # the committed designed.yaml is what the command writes
    assert (folder / "designed.yaml").read_bytes() == (GAMES_DIR / "saboteur-the-lost-mines" / "designed.yaml").read_bytes()


# ---------------------------------------------------------------------- free amounts per player count
FREE_STEPS = [{"use": "deck"},
              {"remove": {"component": "deck", "where": {"role": "saboteur"}, "each": "free"}},
              {"remove": {"component": "deck", "where": {"role": "miner"}, "each": "free"}},
              {"shuffle": "deck"}, {"deal": "deck", "each": 1, "hand": False}]  # the card left over stays in play
ONE_LEFT = {"id": "one-card-left", "kind": "exactly", "of": {"component": "deck", "zone": "in_play"},
            "value": "players + 1"}


def free_game(folder, targets, players=(3, 6), max_pile=10):
    write_game(folder, ROLE_ITEMS, FREE_STEPS, targets, players, max_pile)
    (folder / "setup.yaml").write_text(yaml.safe_dump({"steps": FREE_STEPS, "constraints": [ONE_LEFT]},
                                                      sort_keys=False), encoding="utf-8")
    return folder


def in_play_choices(box, n):
    """Every (saboteurs, miners) in play at n players: players + 1 cards from the box."""
    return [(s, n + 1 - s) for s in range(0, box["saboteur"] + 1) if 0 <= n + 1 - s <= box["miner"]]


def test_free_removals_choose_each_counts_subset_of_one_box(tmp_path, capsys):
    """One box; at each count the design removes saboteurs and miners (`each: free`) so that
    players + 1 cards stay in play and the odds hold there. The least box by enumeration of every
    box and every subset; the amounts written are checked by counting the deals they leave."""
    targets = [{"id": "seen", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                       "probability_at_least": "3/4"}},
               {"id": "not-half", "odds": {"deal": "deck", "where": {"role": "saboteur"},
                                           "dealt_at_least": "(players + 1) // 2", "probability_at_most": "1/3"}},
               {"id": "two-saboteurs", "range": {"component": "deck", "where": {"role": "saboteur"}, "min": 2}}]
    folder = free_game(tmp_path / "free", targets)
    counts = range(3, 7)

    def good_subset(s, m, n):
        return (chance(s, m, n, 1, 99) >= Fraction(3, 4)
                and chance(s, m, n, (n + 1) // 2, 99) <= Fraction(1, 3))

    good = [b for b in boxes(["saboteur", "miner"], 10) if b["saboteur"] >= 2
            and all(any(good_subset(s, m, n) for s, m in in_play_choices(b, n)) for n in counts)]
    code, out = run_design(folder, capsys)
    assert good and code == 0
    best = least(good, ["saboteur", "miner"])
    box = {c["item"]: c["count"] for c in out["counts"]}
    assert box == best
    removed = {(a["step"], a["players"]): a["each"] for a in out["amounts"]}
    for n in counts:
        s, m = box["saboteur"] - removed[(1, n)], box["miner"] - removed[(2, n)]
        assert s + m == n + 1 and good_subset(s, m, n)
        assert values_of(out, "seen")[n] == chance(s, m, n, 1, 99)
        assert values_of(out, "not-half")[n] == chance(s, m, n, (n + 1) // 2, 99)
    assert main(["check", str(folder), "--json"]) == 0
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert not [f for f in findings if f["code"] in ("target-missed", "design-stale", "design-breaks-rules",
                                                     "free-amount-not-designed")]


def test_free_removals_conflict_at_three_and_four_players(tmp_path, capsys):
    """The issue's pair: a saboteur dealt nine games in ten, the saboteurs half the table at most
    once in twenty: whatever box and subsets, they cannot both hold at 3 and at 4 players."""
    targets = [{"id": "saboteur-dealt", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                                 "probability_at_least": "9/10"}},
               {"id": "saboteurs-not-half", "odds": {"deal": "deck", "where": {"role": "saboteur"},
                                                     "dealt_at_least": "(players + 1) // 2", "probability_at_most": "1/20"}}]
    folder = free_game(tmp_path / "free-clash", targets)
    code, out = run_design(folder, capsys)
    assert code == 1
    assert sorted(t.split(" ", 1)[1] for t in out["conflict"]["targets"]) == ["saboteur-dealt", "saboteurs-not-half"]

    def both(s, m, n):
        return chance(s, m, n, 1, 99) >= Fraction(9, 10) and chance(s, m, n, (n + 1) // 2, 99) <= Fraction(1, 20)
    where = [n for n in range(3, 7) if not any(both(s, m, n) for s, m in ((s, n + 1 - s) for s in range(n + 2)))]
    assert where == [3, 4] and out["conflict"]["players"] == ["3", "4"]  # no split of players + 1 cards works
    assert out["conflict"]["stated"] == []  # the box is the design's: no stated count is in the way


RETURNED = FREE_STEPS + [{"return_rest": "deck"}]  # the card left over goes back to the box


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_free_removals_with_every_count_stated(tmp_path, capsys):
    """Every count stated (3 saboteurs, 7 miners), the rest returned to the box after the deal: the
    free removals alone meet the odds. The fewest copies removed, by every removal at every count;
    the rest goes back whatever the removals leave (it was once fixed at what no removal leaves)."""
    targets = [{"id": "seen", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                       "probability_at_least": "3/4"}}]
    folder = write_game(tmp_path / "stated", ROLE_ITEMS, RETURNED, targets, (3, 6), 10,
                        counts={"saboteur": 3, "miner": 7})
    code, out = run_design(folder, capsys)
    assert code == 0 and out["counts"] == []
    removed = {(a["step"], a["players"]): a["each"] for a in out["amounts"]}
    for n in range(3, 7):
        ok = [(rs, rm) for rs in range(4) for rm in range(8)
              if 10 - rs - rm >= n and chance(3 - rs, 7 - rm, n, 1, 99) >= Fraction(3, 4)]
        rs, rm = removed[(1, n)], removed[(2, n)]
        assert (rs, rm) in ok and rs + rm == min(a + b for a, b in ok)
        assert values_of(out, "seen")[n] == chance(3 - rs, 7 - rm, n, 1, 99)
    assert (removed[(1, 3)], removed[(2, 3)]) == (0, 1)  # 3 of 10 cards miss every saboteur too often


def test_a_target_the_stated_counts_cannot_meet_names_them(tmp_path, capsys):
    """One saboteur stated: two saboteurs dealt is impossible whatever the removals. The message
    names the stated counts where they are stated and what to change, on one line, exit 1."""
    targets = [{"id": "two-seen", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 2,
                                           "probability_at_least": "1/2"}}]
    folder = write_game(tmp_path / "one", ROLE_ITEMS, RETURNED, targets, (3, 4), 10,
                        counts={"saboteur": 1, "miner": 7})
    assert main(["design", str(folder)]) == 1
    [err] = capsys.readouterr().err.strip().splitlines()
    comps = folder / "components.yaml"
    assert f"deck/saboteur ×1 ({comps}:{line_of(comps, 'count: 1')})" in err  # the line of the count
    assert f"deck/miner ×7 ({comps}:{line_of(comps, 'count: 7')})" in err
    assert "two-seen at 3 and 4 players" in err and "`open: [deck]`" in err
    (folder / "targets.yaml").write_text(yaml.safe_dump({"max_pile": 10, "open": ["deck"], "targets": targets}),
                                         encoding="utf-8")
    code, out = run_design(folder, capsys)  # opened, the counts are the design's: two saboteurs dealt half the time
    box = {c["item"]: c["count"] for c in out["counts"]}
    assert code == 0 and all(v >= Fraction(1, 2) for v in values_of(out, "two-seen").values())
    assert all(chance(box["saboteur"] - removed, box["miner"], 3, 2, 99) >= Fraction(1, 2)
               for removed in [next(a["each"] for a in out["amounts"] if a["step"] == 1 and a["players"] == 3)])


def test_the_rest_returned_after_the_deal_is_not_in_play(tmp_path, capsys):
    """Open counts, the rest returned to the box after one card each is dealt: only the dealt cards
    stay in play, so `in_play == players + 1` cannot hold, whatever the box. The model once kept
    the card left over in play (the engine, counting no copies, left no rest to return)."""
    targets = [{"id": "seen", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": 1,
                                       "probability_at_least": "1/2"}}]
    folder = free_game(tmp_path / "returned", targets)
    (folder / "setup.yaml").write_text(yaml.safe_dump({"steps": RETURNED, "constraints": [ONE_LEFT]},
                                                      sort_keys=False), encoding="utf-8")
    code, out = run_design(folder, capsys)
    setup = folder / "setup.yaml"
    assert code == 1 and out["conflict"]["targets"] == []
    assert any(f"step 'return_rest deck' ({setup}:{line_of(setup, 'return_rest')})" in line
               for line in out["conflict"]["setup"])
    assert any("rule 'one-card-left'" in line for line in out["conflict"]["setup"])


def test_an_expression_that_does_not_evaluate_is_located_in_design_and_check(tmp_path, capsys):
    targets = [{"id": "t", "odds": {"deal": "deck", "where": {"role": "saboteur"}, "dealt_at_least": "playres // 2",
                                    "probability_at_least": "1/2"}}]
    folder = write_game(tmp_path / "typo", ROLE_ITEMS, deal_steps(), targets, (3, 4), 12)
    assert main(["design", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(str(folder / "targets.yaml") + ":") and "playres" in err[0]
    assert main(["check", str(folder), "--json"]) == 1
    found = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["code"] == "target-expression"]
    assert len(found) == 1 and "targets.yaml:" in found[0]["source"]
