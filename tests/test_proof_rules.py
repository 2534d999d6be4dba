"""The setup proof's rules (solver/proof/feasibility.py, constraints.py) against a brute force: every
deal of a tiny deck is enumerated card by card, each rule evaluated on it in Python, and the checker's
verdict must agree: a rule true for every deal is proved, one some deal breaks is `can_fail` (with a
counterexample that is a real deal breaking it), one no deal satisfies makes the setup infeasible.

The box: cards a×3 (suit s, rank 1), b×2 (suit s, rank 2), c×2 (suit t, rank 2); 5 chips (no
kinds); tiles x×2 (red), y×1 (blue). Two players. One c is removed, the six others shuffled, one is
set aside unseen, two are dealt to each player (4) and the last goes back to the box; two chips are
placed and the three others put in the supply; both x tiles are placed, y stays in the box.
"""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from solver.engine.run import run_setup
from solver.game.loader import load_game
from solver.proof.checker import prove_player_count
from tests.usual_solves import usual_solves

COMPONENTS = """\
components:
  - id: cards
    kind: deck
    name: {en: Cards}
    items:
      - {id: a, count: 3, attrs: {suit: s, rank: 1}}
      - {id: b, count: 2, attrs: {suit: s, rank: 2}}
      - {id: c, count: 2, attrs: {suit: t, rank: 2}}
  - id: chips
    kind: tokens
    name: {en: Chips}
    count: 5
  - id: tiles
    kind: tiles
    name: {en: Tiles}
    items:
      - {id: x, count: 2, attrs: {col: red}}
      - {id: y, count: 1, attrs: {col: blue}}
"""
STEPS = """\
steps:
  - use: cards
  - remove: {component: cards, items: [c], each: 1}
  - shuffle: cards
  - set_aside: cards
    count: 1
  - deal: cards
    each: 2
    hand: false
  - return_rest: cards
  - place: chips
    count: 2
  - supply: chips
  - place: tiles
    items: [x]
constraints:
"""
SUIT = {"a": "s", "b": "s", "c": "t"}
RANK = {"a": 1, "b": 2, "c": 2}


def outcomes() -> list[dict[tuple[str, str], int]]:
    """Every deal, card by card: zone counts per (zone, item), fixed parts included."""
    pile = ["a", "a", "a", "b", "b", "c"]
    out = []
    for aside in range(len(pile)):
        rest = [i for i in range(len(pile)) if i != aside]
        for dealt in itertools.combinations(rest, 4):
            back = [i for i in rest if i not in dealt]
            z: Counter = Counter()
            z["set_aside", pile[aside]] += 1
            for i in dealt:
                z["dealt", pile[i]] += 1
            for i in back:
                z["returned", pile[i]] += 1
            z["returned", "c"] += 1  # the removed c
            z.update({("placed", "chips"): 2, ("supply", "chips"): 3, ("placed", "x"): 2, ("box", "y"): 1})
            out.append(z)
    return out


OWNED = {"a": 3, "b": 2, "c": 2, "chips": 5, "x": 2, "y": 1}
ITEMS = {"cards": ["a", "b", "c"], "chips": ["chips"], "tiles": ["x", "y"]}


def zone(z, name: str, ref: str, keep=lambda item: True) -> int:
    """A zone function of the rules' vocabulary, computed from its definition on one outcome."""
    items = [i for i in ITEMS.get(ref, [ref]) if keep(i)]

    def one(i: str) -> int:
        if name == "owned":
            return OWNED[i]
        if name == "in_play":
            return OWNED[i] - z["box", i] - z["returned", i] - z["set_aside", i]
        if name == "returned_to_box":
            return z["returned", i] + z["box", i]
        if name == "draw_pile":
            return z["pile", i]
        return z[name, i]
    return sum(one(i) for i in items)


