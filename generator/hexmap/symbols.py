"""The map's drawing vocabulary: its inks and line styles, and the symbols a page defines once
and places by reference (a hex of each terrain with its mark, a place icon per kind and side),
so a 1200-hex map stays small and fast. The page (draw.py), its legend (legend.py) and the tiles
(tiles.py) draw with them.
"""
from __future__ import annotations

import math
from typing import Callable

from solver.game.map import HexMap, Place
from solver.game.objmemo import kept_for

from ..geometry import Box
from ..render.base import Surface
from .geometry import paper_grid

INK = "#3a3a3a"
GRID = "#7d7a6a"  # hex outlines and box frames: lines, not text
# Small text on the map (hex labels, names, track arrows): at least 4.5:1 against every terrain
# fill of the example maps, the preflight's threshold for text under 18 pt.
LABEL = "#37352d"
REGION = "#3f2170"  # region names: set apart from LABEL by hue, still 4.5:1 on every terrain fill
RIVER = {"minor": ("#3d7fc4", 0.9), "major": ("#2a64a8", 1.8)}
ROAD = ("#8a5a2b", 0.9)
ICON = 5.0  # place icon size, mm


# --------------------------------------------------------------------------- symbols

def _mark(kind: str, s: float):
    """A terrain mark drawn in an s x s frame (centre at s/2)."""
    c = s / 2

    def trees(surf: Surface, n: int, colour: str) -> None:
        for i in range(n):
            x = c + (i - (n - 1) / 2) * s * 0.22
            y = c + (0.08 if i % 2 else -0.02) * s
            surf.polygon([(x, y - s * 0.16), (x - s * 0.09, y + s * 0.08), (x + s * 0.09, y + s * 0.08)], fill=colour)

    def draw(surf: Surface) -> None:
        if kind == "trees":
            trees(surf, 3, "#5b8c46")
        elif kind == "dense-trees":
            trees(surf, 4, "#2f5e2a")
        elif kind == "peaks":
            surf.polygon([(c - s * .3, c + s * .15), (c - s * .08, c - s * .2), (c + s * .12, c + s * .15)],
                         fill="#8d7558", stroke="#5e4b35", width=0.2)
            surf.polygon([(c, c + s * .15), (c + s * .18, c - s * .1), (c + s * .34, c + s * .15)],
                         fill="#a48a6b", stroke="#5e4b35", width=0.2)
        elif kind == "hills":
            for dx in (-0.15, 0.15):
                pts = [(c + dx * s + s * .13 * math.cos(a), c + s * .08 - s * .1 * math.sin(a))
                       for a in [i * math.pi / 8 for i in range(9)]]
                surf.polyline(pts, stroke="#8d7558", width=0.35)
        elif kind in ("waves", "marsh"):
            colour = "#5f8fbf" if kind == "waves" else "#5f8f6f"
            for dy in (-0.1, 0.08):
                pts = [(c - s * .25 + s * .5 * i / 8, c + dy * s + s * .03 * math.sin(i * math.pi / 2)) for i in range(9)]
                surf.polyline(pts, stroke=colour, width=0.3)
            if kind == "marsh":
                for dx in (-0.12, 0.0, 0.12):
                    surf.line(c + dx * s, c + s * .2, c + dx * s, c + s * .05, stroke="#4d7a4d", width=0.25)
        elif kind == "ripples":  # still water: rings, where waves are running water
            for r in (0.09, 0.19):
                surf.circle(c, c + s * .02, s * r, stroke="#5f8fbf", width=0.3)
        elif kind == "scrub":
            for dx, dy in ((-0.15, 0.05), (0.12, -0.05), (0.0, 0.15)):
                surf.circle(c + dx * s, c + dy * s, s * .06, fill="#6f9a4a")
    return draw


