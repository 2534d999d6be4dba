"""VASSAL's HexGrid and HexGridNumbering for our hex grid on the exported map image.

VASSAL's `dy` is the hex's size across the flats and `dx` the distance between neighbouring
columns (rows, for `sideways` pointy-top grids) = 3/4 of the corner-to-corner width; (x0, y0) is
the centre of a hex whose column VASSAL does not shift (for a sideways grid VASSAL swaps x and y
before snapping, so the origin is given swapped too). The numbering mirrors our labels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from solver.hexmap.hexes import Offset

from .common import MapImage

SQRT3 = math.sqrt(3)


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


def numbering(m: MapImage) -> dict[str, str]:
    """HexGridNumbering attributes for our labels: letter or number columns, numbered rows from
    `first`, counted from the labels' origin corner, zero-padded like ours. VASSAL shows them in
    its location reports; the setups place pieces by pixel, so they do not depend on them."""
    lab = m.hexmap.data.labels
    letters = lab.style == "letter-number"
    return {"color": "0,0,0", "first": "H", "fontSize": "9", "hDescend": str(lab.origin.endswith("right")).lower(),
            "hDrawOff": "0", "hLeading": "0" if letters else "1", "hOff": "0" if letters else str(lab.first),
            "hType": "A" if letters else "N", "locationFormat": "$gridLocation$", "rotateText": "0", "sep": "",
            "stagger": "false", "vDescend": str(lab.origin.startswith("bottom")).lower(), "vDrawOff": "0",
            "vLeading": "0" if letters else "1", "vOff": str(lab.first), "vType": "N", "visible": "false"}
