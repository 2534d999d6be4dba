"""Packing a whole game's pieces onto the fewest sheets, with guillotine cuts: pure numbers in mm.

Every piece has a footprint: its trim, its bleed round it and half its gutter (the footprints of
neighbours touch, so bleeds never overlap, as on a grid). Pieces of one footprint form a `Kind`.
A sheet is cut in three stages, each cut a straight line across the part it divides:

1. strips: full-width bands stacked down the sheet, parted by cuts across the whole sheet;
2. columns: each strip parted by cuts across its height into columns side by side;
3. pieces: a column holds `k` pieces of one kind stacked, cut apart like a one-column grid.

A strip's height is its tallest column's; a column of kind t in a strip of height H holds up to
floor(H / t's footprint height) pieces. The CP-SAT model chooses, for every sheet, whether it is
used portrait or landscape, and for every strip its height among the heights a stack can have and
how many columns of each kind it carries, so that every piece has a place; it minimises the sheets,
then the height the strips take. A greedy
first-fit-decreasing layout (shelves of the tallest pieces left, filled with columns of any kind
that fits; the best of all-portrait, all-landscape and sheet by sheet) is its hint, and the answer
when the solver finds nothing better in its time.

Deterministic: one worker, a fixed seed, and a limit in the solver's deterministic time (not the
clock), so the same pieces give the same layout on every run and machine. OR-Tools is imported
only here, when a packed print is asked for.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

UNIT = 100            # the solver counts in 0.01 mm, footprints rounded up: a layout that fits in
                      # whole units fits in mm
DETERMINISTIC_LIMIT = 2.0  # the solver's deterministic time (about seconds on an idle core)
SEED = 7


@dataclass(frozen=True)
class Kind:
    """Pieces of one footprint: trim w x h, bleed round it, and the extra gutter beyond the
    bleeds (half on each side)."""
    w: float
    h: float
    bleed: float
    gutter: float = 0.0

    @property
    def band(self) -> float:
        """From the footprint's edge to the trim: the bleed and half the gutter."""
        return self.bleed + self.gutter / 2

    @property
    def fw(self) -> float:
        return self.w + 2 * self.band

    @property
    def fh(self) -> float:
        return self.h + 2 * self.band


@dataclass(frozen=True)
class Column:
    kind: int       # index into the problem's kinds
    count: int      # pieces stacked in it


@dataclass(frozen=True)
class Strip:
    columns: tuple[Column, ...]


@dataclass(frozen=True)
class Packing:
    """The sheets (each landscape or not, and its strips top to bottom), and how the solve went:
    `optimal` when CP-SAT proved no fewer sheets can hold the pieces this way."""
    sheets: tuple[tuple[bool, tuple[Strip, ...]], ...]
    optimal: bool = False
    solver: str = "greedy"


Shape = tuple[int, int]  # a sheet's region, width and height in solver units
Sheet = tuple[bool, tuple[Strip, ...]]  # landscape?, its strips top to bottom


def units(mm: float) -> int:
    return math.ceil(round(mm * UNIT, 6))


def column_height(kind: Kind, count: int) -> float:
    return count * kind.fh


def strip_height(kinds: tuple[Kind, ...], strip: Strip) -> float:
    return max(column_height(kinds[c.kind], c.count) for c in strip.columns)


def strip_width(kinds: tuple[Kind, ...], strip: Strip) -> float:
    return sum(kinds[c.kind].fw for c in strip.columns)


# --------------------------------------------------------------------------- greedy

def greedy(kinds: tuple[Kind, ...], demand: tuple[int, ...], rw: int, rh: int) -> list[list[Strip]]:
    """Shelves first-fit decreasing: a strip as tall as the tallest piece left, filled left to right
    with columns (tallest kinds first, each stacked as high as the strip allows); strips then go
    onto the first sheet with room, tallest first."""
    left = list(demand)
    order = sorted(range(len(kinds)), key=lambda t: (-kinds[t].fh, -kinds[t].fw, t))
    strips: list[tuple[int, Strip]] = []
    while any(left):
        top = next(t for t in order if left[t])
        height = units(kinds[top].fh)
        width, cols = 0, []
        for t in order:
            fw, per = units(kinds[t].fw), height // units(kinds[t].fh)
            while left[t] and per and width + fw <= rw:
                n = min(per, left[t])
                cols.append(Column(t, n))
                left[t] -= n
                width += fw
        if not cols:  # a piece wider than the region: it takes a strip of its own
            cols.append(Column(top, 1))
            left[top] -= 1
        strips.append((height, Strip(tuple(cols))))
    sheets: list[list[tuple[int, Strip]]] = []
    for height, strip in sorted(strips, key=lambda hs: -hs[0]):
        home = next((s for s in sheets if sum(h for h, _ in s) + height <= rh), None)
        if home is None:
            sheets.append([(height, strip)])
        else:
            home.append((height, strip))
    return [[s for _, s in sheet] for sheet in sheets]


