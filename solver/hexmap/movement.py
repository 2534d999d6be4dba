"""Movement reach over a hex map's data: shortest paths under the wargame's terrain rules.

The rules (seed 004) as this module applies them, each a number or list in map.yaml `movement`:
- 9.10  entering a hex costs its terrain's `move_cost` (a unit kind may replace it, 16.14 elves);
- 9.14  crossing a minor-river hexside costs `minor_river` more;
- 9.15  a major river may be crossed only at a crossing point (+`major_river_crossing`) or along a road;
- 9.16  a step along a road costs `road_cost`, ignoring terrain and rivers (mountains only so: a
        terrain with `move_cost: null` is entered and left only along its roads, 2.5.4);
- 9.17  a move made wholly along one continuous road gets `road_march_bonus` more MP;
- 9.18  a unit kind with `all_in` may enter one more hex it cannot afford by spending all its MP
        (other limits still apply; the Fellowship may not);
- places and regions with `enter` admit only the listed unit kinds, at their own cost
        (Redhorn Gate 16.1.5, Moria 16.2.2, Paths of the Dead 16.3.3, Mount Doom 16.6.1).
Enemy units, control of strongholds and card effects are not map data and are not modelled.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Literal

from solver.errors import DataError, Problem
from solver.game.map import HexMap, Movement
from solver.hexmap.hexes import Hex, hexside

Mode = Literal["start", "normal", "all-in", "road-march"]


@dataclass(frozen=True, order=True)
class Reach:
    cost: int
    label: str
    mode: Mode


def step_cost(hm: HexMap, mv: Movement, unit: str, a: Hex, b: Hex) -> int | None:
    """MP to move from a to its neighbour b, or None when the step is not allowed."""
    if not hm.on_map(b):
        return None
    on_road = (a, b) in hm.road_steps
    entry = hm.entry.get(b)
    if entry and unit not in entry.units and not (entry.off_road_only and on_road):
        return None
    if on_road:
        return mv.road_cost
    kinds = hm.data.terrain.kinds
    if kinds[hm.terrain[a]].move_cost is None and (a in hm.road_hexes or a not in hm.entry):
        # 2.5.4: a mountain hex with a road is adjacent only along its road (the Paths of the Dead
        # too); one without a road is left only by a unit a special entry let in (Redhorn, Moria).
        return None
    extra = 0
    river = hm.river_sides.get(hexside(a, b))
    if river is not None:
        if river.kind == "minor":
            extra = mv.minor_river
        else:
            crossing = hm.crossing_sides.get(hexside(a, b))
            if crossing is None:
                return None
            extra = 0 if crossing.kind == "bridge" else mv.major_river_crossing
    if entry is not None:
        return entry.cost + extra
    terrain = hm.terrain[b]
    base = mv.units[unit].terrain_cost.get(terrain, kinds[terrain].move_cost) if unit in mv.units else kinds[terrain].move_cost
    return None if base is None else base + extra


def march_bonus(mv: Movement, mp: int) -> int:
    for rule in mv.road_march_bonus:
        if rule.upto is None or mp <= rule.upto:
            return rule.bonus
    return 0


def reach(hm: HexMap, start: str, mp: int, unit: str | None = None) -> list[Reach]:
    """Every hex a unit of kind `unit` starting at `start` can reach with `mp` movement points."""
    mv = hm.data.movement
    if mv is None:
        raise DataError([Problem(f"map {hm.data.id}", 0, 0, "this map has no movement rules",
                                 "add a movement: section to map.yaml")])
    unit = unit or mv.default_unit or next(iter(mv.units), "")
    if mv.units and unit not in mv.units:
        raise DataError([Problem("--unit", 0, 0, f"unknown unit kind {unit!r}",
                                 f"use one of {', '.join(mv.units)}")])
    origin = hm.find(start)
    if origin is None:
        raise DataError([Problem(start, 0, 0, f"{start!r} is not a hex of map {hm.data.id}",
                                 f"give a hex label like {hm.label(next(hm.grid.hexes()))}")])
    if mp < 0:
        raise DataError([Problem("--mp", 0, 0, f"{mp} movement points", "give 0 or more")])

    best = _dijkstra(origin, mp, lambda a, b: step_cost(hm, mv, unit, a, b))
    found: dict[Hex, Reach] = {h: Reach(c, hm.label(h), "normal") for h, c in best.items()}
    found[origin] = Reach(0, hm.label(origin), "start")

    if mv.units.get(unit) is None or mv.units[unit].all_in:
        for h, c in sorted(best.items()):
            if c >= mp:
                continue
            for n in h.neighbours():
                sc = step_cost(hm, mv, unit, h, n)
                if sc is not None and c + sc > mp and n not in found:
                    found[n] = Reach(mp, hm.label(n), "all-in")

    bonus = march_bonus(mv, mp)
    if bonus:
        def road_only(a: Hex, b: Hex) -> int | None:
            return step_cost(hm, mv, unit, a, b) if (a, b) in hm.road_steps else None
        for h, c in _dijkstra(origin, mp + bonus, road_only).items():
            if h not in found or (found[h].mode == "all-in"):
                found[h] = Reach(c, hm.label(h), "road-march")
    return sorted(found.values(), key=lambda r: (r.cost, hm.grid.to_offset(hm.hex(r.label))))


def _dijkstra(origin: Hex, budget: int, cost) -> dict[Hex, int]:
    best = {origin: 0}
    heap = [(0, origin)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > best.get(h, budget + 1):
            continue
        for n in h.neighbours():
            sc = cost(h, n)
            if sc is None:
                continue
            nc = c + sc
            if nc <= budget and nc < best.get(n, budget + 1):
                best[n] = nc
                heapq.heappush(heap, (nc, n))
    return best