P = 2  # players
# id: (the rule as setup.yaml writes it, the same rule in Python on one outcome)
RULES = {
    "in-play": ("require: count(cards) == 4", lambda z: zone(z, "in_play", "cards") == 4),
    "dealt-sum": ("require: count(cards, dealt) == 2 * players", lambda z: zone(z, "dealt", "cards") == 2 * P),
    "owned": ("require: owned(cards) == 7", lambda z: zone(z, "owned", "cards") == 7),
    "conserved": ("require: set_aside(cards) + dealt(cards) + returned_to_box(cards) == owned(cards)",
                  lambda z: sum(zone(z, n, "cards") for n in ("set_aside", "dealt", "returned_to_box")) == 7),
    "back-in-box": ("require: returned_to_box(cards) == 2", lambda z: zone(z, "returned_to_box", "cards") == 2),
    "pile-empty": ("require: draw_pile(cards) == 0", lambda z: zone(z, "draw_pile", "cards") == 0),
    "chips": ("require: placed(chips) == 2 and supply(chips) == 3",
              lambda z: zone(z, "placed", "chips") == 2 and zone(z, "supply", "chips") == 3),
    "chips-minus-tiles": ("require: in_play(chips) - placed(tiles) == 3",
                          lambda z: zone(z, "in_play", "chips") - zone(z, "placed", "tiles") == 3),
    "some-c": ("require: dealt(c) >= 1", lambda z: zone(z, "dealt", "c") >= 1),
    "some-a": ("require: dealt(a) >= 1", lambda z: zone(z, "dealt", "a") >= 1),
    "two-a": ("require: dealt(a) >= 2", lambda z: zone(z, "dealt", "a") >= 2),
    "b-aside-or-both": ("require: set_aside(b) == 0 or dealt(b) == 1",
                        lambda z: zone(z, "set_aside", "b") == 0 or zone(z, "dealt", "b") == 1),
    "not-one-c": ("require: not dealt(c) == 1", lambda z: not zone(z, "dealt", "c") == 1),
    "c-in": ("require: dealt(c) in [0, 1]", lambda z: zone(z, "dealt", "c") in (0, 1)),
    "a-in": ("require: dealt(a) in [2, 3]", lambda z: zone(z, "dealt", "a") in (2, 3)),
    "max": ("require: max(1, players) * 2 == dealt(cards)", lambda z: max(1, P) * 2 == zone(z, "dealt", "cards")),
    "min": ("require: min(players, 9) + 2 == dealt(cards)", lambda z: min(P, 9) + 2 == zone(z, "dealt", "cards")),
    "div-mod": ("require: 10 // players == 5 and 7 % players == 1 and dealt(cards) > 3",
                lambda z: 10 // P == 5 and 7 % P == 1 and zone(z, "dealt", "cards") > 3),
    "negated": ("require: -dealt(a) <= -1", lambda z: -zone(z, "dealt", "a") <= -1),
    "few-b": ("require: dealt(b) < 2", lambda z: zone(z, "dealt", "b") < 2),
    "any-b": ("require: dealt(b) > 0", lambda z: zone(z, "dealt", "b") > 0),
    "b-at-most": ("require: dealt(b) <= 2", lambda z: zone(z, "dealt", "b") <= 2),
    "b-not-three": ("require: dealt(b) != 3", lambda z: zone(z, "dealt", "b") != 3),
    "suit-s-least": ("kind: at_least\n    of: {component: cards, zone: dealt, where: {suit: s}}\n    value: 3",
                     lambda z: zone(z, "dealt", "cards", lambda i: SUIT[i] == "s") >= 3),
    "suit-s-exactly": ("kind: exactly\n    of: {component: cards, zone: dealt, where: {suit: s}}\n    value: 4",
                       lambda z: zone(z, "dealt", "cards", lambda i: SUIT[i] == "s") == 4),
    "per-suit": ("kind: at_most\n    of: {component: cards, zone: dealt}\n    per: suit\n    value: 3",
                 lambda z: all(zone(z, "dealt", "cards", lambda i, s=s: SUIT[i] == s) <= 3 for s in "st")),
    "per-rank": ("kind: at_most\n    of: {component: cards, zone: dealt}\n    per: rank\n    value: 3",
                 lambda z: all(zone(z, "dealt", "cards", lambda i, r=r: RANK[i] == r) <= 3 for r in (1, 2))),
    "per-rank-rank2": ("kind: at_least\n    of: {component: cards, zone: dealt, where: {rank: 2}}\n"
                       "    per: suit\n    value: 1",
                       lambda z: all(zone(z, "dealt", "cards", lambda i, s=s: SUIT[i] == s and RANK[i] == 2) >= 1
                                     for s in "st")),
    "a-per-suit": ("kind: at_least\n    of: {component: cards, zone: dealt, where: {rank: 1}}\n    per: suit\n"
                   "    value: 1",  # only suit s has a rank-1 card: one group, not one for t too
                   lambda z: zone(z, "dealt", "cards", lambda i: RANK[i] == 1 and SUIT[i] == "s") >= 1),
    "tiles-placed": ("require: placed(tiles) == 2 and supply(cards) == 0 and draw_pile(tiles) == 0",
                     lambda z: zone(z, "placed", "tiles") == 2 and zone(z, "supply", "cards") == 0
                     and zone(z, "draw_pile", "tiles") == 0),
    "red-placed": ("kind: at_least\n    of: {component: tiles, zone: placed, where: {col: red}}\n    value: 2",
                   lambda z: zone(z, "placed", "tiles", lambda i: i == "x") >= 2),
    "tiles-back": ("kind: exactly\n    of: {component: tiles, zone: returned_to_box}\n    value: 1",
                   lambda z: zone(z, "returned_to_box", "tiles") == 1),
}
NEVER = {
    "not-four": ("require: dealt(cards) != 4", lambda z: zone(z, "dealt", "cards") != 4),
    "five-s": ("kind: at_least\n    of: {component: cards, zone: dealt, where: {suit: s}}\n    value: 5",
               lambda z: zone(z, "dealt", "cards", lambda i: SUIT[i] == "s") >= 5),
    "chips-in-box": ("require: returned_to_box(chips) >= 1", lambda z: zone(z, "returned_to_box", "chips") >= 1),
    "three-per-suit": ("kind: at_least\n    of: {component: cards, zone: dealt}\n    per: suit\n    value: 3",
                       lambda z: all(zone(z, "dealt", "cards", lambda i, s=s: SUIT[i] == s) >= 3 for s in "st")),
    "three-or-five": ("require: dealt(cards) == 3 or dealt(cards) == 5",
                      lambda z: zone(z, "dealt", "cards") == 3 or zone(z, "dealt", "cards") == 5),
    "in-three-five": ("require: dealt(cards) in [3, 5]", lambda z: zone(z, "dealt", "cards") in (3, 5)),
    "five-tiles": ("kind: exactly\n    of: {component: tiles, zone: placed}\n    value: 5",
                   lambda z: zone(z, "placed", "tiles") == 5),
    "few-red": ("kind: at_most\n    of: {component: tiles, zone: placed, where: {col: red}}\n    value: 1",
                lambda z: zone(z, "placed", "tiles", lambda i: i == "x") <= 1),
}
# how a finding names each rule: its expression, or the selection, `per` and comparison in words
NAMED = {"not-four": "dealt(cards) != 4", "five-s": "dealt(cards suit=s) >= 5",
         "chips-in-box": "returned_to_box(chips) >= 1", "three-per-suit": "dealt(cards) per suit >= 3",
         "five-tiles": "placed(tiles) == 5", "three-or-five": "dealt(cards) == 3 or dealt(cards) == 5",
         "in-three-five": "dealt(cards) in [3, 5]", "few-red": "placed(tiles col=red) <= 1"}


def verdict_of(tmp_path, rules: dict):
    folder = tmp_path / "zones"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("id: zones\ntitle: {en: Zones}\nplayers: {min: 2, max: 2}\n"
                                      "source_language: en\n", encoding="utf-8")
    (folder / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    text = STEPS + "".join(f"  - id: {rid}\n    {rule}\n" for rid, (rule, _) in rules.items())
    (folder / "setup.yaml").write_text(text, encoding="utf-8")
    game = load_game(folder)
    return prove_player_count(game, run_setup(game, P))


def parse_example(example: str) -> dict[tuple[str, str], int]:
    """`dealt c×1, set_aside a×1` -> {("dealt", "c"): 1, ("set_aside", "a"): 1}."""
    out = {}
    for part in example.split(", "):
        zone_name, _, rest = part.partition(" ")
        item, _, copies = rest.partition("×")
        out[zone_name, item] = int(copies)
    return out


def test_the_brute_force_sorts_the_rules_three_ways():
    """The oracle itself: each rule is true for all, some or none of the 30 labelled deals."""
    all_deals = outcomes()
    assert len(all_deals) == 6 * 5
    sometimes = sorted(r for r, (_, ok) in RULES.items() if 0 < sum(map(ok, all_deals)) < len(all_deals))
    assert sometimes == sorted(["some-c", "two-a", "b-aside-or-both", "not-one-c", "a-in", "few-b", "any-b",
                                "suit-s-exactly", "per-suit", "per-rank-rank2"])
    assert all(not any(map(ok, all_deals)) for _, ok in NEVER.values())


# Rules some deals break, in two sets each of which some one deal satisfies together (a c dealt, or
# none): the setup is feasible only where every rule can hold at once
SOMETIMES = {"c-dealt": ["some-c", "two-a", "b-aside-or-both", "a-in", "few-b", "any-b", "per-suit", "per-rank-rank2"],
             "c-kept": ["not-one-c", "suit-s-exactly", "two-a", "any-b", "few-b", "b-aside-or-both"]}


@pytest.mark.parametrize("group", list(SOMETIMES))
def test_every_rule_is_proved_or_broken_as_the_brute_force_says(tmp_path, group):
    all_deals = outcomes()
    always = [r for r, (_, ok) in RULES.items() if all(map(ok, all_deals))]
    rules = {r: RULES[r] for r in always + SOMETIMES[group]}
    assert any(all(ok(z) for _, ok in rules.values()) for z in all_deals)  # so: feasible
    verdict = verdict_of(tmp_path, rules)
    assert verdict.feasible and verdict.rules == len(rules) and verdict.unproven == []
    broken = {con.id: example for con, example in verdict.can_fail}
    assert sorted(broken) == sorted(SOMETIMES[group])
    for rid, example in broken.items():
        shown = parse_example(example)
        # the counterexample is a real deal that breaks the rule (zones it does not name are empty
        # for the items it names)
        named = {item for _, item in shown}
        fits = [z for z in all_deals if all(z[zn, i] == shown.get((zn, i), 0)
                                            for i in named for zn in ("dealt", "set_aside"))]
        assert any(not RULES[rid][1](z) for z in fits), (rid, example)
    # the totals of the solution: what every deal has in play and back in the box
    assert verdict.totals == {"in_play": {"cards": 4, "chips": 5, "tiles": 2},
                              "returned_to_box": {"cards": 2, "tiles": 1}}


@pytest.mark.parametrize("group", list(SOMETIMES))
def test_each_broken_rule_shows_the_deal_the_usual_solve_finds(tmp_path, group):
    """The rule proofs ask CP-SAT for a verdict alone and prove a rule broken again the usual way
    to show its deal: the deals shown, in their order, are those of usual solves throughout."""
    always = [r for r, (_, ok) in RULES.items() if all(map(ok, outcomes()))]
    rules = {r: RULES[r] for r in always + SOMETIMES[group]}
    shown = [(con.id, example) for con, example in verdict_of(tmp_path / "as-made", rules).can_fail]
    with usual_solves():
        usual = [(con.id, example) for con, example in verdict_of(tmp_path / "usual", rules).can_fail]
    assert shown == usual and len(shown) == len(SOMETIMES[group])


def test_rules_that_cannot_all_hold_at_once_make_the_setup_infeasible(tmp_path):
    """Each some deals satisfy, never both: a c dealt, and no c dealt."""
    pair = {r: RULES[r] for r in ("some-c", "not-one-c")}
    assert not any(all(ok(z) for _, ok in pair.values()) for z in outcomes())
    verdict = verdict_of(tmp_path, pair)
    assert not verdict.feasible and verdict.core_confirmed
    assert sorted(a.label.split("'")[1] for a in verdict.core if a.kind == "constraint") == ["not-one-c", "some-c"]


@pytest.mark.parametrize("rid", list(NEVER))
def test_a_rule_no_deal_satisfies_makes_the_setup_infeasible_and_is_named(tmp_path, rid):
    verdict = verdict_of(tmp_path, {rid: NEVER[rid]})
    assert not verdict.feasible and verdict.core_confirmed
    assert [a.label for a in verdict.core if a.kind == "constraint"] == [f"rule '{rid}' ({NAMED[rid]})"]