def fill_sheet(kinds: tuple[Kind, ...], left: list[int], rw: int, rh: int) -> list[Strip]:
    """One sheet filled shelf by shelf: each strip as tall as the tallest piece left that fits the
    height left, its width filled with columns (tallest kinds first). Takes the pieces from `left`."""
    order = sorted(range(len(kinds)), key=lambda t: (-kinds[t].fh, -kinds[t].fw, t))
    strips: list[Strip] = []
    room = rh
    while True:
        top = next((t for t in order if left[t] and units(kinds[t].fh) <= room and units(kinds[t].fw) <= rw), None)
        if top is None:
            return strips
        height = units(kinds[top].fh)
        width, cols = 0, []
        for t in order:
            fw, per = units(kinds[t].fw), height // units(kinds[t].fh)
            while left[t] and per and width + fw <= rw:
                cols.append(Column(t, min(per, left[t])))
                left[t] -= cols[-1].count
                width += fw
        strips.append(Strip(tuple(cols)))
        room -= height


def greedy_mixed(kinds: tuple[Kind, ...], demand: tuple[int, ...], shapes: tuple[Shape, Shape]) -> list[Sheet]:
    """Sheet by sheet, each turned the way that takes more of the pieces' area (portrait on a tie)."""
    left = list(demand)
    sheets: list[Sheet] = []
    while any(left):
        best: tuple[float, int, list[int], list[Strip]] | None = None
        for o in (0, 1):
            trial = list(left)
            strips = fill_sheet(kinds, trial, *shapes[o])
            area = sum((a - b) * kinds[t].fw * kinds[t].fh for t, (a, b) in enumerate(zip(left, trial)))
            if strips and (best is None or area > best[0] + 1e-9):
                best = (area, o, trial, strips)
        if best is None:
            raise ValueError("a kind fits neither way")
        left = best[2]
        sheets.append((bool(best[1]), tuple(best[3])))
    return sheets


# --------------------------------------------------------------------------- CP-SAT

