"""The CP-SAT checker on small hand-made games, with verdicts cross-checked by brute force.

A mini Saboteur-like dwarf deck (two clans; 2 loyal, 1 selfish, 1 saboteur each; 3-8 players;
7-8 use every card, 5-6 remove one loyal dwarf per clan, 3-4 remove two) lets every verdict be
enumerated card by card.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from solver.proof.checker import check_setup, prove_player_count
from solver.engine.run import run_setup
from solver.game.loader import load_game
from solver.counts.odds import check_odds, enumerated_odds, makeup_odds
from solver.report import check_game

GAME = """\
id: mini-dwarves
title: {en: Mini dwarves}
players: {min: 3, max: 8}
source_language: en
gaps:
  - id: eight-players
    kind: assumption
    clause: "mini rules, preparation"
    text: {en: The rules list 7 players only.}
    player_counts: [8]
"""

SETUP = """\
steps:
  - use: dwarf-cards
    source: "mini rules, preparation"
  - remove: {component: dwarf-cards, where: {role: loyal}, each: 1}
    when: players in [5, 6]
    source: "mini rules, 5-6 players"
  - remove: {component: dwarf-cards, where: {role: loyal}, each: 2}
    when: players <= 4
    source: "mini rules, 3-4 players"
  - shuffle: dwarf-cards
  - deal: dwarf-cards
    each: 1
    hand: false
    source: "mini rules, deal one each"
  - return_rest: dwarf-cards
constraints:
  - id: a-dwarf-per-player
    kind: at_least
    of: {component: dwarf-cards, zone: in_play}
    value: players
    source: "mini rules, deal one each"
  - id: at-most-one-saboteur-per-clan
    kind: at_most
    of: {component: dwarf-cards, zone: in_play, where: {role: saboteur}}
    per: clan
    value: 1
    source: "mini rules, roles"
