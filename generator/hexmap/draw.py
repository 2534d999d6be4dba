"""Draw a hex map page on any `Surface` (PDF or SVG), following `layout.MapPage`.

Order: terrain fills and marks, region borders, rivers (hexside chains, river dots), roads,
crossings, place symbols and names, hex labels, frame; then title, boxes/tracks and the legend
with the reconstruction note. Terrain marks and place icons are symbols, defined once per page
and placed by reference, so a 1200-hex map stays small and fast. Every word is set in the fonts
of the page's language (`fonts.faces`): the title, the legend's heading and box names in its
bold, the rest in its regular.
"""
from __future__ import annotations

import math
from typing import Any

from solver.hexes import Hex, side_vertices
from solver.game.base import pick
from solver.game.map import HexMap, Place

from .. import catalogue, fonts
from ..geometry import MM_PER_PT, Box
from ..render.base import Surface, text_width
from ..text import wrap
from .geometry import paper_grid
from .layout import MapPage

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


def _icon_name(p: Place) -> str:
    return f"icon-{p.kind}-{p.allegiance or 'none'}"


# --------------------------------------------------------------------------- the page

def define_symbols(surf: Surface, hm: HexMap) -> None:
    """Define every hex tile, terrain mark and place icon up front (symbols cannot nest definitions).

    Each terrain is one symbol holding the filled, outlined hexagon and its mark, so a hex costs a
    single placement instead of a fourteen-number path and its colour settings."""
    d, g = hm.data, paper_grid(hm)
    size = d.grid.hex_mm * 0.62
    for kind in d.terrain.kinds.values():
        if kind.mark != "none" and not surf.has_symbol(f"mark-{kind.mark}"):
            surf.define_symbol(f"mark-{kind.mark}", size, size, _mark(kind.mark, size))
    w, h = _hex_box(hm)
    corners = [g.corner_offset(i) for i in range(6)]
    for name, kind in d.terrain.kinds.items():
        if not surf.has_symbol(f"hex-{name}"):
            def draw(s: Surface, kind=kind) -> None:
                s.polygon([(w / 2 + dx, h / 2 + dy) for dx, dy in corners], fill=kind.fill, stroke=GRID, width=0.15)
                if kind.mark != "none":
                    s.use_symbol(f"mark-{kind.mark}", w / 2 - size / 2, h / 2 - size / 2 + d.grid.hex_mm * 0.06)
            surf.define_symbol(f"hex-{name}", w, h, draw)
    for p in d.places:
        if not surf.has_symbol(_icon_name(p)):
            surf.define_symbol(_icon_name(p), ICON, ICON, _icon(*_place_icon(hm, p)))


def _hex_box(hm: HexMap) -> tuple[float, float]:
    """Width and height of one hexagon's bounding box."""
    xs = [paper_grid(hm).corner_offset(i)[0] for i in range(6)]
    ys = [paper_grid(hm).corner_offset(i)[1] for i in range(6)]
    return (max(xs) - min(xs), max(ys) - min(ys))


def draw_map_page(surf: Surface, hm: HexMap, page: MapPage, lang: str, faces: fonts.Faces) -> None:
    """One full page: the grid, title, boxes and legend."""
    surf.begin_page(page.width, page.height)
    define_symbols(surf, hm)
    draw_page_content(surf, hm, page, lang, faces)
    surf.end_page()


def draw_page_content(surf: Surface, hm: HexMap, page: MapPage, lang: str, faces: fonts.Faces) -> None:
    d = hm.data
    _check_glyphs(hm, lang)
    ox, oy = page.grid.x, page.grid.y
    with surf.group(dx=ox, dy=oy):
        draw_grid(surf, hm, lang, faces.regular)
    # Title and panel
    title = pick(d.legend.title, lang)
    surf.text(page.title.x, page.title.y + 7, title, size_pt=16, colour=INK, font=faces.bold)
    surf.text(page.title.right, page.title.y + 7, pick(d.name, lang), size_pt=9, colour=LABEL, align="right",
              font=faces.regular)
    for item in page.items:
        box = next(b for b in d.boxes if b.id == item.ref)
        _panel_item(surf, item.box, box, lang, faces)
    _legend(surf, hm, page.legend, lang, faces)


