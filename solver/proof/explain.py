"""Why a setup cannot be carried out: the smallest set of steps, counts and rules that conflict,
confirmed by re-solving it alone, and the one-line finding that names each with its location.

The solver's sufficient set of assumptions comes from a solve with presolve on; it is trusted only
if re-solving the set alone is infeasible too, else the solve is repeated with presolve off and one
worker (presolve can return a wrong core, OR-Tools #3017/#5141); the confirmed set is shrunk to a
minimal one by deletion.
"""
from __future__ import annotations

from ortools.sat.python import cp_model

from solver.findings import Finding
from solver.proof.cpsat import Assumption, Verdict, solve


def explain(model: cp_model.CpModel, assumptions: list[Assumption]) -> tuple[list[Assumption], bool]:
    """A confirmed, minimal set of assumptions that cannot hold together.

    The first core comes from a solve with presolve on; it is trusted only if re-solving the core
    alone is infeasible too, else the solve is repeated with presolve off (OR-Tools #3017, #5141)."""
    by_index = {a.lit.Index(): a for a in assumptions}
    lits = [a.lit for a in assumptions]
    core: list[Assumption] = []
    confirmed = False
    for presolve in (True, False):
        status, solver = solve(model, lits, presolve=presolve)
        if status != cp_model.INFEASIBLE:
            return [], False
        core = [by_index[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in by_index]
        if core and solve(model, [a.lit for a in core])[0] == cp_model.INFEASIBLE:
            confirmed = True
            break
    if not confirmed:
        return assumptions, False
    # deletion-based minimisation: drop every assumption the conflict does not need
    i = 0
    while i < len(core) and len(core) <= 60:
        trial = core[:i] + core[i + 1:]
        if solve(model, [a.lit for a in trial])[0] == cp_model.INFEASIBLE:
            core = trial
        else:
            i += 1
    return core, True


def conflict_finding(verdict: Verdict) -> Finding:
    """One line naming every rule, step and count of the (minimal) conflict, with locations.

    `rule 'a' (expr) [setup.yaml:17, source clause] + step 'b' [setup.yaml:4, ...] + counts
    x ×1, y ×2 [components.yaml:6, 7] cannot all hold`; the finding's source is the rule's line."""
    order = ("constraint", "step", "inventory")
    core = sorted(verdict.core, key=lambda a: order.index(a.kind))
    parts = [f"{a.label} [{short(a.source)}]" for a in core if a.kind != "inventory"]
    counts = [a for a in core if a.kind == "inventory"]
    if counts:
        by_file: dict[str, list[str]] = {}
        for a in counts:
            name, _, line = short(a.source).rpartition(":")
            by_file.setdefault(name, []).append(line)
        lines = "; ".join(f"{name}:{', '.join(dict.fromkeys(ls))}" for name, ls in by_file.items())
        parts.append("counts " + ", ".join(a.label for a in counts) + f" [{lines}]")
    confirmed = "" if verdict.core_confirmed else " (core not confirmed: every assumption listed)"
    source = core[0].source.split(" (")[0] if core else "setup.yaml"
    return Finding("error", "setup-infeasible",
                   "setup cannot be carried out: " + " + ".join(parts) + " cannot all hold" + confirmed
                   + "; change one of them", source, [verdict.players])


def short(source: str) -> str:
    """`data/games/x/setup.yaml:17 (seed 001, ...)` -> `setup.yaml:17 (seed 001, ...)`."""
    head, sep, tail = source.partition(" (")
    return head.rsplit("/", 1)[-1] + (f" ({tail}" if sep else "")
