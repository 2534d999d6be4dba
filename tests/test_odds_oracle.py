"""The deal odds (solver/counts/odds.py) against an oracle of the test's own: every set of labelled
physical cards a deal can give, counted one by one. Each of the module's two computations is
checked against it on its own (so replacing one by the other cannot pass), the cross-check's
error is raised when they disagree, and the table is in the order the docs promise."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import solver.counts.odds as odds
from solver.game.loader import load_game
from test_checker_mini import components, write_game

# item -> (role, copies): items sharing a role, a role of one copy, an item of no copies
PILES = [
    {"a": ("loyal", 3), "b": ("loyal", 2), "c": ("saboteur", 2)},
    {"a": ("x", 1), "b": ("y", 1), "c": ("z", 1), "d": ("x", 2)},
    {"a": ("gold", 4), "b": ("gold", 0), "c": ("coal", 3), "d": ("gem", 1)},
    {"a": ("only", 5)},
]


def brute(items: dict[str, tuple[str, int]], m: int) -> dict[tuple, Fraction]:
    """Every m-card subset of the labelled cards, each equally likely, tallied by role make-up."""
    cards = [role for item, (role, copies) in sorted(items.items()) for _ in range(copies)]
    roles = sorted({role for role, _ in items.values()})
    tally: dict[tuple, int] = {}
    subsets = list(itertools.combinations(range(len(cards)), m))
    for subset in subsets:
        dealt = [cards[i] for i in subset]
        key = tuple((r, dealt.count(r)) for r in roles)
        tally[key] = tally.get(key, 0) + 1
    return {k: Fraction(v, len(subsets)) for k, v in tally.items()}


def pool_of(items: dict[str, tuple[str, int]]) -> dict[str, int]:
    pool: dict[str, int] = {}
    for role, copies in items.values():
        pool[role] = pool.get(role, 0) + copies
    return pool


CASES = [(i, m) for i, items in enumerate(PILES) for m in range(0, sum(c for _, c in items.values()) + 1)]


@pytest.mark.parametrize("pile, m", CASES)
def test_counting_equals_the_card_by_card_oracle(pile, m):
    items = PILES[pile]
    expected = {k: p for k, p in brute(items, m).items()}
    got = odds.makeup_odds(pool_of(items), m)
    assert {k: p for k, p in got.items() if p} == expected


@pytest.mark.parametrize("pile, m", CASES)
def test_cp_sat_enumeration_equals_the_card_by_card_oracle(pile, m):
    items = PILES[pile]
    assert odds.enumerated_odds(items, m) == brute(items, m)


def test_a_hand_worked_case():
    """2 saboteurs and 3 loyal, deal 2: C(5,2) = 10 pairs; no saboteur 3/10, one 6/10, two 1/10."""
    got = odds.makeup_odds({"loyal": 3, "saboteur": 2}, 2)
    assert got == {(("loyal", 2), ("saboteur", 0)): Fraction(3, 10), (("loyal", 1), ("saboteur", 1)): Fraction(6, 10),
                   (("loyal", 0), ("saboteur", 2)): Fraction(1, 10)}


def test_the_table_is_likeliest_first_and_each_row_exact(tmp_path):
    derived = odds.check_odds(load_game(write_game(tmp_path))).derived
    for n, rows in derived["role_odds"]["dwarf-cards"].items():
        probabilities = [Fraction(r["exact"]) for r in rows]
        assert probabilities == sorted(probabilities, reverse=True), n
        assert sum(probabilities) == 1
        for r in rows:
            assert r["p"] == pytest.approx(float(Fraction(r["exact"])), abs=1e-6)
    # 7 players: 8 cards (4 loyal, 2 selfish, 2 saboteurs), 7 dealt: one card is left out, each
    # equally likely. A loyal one left out: 4/8; a selfish one or a saboteur: 2/8 each, a tie that
    # the make-up's own order breaks (saboteur 1 before saboteur 2)
    rows = derived["role_odds"]["dwarf-cards"]["7"]
    assert [(r["makeup"], r["exact"]) for r in rows] == [
        ({"loyal": 3, "saboteur": 2, "selfish": 2}, "1/2"),
        ({"loyal": 4, "saboteur": 1, "selfish": 2}, "1/4"),
        ({"loyal": 4, "saboteur": 2, "selfish": 1}, "1/4")]
    assert derived["p_no_saboteur_exact"]["7"] == "0"


def test_disagreeing_computations_are_an_error_not_a_table(tmp_path, monkeypatch):
    """The cross-check is why the second computation exists: when it disagrees, `pnp check` says
    so at the deal's line for that player count and prints no odds for it."""
    game = load_game(write_game(tmp_path))
    real = odds.enumerated_odds

    def off_by_one_deal(items, m):
        table = real(items, m)
        if m == 5:  # five players
            key = next(iter(sorted(table)))
            table[key] += Fraction(1, 1000)
        return table
    monkeypatch.setattr(odds, "enumerated_odds", off_by_one_deal)
    result = odds.check_odds(game)
    errors = [f for f in result.findings if f.severity == "error"]
    assert [(f.code, f.player_counts) for f in errors] == [("odds-mismatch", [5])]
    assert "setup.yaml" in errors[0].source
    assert "5" not in result.derived["role_odds"]["dwarf-cards"]
    agreed = [f for f in result.findings if f.code == "odds-cross-checked"]
    assert agreed and 5 not in agreed[0].player_counts


