"""A CP-SAT solver whose time runs out, for tests of staged solves (pnp design, pnp propose)."""
from __future__ import annotations


def solvers_stopping_after(stages: int, real):
    """The module's own solver for the first `stages` solves, then one whose time is up before it
    starts (CP-SAT's deterministic time limit 0: no answer, status UNKNOWN), as a long stage would be."""
    made = []

    def make():
        solver = real()
        made.append(solver)
        if len(made) > stages:
            solver.parameters.max_deterministic_time = 0.0
        return solver
    return make