"""


def components(loyal_blue: int = 2, loyal_yellow: int = 2) -> str:
    rows = []
    for clan, loyal in (("blue", loyal_blue), ("yellow", loyal_yellow)):
        for role, count in (("loyal", loyal), ("selfish", 1), ("saboteur", 1)):
            rows.append(f"      - {{id: dwarf-{clan}-{role}, count: {count}, attrs: {{clan: {clan}, role: {role}}}}}")
    return ("components:\n  - id: dwarf-cards\n    kind: deck\n    name: {en: Dwarf cards}\n    items:\n"
            + "\n".join(rows) + "\n")


def write_game(root: Path, *, comps: str | None = None, setup: str = SETUP, game: str = GAME) -> Path:
    folder = root / "mini-dwarves"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "components.yaml").write_text(comps or components(), encoding="utf-8")
    (folder / "setup.yaml").write_text(setup, encoding="utf-8")
    return folder


def deck_at(players: int, loyal: tuple[int, int] = (2, 2)) -> list[str]:
    """The prepared dwarf cards, by hand from the rules above: one string per physical card."""
    removed = 2 if players <= 4 else 1 if players <= 6 else 0
    cards = []
    for clan, n in zip(("blue", "yellow"), loyal):
        cards += [f"{clan}-loyal"] * (n - removed) + [f"{clan}-selfish", f"{clan}-saboteur"]
    return cards


def brute_force(players: int) -> dict[tuple, Fraction]:
    """Role make-up odds by enumerating every set of dealt physical cards."""
    cards = deck_at(players)
    counts: dict[tuple, int] = {}
    deals = list(itertools.combinations(range(len(cards)), players))
    for deal in deals:
        roles = [cards[i].split("-")[1] for i in deal]
        present = sorted({c.split("-")[1] for c in cards})
        key = tuple((r, roles.count(r)) for r in present)
        counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(v, len(deals)) for k, v in counts.items()}


def test_engine_table_matches_the_rules(tmp_path):
    game = load_game(write_game(tmp_path))
    for n in range(3, 9):
        res = run_setup(game, n)
        prepared = len(deck_at(n))
        assert res.dealt == {"dwarf-cards": n}
        # the undealt prepared cards go back to the box unseen (return_rest after the deal)
        assert res.in_play["dwarf-cards"] == n <= prepared
        assert res.returned_to_box.get("dwarf-cards", 0) == 8 - n
        assert sum(st["returned"] for st in res.items.values()) == 8 - prepared  # before the deal
        assert res.hand_size == 0  # roles are not a hand


def test_odds_agree_with_brute_force(tmp_path):
    game = load_game(write_game(tmp_path))
    derived = check_odds(game).derived
    for n in range(3, 9):
        expected = brute_force(n)
        got = {tuple(sorted(row["makeup"].items())): Fraction(row["exact"])
               for row in derived["role_odds"]["dwarf-cards"][str(n)]}
        assert got == {k: v for k, v in expected.items()}
        p_none = sum((p for k, p in expected.items() if dict(k)["saboteur"] == 0), Fraction(0))
        assert Fraction(derived["p_no_saboteur_exact"][str(n)]) == p_none
        assert derived["p_no_saboteur"][str(n)] == pytest.approx(float(p_none), abs=1e-6)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=4), st.integers(0, 6))
def test_counting_and_enumeration_agree_with_dealing_card_by_card(copies, m):
    """Each of the two computations against every m-card subset of the labelled cards, tallied here
    (not against each other: replacing one by the other must not pass)."""
    items = {f"i{j}": (f"r{j % 2}", c) for j, c in enumerate(copies)}
    pool: dict[str, int] = {}
    for role, c in items.values():
        pool[role] = pool.get(role, 0) + c
    if m > sum(pool.values()):
        return
    cards = [role for role, c in items.values() for _ in range(c)]
    subsets = list(itertools.combinations(range(len(cards)), m))
    tally: dict[tuple, int] = {}
    for subset in subsets:
        key = tuple((r, [cards[i] for i in subset].count(r)) for r in sorted(pool))
        tally[key] = tally.get(key, 0) + 1
    expected = {k: Fraction(v, len(subsets)) for k, v in tally.items()}
    assert {k: p for k, p in makeup_odds(pool, m).items() if p} == expected
    assert enumerated_odds(items, m) == expected


def test_the_complete_mini_game_is_proven(tmp_path):
    report = check_game(load_game(write_game(tmp_path)))
    assert report["ok"]
    codes = {f["code"]: f for f in report["findings"]}
    assert codes["setup-proven"]["player_counts"] == [3, 4, 5, 6, 7, 8]
    assert "2 of 2 rule(s)" in codes["setup-proven"]["message"]
    assert codes["odds-cross-checked"]["player_counts"] == [3, 4, 5, 6, 7, 8]
    assert report["player_counts"]["5"]["dealt"] == {"dwarf-cards": 5}


def test_removing_one_loyal_dwarf_names_the_card_and_the_counts(tmp_path):
    game = load_game(write_game(tmp_path, comps=components(loyal_blue=1)))
    # brute force: at which counts can the prepared deck not be made or not give everyone a card?
    broken = []
    for n in range(3, 9):
        removed = 2 if n <= 4 else 1 if n <= 6 else 0
        if removed > 1 or 1 - removed + 2 + (2 - removed) + 2 < n:
            broken.append(n)
    assert broken == [3, 4, 6, 8]
    report = check_game(game)
    assert not report["ok"]
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert sorted({n for f in errors for n in f["player_counts"]}) == broken
    for f in errors:
        assert f["source"].startswith(str(game.folder.relative_to(Path.cwd())) if game.folder.is_relative_to(Path.cwd()) else "")
    # each is explained by the sum of its short step (issue 29): the kind is named where it matters
    shortage = next(f for f in errors if 3 in f["player_counts"])
    assert "remove dwarf-cards role=loyal ×2" in shortage["message"]
    assert "removes 2 of dwarf-blue-loyal; the box has 1 (components.yaml:6)" in shortage["message"]
    six = next(f for f in errors if 6 in f["player_counts"])["message"]
    assert "deals 1 × 6 players = 6; 'dwarf-cards' has 7 (components.yaml:6-11), 5 of them left" in six
    assert "'remove dwarf-cards role=loyal ×1 when players in [5, 6]' [setup.yaml:4]" in six
    short_deck = next(f for f in errors if 8 in f["player_counts"])
    assert "deals 1 × 8 players = 8; 'dwarf-cards' has 7" in short_deck["message"]
    assert "add 1 to the box" in short_deck["message"]


def test_contradictory_setup_is_explained_by_both_rules(tmp_path):
    setup = SETUP + """\
  - id: three-loyal-per-clan
    kind: at_least
    of: {component: dwarf-cards, zone: in_play, where: {role: loyal}}
    per: clan
    value: 2
    source: "mini rules, a made-up rule that contradicts the 3-6 player preparation"
