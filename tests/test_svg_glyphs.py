"""The SVG backend writes a simple glyph's outline itself (generator/render/svgglyphs.py): every
glyph of the project fonts must come out as fontTools' own pen writes it (`Glyph.draw` into
`SVGPathPen`, numbers as `{:g}`), those it draws itself and those it leaves to fontTools alike."""
from __future__ import annotations

import pytest

from generator import fonts
from generator.render.svgglyphs import GlyphOutlines, _contours_path


def _pen_path(outlines: GlyphOutlines, name: str) -> str:
    from fontTools.pens.svgPathPen import SVGPathPen

    glyphs = outlines.font.getGlyphSet()
    pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:g}")
    glyphs[name].draw(pen)
    return pen.getCommands()


@pytest.mark.parametrize("font, step", [("ja", 7), ("en", 1), (("en", "italic"), 1), (("en", "bold"), 1)])
def test_each_glyph_is_what_fonttools_pen_writes(font, step):
    """Every glyph of the Latin faces (their accented letters are composites, left to fontTools) and
    every 7th of IPAex Gothic's 12,000 (its kanji are long runs of quadratic points)."""
    lang, role = font if isinstance(font, tuple) else (font, "regular")
    outlines = GlyphOutlines(fonts.text_font(lang, role))
    names = outlines.font.getGlyphOrder()[::step]
    written = {name: outlines.path(name) for name in names}
    reference = GlyphOutlines(fonts.text_font(lang, role))
    assert written == {name: _pen_path(reference, name) for name in names}
    assert sum(bool(p) for p in written.values()) > len(names) / 2


def test_a_contour_as_the_pen_writes_it_and_what_is_left_to_fonttools():
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    # from its last on-curve point; H and V lines; the line back to the start is Z's
    assert _contours_path(square, [3], [1, 1, 1, 1]) == "M0 0H10V10H0Z"
    # diagonals right after the M are bare pairs (the M's implied lines); a repeated point is dropped
    assert _contours_path([(0, 0), (4, 3), (4, 3), (9, 1)], [3], [1, 1, 1, 1]) == "M0 0 4 3 9 1Z"
    # a run of off-curve points: quadratic segments split at their midpoints; a diagonal after them an L
    assert _contours_path([(0, 0), (5, 10), (15, 11), (20, 0), (3, 4)], [4], [1, 0, 0, 1, 1]) \
        == "M0 0Q5 10 10 10.5Q15 11 20 0L3 4Z"
    # a cubic contour, or one without an on-curve point: None (fontTools draws it)
    assert _contours_path(square, [3], [1, 0x81, 0x81, 1]) is None
    assert _contours_path(square, [3], [0, 0, 0, 0]) is None
