"""What a box holds against what a build prints (solver/counts/ledger.py, solver/counts/effective.py)
on a small original game with a designed.yaml and a proposed.yaml written here; every line worked
by hand from the three files.

  deck, 10 stated: a 3 (stated), b (designed 2, also proposed 5: the design wins), c (proposed 4),
    r a rest item (proposed 1, 2 spares): 3 + 2 + 4 + 1 = 10, the stated total, so the total does
    not rest on a proposal; the sources describe 9; a build prints 3 + 2 + 4 + min(1, 2) = 10.
  chips, no total, "text not given" for the component: x (proposed 1, no rule bounds it: unbounded,
    and without text a placeholder), y 2 with text: 3, resting on a proposal.
  dice, no items, proposed 2 with no rule: an unbounded item-less component.
  cubes, no items, no count anywhere: unknown, nothing printed.
  spares, a rest item of 5 stated with no spares: none printed (3 when the build asks for 3).
"""
from __future__ import annotations

import pytest

from gamefiles import write_game
from solver.counts.effective import component_total, effective_counts
from solver.counts.ledger import ledger
from solver.game.loader import load_game
from solver.game.proposals import NO_RULE_NAMED

GAME = "id: ledger\ntitle: {en: Ledger}\nplayers: {min: 2, max: 4}\nsource_language: en\nlanguages: [en]\n"
COMPONENTS = """\
components:
  - id: deck
    kind: deck
    name: {en: Deck}
    size: poker
    stated_total: {value: 10, source: "rules 1"}
    items:
      - {id: a, name: {en: A}, count: 3, text: {en: Draw one.}}
      - {id: b, name: {en: B}, count: null, text: {en: Draw two.}}
      - {id: c, name: {en: C}, count: null, text: {en: Pass.}}
      - {id: r, name: {en: R}, count: null, rest: true, spares: 2}
  - id: chips
    kind: tokens
    name: {en: Chips}
    attrs: {no_text: "text not given in the rules"}
    items:
      - {id: x, name: {en: X}, count: null}
      - {id: y, name: {en: Y}, count: 2, text: {en: Score 1.}}
  - id: dice
    kind: dice
    name: {en: Dice}
    count: null
  - id: cubes
    kind: tokens
    name: {en: Cubes}
    count: null
  - id: spares
    kind: tokens
    name: {en: Spares}
    items:
      - {id: blank, name: {en: Blank}, count: 5, rest: true}
"""
DESIGNED = "objective: by hand\ncounts:\n  - {component: deck, item: b, count: 2}\n"
PROPOSED = f"""\
objective: by hand
proposals:
  - {{component: deck, item: b, count: 5, bound_by: ["rules 2"]}}
  - {{component: deck, item: c, count: 4, bound_by: ["rules 3"]}}
  - {{component: deck, item: r, count: 1, bound_by: ["stated total 10 deck (rules 1)"]}}
  - {{component: chips, item: x, count: 1, bound_by: ["{NO_RULE_NAMED}"]}}
  - {{component: dice, item: dice, count: 2, bound_by: ["{NO_RULE_NAMED}"]}}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(write_game(tmp_path_factory.mktemp("ledger") / "ledger", {
        "game.yaml": GAME, "components.yaml": COMPONENTS, "designed.yaml": DESIGNED, "proposed.yaml": PROPOSED}))


def test_effective_counts_take_the_stated_then_the_designed_then_the_proposed(game):
    assert effective_counts(game) == {
        ("deck", "a"): (3, False), ("deck", "b"): (2, True), ("deck", "c"): (4, True), ("deck", "r"): (1, True),
        ("chips", "x"): (1, True), ("chips", "y"): (2, False), ("dice", "dice"): (2, True),
        ("cubes", "cubes"): (None, False), ("spares", "blank"): (5, False)}
    stated = effective_counts(game, stated_only=True)
    assert stated[("deck", "b")] == stated[("dice", "dice")] == (None, False)
    assert stated[("deck", "a")] == (3, False)


def test_component_totals(game):
    counts = effective_counts(game)
    totals = {c.id: component_total(c, counts) for c in game.components}
    assert totals == {"deck": (10, True), "chips": (3, True), "dice": (2, True), "cubes": (None, False),
                      "spares": (5, False)}
    stated = effective_counts(game, stated_only=True)
    assert component_total(game.component("deck"), stated) == (None, False)


def test_ledger_lines(game):
    lines = {c.component.id: c for c in ledger(game)}
    deck = lines["deck"]
    assert (deck.total, deck.proposed, deck.stated, deck.described, deck.printed) == (10, False, 10, 9, 10)
    assert [(i.item.id, i.count, i.proposed, i.unbounded, i.printed, i.rest, i.placeholder) for i in deck.items] == [
        ("a", 3, False, False, 3, False, False), ("b", 2, True, False, 2, False, False),
        ("c", 4, True, False, 4, False, False), ("r", 1, True, False, 1, True, False)]
    chips = lines["chips"]
    assert (chips.total, chips.proposed, chips.stated, chips.described, chips.printed, chips.unbounded) == \
        (3, True, None, 3, 3, False)
    assert [(i.item.id, i.unbounded, i.placeholder) for i in chips.items] == [("x", True, True), ("y", False, False)]
    dice = lines["dice"]
    assert (dice.total, dice.proposed, dice.printed, dice.unbounded, len(dice.items)) == (2, True, 2, True, 1)
    cubes = lines["cubes"]
    assert (cubes.total, cubes.described, cubes.printed, cubes.unbounded) == (None, None, 0, False)
    spares = lines["spares"]
    assert (spares.total, spares.described, spares.printed) == (5, 0, 0)


def test_a_ledger_of_stated_counts_only_and_with_spares_asked(game):
    lines = {c.component.id: c for c in ledger(game, stated_only=True)}
    assert (lines["deck"].total, lines["deck"].proposed, lines["deck"].described, lines["deck"].printed) == \
        (None, False, None, 3)
    assert not any(i.unbounded for i in lines["chips"].items) and not lines["dice"].unbounded
    spared = {c.component.id: c for c in ledger(game, spares=3)}
    assert spared["spares"].printed == 3                                      # 3 of the 5 blanks
    assert [i.printed for i in spared["deck"].items] == [3, 2, 4, 1]          # never more than the 1 there is
