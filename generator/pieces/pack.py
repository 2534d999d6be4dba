"""Packing a whole game's pieces onto the fewest sheets, with guillotine cuts: pure numbers in mm.

Every piece has a footprint: its trim, its bleed round it and half its gutter (the footprints of
neighbours touch, so bleeds never overlap, as on a grid). Pieces of one footprint form a `Kind`.
A sheet is cut in three stages, each cut a straight line across the part it divides:

1. strips: full-width bands stacked down the sheet, parted by cuts across the whole sheet;
2. columns: each strip parted by cuts across its height into columns side by side;
3. pieces: a column holds `k` pieces of one kind stacked, cut apart like a one-column grid.

A strip's height is its tallest column's; a column of kind t in a strip of height H holds up to
floor(H / t's footprint height) pieces. The CP-SAT model chooses, for every strip of every sheet,
its height among the heights a stack can have and how many columns of each kind it carries, so that
every piece has a place; it minimises the sheets, then the height the strips take. A greedy
first-fit-decreasing layout (shelves of the tallest pieces left, filled with columns of any kind
that fits) is its hint, and the answer when the solver finds nothing better in its time.

Deterministic: one worker, a fixed seed, and a limit in the solver's deterministic time (not the
clock), so the same pieces give the same layout on every run and machine. OR-Tools is imported
only here, when a packed print is asked for.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

UNIT = 100            # the solver counts in 0.01 mm, footprints rounded up: a layout that fits in
                      # whole units fits in mm
DETERMINISTIC_LIMIT = 1.0  # the solver's deterministic time per orientation (about seconds)
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
    """The sheets (each a list of strips, top to bottom), the region's orientation, and how the
    solve went: `optimal` when CP-SAT proved no fewer sheets can hold the pieces this way."""
    sheets: tuple[tuple[Strip, ...], ...]
    landscape: bool
    optimal: bool = False
    solver: str = "greedy"


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


# --------------------------------------------------------------------------- CP-SAT

def heights(kinds: tuple[Kind, ...], rh: int) -> list[int]:
    """The heights a strip can have: the height of a stack of k pieces of some kind."""
    out = {k * units(kind.fh) for kind in kinds for k in range(1, rh // max(units(kind.fh), 1) + 1)}
    return sorted(out, reverse=True) or [rh]


def solve(kinds: tuple[Kind, ...], demand: tuple[int, ...], rw: int, rh: int,
          start: list[list[Strip]]) -> tuple[list[list[Strip]], bool, str]:
    """The CP-SAT layout (or `start` when the solver finds none better); whether it is proved to
    need no fewer sheets; the solver's status name."""
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    hs = [h for h in heights(kinds, rh) if h <= rh]
    fw = [units(k.fw) for k in kinds]
    fh = [units(k.fh) for k in kinds]
    n_sheets = len(start)
    n_strips = max(1, min(rh // min(fh), len(kinds) + 3))
    x, cols, used = {}, {}, []
    for s in range(n_sheets):
        used.append(m.new_bool_var(f"u{s}"))
        for j in range(n_strips):
            for h in hs:
                x[s, j, h] = m.new_bool_var(f"x{s}_{j}_{h}")
                m.add_implication(x[s, j, h], used[s])
                for t in range(len(kinds)):
                    if fh[t] <= h:
                        cols[s, j, h, t] = m.new_int_var(0, max(1, rw // fw[t]), f"c{s}_{j}_{h}_{t}")
                        m.add(cols[s, j, h, t] <= max(1, rw // fw[t]) * x[s, j, h])
            m.add_at_most_one(x[s, j, h] for h in hs)
            m.add(sum(cols[key] * fw[key[3]] for key in cols if key[:2] == (s, j)) <= rw)
            if j:  # strips of a sheet tallest first, unused ones last (symmetry)
                m.add(sum(h * x[s, j, h] for h in hs) <= sum(h * x[s, j - 1, h] for h in hs))
        m.add(sum(h * x[s, j, h] for j in range(n_strips) for h in hs) <= rh)
        if s:
            m.add(used[s] <= used[s - 1])
    for t, need in enumerate(demand):
        m.add(sum(v * (key[2] // fh[t]) for key, v in cols.items() if key[3] == t) >= need)
    big = n_sheets * rh + 1
    m.minimize(big * sum(used) + sum(h * v for (s, j, h), v in x.items()))
    hint(m, start, kinds, x, cols, used, hs, fh)
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers, p.random_seed, p.max_deterministic_time = 1, SEED, DETERMINISTIC_LIMIT
    status = solver.solve(m)
    name = solver.status_name(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return start, False, name
    sheets = decode(solver, kinds, demand, x, cols, n_sheets, n_strips, hs, fh)
    proved = status == cp_model.OPTIMAL or math.ceil(solver.best_objective_bound / big - 1e-9) >= len(sheets)
    return sheets, proved, name


def hint(m, start, kinds, x, cols, used, hs, fh) -> None:
    """The greedy layout as the solver's first guess (its strips in the model's order)."""
    chosen: dict[tuple, int] = {}
    for s, sheet in enumerate(start):
        ordered = sorted(sheet, key=lambda st: -max(c.count * fh[c.kind] for c in st.columns))
        for j, strip in enumerate(ordered):
            h = max(c.count * fh[c.kind] for c in strip.columns)
            chosen[s, j, h] = 1
            for c in strip.columns:
                key = (s, j, h, c.kind)
                chosen[key] = chosen.get(key, 0) + 1
    for key, var in x.items():
        m.add_hint(var, chosen.get(key, 0))
    for key, var in cols.items():
        m.add_hint(var, chosen.get(key, 0))
    for s, var in enumerate(used):
        m.add_hint(var, 1 if s < len(start) else 0)


def decode(solver, kinds, demand, x, cols, n_sheets, n_strips, hs, fh) -> list[list[Strip]]:
    """The solver's strips, filled with the pieces in order (a column as full as its strip
    allows); empty columns, strips and sheets dropped."""
    left = list(demand)
    sheets: list[list[Strip]] = []
    for s in range(n_sheets):
        strips = []
        for j in range(n_strips):
            h = next((h for h in hs if solver.value(x[s, j, h])), None)
            if h is None:
                continue
            columns = []
            for t in sorted(range(len(kinds)), key=lambda t: (-kinds[t].fh, t)):
                for _ in range(solver.value(cols[s, j, h, t]) if (s, j, h, t) in cols else 0):
                    n = min(h // fh[t], left[t])
                    if n:
                        columns.append(Column(t, n))
                        left[t] -= n
            if columns:
                strips.append(Strip(tuple(columns)))
        if strips:
            sheets.append(strips)
    assert not any(left), "the model places every piece"
    return sheets


# --------------------------------------------------------------------------- both orientations

def fits(kinds: tuple[Kind, ...], region: tuple[float, float]) -> bool:
    return all(units(k.fw) <= units(region[0]) and units(k.fh) <= units(region[1]) for k in kinds)


@lru_cache(maxsize=32)
def pack(kinds: tuple[Kind, ...], demand: tuple[int, ...],
         regions: tuple[tuple[float, float], tuple[float, float]]) -> Packing:
    """The best packing of the pieces into a sheet's region, `regions` = (portrait, landscape)
    (width, height) in mm: the fewest sheets, then the least height used, portrait first on a tie.
    Every kind must fit one of the regions. Cached: the manifest and the packed sheets of one
    build ask for the same."""
    best: Packing | None = None
    best_key: tuple | None = None
    for landscape, region in ((False, regions[0]), (True, regions[1])):
        if not fits(kinds, region):
            continue
        rw, rh = units(region[0]), units(region[1])
        start = greedy(kinds, demand, rw, rh)
        sheets, optimal, name = solve(kinds, demand, rw, rh, start) if start else (start, True, "OPTIMAL")
        used = sum(strip_height(kinds, st) for sheet in sheets for st in sheet)
        key = (len(sheets), round(used, 6))
        if best_key is None or key < best_key:
            best_key = key
            best = Packing(tuple(tuple(s) for s in sheets), landscape, optimal, name.lower())
    assert best is not None, "every kind fits one of the regions"
    return best
