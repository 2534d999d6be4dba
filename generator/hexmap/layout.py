"""Hex map layout: pure geometry in millimetres, no drawing.

A `MapPage` places the hex grid, the title, the panel of boxes/tracks and the legend on one page
(A2 for the wargame); `content` lists the boxes drawn on it and `extent` their bounds, what
tiling.py cuts into home-printer sheets when the page is larger than the paper.
Tests assert these numbers directly; `draw.py` only follows them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from solver.errors import DataError, Problem
from solver.game.map import HexMap
from solver.hexmap.hexes import Hex

from ..geometry import Box
from ..context import PAPER_MM
from .geometry import paper_grid


MARGIN_MM = 10.0       # page margin of the full-size map
TITLE_MM = 12.0        # title band above the grid
GAP_MM = 6.0           # between the grid and the panel below it
BOX_W, BOX_H = 44.0, 20.0
AREA_W = 60.0
TRACK_CELL = 13.0
LEGEND_W = 150.0       # the legend's column width (two columns of entries)
LEGEND_ROW = 5.2
EXTENT_PAD_MM = 1.0    # round the drawn boxes: the grid's frame and the legend's strokes reach past them


def page_size(paper: str, orientation: str) -> tuple[float, float]:
    w, h = PAPER_MM[paper]
    return (h, w) if orientation == "landscape" else (w, h)


@dataclass(frozen=True)
class PanelItem:
    kind: str          # "box" | "track" | "area"
    ref: str           # the box id
    box: Box


@dataclass(frozen=True)
class MapPage:
    width: float
    height: float
    title: Box
    grid: Box          # where the hex grid's bounding box sits
    items: tuple[PanelItem, ...]
    legend: Box

    @property
    def content(self) -> tuple[Box, ...]:
        """The boxes drawn on the page: title, grid, panel items, legend."""
        return (self.title, self.grid) + tuple(i.box for i in self.items) + (self.legend,)

    @property
    def extent(self) -> Box:
        """The drawn part of the page: its content's bounds, with EXTENT_PAD_MM for strokes."""
        boxes = self.content
        x0 = max(0.0, min(b.x for b in boxes) - EXTENT_PAD_MM)
        y0 = max(0.0, min(b.y for b in boxes) - EXTENT_PAD_MM)
        x1 = min(self.width, max(b.right for b in boxes) + EXTENT_PAD_MM)
        y1 = min(self.height, max(b.bottom for b in boxes) + EXTENT_PAD_MM)
        return Box(x0, y0, x1 - x0, y1 - y0)

    def hex_centre(self, hm: HexMap, h: Hex) -> tuple[float, float]:
        x, y = paper_grid(hm).centre(h)
        return (self.grid.x + x, self.grid.y + y)


def box_size(kind: str, cells: int | None) -> tuple[float, float]:
    if kind == "track":
        return ((cells or 10) * TRACK_CELL, BOX_H * 0.8)
    if kind == "area":
        return (AREA_W, BOX_H)
    return (BOX_W, BOX_H)


def legend_rows(hm: HexMap) -> int:
    """Entries: terrain kinds, river kinds, roads, crossing kinds, place kinds (two columns) + note."""
    d = hm.data
    kinds = len(d.terrain.kinds) + len({r.kind for r in d.rivers}) + (1 if d.roads else 0)
    kinds += len({c.kind for c in d.crossings}) + len({(p.kind, p.allegiance) for p in d.places})
    return math.ceil(kinds / 2) + 4  # title, two note lines, spacing


def _where_paper(hm: HexMap) -> tuple[str, int, int]:
    """Where map.yaml sets the paper (its first line when the default is used), or the map's name."""
    if hm.locator is None:
        return f"map {hm.data.id}", 0, 0
    line, column = hm.locator.at(("paper",), key=True)
    return hm.locator.path, line, column


def map_page(hm: HexMap, paper: str | None = None, orientation: str | None = None) -> MapPage:
    """Lay out the full-size page; raises DataError when the map and its panel do not fit.

    The title and the panel below the grid line up with the grid's edges (the legend's right edge
    under the grid's, boxes from its left edge); a grid narrower than the legend and the widest
    box widens that band evenly about its centre, and a panel that still does not fit takes the
    page's whole width."""
    d = hm.data
    W, H = page_size(paper or d.paper, orientation or d.page_orientation)
    gw, gh = paper_grid(hm).size_mm()
    inner = Box(MARGIN_MM, MARGIN_MM, W - 2 * MARGIN_MM, H - 2 * MARGIN_MM)
    widest = max((box_size(b.kind, b.cells)[0] for b in d.boxes), default=-GAP_MM)
    band_w = min(inner.w, max(gw, LEGEND_W + GAP_MM + widest))
    band_x = min(max(inner.x + (inner.w - gw) / 2 - (band_w - gw) / 2, inner.x), inner.right - band_w)
    grid = Box(inner.x + (inner.w - gw) / 2, inner.y + TITLE_MM, gw, gh)
    for band in (Box(band_x, inner.y, band_w, inner.h), inner):
        items, legend = _panel(hm, band, grid.bottom + GAP_MM)
        bottom = max([legend.bottom] + [i.box.bottom for i in items])
        fits = bottom <= inner.bottom + 1e-6 and all(i.box.right <= legend.x - GAP_MM + 1e-6 for i in items)
        if fits:
            break
    if gw > inner.w or not fits:
        need = f"{max(gw, LEGEND_W + GAP_MM + widest) + 2 * MARGIN_MM:.0f} x {bottom - inner.y + 2 * MARGIN_MM:.0f} mm"
        path, line, column = _where_paper(hm)
        raise DataError([Problem(path, line, column, f"map {d.id}: the map with its boxes and legend needs about "
                                 f"{need}, more than {paper or d.paper} {orientation or d.page_orientation} "
                                 f"({W:.0f} x {H:.0f} mm)",
                                 "choose a larger paper, the other page_orientation, or a smaller grid.hex_mm")])
    title = Box(band.x, inner.y, band.w, TITLE_MM)
    return MapPage(W, H, title, grid, tuple(items), legend)


def _panel(hm: HexMap, band: Box, top: float) -> tuple[list[PanelItem], Box]:
    """The legend at the band's right edge, the boxes and tracks flowing left to right from its
    left edge in the space left of the legend, wrapping as needed."""
    legend = Box(band.right - LEGEND_W, top, LEGEND_W, legend_rows(hm) * LEGEND_ROW)
    items, x, y, row_h = [], band.x, top, 0.0
    right = legend.x - GAP_MM
    for b in hm.data.boxes:
        w, h = box_size(b.kind, b.cells)
        if x + w > right and x > band.x:
            x, y, row_h = band.x, y + row_h + 4.0, 0.0
        items.append(PanelItem(b.kind, b.id, Box(x, y, w, h)))
        x += w + 4.0
        row_h = max(row_h, h)
    return items, legend
