"""Wargame facts as CP-SAT optimisation models: the smallest counter mix, the chit pool, the stock.

A hex wargame's rules name what setup places and what later rules add (War of the Ring:
18.5 places the units, 16.23.2 adds four Gondor soldiers when Pelargir is freed) but the
counter manifest often does not say how many of each soldier the sheet holds. The data gives
those items `count: null` and states the needs as setup constraints (`owned(x) >= ...`); here
CP-SAT finds the smallest counts that satisfy the whole setup model and every constraint, so
the table of "counters the rules need" per side, nation and type is derived, not typed.

The chit pool (2.2.12: values 1-5, mean 2.34) is a second model: the fewest chits whose mean is
exactly the stated one, and the fewest whose mean rounds to it, with how many mixes reach that.
The allied stock limit (2.1.2: no reinforcement when the stock is short; the dark side has
none) becomes a table of what is left in the stock after setup with the smallest mix.

Applies to any game with a `counters` component. What is particular to a game is data in its
components.yaml: the chits' stated mean (`stated_means` on the component: which items, which
attribute, the value and its clause) and the side a stock limit binds (`stock_limit`).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, NotRequired, TypedDict

from ortools.sat.python import cp_model

from solver.engine.items import matches, owned_counts
from solver.engine.results import ItemKey, SetupResult
from solver.engine.run import player_counts, run_setup
from solver.engine.steps import step_location
from solver.findings import CheckResult, Finding
from solver.game.components import Component, StatedMean
from solver.game.loader import Game
from solver.proof.checker import setup_model
from solver.proof.cpsat import Model

MAX_CHITS_PER_VALUE = 1000  # bound of the chit pool model's variables


class ChitPool(TypedDict):
    """The fewest chits with a stated mean: how many (None: no pool reaches it), how many mixes of
    that size, and the most even one (value -> chits)."""
    chits: int | None
    mixes: int
    example: dict[str, int]


class StockRow(TypedDict):
    """One soldier item after setup with the smallest mix. `placed_at_setup` is None where setup
    places every copy of an item whose count is not stated: `placed_note` says so, with the rule."""
    side: str
    placed_at_setup: int | None
    owned_min: int
    stock: int
    later_needs: bool
    placed_note: NotRequired[str]


def check_wargame(game: Game) -> CheckResult:
    out = CheckResult()
    if game.setup is None or not any(c.kind == "counters" for c in game.components):
        return out
    counters = {c.id for c in game.components if c.kind == "counters"}
    unknown = sorted(k for k, v in owned_counts(game).items() if v is None and k[0] in counters)
    mix = smallest_mix(game) if unknown else None  # nothing to derive when every counter is counted
    if mix is not None:
        out.derived["counter_mix_min"] = mix_table(game, mix)
        shown = ", ".join(f"{k[1]} {mix[k]}" for k in unknown[:12]) + (" …" if len(unknown) > 12 else "")
        out.findings.append(Finding(
            "info", "counter-mix-min",
            f"smallest counts the setup and rules need for the {len(unknown)} uncounted counter kinds: {shown}",
            game.where("setup.yaml", ("constraints",))))
        for comp in game.components:
            if comp.kind == "counters" and comp.stated_total is not None:
                need = sum(mix[(comp.id, it.id)] for it in comp.items)
                ok = need <= comp.stated_total.value
                out.findings.append(Finding(
                    "info" if ok else "error", "counter-mix-fits" if ok else "counter-mix-exceeds-total",
                    f"{comp.id}: the rules need at least {need} counters; {comp.stated_total.source} states "
                    f"{comp.stated_total.value}" + ("" if ok else "; the manifest cannot hold the setup"),
                    game.where("components.yaml", ("components", _index(game, comp.id), "stated_total"))))
        stock = stock_table(game, mix)
        if stock:
            out.derived["stock_after_setup"] = stock
            limit = next((c.stock_limit for c in game.components if c.stock_limit), None)
            if limit:
                side, clause = limit.side, limit.source
                short = {k: v for k, v in stock.items() if v["side"] == side and v["later_needs"]}
                cells = ", ".join(f"{k} {v['stock']}" for k, v in sorted(short.items())) or "none left"
                out.findings.append(Finding(
                    "info", "stock-limit",
                    f"{side} stock after setup with the smallest mix (reinforcements beyond it are lost): {cells}",
                    clause))
    for comp in game.components:
        for stated in comp.stated_means:
            chits = chit_items(game, comp, stated)
            if chits:
                _chit_findings(game, out, chits, Fraction(stated.value), stated.source)
    return out


def _chit_findings(game: Game, out: CheckResult, chits: dict[ItemKey, int], mean: Fraction, clause: str) -> None:
    """The chit pool of a stated mean: derived table and one finding (an error when no pool of
    the chits' values reaches the mean: the stated mean or the chits' values are wrong)."""
    need = chits_needed(game, chits)
    ex = chit_pool(chits, mean, need, exact=True)
    ro = chit_pool(chits, mean, need, exact=False)
    out.derived["chit_pool"] = {"stated_mean": str(float(mean)), "source": clause, "values": sorted(chits.values()),
                                "at_least_for_setup": need, "exact": ex, "rounded": ro}
    valued = f"chits valued {min(chits.values())}-{max(chits.values())}"
    if ex["chits"] is None and ro["chits"] is None:
        out.findings.append(Finding(
            "error", "chit-mean-unreachable",
            f"{valued}: no pool of up to {MAX_CHITS_PER_VALUE} chits of each value has a mean of {float(mean)}, "
            f"exactly or rounded; check the stated mean and the chits' values", clause))
        return
    unreached = f"is reached by no pool of up to {MAX_CHITS_PER_VALUE} chits of each value"
    exact = unreached if ex["chits"] is None else \
        f"needs at least {ex['chits']} chits ({ex['mixes']} mixes, e.g. {_mix(ex['example'])})"
    rounded = unreached if ro["chits"] is None else \
        f"needs {ro['chits']} ({ro['mixes']} mixes, e.g. {_mix(ro['example'])})"
    out.findings.append(Finding(
        "info", "chit-pool", f"{valued}: mean exactly {float(mean)} {exact}; a mean that rounds to {float(mean)} {rounded}",
        clause))


def _index(game: Game, cid: str) -> int:
    return next(i for i, c in enumerate(game.components) if c.id == cid)


def _mix(d: dict[str, int]) -> str:
    return " ".join(f"{v}×{c}" for v, c in d.items())


def _new_solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic; the models are small
    solver.parameters.max_time_in_seconds = 10.0
    return solver


def smallest_mix(game: Game) -> dict[ItemKey, int] | None:
    """Counts of every item, the unknown ones as small as the setup and its rules allow.

    One model per player count (each minimises the sum of the unknown counts under all its
    steps and rules); an item's answer is its largest minimum over the counts.
    """
    owned = owned_counts(game)
    unknown = [k for k, v in owned.items() if v is None]
    if not unknown:
        return None
    best: dict[ItemKey, int] = {}
    for n in player_counts(game):
        model = setup_model(game, run_setup(game, n))
        m = model.m
        for a in model.assumptions:  # every step, count and rule holds; the stated totals are
            if not a.label.endswith(" in all"):  # compared with the result, not imposed
                m.add(a.lit == 1)
        m.clear_assumptions()
        m.minimize(sum(model.owned_var[k] for k in unknown))
        solver = _new_solver()
        status = solver.solve(m)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None  # the setup checker explains the infeasibility
        for k in unknown:
            best[k] = max(best.get(k, 0), solver.value(model.owned_var[k]))
    return {k: best[k] if count is None else count for k, count in owned.items()}


def mix_table(game: Game, mix: dict[ItemKey, int]) -> dict[str, Any]:
    """side -> nation -> type -> counters, for the counters components."""
    table: dict[str, Any] = {}
    for comp in game.components:
        if comp.kind != "counters":
            continue
        for it in comp.items:
            side = str(it.attrs.get("side") or "neutral")
            nation = str(it.attrs.get("nation") or "-")
            kind = str(it.attrs.get("type") or "other")
            cell = table.setdefault(side, {}).setdefault(nation, {})
            cell[kind] = cell.get(kind, 0) + mix[(comp.id, it.id)]
    return {s: {n: dict(sorted(t.items())) for n, t in sorted(ns.items())} for s, ns in sorted(table.items())}


def stock_table(game: Game, mix: dict[ItemKey, int]) -> dict[str, StockRow]:
    """Soldiers per item: placed by setup, smallest owned count, left in the stock, needed later."""
    out: dict[str, StockRow] = {}
    for n in player_counts(game)[:1]:
        res = run_setup(game, n)
        for comp in game.components:
            if comp.kind != "counters":
                continue
            for it in comp.items:
                if it.attrs.get("type") != "soldier":
                    continue
                key = (comp.id, it.id)
                owned = mix[key]
                every = _every_copy(game, res, key) if it.count is None else None
                if every is not None:  # all of them, however many: none is left, and no number was placed
                    out[it.id] = {"side": str(it.attrs.get("side")), "placed_at_setup": None, "owned_min": owned,
                                  "stock": 0, "later_needs": False,
                                  "placed_note": f"every copy, and how many is not stated ({every})"}
                    continue
                # with unknown counts the engine placed none; the setup places what its steps ask
                placed = max(res.items[key]["placed"], _asked(res, key))
                out[it.id] = {"side": str(it.attrs.get("side")), "placed_at_setup": placed, "owned_min": owned,
                              "stock": owned - placed, "later_needs": owned - placed > 0}
    return out


def _every_copy(game: Game, res: SetupResult, key: ItemKey) -> str | None:
    """The rule of a place step that takes every copy of the item (no count), or None."""
    for mv in res.moves:
        if mv.dst == "placed" and key in mv.items and mv.total is None and mv.per_item is None:
            return game.step(mv.step).source or step_location(game, mv.step)
    return None


def _asked(res: SetupResult, key: ItemKey) -> int:
    """Copies that single-item place steps ask for (known even when the count is not)."""
    return sum(mv.total or 0 for mv in res.moves if mv.dst == "placed" and mv.items == (key,))


def chit_items(game: Game, comp: Component, stated: StatedMean) -> dict[ItemKey, int]:
    """The items a stated mean is over (its `where`) and their values (its `attribute`)."""
    out: dict[ItemKey, int] = {}
    for it in comp.items:
        value = it.attrs.get(stated.attribute)
        if matches({**it.attrs, "id": it.id}, stated.where) and isinstance(value, int):
            out[(comp.id, it.id)] = value
    return out


def chits_needed(game: Game, chits: dict[ItemKey, int]) -> int:
    """Chits the setup places by number (the Théoden box's five)."""
    res = run_setup(game, player_counts(game)[0])
    return sum(mv.total or 0 for mv in res.moves if mv.items and set(mv.items) <= set(chits))


def chit_pool(chits: dict[ItemKey, int], mean: Fraction, need: int, *, exact: bool) -> ChitPool:
    """Fewest chits with the stated mean (exactly, or rounding to it at two decimals).

    Every value from the lowest to the highest appears at least once (the rules give the range).
    Returns the size, the number of mixes of that size, and the most even one.
    """
    values = sorted(set(chits.values()))
    lo, hi = values[0], values[-1]
    m = Model()
    c = {v: m.new_int_var(1 if v in (lo, hi) else 0, MAX_CHITS_PER_VALUE, f"c{v}") for v in values}
    size = sum(c.values())
    points = sum(v * c[v] for v in values)
    _mean_constraint(m, points, size, mean, exact)
    m.add(size >= max(need, 1))
    m.minimize(size)
    solver = _new_solver()
    if solver.solve(m) != cp_model.OPTIMAL:
        return {"chits": None, "mixes": 0, "example": {}}
    smallest = int(solver.objective_value)
    mixes = count_mixes(values, smallest, mean, exact, (lo, hi))
    # the most even mix of that size: smallest largest pile
    m.add(size == smallest)
    top = m.new_int_var(0, MAX_CHITS_PER_VALUE, "top")
    m.add_max_equality(top, list(c.values()))
    m.minimize(top)
    solver = _new_solver()
    solver.solve(m)
    example = {str(v): solver.value(c[v]) for v in values}
    return {"chits": smallest, "mixes": mixes, "example": example}


def _mean_constraint(m: cp_model.CpModel, points: Any, size: Any, mean: Fraction, exact: bool) -> None:
    if exact:
        m.add(mean.denominator * points == mean.numerator * size)
    else:  # rounds to the stated two decimals: mean - 0.005 <= points/size < mean + 0.005
        low, high = mean - Fraction(1, 200), mean + Fraction(1, 200)
        m.add(low.denominator * points >= low.numerator * size)
        m.add(high.denominator * points < high.numerator * size)


def count_mixes(values: list[int], size: int, mean: Fraction, exact: bool, present: tuple[int, int]) -> int:
    """How many (c_v) of that size satisfy the mean, by dynamic programming over the values."""
    # ways[(chits, points)] over the values so far
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for i, v in enumerate(values):
        nxt: dict[tuple[int, int], int] = {}
        start = 1 if v in present else 0
        last = i == len(values) - 1
        for (n, p), w in ways.items():
            ks = range(start, size - n + 1)
            # the last value only completes a mix to `size` (a shorter one is never counted): one
            # k instead of all of them, in the DP's largest step
            for k in ks[-1:] if last else ks:
                key = (n + k, p + k * v)
                nxt[key] = nxt.get(key, 0) + w
        ways = nxt
    total = 0
    for (n, p), w in ways.items():
        if n != size:
            continue
        ratio = Fraction(p, n)
        ok = ratio == mean if exact else (mean - Fraction(1, 200) <= ratio < mean + Fraction(1, 200))
        total += w if ok else 0
    return total