def _icon(icon: str, col: str):
    """A place icon (map.yaml's place_kinds pick which) drawn in an ICON x ICON frame, filled with
    its allegiance's colour `col` where the shape takes one."""
    s, c = ICON, ICON / 2

    def star(surf: Surface, cx: float, cy: float, r: float, n: int, colour: str) -> None:
        pts = []
        for i in range(2 * n):
            rr = r if i % 2 == 0 else r * 0.45
            a = -math.pi / 2 + i * math.pi / n
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        surf.polygon(pts, fill=colour, stroke="#5a4300", width=0.15)

    def draw(surf: Surface) -> None:
        if icon == "square":
            surf.rect(Box(c - s * .32, c - s * .32, s * .64, s * .64), fill=col, stroke="#ffffff", width=0.35)
        elif icon == "star":
            star(surf, c, c, s * .45, 7, col)           # seven-pointed star
        elif icon == "eye":
            pts = [(c + s * .45 * math.cos(a), c + s * .25 * math.sin(a)) for a in [i * math.pi / 12 for i in range(24)]]
            surf.polygon(pts, fill=col, stroke="#5a0000", width=0.15)  # lidless eye
            surf.circle(c, c, s * .12, fill="#1a1a1a")
        elif icon == "triangle":
            surf.polygon([(c, c - s * .38), (c - s * .4, c + s * .32), (c + s * .4, c + s * .32)], fill=col)
        elif icon == "target":
            surf.circle(c, c, s * .42, stroke=col, width=0.5)
            surf.circle(c, c, s * .22, fill=col)
        elif icon == "house":
            surf.polygon([(c, c - s * .4), (c - s * .38, c), (c - s * .28, c), (c - s * .28, c + s * .38),
                          (c + s * .28, c + s * .38), (c + s * .28, c), (c + s * .38, c)], fill="#6b8e23", stroke=INK, width=0.15)
        elif icon == "arch":  # stone arch
            outer = [(c + s * .4 * math.cos(a), c + s * .1 - s * .4 * math.sin(a)) for a in [i * math.pi / 10 for i in range(11)]]
            inner = [(c + s * .2 * math.cos(a), c + s * .1 - s * .2 * math.sin(a)) for a in [i * math.pi / 10 for i in range(10, -1, -1)]]
            surf.polygon(outer + [(c - s * .4, c + s * .4), (c - s * .2, c + s * .4)] + inner + [(c + s * .2, c + s * .4), (c + s * .4, c + s * .4)],
                         fill="#8a8a80", stroke=INK, width=0.15)
        elif icon == "crystal-ball":  # on a stand
            surf.rect(Box(c - s * .25, c + s * .25, s * .5, s * .12), fill="#6b5b3a")
            surf.circle(c, c - s * .02, s * .3, fill="#9fd3f0", stroke="#2a64a8", width=0.2)
            surf.circle(c - s * .1, c - s * .12, s * .07, fill="#ffffff")
        elif icon == "cairn":  # with a round stone on top
            for (dx, dy) in ((-0.2, 0.25), (0.0, 0.25), (0.2, 0.25), (-0.1, 0.08), (0.1, 0.08)):
                surf.circle(c + dx * s, c + dy * s, s * .1, fill="#9a9488", stroke=INK, width=0.1)
            surf.circle(c, c - s * .12, s * .12, fill="#d8d2c4", stroke=INK, width=0.15)
        elif icon == "pillars":
            for dx in (-0.2, 0.2):
                surf.rect(Box(c + dx * s - s * .07, c - s * .35, s * .14, s * .7), fill="#e8e2d0", stroke=INK, width=0.2)
        elif icon == "diamond":
            surf.polygon([(c, c - s * .4), (c + s * .35, c), (c, c + s * .4), (c - s * .35, c)], fill="#7a4fa0", stroke="#ffffff", width=0.2)
        else:  # "dot"
            surf.circle(c, c, s * .18, fill=INK)
    return draw


def _place_icon(hm: HexMap, p: Place) -> tuple[str, str]:
    """The icon and its colour for place `p`, from map.yaml's place_kinds and allegiances."""
    d = hm.data
    kind = d.place_kinds[p.kind]
    icon = kind.icon_by_allegiance.get(p.allegiance or "", kind.icon)
    return icon, d.allegiances[p.allegiance].colour if p.allegiance else INK


def icon_name(p: Place) -> str:
    return f"icon-{p.kind}-{p.allegiance or 'none'}"


def define_symbols(surf: Surface, hm: HexMap) -> None:
    """Define every hex tile, terrain mark and place icon up front (symbols cannot nest definitions).

    Each terrain is one symbol holding the filled, outlined hexagon and its mark, so a hex costs a
    single placement instead of a fourteen-number path and its colour settings."""
    for name, (w, h, draw) in map_symbols(hm).items():
        if not surf.has_symbol(name):
            surf.define_symbol(name, w, h, draw)


def map_symbols(hm: HexMap) -> dict[str, tuple[float, float, Callable[[Surface], None]]]:
    """The map's symbols in the order they are defined (marks, hexes, icons; the first of a name
    wins), made once per map.yaml model (`hm.data`, the game's: solver/game/objmemo.py). The PNG
    renderer keeps a symbol's tiles by its drawing function (render/png.py), so the same functions
    let the map of a second language paste the tiles the first drew (issue 26)."""
    return kept_for(hm.data, "map symbols", lambda: _make_symbols(hm))


def _make_symbols(hm: HexMap) -> dict[str, tuple[float, float, Callable[[Surface], None]]]:
    d, g = hm.data, paper_grid(hm)
    out: dict[str, tuple[float, float, Callable[[Surface], None]]] = {}
    size = d.grid.hex_mm * 0.62
    for kind in d.terrain.kinds.values():
        if kind.mark != "none":
            out.setdefault(f"mark-{kind.mark}", (size, size, _mark(kind.mark, size)))
    w, h = hex_box(hm)
    corners = [g.corner_offset(i) for i in range(6)]
    # the drawings hold numbers and the terrain kinds, not the map model: the memo above keeps them
    # while the model lives, and one that held the model would keep it alive for ever (`pnp serve`)
    lift = d.grid.hex_mm * 0.06
    for name, kind in d.terrain.kinds.items():
        def draw(s: Surface, kind=kind) -> None:
            s.polygon([(w / 2 + dx, h / 2 + dy) for dx, dy in corners], fill=kind.fill, stroke=GRID, width=0.15)
            if kind.mark != "none":
                s.use_symbol(f"mark-{kind.mark}", w / 2 - size / 2, h / 2 - size / 2 + lift)
        out.setdefault(f"hex-{name}", (w, h, draw))
    for p in d.places:
        out.setdefault(icon_name(p), (ICON, ICON, _icon(*_place_icon(hm, p))))
    return out


def hex_box(hm: HexMap) -> tuple[float, float]:
    """Width and height of one hexagon's bounding box."""
    xs = [paper_grid(hm).corner_offset(i)[0] for i in range(6)]
    ys = [paper_grid(hm).corner_offset(i)[1] for i in range(6)]
    return (max(xs) - min(xs), max(ys) - min(ys))
