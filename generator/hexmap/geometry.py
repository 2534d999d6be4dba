"""A hex grid on paper: hex centres, corners, vertices and the grid's size in millimetres.

solver/hexmap/hexes.py knows which hexes exist and how they neighbour; this module places them on the
page at the map's `grid.hex_mm` (the size across the flats). The grid's bounding box touches the
origin (0, 0) and y grows downwards, as everywhere in generator/.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

from solver.game.map import HexMap
from solver.hexmap.hexes import SQRT3, Hex, HexGrid, side_vertices


@dataclass(frozen=True)
class PaperGrid:
    grid: HexGrid
    hex_mm: float  # across the flats

    @property
    def radius(self) -> float:
        """Centre-to-corner distance R (the across-flats size is R * sqrt(3))."""
        return self.hex_mm / SQRT3

    def corner_offset(self, i: int) -> tuple[float, float]:
        a = 2 * math.pi * (self.grid.orientation.start_angle + i) / 6
        return (self.radius * math.cos(a), self.radius * math.sin(a))

    @cached_property
    def _bbox(self) -> tuple[float, float, float, float]:
        """Bounding box (x0, y0, x1, y1) of every hex's corners before the shift to the origin.

        Computed from the corners, not from per-orientation formulas, so FLAT and POINTY need no
        special cases. Only the border hexes can reach the box, but all are cheap enough to scan."""
        offs = [self.corner_offset(i) for i in range(6)]
        xs, ys = [], []
        for h in self.grid.hexes():
            x, y = self._raw(h)
            xs += [x + dx for dx, _ in offs]
            ys += [y + dy for _, dy in offs]
        return (min(xs), min(ys), max(xs), max(ys))

    def _raw(self, h: Hex) -> tuple[float, float]:
        ux, uy = self.grid.unit_centre(h)
        return (ux * self.radius, uy * self.radius)

    def centre(self, h: Hex) -> tuple[float, float]:
        x, y = self._raw(h)
        x0, y0, _, _ = self._bbox
        return (x - x0, y - y0)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.centre(h)
        return [(cx + dx, cy + dy) for dx, dy in (self.corner_offset(i) for i in range(6))]

    def vertex_point(self, vertex: frozenset[Hex]) -> tuple[float, float]:
        """The point where three hexes meet: the mean of their centres."""
        pts = [self.centre(h) for h in vertex]
        return (sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3)

    def side_points(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
        v1, v2 = side_vertices(a, b)
        return self.vertex_point(v1), self.vertex_point(v2)

    def size_mm(self) -> tuple[float, float]:
        """Width and height of the union of all hexes."""
        x0, y0, x1, y1 = self._bbox
        return (x1 - x0, y1 - y0)


@lru_cache(maxsize=64)
def _paper(grid: HexGrid, hex_mm: float) -> PaperGrid:
    return PaperGrid(grid, hex_mm)


def paper_grid(hm: HexMap) -> PaperGrid:
    """The map's grid on paper (one per grid and size, so its bounding box is computed once)."""
    return _paper(hm.grid, hm.data.grid.hex_mm)
