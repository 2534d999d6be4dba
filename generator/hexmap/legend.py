"""The map's panel: the boxes and tracks beside the grid, and the legend (a swatch and a name for
every terrain, river, road, crossing and kind of place, then the reconstruction note), every word
in the page's language and its fonts (`fonts.faces`): headings and box names in the bold.
"""
from __future__ import annotations

import math
from typing import Any

from solver.game.map import HexMap, Place

from .. import catalogue, fonts
from ..geometry import MM_PER_PT, Box
from ..render.base import Surface
from ..text import wrap
from ..text.typography import printed
from .symbols import GRID, INK, LABEL, RIVER, ROAD, icon_name


def panel_item(surf: Surface, b: Box, box, lang: str, faces: fonts.Faces) -> None:
    name = printed(box.name, lang)
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
        _wrap(surf, b.x + 1.8, b.y + 8.5, b.w - 3.6, printed(box.text, lang), 5.5, faces.regular, lang, max_lines=3)


def _wrap(surf: Surface, x: float, y: float, width: float, text: str, size: float, font: str, lang: str,
          max_lines: int = 4) -> float:
    """Text broken into lines by the shared line breaker (kinsoku, Latin words hyphenated in
    `lang`); returns the next baseline."""
    lines = wrap(text, font, size, width / MM_PER_PT, lang)
    step = size * MM_PER_PT * 1.35
    for i, line in enumerate(lines[:max_lines]):
        surf.text(x, y + i * step, line, size_pt=size, colour=INK, font=font)
    return y + min(len(lines), max_lines) * step


def legend(surf: Surface, hm: HexMap, b: Box, lang: str, faces: fonts.Faces) -> None:
    d = hm.data
    surf.rect(b, fill="#fffdf6", stroke=INK, width=0.4)
    surf.text(b.x + 2, b.y + 4.5, catalogue.text("map.legend", lang), size_pt=8.5, colour=INK, font=faces.bold)
    entries: list[tuple[str, tuple[str, Any]]] = []  # (legend text, (what is drawn, its data))
    for name, k in d.terrain.kinds.items():
        entries.append((printed(k.name, lang), ("terrain", k)))
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
            surf.use_symbol(icon_name(obj), x + 0.5, y - 0.5, scale=0.9)
        surf.text(x + 8, y + 3.2, text, size_pt=6.5, colour=INK, font=faces.regular)
    y = b.y + 7 + rows * 5.2 + 3
    _wrap(surf, b.x + 2, y, b.w - 4, printed(d.legend.note, lang), 6.5, faces.regular, lang, max_lines=3)


def _place_kind_name(hm: HexMap, p: Place, lang: str) -> str:
    """The legend's name for a kind of place: "都市", "善の都市" / "city (good)"."""
    k = printed(hm.data.place_kinds[p.kind].name, lang)
    if not p.allegiance:
        return k
    a = printed(hm.data.allegiances[p.allegiance].name, lang)
    return catalogue.text("map.place_of_side", lang, side=a, kind=k)