def draw_grid(surf: Surface, hm: HexMap, lang: str, font: str) -> None:
    """Everything inside the grid's bounding box, origin at its top-left."""
    d, g = hm.data, paper_grid(hm)
    label_dy = d.grid.hex_mm * 0.5 - d.labels.size_pt * 0.3528 - 0.6  # baseline just inside the top
    show = d.labels.show
    shown = None if show == "all" else set() if show == "none" else {hm.hex(x) for x in show}
    hw, hh = _hex_box(hm)
    for h in hm.grid.hexes():
        cx, cy = g.centre(h)
        surf.use_symbol(f"hex-{hm.terrain[h]}", cx - hw / 2, cy - hh / 2)
    for reg in d.regions:
        _region_border(surf, hm, reg)
    for river in d.rivers:
        colour, width = RIVER[river.kind]
        if river.hexsides:
            for chain in river_polylines(hm, river.hexsides):
                surf.polyline([g.vertex_point(v) for v in chain], stroke=colour, width=width)
                if river.dots:
                    for v in chain:
                        x, y = g.vertex_point(v)
                        surf.circle(x, y, 0.75, fill="#e9e4d4", stroke="#55606a", width=0.2)
        else:
            surf.polyline([g.centre(hm.hex(x)) for x in river.path], stroke=colour, width=width)
    for road in d.roads:
        surf.polyline([g.centre(hm.hex(x)) for x in road.path], stroke=ROAD[0], width=ROAD[1], dash=(2.0, 0.8))
    for c in d.crossings:
        _crossing(surf, hm, c.kind, hm.hex(c.hexside[0]), hm.hex(c.hexside[1]))
    for p in d.places:
        name = _icon_name(p)
        cx, cy = g.centre(hm.hex(p.hex))
        surf.use_symbol(name, cx - ICON / 2, cy - ICON / 2 - 0.8)
        _place_name(surf, cx, cy + ICON / 2 + 1.6, pick(p.name, lang), d.grid.hex_mm, font)
    for reg in d.regions:
        hs = [hm.hex(x) for x in reg.hexes]
        # Large regions are named below their middle; small ones (Rauros) in their first hex, clear of
        # the rivers and crossings that run along their seams.
        if len(hs) > 2:
            x = sum(g.centre(h)[0] for h in hs) / len(hs)
            y = sum(g.centre(h)[1] for h in hs) / len(hs)
            dy = d.grid.hex_mm * 0.36
        else:
            (x, y), dy = g.centre(hs[0]), d.grid.hex_mm * 0.12
        surf.text(x, y + dy, pick(reg.name, lang), size_pt=6.5, colour=REGION, align="center", font=font)
    if shown is None or shown:
        for h in hm.grid.hexes():
            if shown is None or h in shown:
                cx, cy = g.centre(h)
                surf.text(cx, cy - label_dy, hm.label(h), size_pt=d.labels.size_pt, colour=LABEL, align="center",
                          font=font)
    w, hgt = g.size_mm()
    surf.rect(Box(0, 0, w, hgt), stroke=INK, width=0.5)


def river_polylines(hm: HexMap, sides) -> list[list[frozenset]]:
    """The river's hexsides as runs of vertices, in the order the data lists them."""
    runs: list[list[frozenset]] = []
    for a, b in sides:
        v1, v2 = side_vertices(hm.hex(a), hm.hex(b))
        if runs and runs[-1][-1] in (v1, v2):
            runs[-1].append(v2 if runs[-1][-1] == v1 else v1)
        elif runs and len(runs[-1]) == 2 and runs[-1][0] in (v1, v2):
            runs[-1].reverse()
            runs[-1].append(v2 if runs[-1][-1] == v1 else v1)
        else:
            runs.append([v1, v2])
    return runs


def _region_border(surf: Surface, hm: HexMap, reg) -> None:
    inside = {hm.hex(x) for x in reg.hexes}
    for h in sorted(inside):
        for n in h.neighbours():
            if n not in inside:
                (x1, y1), (x2, y2) = paper_grid(hm).side_points(h, n)
                surf.line(x1, y1, x2, y2, stroke="#6b3fa0", width=0.5, dash=(1.2, 0.8))


