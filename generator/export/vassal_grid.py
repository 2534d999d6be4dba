"""The grids of the map board in a VASSAL module: where pieces snap and what VASSAL calls a spot.

The board holds a ZonedGrid of zones (VASSAL tries them in order; outside every zone a piece
stays where it is dropped, with no name):
- each track beside the map: a zone named after the track with a RegionGrid of one region per
  cell, so a marker lands on a cell's centre and is reported as "Turn track 3";
- each box or area beside the map: a zone named after it, without a grid (pieces lie where they
  are dropped, reported by the box's name);
- the hex grid's rectangle: a zone with VASSAL's HexGrid matching our geometry and a
  HexGridNumbering naming every hex as the map prints it.

HexGrid: `dy` is the hex's size across the flats and `dx` the distance between neighbouring
columns (rows, for `sideways` pointy-top grids) = 3/4 of the corner-to-corner width; (x0, y0) is
the centre of a hex whose column VASSAL does not shift (for a sideways grid VASSAL swaps x and y
before snapping, so the origin is given swapped too).

HexGridNumbering names a point by VASSAL's raw column and row there (for a sideways grid the raw
column is the screen row, and `first` = V puts the screen column's name first), each counted down
from the container's size when descending, plus an offset: the offsets below are chosen so that
each printed label is VASSAL's name of its hex (tests/test_export.py reads them back the way
VASSAL's source does).
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Callable

from solver.game.base import pick
from solver.hexmap.hexes import Offset

from ..geometry import Box
from .common import MapImage

SQRT3 = math.sqrt(3)
BOARD = "VASSAL.build.module.map.boardPicker.board"
LETTERS = 26          # VASSAL names column 26 "AA", 27 "BB": ours are AA, AB


@dataclass(frozen=True)
class VassalGrid:
    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool


def vassal_grid(m: MapImage) -> VassalGrid:
    """VASSAL's HexGrid for our grid on the map image (see the module docstring)."""
    hm = m.hexmap
    g = hm.data.grid
    k = m.px_per_mm
    dy = g.hex_mm * k                      # across the flats
    dx = 1.5 * (g.hex_mm / SQRT3) * k      # 3/4 of the corner-to-corner width
    first = hm.grid.to_cube(Offset(0, 0))
    cx, cy = m.hex_centre_px(hm.label(first))
    # VASSAL never shifts the column (row, sideways) through its origin and shifts the next one by
    # half a hex down (right). Our `offset: odd` shifts odd ones: the same. `even` shifts column 0:
    # then the origin is the unshifted column before it.
    if g.orientation == "flat":
        if g.offset == "even":
            cx, cy = cx - dx, cy - dy / 2
        return VassalGrid(dx, dy, round(cx), round(cy), False)
    if g.offset == "even":
        cx, cy = cx - dy / 2, cy - dx
    return VassalGrid(dx, dy, round(cy), round(cx), True)  # swapped: VASSAL rotates sideways grids


def grid_text(m: MapImage) -> str:
    g = m.hexmap.data.grid
    return f"{g.orientation}-top hexes, {g.hex_mm * m.px_per_mm:.2f} px across the flats at {m.dpi:g} dpi"


def _px_box(b: Box, k: float) -> tuple[int, int, int, int]:
    return (round(b.x * k), round(b.y * k), round(b.right * k), round(b.bottom * k))


def _path(x0: int, y0: int, x1: int, y1: int) -> str:
    """A zone's polygon as VASSAL's PolygonEditor writes it: 'x,y;x,y;...'."""
    return f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}"


