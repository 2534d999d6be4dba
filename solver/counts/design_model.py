"""The setup half of `pnp design`'s model: every run (player count, optional rule) of setup.yaml as
the checker's flow model (solver/proof/feasibility.py), all sharing one count variable per item the
sources leave open, and one amount variable per run for each `remove` step with `each: free`.

Like propose.py's joint model, but with the free amounts: a step that says `each: free` takes as
many copies of each matched item as the design chooses at that count, and every rule of setup.yaml
(in play exactly players + 1, at most three loyal dwarves per clan...) holds with that amount.
"""
from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from solver.engine.items import owned_counts, rest_kinds
from solver.engine.results import ItemKey, SetupResult
from solver.game.loader import Game
from solver.game.setup import FREE, RemoveStep
from solver.proof.cpsat import Assumption, Model, solve
from solver.proof.explain import explain
from solver.proof.feasibility import UNKNOWN_UB, setup_model


def free_steps(game: Game) -> list[int]:
    """The positions of the `remove` steps whose `each` is `free`."""
    return [i for i, s in enumerate(game.setup.steps if game.setup else [])
            if isinstance(s, RemoveStep) and s.remove.each == FREE]


class DesignJoint:
    """`x[item]` for each open count, `amount[(step, players, variant)]` for each free removal that
    runs, and every run's steps, counts and rules as assumptions (`feasible`, `conflict`)."""

    def __init__(self, game: Game, results: dict[tuple[int, str | None], SetupResult], most: int):
        self.game = game
        self.m = Model()
        owned = owned_counts(game)
        self.unknown = [k for k, v in owned.items() if v is None]
        rest = rest_kinds(game)
        self.x = {k: self.m.new_int_var(0, UNKNOWN_UB, f"count[{k[0]}/{k[1]}]") for k in self.unknown}
        self.assumptions: list[Assumption] = []
        for k in self.unknown:
            if k not in rest:  # named by the sources, so at least one exists
                lit = self.m.new_bool_var(f"named[{k[1]}]")
                self.m.add(self.x[k] >= 1).only_enforce_if(lit)
                self.assumptions.append(Assumption(lit, "inventory", f"{k[1]} ≥ 1 (a named kind)", "", k))
        self.amount: dict[tuple[int, int, str | None], Any] = {}
        frees = free_steps(game)
        for (n, var), result in results.items():
            free = {i: self.m.new_int_var(0, most, f"free[{i},{n},{var}]") for i in frees if i in result.steps_run}
            self.amount.update({(i, n, var): v for i, v in free.items()})
            sm = setup_model(game, result, self.m, free)
            for k in self.unknown:
                self.m.add(sm.owned_var[k] == self.x[k])
            label = f"{n} players" + (f", variant {var}" if var else "")
            for a in sm.assumptions:
                a.label = f"{label}: {a.label}"
                self.assumptions.append(a)
        # a stated total is every run's assumption (setup.yaml or not: a game has its player counts)

    def var(self, k: ItemKey, owned: int | None) -> Any:
        return self.x[k] if k in self.x else (owned or 0)

    def feasible(self) -> bool:
        return solve(self.m, [a.lit for a in self.assumptions])[0] in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    def conflict(self) -> tuple[list[str], bool]:
        core, confirmed = explain(self.m, self.assumptions)
        return [a.label + (f" ({a.source})" if a.source else "") for a in core], confirmed
