"""A vector symbol's drawing with its colours resolved: what `define_symbol` is given.

`SymbolDrawing.of(symbol, resolve)` turns a layout's `Symbol` (shapes whose colours may be
`current`, a named colour or `contrast`) into plain shapes in final colours. The drawing is a
value: two drawings of the same shapes in the same colours are equal and hash alike, whichever
face drawer (game, language, component) made them, so the PNG backend's tiles, shared by drawing
function (render/png.py), serve every image a process draws with that symbol in those colours,
not only those of one drawer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from solver.game.layouts import Symbol

from ..geometry import Box
from ..render.base import Surface

# (kind, points, cx, cy, r, box, fill, stroke, width): a Shape with its colours resolved
ResolvedShape = tuple[str, tuple[tuple[float, float], ...], float, float, float,
                      tuple[float, ...] | None, str | None, str | None, float]


@dataclass(frozen=True)
class SymbolDrawing:
    shapes: tuple[ResolvedShape, ...]
    colour: str  # the stroke of a polyline that names none (the field's colour)

    @classmethod
    def of(cls, sym: Symbol, colour: str, named: Callable[[str], str | None]) -> SymbolDrawing:
        """`sym`'s shapes, `current` as `colour`, every other colour through `named`."""
        def col(c: str | None) -> str | None:
            if c is None:
                return None
            return colour if c == "current" else named(c)

        return cls(tuple((sh.kind, tuple((p[0], p[1]) for p in sh.points), sh.cx, sh.cy, sh.r,
                          tuple(sh.box) if sh.box else None, col(sh.fill), col(sh.stroke), sh.width)
                         for sh in sym.shapes), colour)

    def __call__(self, t: Surface) -> None:
        for kind, points, cx, cy, r, box, fill, stroke, width in self.shapes:
            if kind == "polygon":
                t.polygon(list(points), fill=fill, stroke=stroke, width=width)
            elif kind == "polyline":
                t.polyline(list(points), stroke=stroke or self.colour, width=width)
            elif kind == "circle":
                t.circle(cx, cy, r, fill=fill, stroke=stroke, width=width)
            elif kind == "rect" and box:
                t.rect(Box(*box), fill=fill, stroke=stroke, width=width)
