"""The shared terms of the setup proofs: the assumptions a model is solved under, the verdict at
one player count, and the one tuned CP-SAT call every proof makes.

An assumption is a literal that switches on one fact (a setup step, an item's owned count, a
constraint); solving under assumptions lets an infeasible model name the facts that conflict
(solver/proof/explain.py). The flow model is solver/proof/feasibility.py, the constraints solver/proof/constraints.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ortools.sat.python import cp_model

if TYPE_CHECKING:
    from solver.engine.results import ItemKey
    from solver.game.setup import Constraint


@dataclass
class Assumption:
    lit: Any
    kind: str  # step | inventory | constraint
    label: str
    source: str
    item: ItemKey | None = None  # an inventory fact's item; (component, "") for a stated total


@dataclass
class Verdict:
    """The checker's answer at one player count."""
    players: int
    feasible: bool
    core: list[Assumption] = field(default_factory=list)
    core_confirmed: bool = False
    can_fail: list[tuple[Constraint, str]] = field(default_factory=list)  # (rule, counterexample)
    unproven: list[tuple[Constraint, list[ItemKey]]] = field(default_factory=list)  # (rule, uncounted items)
    rules: int = 0  # rules active at this count
    totals: dict[str, dict[str, int]] = field(default_factory=dict)  # zone -> component -> copies
    choices: list[tuple[int, dict[ItemKey, int]]] = field(default_factory=list)  # (step, a valid choice)


class Model(cp_model.CpModel):
    """A CpModel without OR-Tools' pre-PEP8 aliases (NewIntVar, AddBoolOr, ...): its constructor
    binds one deprecation wrapper per method to each model it makes (0.5 ms a model; the checker
    makes some 70 a cold build), and nothing here calls them. The model and its solves are the same."""

    def _add_pre_pep8_methods(self) -> None:
        pass


def copy_model(model: cp_model.CpModel) -> Model:
    """A copy of `model` to add to, the original left as it is (CpModel.clone, as a `Model`). A
    variable or literal of `model` stands for the same one in the copy (by its index)."""
    copy = Model()
    copy.proto.copy_from(model.proto)
    copy.rebuild_constant_map()
    return copy


def solve(model: cp_model.CpModel, lits: list[Any], *, presolve: bool = False,
          verdict_only: bool = False) -> tuple[Any, cp_model.CpSolver]:
    """Solve under assumptions, with one worker (fastest on tiny models, and deterministic).

    Presolve is off: on these models it costs more than it saves (40 ms against 4 ms). The full
    LP relaxation (linearization level 2) is on: proving that no deal breaks a rule is reasoning
    over sums of sums, which bounds propagation alone does by search (Saboteur at 3 players:
    8 s at level 0, 0.08 s at level 2)."""
    model.clear_assumptions()
    model.add_assumptions(lits)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = presolve
    solver.parameters.linearization_level = 2
    # probing, symmetry detection and Gomory/MIR cuts pay off on hard models, not on these: off,
    # the ~45 solves of `pnp check --all` take 0.73 s of CPU instead of 1.0 s, with the same verdicts
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.symmetry_level = 0
    solver.parameters.add_cg_cuts = False
    solver.parameters.add_mir_cuts = False
    solver.parameters.max_time_in_seconds = 10.0
    if verdict_only:
        # For a caller that reads no solution the report prints (`verdict_only`): every linear
        # constraint in the LP from the start, not added as it is violated, and no zero-half cuts.
        # The verdict is the same (infeasible is a proof, and any solution shows feasibility), the
        # solution found may differ; the rule proofs of `pnp check --all` take 0.21 CPU-s instead of 0.41.
        solver.parameters.add_lp_constraints_lazily = False
        solver.parameters.add_zero_half_cuts = False
    status = solver.solve(model)
    return status, solver


def in_stages(model: cp_model.CpModel, stages: list[tuple[Any, bool]],
              make_solver: Callable[[], cp_model.CpSolver]) -> tuple[cp_model.CpSolver | None, int | None]:
    """Optimise each (expression, maximise) stage in turn, each keeping the optimum of those before
    (an equality on its value); constant stages are skipped. Returns the solver of the last stage
    that found an answer (None if no stage ran or found one) and the position in `stages` of the
    stage that found none (None when every stage found one).

    The caller has shown the model feasible, and every stage keeps the answer of the one before
    feasible, so a stage finds no answer only when its time limit runs out before any: the stages
    stop there and the answer is the one before, which meets every constraint but not the later
    stages' objectives; the caller says so. A stage stopped short of its optimum keeps the value found."""
    best = None
    for i, (expr, maximise) in enumerate(stages):
        if isinstance(expr, int):
            continue
        model.maximize(expr) if maximise else model.minimize(expr)
        solver = make_solver()
        if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return best, i
        model.add(expr == int(round(solver.objective_value)))
        best = solver
    return best, None
