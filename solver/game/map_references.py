"""Unusable references inside a map.yaml, each a problem at its line: hexes outside the grid,
hexsides between hexes that are not neighbours, and ids (terrains, rivers, place kinds,
allegiances, unit kinds) that the file does not declare, and ids used twice.

The checks run in the file's order, so problems are reported top to bottom.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import Problem
from solver.hexmap.hexes import Hex

if TYPE_CHECKING:
    from .map import MapFile, Side


def map_problems(mf: MapFile, locator: Any) -> list[Problem]:
    c = _Checker(mf, locator)
    for check in (c.place_kinds, c.terrain_areas, c.rivers_roads_crossings, c.places, c.regions,
                  c.labels_and_assertions, c.movement, c.duplicate_ids):
        check()
    return c.out


class _Checker:
    def __init__(self, mf: MapFile, locator: Any):
        self.mf, self.locator = mf, locator
        self.lab, self.grid = mf.labeller(), mf.hex_grid()
        self.out: list[Problem] = []
        self.river_ids = {r.id for r in mf.rivers}
        self.unit_kinds = set(mf.movement.units) if mf.movement else set()

    def problem(self, loc: tuple, what: str, todo: str) -> None:
        self.out.append(self.locator.problem(loc, what, todo))

    def hex_ok(self, label: str, loc: tuple) -> Hex | None:
        o = self.lab.parse(str(label))
        if o is None:
            g, first = self.mf.grid, self.lab.label(self.grid.to_offset(next(self.grid.hexes())))
            self.problem(loc, f"{label!r} is not a hex of this {g.columns}x{g.rows} map",
                         f"write a {self.mf.labels.style} label inside the grid, e.g. {first}")
            return None
        return self.grid.to_cube(o)

    def side_ok(self, side: Side, loc: tuple) -> None:
        a, b = self.hex_ok(side[0], loc + (0,)), self.hex_ok(side[1], loc + (1,))
        if a and b and a.distance(b) != 1:
            self.problem(loc, f"{side[0]} and {side[1]} are not neighbours, so they share no hexside",
                         "name two adjacent hexes")

    def unknown(self, loc: tuple, what: str, ref: str, declared: Any, where: str) -> None:
        self.problem(loc, f"unknown {what} {ref!r}", f"declare it under {where} ({', '.join(declared) or 'none yet'})")

    def units_ok(self, units: list[str], loc: tuple) -> None:
        for ui, u in enumerate(units):
            if u not in self.unit_kinds:
                self.problem(loc + (ui,), f"unknown unit kind {u!r}", "declare it under movement.units")

    def river_ok(self, river: str | None, loc: tuple) -> None:
        if river and river not in self.river_ids:
            self.problem(loc, f"unknown river {river!r}",
                         f"use one of {', '.join(sorted(self.river_ids)) or 'the rivers: list'}")

    def place_kinds(self) -> None:
        for kid, pk in self.mf.place_kinds.items():
            for a in pk.icon_by_allegiance:
                if a not in self.mf.allegiances:
                    self.unknown(("place_kinds", kid, "icon_by_allegiance", a), "allegiance", a,
                                 self.mf.allegiances, "allegiances")

    def terrain_areas(self) -> None:
        kinds = self.mf.terrain.kinds
        for ai, area in enumerate(self.mf.terrain.areas):
            if area.terrain not in kinds:
                self.problem(("terrain", "areas", ai, "terrain"), f"unknown terrain {area.terrain!r}",
                             f"use one of {', '.join(kinds)}")
            for hi, h in enumerate(area.hexes):
                self.hex_ok(h, ("terrain", "areas", ai, "hexes", hi))

    def rivers_roads_crossings(self) -> None:
        for ri, river in enumerate(self.mf.rivers):
            for si, side in enumerate(river.hexsides):
                self.side_ok(side, ("rivers", ri, "hexsides", si))
            for hi, h in enumerate(river.path):
                self.hex_ok(h, ("rivers", ri, "path", hi))
        for ri, road in enumerate(self.mf.roads):
            for hi, h in enumerate(road.path):
                self.hex_ok(h, ("roads", ri, "path", hi))
        for ci, c in enumerate(self.mf.crossings):
            self.side_ok(c.hexside, ("crossings", ci, "hexside"))
            self.river_ok(c.river, ("crossings", ci, "river"))

    def places(self) -> None:
        mf = self.mf
        for pi, p in enumerate(mf.places):
            self.hex_ok(p.hex, ("places", pi, "hex"))
            if p.kind not in mf.place_kinds:
                self.unknown(("places", pi, "kind"), "place kind", p.kind, mf.place_kinds, "place_kinds")
            if p.allegiance and p.allegiance not in mf.allegiances:
                self.unknown(("places", pi, "allegiance"), "allegiance", p.allegiance, mf.allegiances, "allegiances")
            if p.enter:
                self.units_ok(p.enter.units, ("places", pi, "enter", "units"))

    def regions(self) -> None:
        for ri, reg in enumerate(self.mf.regions):
            for hi, h in enumerate(reg.hexes):
                self.hex_ok(h, ("regions", ri, "hexes", hi))
            if reg.enter:
                self.units_ok(reg.enter.units, ("regions", ri, "enter", "units"))

    def labels_and_assertions(self) -> None:
        if isinstance(self.mf.labels.show, list):
            for hi, h in enumerate(self.mf.labels.show):
                self.hex_ok(h, ("labels", "show", hi))
        for ai, claim in enumerate(self.mf.assertions):
            self.river_ok(claim.river, ("assertions", ai, "river"))

    def movement(self) -> None:
        mv, kinds = self.mf.movement, self.mf.terrain.kinds
        if not mv:
            return
        for uid, unit in mv.units.items():
            for t in unit.terrain_cost:
                if t not in kinds:
                    self.problem(("movement", "units", uid, "terrain_cost", t), f"unknown terrain {t!r}",
                                 f"use one of {', '.join(kinds)}")
        if mv.default_unit and mv.default_unit not in self.unit_kinds:
            self.problem(("movement", "default_unit"), f"unknown unit kind {mv.default_unit!r}",
                         "declare it under movement.units")

    def duplicate_ids(self) -> None:
        seen: dict[str, int] = {}
        for group in ("places", "regions", "boxes", "rivers", "roads"):
            for i, item in enumerate(getattr(self.mf, group)):
                if item.id in seen:
                    self.problem((group, i, "id"), f"duplicate id {item.id!r}", "give each feature its own id")
                seen[item.id] = i