"""
    game = load_game(write_game(tmp_path, setup=setup))
    verdict = prove_player_count(game, run_setup(game, 4))
    assert not verdict.feasible and verdict.core_confirmed
    labels = " | ".join(a.label for a in verdict.core)
    assert "three-loyal-per-clan" in labels
    assert "remove dwarf-cards role=loyal ×2 when players <= 4" in labels
    # the core is minimal: the other rule and the deal are not needed for the conflict
    assert "a-dwarf-per-player" not in labels and "deal" not in labels
    result = check_setup(game)
    [finding] = [f for f in result.findings if f.code == "setup-infeasible" and 4 in f.player_counts]
    assert finding.player_counts == [3, 4]
    five_six = [f for f in result.findings if f.code == "setup-infeasible" and 5 in f.player_counts]
    assert five_six and "players in [5, 6]" in five_six[0].message
    assert "setup.yaml:" in finding.source


def test_rules_over_deals_match_brute_force(tmp_path):
    setup = SETUP + """\
  - id: at-most-one-saboteur-dealt
    kind: at_most
    of: {component: dwarf-cards, zone: dealt, where: {role: saboteur}}
    value: 1
    source: "mini rules, a hope rather than a rule"
  - id: a-selfish-or-saboteur-dealt
    kind: at_least
    of: {component: dwarf-cards, zone: dealt, where: {role: [selfish, saboteur]}}
    value: 1
    source: "mini rules, true for every deal"
"""
    game = load_game(write_game(tmp_path, setup=setup))
    result = check_setup(game)
    failing: dict[str, list[int]] = {}
    for f in result.findings:
        if f.code == "rule-can-fail":  # one finding per counterexample
            rule = f.message.split("'")[1]
            failing[rule] = sorted(set(failing.get(rule, [])) | set(f.player_counts))

    def breakable(rule) -> list[int]:
        out = []
        for n in range(3, 9):
            cards = deck_at(n)
            if any(not rule([cards[i] for i in deal]) for deal in itertools.combinations(range(len(cards)), n)):
                out.append(n)
        return out

    def always_broken(rule) -> list[int]:
        return [n for n in range(3, 9) if not any(
            rule([deck_at(n)[i] for i in deal]) for deal in itertools.combinations(range(len(deck_at(n))), n))]

    def one(dealt):
        return sum("saboteur" in c for c in dealt) <= 1

    # some deals break it: a warning with a counterexample; every deal breaks it: no setup works
    always = always_broken(one)
    assert always == [4, 6, 8]  # all of a 4-, 6- or 8-card deck is dealt, both saboteurs with it
    assert failing.get("at-most-one-saboteur-dealt") == [n for n in breakable(one) if n not in always]
    infeasible = sorted(n for f in result.findings if f.code == "setup-infeasible" for n in f.player_counts
                        if "at-most-one-saboteur-dealt" in f.message)
    assert infeasible == always
    assert breakable(lambda dealt: any("loyal" not in c for c in dealt)) == []
    assert "a-selfish-or-saboteur-dealt" not in failing
    [example] = [f.message for f in result.findings if f.code == "rule-can-fail" and 3 in f.player_counts]
    assert "dealt dwarf-blue-saboteur×1" in example and "dealt dwarf-yellow-saboteur×1" in example


def test_require_expressions_compile_and_bad_ones_are_data_errors(tmp_path):
    from solver.errors import DataError

    setup = SETUP + """\
  - id: deck-size
    require: count(dwarf-cards) >= players and owned(dwarf-cards) == 8 or players > 100
    source: "mini rules"
"""
    game = load_game(write_game(tmp_path, setup=setup))
    assert all(f.code != "setup-infeasible" for f in check_setup(game).findings)
    bad = SETUP + """\
  - id: deck-size
    require: count(dwarf-cards) * count(dwarf-cards) >= players
    source: "mini rules"
"""
    game = load_game(write_game(tmp_path, setup=bad))
    with pytest.raises(DataError) as err:
        check_setup(game)
    assert "setup.yaml:" in str(err.value) and "constant side" in str(err.value)


def test_gaps_and_uncovered_counts_become_findings(tmp_path):
    setup = SETUP.replace("steps:", "player_counts: [3, 4, 5, 6, 7]\nsteps:")
    game_text = GAME.replace("player_counts: [8]", "player_counts: []")
    report = check_game(load_game(write_game(tmp_path, setup=setup, game=game_text)))
    [uncovered] = [f for f in report["findings"] if f["code"] == "player-count-uncovered"]
    assert uncovered["player_counts"] == [8] and uncovered["severity"] == "warning"
    [gap] = [f for f in report["findings"] if f["code"] == "gap-assumption"]
    assert gap["source"] == "mini rules, preparation"
    # with the gap naming 8, the count is covered by that explicit assumption
    report = check_game(load_game(write_game(tmp_path, setup=setup)))
    assert not [f for f in report["findings"] if f["code"] == "player-count-uncovered"]
