"""Where the SVG backend's glyph outlines come from (render/svg.py places them): a font's glyphs as
SVG path data in font units (y up), each drawn once per process.

fontTools draws a glyph through its pen protocol (`Glyph.draw` calling `SVGPathPen`'s moveTo,
lineTo, qCurveTo, one call and a few objects a point), which cost some 0.3 ms a glyph of IPAex
Gothic, a cold build's largest share of its SVG time after the writing. `_contours_path` writes a
simple TrueType glyph's quadratic contours straight from its points, as those two write them,
character for character; what it does not repeat (a composite glyph, a cubic or all-off-curve
contour, a glyph drawn shifted by its side bearing) fontTools still draws."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from .svgxml import _esc_attr

FLAG_ON_CURVE, FLAG_CUBIC = 0x01, 0x80  # a glyf point's flags (fontTools' flagOnCurve, flagCubic)


class GlyphOutlines:
    """A font's glyphs as SVG path data (font units, y up), loaded once per process."""

    def __init__(self, font: str) -> None:
        from .. import fonts

        self.font = fonts.ft_font(fonts.font_file(font))  # shared with fonts.py's readers
        self.upm = self.font["head"].unitsPerEm
        self.cmap = self.font.getBestCmap()
        self.hmtx = self.font["hmtx"]
        self._glyphs: Any = None  # fontTools' glyph set, for the glyphs `_contours_path` leaves to it
        self._chars: dict[str, tuple[str, int]] = {}
        self._paths: dict[str, str] = {}
        self._defs: dict[str, str] = {}

    def glyph(self, ch: str) -> tuple[str, int]:
        """(glyph name, advance in font units); unknown characters map to .notdef."""
        known = self._chars.get(ch)
        if known is None:
            name = self.cmap.get(ord(ch), ".notdef")
            known = self._chars[ch] = (name, self.hmtx[name][0])
        return known

    def path(self, name: str) -> str:
        if name not in self._paths:
            glyph = self.font["glyf"][name]
            written = None
            # Glyph.draw shifts a glyph whose side bearing differs from its xMin: left to fontTools
            if not glyph.isComposite() and (not hasattr(glyph, "xMin") or self.hmtx[name][1] == glyph.xMin):
                coords, ends, flags = glyph.getCoordinates(self.font["glyf"])
                xy = coords.array  # the points' x and y, as floats: written alike by {:g}
                written = _contours_path(list(zip(xy[::2], xy[1::2])), ends, flags)
            self._paths[name] = self._drawn(name) if written is None else written
        return self._paths[name]

    def _drawn(self, name: str) -> str:
        """The glyph as fontTools' SVGPathPen writes it."""
        from fontTools.pens.svgPathPen import SVGPathPen

        if self._glyphs is None:
            self._glyphs = self.font.getGlyphSet()
        pen = SVGPathPen(self._glyphs, ntos=lambda v: f"{v:g}")
        self._glyphs[name].draw(pen)
        return str(pen.getCommands())

    def path_xml(self, name: str) -> str:
        """A glyph's `<path>` as a page's <defs> holds it, up to its id (`d` sorts before `id`)."""
        if name not in self._defs:
            self._defs[name] = f'<path d="{_esc_attr(self.path(name))}" '
        return self._defs[name]


@lru_cache(maxsize=None)
def glyph_outlines(font: str) -> GlyphOutlines:
    return GlyphOutlines(font)


def _contours_path(coords: list[tuple[float, float]], ends: Sequence[int], flags: Sequence[int]) -> str | None:
    """What `Glyph.draw` into `SVGPathPen(ntos="{:g}")` writes for a simple glyph's points, or None
    when a contour is cubic or has no on-curve point. Each contour is turned to end on an on-curve
    point, which it starts from (M); a run of off-curve points up to the next on-curve one is a
    string of quadratic segments split at their implied midpoints (Q); a straight segment is V, H,
    a bare pair after the M, or L; a point repeating the pen's is dropped; each contour ends in Z."""
    out: list[str] = []
    cmd: str | None = None  # the pen's last command and point (SVGPathPen's _lastCommand, _lastX, _lastY)
    lx: float | None = None
    ly: float | None = None
    start = 0
    for end in ends:
        end += 1
        fl = flags[start:end]
        if any(f & FLAG_CUBIC for f in fl):
            return None
        on = [f & FLAG_ON_CURVE for f in fl]
        if 1 not in on:
            return None
        pts = coords[start:end]
        start = end
        k = on.index(1) + 1
        pts, on = pts[k:] + pts[:k], on[k:] + on[:k]
        if cmd == "M":  # SVGPathPen's _handleAnchor: a moveTo replaces the one before it
            out.pop()
        x, y = pts[-1]
        out.append(f"M{x:g} {y:g}")
        cmd, lx, ly = "M", x, y
        i, n = 0, len(pts)
        while i < n:
            j = on.index(1, i)
            if j == i:
                if n - i > 1:  # the contour's last line is closePath's to draw
                    x, y = pts[i]
                    if x == lx and y == ly:
                        pass
                    elif x == lx:
                        out.append(f"V{y:g}")
                        cmd, ly = "V", y
                    elif y == ly:
                        out.append(f"H{x:g}")
                        cmd, lx = "H", x
                    elif cmd == "M":
                        out.append(f" {x:g} {y:g}")
                        lx, ly = x, y
                    else:
                        out.append(f"L{x:g} {y:g}")
                        cmd, lx, ly = "L", x, y
            else:
                for a in range(i, j - 1):  # between two off-curve points, the implied on-curve one
                    (x0, y0), (x1, y1) = pts[a], pts[a + 1]
                    mx, my = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
                    out.append(f"Q{x0:g} {y0:g} {mx:g} {my:g}")
                (x0, y0), (lx, ly) = pts[j - 1], pts[j]
                out.append(f"Q{x0:g} {y0:g} {lx:g} {ly:g}")
                cmd = "Q"
            i = j + 1
        out.append("Z")
        cmd, lx, ly = "Z", None, None
    return "".join(out)