def board_grid(board: ET.Element, m: MapImage, lang: str, warn: Callable[[str], None]) -> None:
    """The ZonedGrid of the map board: zones for the tracks and boxes beside the map, then the hexes."""
    zoned = ET.SubElement(board, f"{BOARD}.ZonedGrid")
    k = m.px_per_mm
    for item in m.page.items:
        box = next(b for b in m.hexmap.data.boxes if b.id == item.ref)
        cells = m.track_cells(item.ref)
        zone = _zone(zoned, pick(box.name, lang), _px_box(item.box, k), "$name$ $gridLocation$" if cells else "$name$")
        if cells:
            regions = ET.SubElement(zone, f"{BOARD}.RegionGrid", {"fontsize": "9", "snapto": "true",
                                                                  "visible": "false"})
            for n, (x, y) in cells.items():
                ET.SubElement(regions, f"{BOARD}.Region", {"name": str(n), "originx": str(round(x)),
                                                           "originy": str(round(y))})
    rect = _px_box(m.page.grid, k)
    zone = _zone(zoned, pick(m.hexmap.data.name, lang), rect, "$gridLocation$")
    vg = vassal_grid(m)
    grid = ET.SubElement(zone, f"{BOARD}.HexGrid", {
        "color": "0,0,0", "cornersLegal": "false", "dotsVisible": "false", "dx": f"{vg.dx:.4f}",
        "dy": f"{vg.dy:.4f}", "edgesLegal": "false", "sideways": str(vg.sideways).lower(), "snapTo": "true",
        "visible": "false", "x0": str(vg.x0), "y0": str(vg.y0)})
    ET.SubElement(grid, f"{BOARD}.mapgrid.HexGridNumbering", numbering(m, vg, (rect[2] - rect[0], rect[3] - rect[1])))
    lab, g = m.hexmap.data.labels, m.hexmap.data.grid
    if lab.style == "letter-number" and g.columns > LETTERS + 1:
        warn(f"{m.name}: VASSAL names the columns after AA as BB, CC, ...: hexes from column AB on are "
             f"reported by those names, not as the map prints them")


def _zone(zoned: ET.Element, name: str, rect: tuple[int, int, int, int], fmt: str) -> ET.Element:
    return ET.SubElement(zoned, f"{BOARD}.mapgrid.Zone", {
        "highlightProperty": "", "locationFormat": fmt, "name": name, "path": _path(*rect),
        "useHighlight": "false", "useParentGrid": "false"})


def _axis(count: int, base: int, shift: int, reverse: bool, most: int) -> int:
    """VASSAL's offset for one axis: our index o (0-based, from the grid's top or left) is VASSAL's
    raw index o + shift; descending, VASSAL counts most - raw. The offset makes either equal the
    printed number: o + base, or count - 1 - o + base counted from the far side."""
    return count - 1 + base - most + shift if reverse else base - shift


def numbering(m: MapImage, vg: VassalGrid, container: tuple[int, int]) -> dict[str, str]:
    """HexGridNumbering attributes naming each hex as the map prints it (see the module docstring).
    `container` is the size of the zone the grid is in: VASSAL counts descending numbers from it."""
    g, lab = m.hexmap.data.grid, m.hexmap.data.labels
    letters = lab.style == "letter-number"
    shift = 1 if g.offset == "even" else 0
    width = max(2, len(str(max(g.columns, g.rows) - 1 + lab.first)))
    # VASSAL's getMaxColumns / getMaxRows: the container's width over dy, height over dx, rounded
    most_cols = math.floor(container[0] / vg.dy + 0.5)
    most_rows = math.floor(container[1] / vg.dx + 0.5)
    right, bottom = lab.origin.endswith("right"), lab.origin.startswith("bottom")
    col = {"type": "A" if letters else "N", "leading": "0" if letters else str(width - 1),
           "off": str(_axis(g.columns, 0 if letters else lab.first, 0 if vg.sideways else shift, right, most_cols))}
    row = {"type": "N", "leading": "0" if letters else str(width - 1),
           "off": str(_axis(g.rows, lab.first, shift if vg.sideways else 0, bottom, most_rows))}
    # flat: VASSAL's columns (h) are the screen's; sideways: its columns are the screen's rows and
    # its rows (v) the screen's columns. The descending flags stay the screen's: h right to left.
    h, v = (row, col) if vg.sideways else (col, row)
    return {"color": "0,0,0", "first": "V" if vg.sideways else "H", "fontSize": "9",
            "hDescend": str(right).lower(), "hDrawOff": "0", "hLeading": h["leading"],
            "hOff": h["off"], "hType": h["type"], "locationFormat": "$gridLocation$", "rotateText": "0",
            "sep": "", "stagger": "false", "vDescend": str(bottom).lower(),
            "vDrawOff": "0", "vLeading": v["leading"], "vOff": v["off"], "vType": v["type"], "visible": "false"}
