"""A vector symbol's drawing with its colours resolved: what `define_symbol` is given.

`SymbolDrawing.of(symbol, resolve)` turns a layout's `Symbol` (shapes whose colours may be
`current`, a named colour or `contrast`) into plain shapes in final colours. The drawing is a
value: two drawings of the same shapes in the same colours are equal and hash alike, whichever
face drawer (game, language, component) made them, and `of` hands out one object for them while
it is among the last `KEEP` drawings made. The PNG backend's tiles, kept per drawing function for
as long as it lives (render/png.py), so serve every image a process draws with that symbol in
those colours, the next build unit's too (another language of the same counters), while a long
process keeps the tiles of at most `KEEP` drawings that no drawer uses any more.
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


KEEP = 256


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

        made = cls(tuple((sh.kind, tuple((p[0], p[1]) for p in sh.points), sh.cx, sh.cy, sh.r,
                          tuple(sh.box) if sh.box else None, col(sh.fill), col(sh.stroke), sh.width)
                         for sh in sym.shapes), colour)
        kept = _RECENT.pop(made, made)
        _RECENT[kept] = kept  # the most recent last
        if len(_RECENT) > KEEP:
            del _RECENT[next(iter(_RECENT))]
        return kept

    def __call__(self, t: Surface) -> None:
        """Draw the shapes in the symbol's own units (its `size`, origin top-left, y down)."""
        for kind, points, cx, cy, r, box, fill, stroke, width in self.shapes:
            if kind == "polygon":
                t.polygon(list(points), fill=fill, stroke=stroke, width=width)
            elif kind == "polyline":
                t.polyline(list(points), stroke=stroke or self.colour, width=width)
            elif kind == "circle":
                t.circle(cx, cy, r, fill=fill, stroke=stroke, width=width)
            elif kind == "rect" and box:
                t.rect(Box(*box), fill=fill, stroke=stroke, width=width)


# The drawings made last, each as the one object `SymbolDrawing.of` hands out for its value (oldest first).
_RECENT: dict[SymbolDrawing, SymbolDrawing] = {}
