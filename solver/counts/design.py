"""Inverse design (`pnp design`): the least box whose counts meet every target of targets.yaml at
every player count and optional rule at once, or the smallest set of targets that conflict.

The model is solver/counts/design_model.py's joint one (every setup step and rule of setup.yaml at
every player count and optional rule, one count variable per item the sources leave open, one amount
per run for each `remove` step with `each: free`) with the targets added:

- an `odds` target at one run depends only on how many matched (A) and other (B) cards the pile
  holds at the deal, and the deal's size m: the exact hypergeometric chance is tabulated for every
  (A, B) with integers (Σ C(A,k)·C(B,m-k) against C(A+B,m), no floats) and given to CP-SAT as an
  allowed-assignments table; A and B are the counts less what the steps before the deal remove
  (one table over the box's counts for every run alike, one per run where a free amount enters);
- `range` and `total` are linear bounds on the counts; `seat_expectation` is linear in A and B
  (each·A/(A+B) against a fraction), and `equal` holds by symmetry where every seat is dealt the
  same number of cards from one shuffled pile: the tool says so and adds nothing;
- `share` is soft: the weighted distance |q·matched - p·total| is minimised after the box size.

Objective, in order: fewest copies of the designed items (the least box); then the soft shares;
then the fewest copies the free removals take; then the earlier-listed item takes the larger count. Every target is an
assumption literal, so an infeasible set is explained by solver/proof/explain.py's minimal core;
the player counts where those targets already conflict on their own are named as well.
The answer's exact values come from solver/counts/measure.py, a second computation.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

from ortools.sat.python import cp_model

from solver.counts.design_check import spans
from solver.counts.measure import (Value, applies, expression_problems, attrs_of, condition, deal_of, measure, per_run, runs,
                                   targets_of, with_counts)
from solver.counts.design_model import DesignJoint
from solver.engine.items import matches, owned_counts
from solver.engine.results import Draw, ItemKey, SetupResult
from solver.engine.run import run_setup
from solver.errors import DataError, Problem
from solver.game.loader import Game
from solver.game.designs import DesignedAmount, DesignFile
from solver.game.targets import Target, TargetsFile, fraction_of
from solver.proof.cpsat import Assumption, in_stages, solve
from solver.proof.explain import explain
from solver.proof.feasibility import item_location

OBJECTIVE = ("every target of targets.yaml and every rule of setup.yaml at every player count and optional rule; "
             "the fewest copies of the designed items; then the soft shares as near as they can be; then the fewest "
             "copies removed by `each: free` steps; ties go to the earlier-listed item")
TIME_LIMIT = 60.0  # seconds for each stage of the objective
SYMMETRY = "holds by symmetry: every seat is dealt the same number of cards from one shuffled pile"


@dataclass
class DesignResult:
    counts: dict[ItemKey, int] = field(default_factory=dict)  # the designed items' counts
    amounts: dict[tuple[int, int, str | None], int] = field(default_factory=dict)  # (step, players, variant) -> each
    values: list[Value] = field(default_factory=list)  # every target at those counts, exact
    conflict: list[str] = field(default_factory=list)  # targets that cannot hold together
    conflict_players: list[str] = field(default_factory=list)  # where they conflict on their own
    stated: list[str] = field(default_factory=list)  # stated counts the conflict needs, with where stated
    setup_conflict: list[str] = field(default_factory=list)  # the setup's own rules cannot hold
    notes: list[str] = field(default_factory=list)  # targets that hold by symmetry, with where
    confirmed: bool = True


@lru_cache(maxsize=None)
def meets(m: int, lo: int, hi: int, p: Fraction, at_least: bool, a: int, b: int) -> bool:
    """Whether m cards dealt from a pile of a matched and b other cards hold lo..hi matched ones
    with a chance ≥ p (`at_least`) or ≤ p, by integers only. A pile short of m cards never does."""
    if a < 0 or b < 0 or a + b < m:
        return False
    ways = sum(comb(a, k) * comb(b, m - k) for k in range(max(lo, 0), min(hi, m, a) + 1))
    total = comb(a + b, m)
    return ways * p.denominator >= p.numerator * total if at_least else ways * p.denominator <= p.numerator * total


@dataclass(frozen=True)
class Pool:
    """A pile at a deal: its matched and other items, and the copies removed from each side before."""
    hit: tuple[ItemKey, ...]
    miss: tuple[ItemKey, ...]
    gone_a: int
    gone_b: int
    free_a: Any = 0  # what removals with `each: free` take from each side (expressions), else 0
    free_b: Any = 0

    @property
    def fixed(self) -> bool:
        return isinstance(self.free_a, int) and isinstance(self.free_b, int)


class Design:
    """The joint setup model of every run with the targets added, each behind its own literal."""

    def __init__(self, game: Game, targets: TargetsFile):
        self.targets = targets
        owned = owned_counts(game)
        opened = with_counts(game, {k: None for k in owned if k[0] in targets.open})
        # the engine runs the free removals at 0 here (not at an old design's amounts): the model varies them
        self.game = dataclasses.replace(opened, extras={k: v for k, v in opened.extras.items() if k != "designed"})
        self.results: dict[tuple[int, str | None], SetupResult] = {r: run_setup(self.game, *r) for r in runs(self.game)}
        self.joint = DesignJoint(self.game, self.results, targets.max_pile)
        self.m = self.joint.m
        self.owned = owned_counts(self.game)
        self.attrs = attrs_of(self.game)
        self.lits: dict[str, Any] = {}
        self.run_lits: dict[tuple[str, int, str | None], Any] = {}
        self.symmetric: dict[str, list[int]] = {}  # seat targets that hold by symmetry, at these counts
        self.stopped: list[str] = []  # a stage of the objective its time limit stopped before any answer
        self.aims: dict[str, list[ItemKey]] = {}  # target -> the items it counts (a pile's, a component's)
        named = self._components()
        self.designed = [k for k in self.joint.unknown if k[0] in named]
        for cid in sorted({k[0] for k in self.designed}):
            self.m.add(sum(self.var(k) for k in self.owned if k[0] == cid) <= self.limit(cid))
        for ti, t in enumerate(targets.targets):
            self.lits[t.id] = self.m.new_bool_var(f"target[{t.id}]")
            if t.kind in ("range", "total"):
                self._box(t, self.lits[t.id])
            elif per_run(t):
                self._per_run(ti, t)

    # ------------------------------------------------------------------ model
    def var(self, k: ItemKey) -> Any:
        return self.joint.var(k, self.owned[k])

    def _components(self) -> set[str]:
        out = set()
        for t in self.targets.targets:
            if per_run(t):
                for res in self.results.values():
                    draw = deal_of(res, t.spec.deal)
                    if draw is not None:
                        out |= {k[0] for k in self._draw_items(res, draw)}
            else:
                out.add(t.spec.component)
        return out

    def _draw_items(self, res: SetupResult, draw: Draw) -> list[ItemKey]:
        mv = next(mv for mv in res.moves if mv.step == draw.step and mv.dst == draw.dst and mv.total == draw.count)
        return [k for k in mv.items if k in self.owned]

    def _problem(self, ti: int, t: Target, what: str, todo: str) -> DataError:
        loc = self.game.where("targets.yaml", ("targets", ti))
        path, _, line = loc.rpartition(":")
        return DataError([Problem(path, int(line or 0), 0, f"{t.kind} {t.id}: {what}", todo)])

    def _pool(self, ti: int, t: Target, res: SetupResult, draw: Draw) -> "Pool":
        """The pile at the deal: its matched and other items, and the copies the steps before the
        deal remove from each side (constants: a removal names its copies per item)."""
        if not draw.clean:
            raise self._problem(ti, t, f"{t.spec.deal} is drawn from before the deal at {res.players} players",
                                "aim odds at the first deal of a pile")
        items = self._draw_items(res, draw)
        removed: dict[ItemKey, int] = {}
        free: list[tuple[Any, set[ItemKey]]] = []  # (amount variable, the items it removes from)
        for mv in res.moves:
            if mv.step >= draw.step or mv.dst == "pile":
                continue
            for k in set(mv.items) & set(items):
                if mv.total is not None:
                    raise self._problem(ti, t, f"a step takes an uncounted number of {k[1]} before the deal",
                                        "aim odds at a pile whose removals count each item")
                removed[k] = removed.get(k, 0) + (mv.per_item or 0)
            if (mv.step, res.players, res.variant) in self.joint.amount:  # each: free, 0 in this run
                free.append((self.joint.amount[(mv.step, res.players, res.variant)], set(mv.items)))
        for k in items:  # the engine's own pile must be the counts less the removals
            if self.owned[k] is not None and draw.pool.get(k, 0) != max((self.owned[k] or 0) - removed.get(k, 0), 0):
                raise self._problem(ti, t, f"the pile at the deal is not {k[1]}'s copies less what the steps remove",
                                    "put the whole component into play (`use`) before the deal")
        hit = tuple(k for k in items if matches(self.attrs[k], t.spec.where))
        miss = tuple(k for k in items if k not in hit)
        free_a = sum(v * sum(1 for k in hit if k in ks) for v, ks in free)
        free_b = sum(v * sum(1 for k in miss if k in ks) for v, ks in free)
        return Pool(hit, miss, sum(removed.get(k, 0) for k in hit), sum(removed.get(k, 0) for k in miss),
                    free_a, free_b)

    def limit(self, cid: str) -> int:
        """The most copies a designed component can hold: max_pile, or its stated total if smaller."""
        stated = self.game.component(cid).stated_total
        return min(self.targets.max_pile, stated.value) if stated is not None else self.targets.max_pile

    def _top(self, keys: tuple[ItemKey, ...]) -> int:
        """The most copies these items can have: the stated ones, or the limit of a designed component."""
        comps = {k[0] for k in keys}
        return sum(self.limit(c) if any(k in self.joint.x for k in keys if k[0] == c)
                   else sum(self.owned[k] or 0 for k in keys if k[0] == c) for c in comps)

    def _per_run(self, ti: int, t: Target) -> None:
        """One literal per run; odds as one table per pile make-up over the box's matched and
        other copies (SA, SB), a column per run saying whether the run's target holds there."""
        groups: dict[tuple, list[tuple[int, str | None, Draw, Pool, Any]]] = {}
        for (n, var), res in self.results.items():
            draw = deal_of(res, t.spec.deal)
            if draw is None or not applies(t, n, var):
                continue
            pool = self._pool(ti, t, res, draw)
            self.aims.setdefault(t.id, []).extend(pool.hit + pool.miss)
            lit = self.m.new_bool_var(f"target[{t.id},{n},{var}]")
            self.m.add_implication(self.lits[t.id], lit)
            self.run_lits[(t.id, n, var)] = lit
            key = (pool.hit, pool.miss) if pool.fixed else (pool.hit, pool.miss, n, var)  # free: a table per run
            groups.setdefault(key, []).append((n, var, draw, pool, lit))
        if not groups:
            raise self._problem(ti, t, f"no step deals {t.spec.deal} to the players at the counts it applies to",
                                "name the pile of a `deal` step, or widen `when`")
        for (hit, miss, *_), group in groups.items():
            cap = self._top(hit + miss)
            cap_a, cap_b = min(cap, self._top(hit)), min(cap, self._top(miss))
            sa = self.m.new_int_var(0, cap_a, f"matched[{t.id}]")
            sb = self.m.new_int_var(0, cap_b, f"other[{t.id}]")
            self.m.add(sa == sum(self.var(k) for k in hit) - group[0][3].free_a)
            self.m.add(sb == sum(self.var(k) for k in miss) - group[0][3].free_b)
            if t.kind == "odds":
                self._odds_table(t, sa, sb, cap_a, cap_b, cap, group)
            else:
                for n, var, draw, pool, lit in group:
                    self._seats(t, n, var, draw, sa - pool.gone_a, sb - pool.gone_b, lit)

    def _odds_table(self, t: Target, sa: Any, sb: Any, cap_a: int, cap_b: int, cap: int, group: list) -> None:
        spec = t.spec
        at_least = spec.probability_at_least is not None
        p = fraction_of(spec.probability_at_least if at_least else spec.probability_at_most)
        oks, tests = [], []
        for n, var, draw, pool, lit in group:
            ok = self.m.new_bool_var(f"ok[{t.id},{n},{var}]")
            self.m.add_implication(lit, ok)
            oks.append(ok)
            lo, hi = condition(t, n)
            tests.append((draw.count, lo, hi, pool.gone_a, pool.gone_b))
        rows = [(x, y, *(int(meets(m, lo, hi, p, at_least, x - ga, y - gb)) for m, lo, hi, ga, gb in tests))
                for x in range(cap_a + 1) for y in range(min(cap_b, cap - x) + 1)]
        self.m.add_allowed_assignments([sa, sb, *oks], rows)

    def _seats(self, t: Target, n: int, var: str | None, draw: Draw, a: Any, b: Any, lit: Any) -> None:
        spec = t.spec
        seats = draw.count // draw.each if draw.each else 0
        if spec.equal and seats == n:
            self.symmetric.setdefault(t.id, []).append(n)
        elif spec.equal:
            self.m.add(a == 0).only_enforce_if(lit)  # undealt seats expect none: so must the others
        for value, low in ((spec.at_least, True), (spec.at_most, False)):
            if value is None:
                continue
            f = fraction_of(value)
            lhs, rhs = f.denominator * draw.each * a, f.numerator * (a + b)
            self.m.add(lhs >= rhs if low else lhs <= rhs).only_enforce_if(lit)
            if low and seats < n and f > 0:
                self.m.add_bool_or([lit.Not()])  # a seat dealt nothing expects none

    def _box(self, t: Target, lit: Any) -> None:
        spec = t.spec
        keys = [k for k in self.owned if k[0] == spec.component]
        if t.kind == "range":
            keys = [k for k in keys if matches(self.attrs[k], spec.where)]
        self.aims[t.id] = keys
        groups: dict[Any, list[ItemKey]] = {}
        for k in keys:
            groups.setdefault(self.attrs[k].get(spec.per) if t.kind == "range" and spec.per else None, []).append(k)
        for ks in groups.values() or [[]]:
            total = sum(self.var(k) for k in ks)
            if spec.min is not None:
                self.m.add(total >= spec.min).only_enforce_if(lit)
            if spec.max is not None:
                self.m.add(total <= spec.max).only_enforce_if(lit)

    def share_terms(self) -> list[Any]:
        terms = []
        for t in self.targets.targets:
            if t.kind != "share":
                continue
            keys = [k for k in self.owned if k[0] == t.spec.component]
            f = fraction_of(t.spec.near)
            diff = (f.denominator * sum(self.var(k) for k in keys if matches(self.attrs[k], t.spec.where))
                    - f.numerator * sum(self.var(k) for k in keys))
            dev = self.m.new_int_var(0, (f.denominator + f.numerator) * self._top(tuple(keys)), f"share[{t.id}]")  # ≥ |diff|
            self.m.add(dev >= diff)
            self.m.add(dev >= -diff)
            terms.append(t.spec.weight * dev)
        return terms

    # ------------------------------------------------------------------ solving
    @property
    def notes(self) -> list[str]:
        return [f"seat_expectation {tid}: equal at every seat at {spans(ns)} players, {SYMMETRY}; nothing to solve"
                for tid, ns in self.symmetric.items()] + self.stopped

    def assumptions(self) -> list[Assumption]:
        out = []
        for ti, t in enumerate(self.targets.targets):
            if not t.soft:
                out.append(Assumption(self.lits[t.id], "target", f"{t.kind} {t.id}",
                                      self.game.where("targets.yaml", ("targets", ti))))
        return out

    def solve(self) -> DesignResult:
        m = self.m
        hard = self.assumptions()
        if solve(m, [a.lit for a in self.joint.assumptions + hard])[0] == cp_model.INFEASIBLE:
            if not self.joint.feasible():
                conflict, confirmed = self.joint.conflict()
                return DesignResult(setup_conflict=conflict, confirmed=confirmed, notes=self.notes)
            for a in self.joint.assumptions:
                m.add(a.lit == 1)
            return self._conflict(hard)
        for a in self.joint.assumptions + hard:
            m.add(a.lit == 1)
        m.clear_assumptions()
        solver = self._optimise()
        counts = {k: int(solver.value(self.joint.x[k])) for k in self.designed}
        filled = {k: solver.value(self.joint.x[k]) for k in self.joint.unknown}
        amounts = {key: int(solver.value(v)) for key, v in self.joint.amount.items()}
        measured = with_counts(self.game, filled)
        measured.extras["designed"] = DesignFile(objective=OBJECTIVE, amounts=[
            DesignedAmount(step=i, players=n, variant=var, each=e) for (i, n, var), e in amounts.items()])
        values = measure(measured, self.targets)  # the engine runs the chosen amounts: a second computation
        return DesignResult(counts=counts, amounts=amounts, values=values, notes=self.notes)

    def _optimise(self) -> cp_model.CpSolver:
        """The stages of the objective, each keeping the optimum of those before. The tie-break
        (earlier items larger) is one weighted sum when it is exact in a double, else one stage per item."""
        m = self.m
        stages: list[tuple[Any, bool]] = [(sum(self.var(k) for k in self.designed), False)]
        shares = self.share_terms()
        if shares:
            stages.append((sum(shares), False))
        if self.joint.amount:  # then the fewest copies removed by the free steps
            stages.append((sum(self.joint.amount.values()), False))
        base = max((self.limit(k[0]) for k in self.designed), default=0) + 1
        if base ** len(self.designed) < 2 ** 52:
            n = len(self.designed)
            stages.append((sum(base ** (n - 1 - i) * self.var(k) for i, k in enumerate(self.designed)), True))
        else:
            stages += [(self.var(k), True) for k in self.designed]
        solver, stopped = in_stages(m, stages, _solver)
        if stopped is not None:  # its time ran out before any answer: the one before stands
            self.stopped.append(f"not proven the least box: stage {stopped + 1} of {len(stages)} of the objective "
                                f"found no answer in {TIME_LIMIT:.0f} s, so the counts meet every target and rule but "
                                f"the stages from there on are not optimised")
        if solver is None:  # no stage to optimise, or the first found nothing in its time
            solver = _solver()
            if solver.solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                path, _, line = self.game.where("targets.yaml", ()).rpartition(":")
                raise DataError([Problem(path, int(line or 0), 0, f"the solver found no box within {TIME_LIMIT:.0f} s",
                                         "try fewer or looser targets, or a smaller max_pile")])
        return solver

    def _conflict(self, hard: list[Assumption]) -> DesignResult:
        core, confirmed = explain(self.m, hard)
        ids = [a.label.split(" ", 1)[1] for a in core]
        where: list[str] = []
        for r in self.results if any(k[0] in ids for k in self.run_lits) else []:
            lits = [self.run_lits[(tid, *r)] for tid in ids if (tid, *r) in self.run_lits]
            lits += [self.lits[tid] for tid in ids if not any(k[0] == tid for k in self.run_lits)]
            if lits and solve(self.m, lits)[0] == cp_model.INFEASIBLE:
                where.append(f"{r[0]}" + (f" ({r[1]})" if r[1] else ""))
        return DesignResult(conflict=[a.label for a in core], conflict_players=where, stated=self._stated(ids),
                            confirmed=confirmed, notes=self.notes)

    def _stated(self, ids: list[str]) -> list[str]:
        """The stated counts of the items the conflicting targets aim at, where none of them is
        designed: then those counts (and the free removals) are the whole box, so they are the cause."""
        items = [k for tid in ids for k in self.aims.get(tid, [])]
        if not items or any(k in self.joint.x for k in items):
            return []
        return [f"{k[0]}/{k[1]} ×{self.owned[k]} ({item_location(self.game, k)})" for k in dict.fromkeys(items)]


def _solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic: the same targets give the same box
    solver.parameters.max_time_in_seconds = TIME_LIMIT
    return solver


def design(game: Game) -> DesignResult | None:
    """The least box meeting the game's targets.yaml, or the conflict; None without targets.yaml."""
    targets = targets_of(game)
    if targets is None:
        return None
    problems = expression_problems(game, targets)
    if problems:
        raise DataError(problems)
    return Design(game, targets).solve()