def _crossing(surf: Surface, hm: HexMap, kind: str, a: Hex, b: Hex) -> None:
    (x1, y1), (x2, y2) = paper_grid(hm).side_points(a, b)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    (ax, ay), (bx, by) = paper_grid(hm).centre(a), paper_grid(hm).centre(b)
    ux, uy = (bx - ax), (by - ay)
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n          # across the river
    vx, vy = -uy, ux                 # along the river
    L = hm.data.grid.hex_mm * 0.18
    if kind == "bridge":
        for off in (-0.9, 0.9):
            surf.line(mx - ux * L + vx * off, my - uy * L + vy * off, mx + ux * L + vx * off, my + uy * L + vy * off,
                      stroke="#3b2a1a", width=0.45)
    elif kind == "ford":
        for t in (-1, 0, 1):
            surf.circle(mx + ux * L * t * 0.6, my + uy * L * t * 0.6, 0.55, fill="#f4f0e0", stroke="#3b2a1a", width=0.2)
    else:  # crossing point: a bold bar across the river
        surf.line(mx - ux * L, my - uy * L, mx + ux * L, my + uy * L, stroke="#d9480f", width=1.1)


def _place_name(surf: Surface, cx: float, y: float, name: str, hex_mm: float, font: str) -> None:
    size = 5.0
    while size > 3.2 and text_width(name, size, font) > hex_mm * 0.98:
        size -= 0.3
    w = text_width(name, size, font)
    surf.rect(Box(cx - w / 2 - 0.4, y - size * 0.3528 * 0.95, w + 0.8, size * 0.3528 * 1.25), fill="#fffdf3")
    surf.text(cx, y, name, size_pt=size, colour="#1a1a1a", align="center", font=font)


def _panel_item(surf: Surface, b: Box, box, lang: str, faces: fonts.Faces) -> None:
    name = pick(box.name, lang)
    surf.rect(b, fill="#fbf8ee", stroke=INK, width=0.4, radius=1.2)
    surf.text(b.x + 1.8, b.y + 4.2, name, size_pt=7.5, colour=INK, font=faces.bold)
    if box.kind == "track" and box.cells:
        cw = b.w / box.cells
        for i in range(box.cells):
            cell = Box(b.x + i * cw, b.y + 5.5, cw, b.h - 5.5)
            surf.rect(cell, stroke=GRID, width=0.25)
            surf.text(cell.x + cw / 2, cell.bottom - 2.5, str(box.first + i), size_pt=8, colour=INK, align="center",
                      font=faces.regular)
    if box.edge:
        surf.text(b.x + 1.8, b.bottom - 2.0, catalogue.text(f"map.edge.{box.edge}", lang), size_pt=6, colour=LABEL,
                  font=faces.regular)
    if box.text:
        _wrap(surf, b.x + 1.8, b.y + 8.5, b.w - 3.6, pick(box.text, lang), 5.5, faces.regular, lang, max_lines=3)


def _wrap(surf: Surface, x: float, y: float, width: float, text: str, size: float, font: str, lang: str,
          max_lines: int = 4) -> float:
    """Text broken into lines by the shared line breaker (kinsoku, Latin words hyphenated in
    `lang`); returns the next baseline."""
    lines = wrap(text, font, size, width / MM_PER_PT, lang)
    step = size * MM_PER_PT * 1.35
    for i, line in enumerate(lines[:max_lines]):
        surf.text(x, y + i * step, line, size_pt=size, colour=INK, font=font)
    return y + min(len(lines), max_lines) * step