def test_a_game_without_setup_has_no_odds_and_no_error(tmp_path):
    folder = write_game(tmp_path, comps=components())
    (folder / "setup.yaml").unlink()
    result = odds.check_odds(load_game(folder))
    assert result.findings == [] and result.derived == {}


PILES_GAME = """\
id: two-piles
title: {en: Two piles}
players: {min: 3, max: 4}
source_language: en
"""
PILES_COMPONENTS = """\
components:
  - id: hand-cards
    kind: deck
    name: {en: Hand cards}
    items:
      - {id: plain, count: 12, attrs: {role: plain}}
  - id: gold-cards
    kind: deck
    name: {en: Gold cards}
    items:
      - {id: g-big, count: 3, attrs: {role: big}}
      - {id: g-small, count: 5, attrs: {role: small}}
  - id: dwarf-cards
    kind: deck
    name: {en: Dwarf cards}
    items:
      - {id: loyal, count: 3, attrs: {role: loyal}}
      - {id: saboteur, count: SABOTEURS, attrs: {role: saboteur}}
"""
# an ordinary hand first (no odds), a role deal, a second deal from the same pile (not exact any
# more: no odds), and another role deal after them
PILES_SETUP = """\
steps:
  - use: hand-cards
  - shuffle: hand-cards
  - deal: hand-cards
    each: 2
  - use: gold-cards
  - shuffle: gold-cards
  - deal: gold-cards
    each: 1
    hand: false
  - deal: gold-cards
    each: 1
    hand: false
  - use: dwarf-cards
  - shuffle: dwarf-cards
  - deal: dwarf-cards
    each: 1
    hand: false
  - return_rest: dwarf-cards
"""


def two_piles(tmp_path, saboteurs: str = "2", proposed: str | None = None):
    folder = tmp_path / "two-piles"
    folder.mkdir()
    (folder / "game.yaml").write_text(PILES_GAME, encoding="utf-8")
    (folder / "components.yaml").write_text(PILES_COMPONENTS.replace("SABOTEURS", saboteurs), encoding="utf-8")
    (folder / "setup.yaml").write_text(PILES_SETUP, encoding="utf-8")
    if proposed is not None:
        (folder / "proposed.yaml").write_text(proposed, encoding="utf-8")
    return load_game(folder)


def table(derived, pile, n):
    return {tuple(sorted(r["makeup"].items())): Fraction(r["exact"]) for r in derived["role_odds"][pile][str(n)]}


def test_only_exact_role_deals_get_odds_each_against_the_oracle(tmp_path):
    result = odds.check_odds(two_piles(tmp_path))
    assert [f for f in result.findings if f.severity == "error"] == []
    assert sorted(result.derived["role_odds"]) == ["dwarf-cards", "gold-cards"]  # no hand, no second deal
    for n in (3, 4):
        assert table(result.derived, "gold-cards", n) == brute({"g-big": ("big", 3), "g-small": ("small", 5)}, n)
        assert table(result.derived, "dwarf-cards", n) == brute({"loyal": ("loyal", 3), "saboteur": ("saboteur", 2)}, n)
    checked = [f for f in result.findings if f.code == "odds-cross-checked"]
    assert [(f.message, f.player_counts) for f in checked] == [
        ("role odds of gold-cards: exact counting agrees with CP-SAT solution enumeration", [3, 4]),
        ("role odds of dwarf-cards: exact counting agrees with CP-SAT solution enumeration", [3, 4])]


