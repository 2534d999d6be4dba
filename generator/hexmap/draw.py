"""Draw a hex map page on any `Surface` (PDF or SVG), following `layout.MapPage`.

Order: terrain fills and marks, region borders, rivers (hexside chains, river dots), roads,
crossings, place symbols and names, hex labels (on a patch of the hex's colour where a road runs
through the hex, so no dash crosses a label), frame; then title, boxes/tracks and the legend
with the reconstruction note (legend.py). Terrain marks and place icons are symbols
(symbols.py), defined once per page and placed by reference. Every word is set in the fonts of
the page's language (`fonts.faces`): the title, the legend's heading and box names in its bold,
the rest in its regular.
"""
from __future__ import annotations

import math

from solver.game.map import HexMap
from solver.hexmap.hexes import Hex, side_vertices

from .. import fonts
from ..geometry import MM_PER_PT, Box
from ..pieces.draft import DraftNote
from ..render.base import Surface, text_width
from ..text.typography import printed
from .geometry import paper_grid
from .layout import MapPage
from .legend import legend, panel_item
from .symbols import ICON, INK, LABEL, REGION, RIVER, ROAD, define_symbols, hex_box, icon_name

NOTE_BASELINE_MM = 10.4  # a draft's note under the map's name, inside the title band (layout.TITLE_MM)


def draw_map_page(surf: Surface, hm: HexMap, page: MapPage, lang: str, faces: fonts.Faces,
                  note: DraftNote | None = None) -> None:
    """One full page: the grid, title, boxes and legend."""
    surf.begin_page(page.width, page.height)
    define_symbols(surf, hm)
    draw_page_content(surf, hm, page, lang, faces, note)
    surf.end_page()


def draw_page_content(surf: Surface, hm: HexMap, page: MapPage, lang: str, faces: fonts.Faces,
                      note: DraftNote | None = None) -> None:
    """The page's content; a translation draft's `note` (generator/pieces/draft.py) under the map's
    name, at the foot of the title band."""
    d = hm.data
    _check_glyphs(hm, lang, faces.regular)
    ox, oy = page.grid.x, page.grid.y
    with surf.group(dx=ox, dy=oy):
        draw_grid(surf, hm, lang, faces.regular)
    # Title and panel
    title = printed(d.legend.title, lang)
    surf.text(page.title.x, page.title.y + 7, title, size_pt=16, colour=INK, font=faces.bold)
    surf.text(page.title.right, page.title.y + 7, printed(d.name, lang), size_pt=9, colour=LABEL, align="right",
              font=faces.regular)
    if note is not None:
        surf.text(page.title.right, page.title.y + NOTE_BASELINE_MM, note.text, size_pt=7, colour=INK, align="right",
                  font=note.font)
    for item in page.items:
        box = next(b for b in d.boxes if b.id == item.ref)
        panel_item(surf, item.box, box, lang, faces)
    legend(surf, hm, page.legend, lang, faces)


def draw_grid(surf: Surface, hm: HexMap, lang: str, font: str) -> None:
    """Everything inside the grid's bounding box, origin at its top-left."""
    d, g = hm.data, paper_grid(hm)
    label_dy = d.grid.hex_mm * 0.5 - d.labels.size_pt * 0.3528 - 0.6  # baseline just inside the top
    show = d.labels.show
    shown = None if show == "all" else set() if show == "none" else {hm.hex(x) for x in show}
    hw, hh = hex_box(hm)
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
        name = icon_name(p)
        cx, cy = g.centre(hm.hex(p.hex))
        surf.use_symbol(name, cx - ICON / 2, cy - ICON / 2 - 0.8)
        _place_name(surf, cx, cy + ICON / 2 + 1.6, printed(p.name, lang), d.grid.hex_mm, font)
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
        surf.text(x, y + dy, printed(reg.name, lang), size_pt=6.5, colour=REGION, align="center", font=font)
    if shown is None or shown:
        on_roads = {hm.hex(x) for road in d.roads for x in road.path}
        for h in hm.grid.hexes():
            if shown is None or h in shown:
                cx, cy = g.centre(h)
                if h in on_roads:
                    _label_patch(surf, hm, h, cx, cy - label_dy, font)
                surf.text(cx, cy - label_dy, hm.label(h), size_pt=d.labels.size_pt, colour=LABEL, align="center",
                          font=font)
    w, hgt = g.size_mm()
    surf.rect(Box(0, 0, w, hgt), stroke=INK, width=0.5)


def _label_patch(surf: Surface, hm: HexMap, h: Hex, cx: float, baseline: float, font: str) -> None:
    """A patch of the hex's own colour behind its label where a road runs through the hex, so the
    road's dashes stop short of the label instead of running over it."""
    size_mm = hm.data.labels.size_pt * MM_PER_PT
    info = fonts.font_info(font)  # the line's full height, ascent to descent, as text selection shows it
    w = text_width(hm.label(h), hm.data.labels.size_pt, font) + 0.8
    fill = hm.data.terrain.kinds[hm.terrain[h]].fill
    surf.rect(Box(cx - w / 2, baseline - info.ascent * size_mm, w, (info.ascent + info.descent) * size_mm), fill=fill)


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


def _check_glyphs(hm: HexMap, lang: str, font: str) -> None:
    d = hm.data
    texts = [printed(d.name, lang), printed(d.legend.title, lang), printed(d.legend.note, lang)]
    texts += [printed(p.name, lang) for p in d.places] + [printed(r.name, lang) for r in d.regions]
    texts += [printed(b.name, lang) + printed(b.text, lang) for b in d.boxes]
    texts += [printed(k.name, lang) for k in d.terrain.kinds.values()]
    texts += [printed(k.name, lang) for k in d.place_kinds.values()] + [printed(a.name, lang) for a in d.allegiances.values()]
    fonts.require_glyphs("".join(texts), f"map {d.id}", font)
