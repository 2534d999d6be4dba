"""Why a setup cannot be carried out (solver/proof/explain.py): the conflict `explain` returns is checked
by brute force over every value of a tiny model's variables (it conflicts, and drops any one part and
it does not); the finding's wording is checked on hand-made assumptions.
"""
from __future__ import annotations

import itertools

from ortools.sat.python import cp_model

from solver.proof.cpsat import Assumption, Verdict
from solver.proof.explain import conflict_finding, explain, short

DOMAIN = range(0, 5)
# each fact: (label, its test on (x, y), how it is added to the model)
FACTS = [
    ("x at least 2", lambda x, y: x >= 2, lambda m, x, y: m.add(x >= 2)),
    ("y at least 2", lambda x, y: y >= 2, lambda m, x, y: m.add(y >= 2)),
    ("x + y at most 3", lambda x, y: x + y <= 3, lambda m, x, y: m.add(x + y <= 3)),
    ("x at most 4", lambda x, y: x <= 4, lambda m, x, y: m.add(x <= 4)),
    ("y is 3", lambda x, y: y == 3, lambda m, x, y: m.add(y == 3)),
    ("x differs from y", lambda x, y: x != y, lambda m, x, y: m.add(x != y)),
]


def model_of(facts):
    m = cp_model.CpModel()
    x, y = m.new_int_var(DOMAIN.start, DOMAIN.stop - 1, "x"), m.new_int_var(DOMAIN.start, DOMAIN.stop - 1, "y")
    out = []
    for label, _, add in facts:
        lit = m.new_bool_var(label)
        add(m, x, y).only_enforce_if(lit)
        out.append(Assumption(lit, "constraint", label, f"setup.yaml:{len(out) + 1}"))
    return m, out


def holds(labels) -> bool:
    """Brute force: some (x, y) satisfies every named fact."""
    tests = [test for label, test, _ in FACTS if label in labels]
    return any(all(t(x, y) for t in tests) for x, y in itertools.product(DOMAIN, DOMAIN))


def test_the_conflict_is_a_real_one_and_minimal():
    for size in range(2, len(FACTS) + 1):
        for chosen in itertools.combinations(FACTS, size):
            labels = {f[0] for f in chosen}
            m, assumptions = model_of(list(chosen))
            core, confirmed = explain(m, assumptions)
            if holds(labels):
                assert (core, confirmed) == ([], False)
                continue
            names = {a.label for a in core}
            assert confirmed and names <= labels
            assert not holds(names)
            for a in names:  # minimal: without any one of them the rest can hold
                assert holds(names - {a}), (labels, names, a)


def test_a_conflict_needs_every_fact_of_a_cycle():
    # x at least 2, y at least 2 and x + y at most 3 conflict only together
    m, assumptions = model_of(FACTS[:4])
    core, confirmed = explain(m, assumptions)
    assert confirmed and sorted(a.label for a in core) == ["x + y at most 3", "x at least 2", "y at least 2"]


def a(kind: str, label: str, source: str) -> Assumption:
    return Assumption(None, kind, label, source)


def test_the_finding_names_rules_then_steps_then_counts_grouped_by_file():
    core = [
        a("inventory", "ace ×4", "data/games/x/components.yaml:6"),
        a("step", "step 'deal cards'", "data/games/x/setup.yaml:4 (rules 2.1)"),
        a("inventory", "two ×3", "data/games/x/components.yaml:7"),
        a("constraint", "rule 'enough' (in_play(cards) >= 12)", "data/games/x/setup.yaml:17 (rules 3)"),
        a("inventory", "king ×1", "data/games/x/cards.csv:2"),
        a("inventory", "queen ×1", "data/games/x/components.yaml:6"),
    ]
    f = conflict_finding(Verdict(players=4, feasible=False, core=core, core_confirmed=True))
    assert f.severity == "error" and f.code == "setup-infeasible" and f.player_counts == [4]
    assert f.message == (
        "setup cannot be carried out: rule 'enough' (in_play(cards) >= 12) [setup.yaml:17 (rules 3)]"
        " + step 'deal cards' [setup.yaml:4 (rules 2.1)]"
        " + counts ace ×4, two ×3, king ×1, queen ×1 [components.yaml:6, 7; cards.csv:2]"
        " cannot all hold; change one of them")
    # the finding points at the first rule's line, without its clause
    assert f.source == "data/games/x/setup.yaml:17"


def test_an_unconfirmed_conflict_says_so_and_one_without_counts_names_none():
    core = [a("step", "step 'place tiles'", "data/games/x/setup.yaml:9")]
    f = conflict_finding(Verdict(players=2, feasible=False, core=core, core_confirmed=False))
    assert f.message == ("setup cannot be carried out: step 'place tiles' [setup.yaml:9] cannot all hold"
                         " (core not confirmed: every assumption listed); change one of them")
    assert f.source == "data/games/x/setup.yaml:9"
    # a verdict made without a core has none, confirmed by nothing, and no rules proved
    bare = Verdict(players=3, feasible=False)
    assert (bare.core, bare.core_confirmed, bare.rules, bare.can_fail, bare.unproven) == ([], False, 0, [], [])
    empty = conflict_finding(bare)
    assert empty.source == "setup.yaml" and empty.player_counts == [3]
    assert "(core not confirmed: every assumption listed)" in empty.message


def test_short_keeps_the_file_name_and_the_clause():
    assert short("data/games/x/setup.yaml:17 (rules 2.1, a/b)") == "setup.yaml:17 (rules 2.1, a/b)"
    assert short("setup.yaml:3") == "setup.yaml:3"


class EveryAssumption:
    """A solver's answer that names every assumption as the reason (a valid sufficient set, if rarely
    the smallest: the API promises only sufficiency)."""

    def __init__(self, solver, indexes):
        self.solver, self.indexes = solver, indexes

    def sufficient_assumptions_for_infeasibility(self):
        return list(self.indexes)

    def __getattr__(self, name):
        return getattr(self.solver, name)


def test_a_larger_core_from_the_solver_is_shrunk_to_a_minimal_one(monkeypatch):
    import solver.proof.explain as explain_module

    real = explain_module.solve

    def generous(model, lits, **kw):
        status, s = real(model, lits, **kw)
        return status, EveryAssumption(s, [lit.Index() for lit in lits])

    monkeypatch.setattr(explain_module, "solve", generous)
    # the irrelevant fact first and last: the shrinking must try every position
    facts = [FACTS[3], FACTS[0], FACTS[5], FACTS[1], FACTS[2], FACTS[3]]
    m, assumptions = model_of(facts)
    core, confirmed = explain(m, assumptions)
    assert confirmed and sorted(a.label for a in core) == ["x + y at most 3", "x at least 2", "y at least 2"]


def test_a_model_that_fails_whatever_is_assumed_lists_every_assumption_unconfirmed():
    m, assumptions = model_of(FACTS[:2])
    x = m.new_int_var(0, 1, "z")
    m.add(x >= 2)  # no assumption switches this off
    core, confirmed = explain(m, assumptions)
    assert (core, confirmed) == (assumptions, False)