def heights(kinds: tuple[Kind, ...], rh: int) -> list[int]:
    """The heights a strip can have: the height of a stack of k pieces of some kind."""
    out = {k * units(kind.fh) for kind in kinds for k in range(1, rh // max(units(kind.fh), 1) + 1)}
    return sorted(out, reverse=True) or [rh]


def solve(kinds: tuple[Kind, ...], demand: tuple[int, ...], shapes: tuple[Shape, Shape],
          start: list[Sheet]) -> tuple[list[Sheet], bool, str]:
    """The CP-SAT layout on sheets of either orientation (`shapes`: portrait, landscape), or
    `start` when the solver finds none better; whether it is proved to need no fewer sheets; the
    solver's status name."""
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    fw, fh = [units(k.fw) for k in kinds], [units(k.fh) for k in kinds]
    slots = [(o, s) for o in (0, 1) for s in range(len(start))]
    x: dict[tuple, Any] = {}
    cols: dict[tuple, Any] = {}
    used = [m.new_bool_var(f"u{q}") for q in range(len(slots))]
    placed: list[list[Any]] = [[] for _ in kinds]
    for q, (o, s) in enumerate(slots):
        rw, rh = shapes[o]
        fit = [t for t in range(len(kinds)) if fw[t] <= rw and fh[t] <= rh]
        hs = heights(tuple(kinds[t] for t in fit), rh)
        n_strips = max(1, min(rh // min(fh), len(kinds) + 3), max(len(st) for _, st in start))
        for j in range(n_strips):
            width = []
            for h in hs:
                x[q, j, h] = v = m.new_bool_var(f"x{q}_{j}_{h}")
                m.add_implication(v, used[q])
                for t in (t for t in fit if fh[t] <= h):
                    cols[q, j, h, t] = c = m.new_int_var(0, rw // fw[t], f"c{q}_{j}_{h}_{t}")
                    m.add(c <= (rw // fw[t]) * v)
                    width.append(c * fw[t])
                    placed[t].append(c * (h // fh[t]))
            m.add_at_most_one(x[q, j, h] for h in hs)
            m.add(sum(width) <= rw)
            if j:  # strips of a sheet tallest first, unused ones last (symmetry)
                m.add(sum(h * x[q, j, h] for h in hs) <= sum(h * x[q, j - 1, h] for h in hs))
        m.add(sum(h * x[q, j, h] for j in range(n_strips) for h in hs) <= rh)
        if s:
            m.add(used[q] <= used[q - 1])
    for t, need in enumerate(demand):
        m.add(sum(placed[t]) >= need)
    big = len(slots) * max(rh for _, rh in shapes) + 1
    m.minimize(big * sum(used) + sum(key[2] * v for key, v in x.items()))
    hint(m, start, slots, x, cols, used, fh)
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers, p.random_seed, p.max_deterministic_time = 1, SEED, DETERMINISTIC_LIMIT
    status = solver.solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return start, False, solver.status_name(status)
    sheets = decode(solver, kinds, demand, slots, x, cols, fh)
    # proved: no fewer sheets possible (solve is only asked with pieces to place: one sheet at least)
    proved = status == cp_model.OPTIMAL or max(1, sheets_at_least(solver.best_objective_bound, big)) >= len(sheets)
    if len(start) < len(sheets):  # the hint was not taken whole: the greedy layout stays
        return start, False, "greedy"
    return sheets, proved, solver.status_name(status)


def sheets_at_least(bound: float, big: int) -> int:
    """The fewest sheets a bound on the objective leaves possible: a layout of s sheets costs
    big x s plus its strips' heights, which are less than big, so s >= floor(bound / big)."""
    return math.floor(bound / big + 1e-9)


def hint(m: Any, start: list[Sheet], slots: list[tuple[int, int]], x: dict, cols: dict, used: list, fh: list[int]) -> None:
    """The greedy layout as the solver's first guess (its strips in the model's order)."""
    chosen: dict[Any, int] = {}
    for s, (landscape, strips) in enumerate(start):
        q = slots.index((int(landscape), s))
        chosen[q] = 1
        ordered = sorted(strips, key=lambda st: -max(c.count * fh[c.kind] for c in st.columns))
        for j, strip in enumerate(ordered):
            h = max(c.count * fh[c.kind] for c in strip.columns)
            chosen[q, j, h] = 1
            for c in strip.columns:
                chosen[q, j, h, c.kind] = chosen.get((q, j, h, c.kind), 0) + 1
    for key, var in list(x.items()) + list(cols.items()):
        m.add_hint(var, chosen.get(key, 0))
    for q, var in enumerate(used):
        m.add_hint(var, chosen.get(q, 0))


def decode(solver: Any, kinds: tuple[Kind, ...], demand: tuple[int, ...], slots: list[tuple[int, int]], x: dict,
           cols: dict, fh: list[int]) -> list[Sheet]:
    """The solver's strips, filled with the pieces in order (a column as full as its strip
    allows); empty columns, strips and sheets dropped."""
    left = list(demand)
    chosen: dict[int, list[tuple[int, int]]] = {}
    for (q, j, h), v in x.items():
        if solver.value(v):
            chosen.setdefault(q, []).append((j, h))
    sheets: list[Sheet] = []
    for q in sorted(chosen):
        strips = []
        for j, h in sorted(chosen[q]):
            columns = []
            for t in sorted(range(len(kinds)), key=lambda t: (-kinds[t].fh, t)):
                for _ in range(solver.value(cols[q, j, h, t]) if (q, j, h, t) in cols else 0):
                    n = min(h // fh[t], left[t])
                    if n:
                        columns.append(Column(t, n))
                        left[t] -= n
            if columns:
                strips.append(Strip(tuple(columns)))
        if strips:
            sheets.append((bool(slots[q][0]), tuple(strips)))
    assert not any(left), "the model places every piece"
    return sheets


# --------------------------------------------------------------------------- both orientations

def fits(kinds: tuple[Kind, ...], region: tuple[float, float]) -> bool:
    return all(units(k.fw) <= units(region[0]) and units(k.fh) <= units(region[1]) for k in kinds)


@lru_cache(maxsize=32)
def pack(kinds: tuple[Kind, ...], demand: tuple[int, ...],
         regions: tuple[tuple[float, float], tuple[float, float]]) -> Packing:
    """The best packing of the pieces onto sheets, each portrait or landscape: `regions` =
    (portrait, landscape) (width, height) in mm, and every kind fits both. The best greedy layout
    (all portrait, all landscape, or each sheet turned the way that holds more) starts the solver,
    which may turn any sheet. Cached: the manifest and the
    packed sheets of one build ask for the same."""
    shapes = (units(regions[0][0]), units(regions[0][1])), (units(regions[1][0]), units(regions[1][1]))
    starts = [[(bool(o), tuple(st)) for st in greedy(kinds, demand, *shapes[o])] for o in (0, 1)]
    start = min(starts + [greedy_mixed(kinds, demand, shapes)], key=len)  # the first on a tie
    if not start:
        return Packing((), True, "optimal")
    sheets, optimal, name = solve(kinds, demand, shapes, start)
    return Packing(tuple(sheets), optimal, name.lower())
