"""A TrueType font's advances and glyph boxes per code point, as arrays: what the drawing records
(generator/rulebook/drawn.py, generator/pieces/drawn.py) place each character of a recorded
string by, as pdfium gives a character its glyph's box.

    glyph_metrics(font).of(codes)   per code point (numpy int array): advance, x0, y0, x1, y1
                                    (1000 to the em)
    glyph_metrics(font).rows(text)  the same per character of a string, as tuples of floats
    ink_box(text, font)             the box of a string's glyphs with an outline (font units), or None
"""
from __future__ import annotations

import math
import struct
from functools import lru_cache
from typing import Any

import numpy as np


class GlyphMetrics:
    """A TrueType font's advances (1000 to the em, reportlab's: what draw_string moves by) and glyph
    boxes (1000 to the em, from the glyph outlines' bounds: what pdfium gives as a character's box),
    per code point, looked up as arrays; filled in for the code points met."""

    def __init__(self, font: str):
        from reportlab.pdfbase.pdfmetrics import getFont

        self.face = getFont(font).face
        self.known = np.zeros(0x10000, dtype=bool)  # the BMP as arrays; a code beyond it, one by one
        self.table = np.zeros((0x10000, 5), dtype=np.float64)  # advance, x0, y0, x1, y1
        self.astral: dict[int, tuple[float, ...]] = {}
        self.by_char: dict[str, tuple[float, ...]] = {}  # `rows`' memo
        self._glyphs: Any = None

    def rows(self, text: str) -> list[tuple[float, ...]]:
        """`of`'s rows for each character of `text`, as floats, from a memo per character: a label
        of a few characters is worked out in Python faster than numpy makes its arrays."""
        memo = self.by_char
        new = sorted({c for c in text if c not in memo})
        if new:
            memo.update(zip(new, map(tuple, self.of(np.array(list(map(ord, new)), dtype=np.int64)).tolist())))
        return list(map(memo.__getitem__, text))

    def of(self, codes: np.ndarray) -> np.ndarray:
        bmp = codes < 0x10000
        if bmp.all():
            new = set(codes[~self.known[codes]].tolist())  # not np.unique: it imports numpy.ma for this
            if new:
                self._fill(sorted(new))
            return self.table[codes]
        out = np.zeros((len(codes), 5))
        out[bmp] = self.of(codes[bmp])
        out[~bmp] = [self.astral.get(c) or self._one(c) for c in codes[~bmp].tolist()]
        return out

    def _one(self, code: int) -> tuple[float, ...]:
        self.astral[code] = self._entry(code)
        return self.astral[code]

    def _fill(self, codes: list[int]) -> None:
        for code in codes:
            self.table[code] = self._entry(code)
            self.known[code] = True

    def _entry(self, code: int) -> tuple[float, ...]:
        face = self.face
        if self._glyphs is None:
            self._glyphs = _glyph_table(face)
        data, loca, k = self._glyphs
        gid = face.charToGlyph.get(code, 0)
        box = (0.0,) * 4
        if gid + 1 < len(loca) and loca[gid + 1] > loca[gid]:  # a glyph with an outline
            x0, y0, x1, y1 = struct.unpack_from(">4h", data, loca[gid] + 2)
            box = (x0 * k, y0 * k, x1 * k, y1 * k)
        return (face.charWidths.get(code, face.defaultWidth), *box)


def _glyph_table(face: Any) -> tuple[bytes, list[int], float]:
    """A TrueType face's glyph data, where each glyph starts in it and font units to 1000 an em, as
    reportlab read them (its TTFontFace keeps the font's bytes for the subsets it embeds): a glyph's
    bounds are the four numbers after its contour count, no outline decoded."""
    return face.get_table("glyf"), face.glyphPos, 1000 / face.unitsPerEm


@lru_cache(maxsize=64)
def glyph_metrics(font: str) -> GlyphMetrics:
    return GlyphMetrics(font)


@lru_cache(maxsize=4096)  # a deck's labels repeat on every sheet and in every language built
def ink_box(text: str, font: str) -> tuple[float, float, float, float] | None:
    """The box of the glyphs of `text` with an outline (font units, 1000 to the em, y up, from its
    origin; pdfium's character boxes), None for none. Each glyph's origin is the advances summed up
    to it, less its own (the floats numpy's cumsum of the row gave, as the checks were written on)."""
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    at = 0.0
    for advance, a, b, c, d in glyph_metrics(font).rows(text):
        at += advance
        if c > a and d > b:  # a glyph with an outline
            origin = at - advance
            x0, y0, x1, y1 = min(x0, origin + a), min(y0, b), max(x1, origin + c), max(y1, d)
    return None if x0 == math.inf else (x0, y0, x1, y1)