def _legend(surf: Surface, hm: HexMap, b: Box, lang: str, faces: fonts.Faces) -> None:
    d = hm.data
    surf.rect(b, fill="#fffdf6", stroke=INK, width=0.4)
    surf.text(b.x + 2, b.y + 4.5, catalogue.text("map.legend", lang), size_pt=8.5, colour=INK, font=faces.bold)
    entries: list[tuple[str, tuple[str, Any]]] = []  # (legend text, (what is drawn, its data))
    for name, k in d.terrain.kinds.items():
        entries.append((pick(k.name, lang), ("terrain", k)))
    for kind in sorted({r.kind for r in d.rivers}):
        entries.append((catalogue.text(f"map.river.{kind}", lang), ("river", kind)))
    if any(r.dots for r in d.rivers):
        entries.append((catalogue.text("map.river_dot", lang), ("dot", None)))
    if d.roads:
        entries.append((catalogue.text("map.road", lang), ("road", None)))
    for crossing in sorted({c.kind for c in d.crossings}):
        entries.append((catalogue.text(f"map.crossing.{crossing}", lang), ("crossing", crossing)))
    seen = set()
    for p in d.places:
        key = (p.kind, p.allegiance)
        if key in seen:
            continue
        seen.add(key)
        entries.append((_place_kind_name(hm, p, lang), ("place", p)))
    col_w = (b.w - 4) / 2
    rows = math.ceil(len(entries) / 2)
    for i, (text, (what, obj)) in enumerate(entries):
        x = b.x + 2 + (i // rows) * col_w
        y = b.y + 7 + (i % rows) * 5.2
        sw = Box(x, y, 6, 4)
        if what == "terrain":
            surf.rect(sw, fill=obj.fill, stroke=GRID, width=0.2)
        elif what == "river":
            surf.line(x, y + 2, x + 6, y + 2, stroke=RIVER[obj][0], width=RIVER[obj][1])
        elif what == "dot":
            surf.line(x, y + 2, x + 6, y + 2, stroke=RIVER["minor"][0], width=0.9)
            surf.circle(x + 3, y + 2, 0.75, fill="#e9e4d4", stroke="#55606a", width=0.2)
        elif what == "road":
            surf.line(x, y + 2, x + 6, y + 2, stroke=ROAD[0], width=ROAD[1], dash=(2.0, 0.8))
        elif what == "crossing":
            surf.line(x, y + 2, x + 6, y + 2, stroke=RIVER["major"][0], width=1.2)
            if obj == "bridge":
                surf.line(x + 2, y + 0.6, x + 4, y + 0.6, stroke="#3b2a1a", width=0.45)
                surf.line(x + 2, y + 3.4, x + 4, y + 3.4, stroke="#3b2a1a", width=0.45)
            elif obj == "ford":
                surf.circle(x + 3, y + 2, 0.55, fill="#f4f0e0", stroke="#3b2a1a", width=0.2)
            else:
                surf.line(x + 3, y + 0.2, x + 3, y + 3.8, stroke="#d9480f", width=1.1)
        else:
            surf.use_symbol(_icon_name(obj), x + 0.5, y - 0.5, scale=0.9)
        surf.text(x + 8, y + 3.2, text, size_pt=6.5, colour=INK, font=faces.regular)
    y = b.y + 7 + rows * 5.2 + 3
    _wrap(surf, b.x + 2, y, b.w - 4, pick(d.legend.note, lang), 6.5, faces.regular, lang, max_lines=3)


def _place_kind_name(hm: HexMap, p: Place, lang: str) -> str:
    """The legend's name for a kind of place: "都市", "善の都市" / "city (good)"."""
    k = pick(hm.data.place_kinds[p.kind].name, lang)
    if not p.allegiance:
        return k
    a = pick(hm.data.allegiances[p.allegiance].name, lang)
    return catalogue.text("map.place_of_side", lang, side=a, kind=k)


def _check_glyphs(hm: HexMap, lang: str) -> None:
    d = hm.data
    texts = [pick(d.name, lang), pick(d.legend.title, lang), pick(d.legend.note, lang)]
    texts += [pick(p.name, lang) for p in d.places] + [pick(r.name, lang) for r in d.regions]
    texts += [pick(b.name, lang) + pick(b.text, lang) for b in d.boxes]
    texts += [pick(k.name, lang) for k in d.terrain.kinds.values()]
    texts += [pick(k.name, lang) for k in d.place_kinds.values()] + [pick(a.name, lang) for a in d.allegiances.values()]
    fonts.require_glyphs("".join(texts), f"map {d.id}")
