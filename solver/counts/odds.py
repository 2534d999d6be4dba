"""Exact odds of the secret roles dealt at setup, by counting, cross-checked with CP-SAT.

A deal with `hand: false` (Saboteur's dwarf cards) hands out `players × each` cards at random
from a pile whose make-up the engine knows; a deal `to:` one side (War of the Ring 18.1: the Allied
player alone draws 3 of the 9 green cards) hands out that side's players × `each`. Kinds the
sources do not count are taken at proposed.yaml's counts, and the finding says so. The chance of each role make-up (how many of each
role are dealt) is hypergeometric:

    P(k_1..k_r) = Π C(K_v, k_v) / C(N, m)      K_v cards of role v in the pile, N in all, m dealt

computed with exact fractions. The cross-check counts a different way: CP-SAT enumerates every
solution of "d_i copies of item i dealt, Σ d_i = m, 0 ≤ d_i ≤ K_i" (per item, not per role) and
weighs each by Π C(K_i, d_i); the two must agree exactly.

Derived tables (player count as a string key, as in JSON):
    role_odds[pile][n]      list of {makeup: {role: k}, exact: "p/q", p: float}, likeliest first
    p_no_<role>[n]          float probability that no card of that role is dealt (p_no_saboteur)
    p_no_<role>_exact[n]    the same as an exact fraction "p/q"
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any

from ortools.sat.python import cp_model

from solver.counts.effective import effective_counts
from solver.engine.results import Draw, ItemKey
from solver.engine.run import setup_table
from solver.engine.steps import step_location
from solver.findings import CheckResult, Finding
from solver.game.loader import Game
from solver.proof.cpsat import Model

ROLE_ATTR = "role"


def role_of(game: Game, key: ItemKey) -> str:
    comp = game.component(key[0])
    for it in comp.items:
        if it.id == key[1]:
            value = it.attrs.get(ROLE_ATTR)
            return str(value) if value is not None else it.id
    return key[1]


def makeup_odds(pool: dict[str, int], m: int) -> dict[tuple[tuple[str, int], ...], Fraction]:
    """Exact probability of each make-up when `m` cards are drawn from `pool` (role -> copies)."""
    roles = sorted(pool)
    total = comb(sum(pool.values()), m)
    out = {}
    for ks in itertools.product(*(range(min(pool[r], m) + 1) for r in roles)):
        if sum(ks) != m:
            continue
        ways = 1
        for r, k in zip(roles, ks):
            ways *= comb(pool[r], k)
        out[tuple(zip(roles, ks))] = Fraction(ways, total)
    return out


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, dvars: list[tuple[str, int, Any]]):
        super().__init__()
        self.dvars = dvars
        self.weights: dict[tuple[tuple[str, int], ...], int] = {}

    def on_solution_callback(self) -> None:
        by_role: dict[str, int] = {}
        weight = 1
        for role, copies, var in self.dvars:
            d = self.value(var)
            weight *= comb(copies, d)
            by_role[role] = by_role.get(role, 0) + d
        key = tuple(sorted(by_role.items()))
        self.weights[key] = self.weights.get(key, 0) + weight


def enumerated_odds(items: dict[str, tuple[str, int]], m: int) -> dict[tuple[tuple[str, int], ...], Fraction]:
    """The same table by enumerating CP-SAT solutions per item (item -> (role, copies))."""
    model = Model()
    dvars = [(role, copies, model.new_int_var(0, copies, f"d[{item}]")) for item, (role, copies) in sorted(items.items())]
    model.add(sum(v for _, _, v in dvars) == m)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    collector = _Collector(dvars)
    status = solver.solve(model, collector)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return {}
    total = comb(sum(c for _, c in items.values()), m)
    roles = sorted({r for r, _ in items.values()})
    out = {}
    for key, w in collector.weights.items():
        full = dict(key)
        out[tuple((r, full.get(r, 0)) for r in roles)] = Fraction(w, total)
    return out


def draw_pool(game: Game, draw: Draw) -> tuple[dict[ItemKey, int], bool]:
    """The pile a draw is made from, item -> copies, and whether a proposed count is in it: the
    engine's counts, with the kinds the sources do not count at proposed.yaml's counts."""
    effective = effective_counts(game)
    pool = dict(draw.pool)
    proposed = False
    for k in draw.pile_items:
        count, was_proposed = effective.get(k, (None, False))
        if was_proposed and count:
            pool[k] = count
            proposed = True
    return pool, proposed


def draw_odds(game: Game, draw: Draw) -> tuple[dict, dict] | None:
    """(exact table, enumerated table) of one role deal, or None when it cannot be computed."""
    pool_of, _ = draw_pool(game, draw)
    if not draw.clean or draw.count > sum(pool_of.values()) or not pool_of:
        return None
    items = {k[1]: (role_of(game, k), c) for k, c in pool_of.items()}
    pool: dict[str, int] = {}
    for role, c in items.values():
        pool[role] = pool.get(role, 0) + c
    return makeup_odds(pool, draw.count), enumerated_odds(items, draw.count)


def check_odds(game: Game) -> CheckResult:
    """Role odds of every `hand: false` deal at every player count, exact and cross-checked."""
    out = CheckResult()
    if game.setup is None:
        return out
    role_odds: dict[str, dict[str, list]] = {}
    p_no: dict[str, dict[str, float]] = {}
    p_no_exact: dict[str, dict[str, str]] = {}
    agreed: dict[tuple[int, str], list[int]] = {}
    for n, res in setup_table(game).items():
        for draw in res.draws:
            if (draw.hand and draw.to is None) or draw.dst != "dealt":
                continue  # every player's hand: not a secret role, not one side's draw
            tables = draw_odds(game, draw)
            if tables is None or (draw.to and len({r for k in tables[0] for r, _ in k}) < 2):
                continue  # one side drawing from a pile of one kind: nothing to tell
            exact, enumerated = tables
            where = step_location(game, draw.step)
            if exact != enumerated:
                out.findings.append(Finding("error", "odds-mismatch",
                                            f"role odds of {draw.pile}: counting and CP-SAT enumeration disagree",
                                            where, [n]))
                continue
            agreed.setdefault((draw.step, draw.pile), []).append(n)
            rows = sorted(exact.items(), key=lambda kv: (-kv[1], kv[0]))
            role_odds.setdefault(draw.pile, {})[str(n)] = [
                {"makeup": dict(k), "exact": str(p), "p": round(float(p), 6)} for k, p in rows]
            for role in sorted({r for k in exact for r, _ in k}):
                none = sum((p for k, p in exact.items() if dict(k)[role] == 0), Fraction(0))
                p_no.setdefault(f"p_no_{role.replace('-', '_')}", {})[str(n)] = round(float(none), 6)
                p_no_exact.setdefault(f"p_no_{role.replace('-', '_')}_exact", {})[str(n)] = str(none)
    for (step, pile), counts in agreed.items():
        draw = next(d for d in setup_table(game)[counts[0]].draws if d.step == step)
        side = next((s.name for s in (game.setup.sides if game.setup else []) if s.id == draw.to), None)
        who = (side.get("en") or next(iter(side.values()))) if side else draw.to
        whose = f"{who}'s draw of {draw.count} from {pile}" if draw.to else f"role odds of {pile}"
        on = "; on proposed.yaml's counts" if draw_pool(game, draw)[1] else ""
        out.findings.append(Finding("info", "odds-cross-checked",
                                    f"{whose}: exact counting agrees with CP-SAT solution enumeration{on}",
                                    step_location(game, step), counts))
    if role_odds:
        out.derived["role_odds"] = role_odds
        out.derived.update(p_no)
        out.derived.update(p_no_exact)
    return out