def test_a_mismatch_in_one_deal_leaves_the_others_odds(tmp_path, monkeypatch):
    real = odds.enumerated_odds

    def wrong_for_gold(items, m):
        table = real(items, m)
        if "g-big" in items:
            key = next(iter(sorted(table)))
            table[key] += Fraction(1, 7)
        return table
    monkeypatch.setattr(odds, "enumerated_odds", wrong_for_gold)
    result = odds.check_odds(two_piles(tmp_path))
    errors = [(f.code, f.player_counts) for f in result.findings if f.severity == "error"]
    assert errors == [("odds-mismatch", [3]), ("odds-mismatch", [4])]
    assert sorted(result.derived["role_odds"]) == ["dwarf-cards"]
    assert table(result.derived, "dwarf-cards", 4) == brute({"loyal": ("loyal", 3), "saboteur": ("saboteur", 2)}, 4)


def test_odds_on_a_proposed_count_say_so(tmp_path):
    proposed = ('objective: "test"\nproposals:\n  - component: dwarf-cards\n    item: saboteur\n    count: 2\n'
                '    bound_by: ["rules 1"]\n')
    result = odds.check_odds(two_piles(tmp_path, saboteurs="null", proposed=proposed))
    checked = {f.message.split(":")[0]: f.message for f in result.findings if f.code == "odds-cross-checked"}
    assert checked["role odds of dwarf-cards"].endswith("; on proposed.yaml's counts")
    assert "proposed" not in checked["role odds of gold-cards"]
    assert table(result.derived, "dwarf-cards", 3) == brute({"loyal": ("loyal", 3), "saboteur": ("saboteur", 2)}, 3)


def test_a_pile_too_small_or_an_item_unknown():
    assert odds.makeup_odds({"x": 1}, 3) == {} and odds.enumerated_odds({"a": ("x", 1)}, 3) == {}


def test_an_item_the_component_does_not_list_is_its_own_role(tmp_path):
    game = two_piles(tmp_path)
    assert odds.role_of(game, ("gold-cards", "g-big")) == "big"
    assert odds.role_of(game, ("gold-cards", "g-huge")) == "g-huge"


def test_one_sides_draw_is_named_by_its_english_name_else_its_first(tmp_path):
    from test_setup_sides import write_spy_game
    for name, shown in (("{ja: 密偵頭, en: the spymaster}", "the spymaster"), ("{ja: 密偵頭}", "密偵頭")):
        folder = tmp_path / f"spy-{len(shown)}"
        write_spy_game(folder)
        setup = folder / "setup.yaml"
        setup.write_text(setup.read_text(encoding="utf-8").replace("name: the spymaster", f"name: {name}"), encoding="utf-8")
        checked = [f.message for f in odds.check_odds(load_game(folder)).findings if f.code == "odds-cross-checked"]
        assert checked == [f"{shown}'s draw of 2 from missions: exact counting agrees with CP-SAT solution enumeration"]


def test_a_sides_draw_from_two_kinds_has_odds_from_one_kind_none(tmp_path):
    from test_setup_sides import write_spy_game
    for roles, told in (("heist rescue", True), ("heist heist", False)):
        folder = tmp_path / roles.replace(" ", "-")
        write_spy_game(folder)
        comps = folder / "components.yaml"
        text = comps.read_text(encoding="utf-8").replace("      - {id: sabotage, name: Sabotage, count: 1, attrs: {role: sabotage}}\n", "")
        comps.write_text(text.replace("role: rescue", f"role: {roles.split()[1]}"), encoding="utf-8")
        result = odds.check_odds(load_game(folder))
        assert bool(result.derived) == told and [f.code for f in result.findings] == ["odds-cross-checked"] * told
        if told:  # 2 of 3 heist and 2 rescue cards: C(5, 2) = 10 pairs
            assert table(result.derived, "missions", 3) == brute({"heist": ("heist", 3), "rescue": ("rescue", 2)}, 2)


def test_the_reports_floats_are_the_exact_odds_to_six_places(tmp_path):
    derived = odds.check_odds(two_piles(tmp_path)).derived
    for pile in ("gold-cards", "dwarf-cards"):
        for rows in derived["role_odds"][pile].values():
            assert all(r["p"] == round(float(Fraction(r["exact"])), 6) for r in rows)
    for key in ("p_no_big", "p_no_small", "p_no_loyal", "p_no_saboteur"):
        for n, p in derived[key].items():
            assert p == round(float(Fraction(derived[key + "_exact"][n])), 6)
    # 3 players, no saboteur among 3 of 5 dwarf cards: C(3, 3) / C(5, 3) = 1/10
    assert derived["p_no_saboteur_exact"]["3"] == "1/10" and derived["p_no_saboteur"]["3"] == 0.1
    # 4 players, no big gold card among 4 of 8: C(5, 4) / C(8, 4) = 5/70 = 0.0714285...
    assert derived["p_no_big_exact"]["4"] == "1/14" and derived["p_no_big"]["4"] == 0.071429
