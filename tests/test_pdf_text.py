"""The PDF surface's text (generator/render/pdf.py `text`, drawn run by run through
rulebook/drawstring.py) is byte for byte what reportlab's own drawString, drawCentredString and
drawRightString write on a canvas for the same strings: one font, a character the face lacks drawn
in the project font, Japanese spanning two font subsets, the same string again."""
from __future__ import annotations

import re

from generator import fonts
from generator.geometry import PT_PER_MM
from generator.render.pdf import PdfSurface

KANA = "".join(chr(c) for c in range(0x3041, 0x3097))
KANJI = "".join(chr(c) for c in range(0x4E00, 0x4F10))  # with the kana, past one subset's 256 codes
LINES = [("Gold rings: 12 of them", "en", "left"), ("Gold rings", "en", "center"), ("12 ● left", "en", "right"),
         ("● ring ●", "en", "center"), (KANA, "ja", "left"), (KANJI, "ja", "right"), (KANA + KANJI, "ja", "center"),
         ("Gold rings: 12 of them", "en", "left")]


def _reportlabs(surface: PdfSurface, x: float, y: float, s: str, size: float, align: str, font: str) -> None:
    """reportlab's own calls for the string: the whole string when the face has every character,
    else its runs one after the other from where the string starts (fonts.runs)."""
    c = surface.c
    X, Y = x * PT_PER_MM, (surface._frame_h - y) * PT_PER_MM
    parts = fonts.runs(s, font)
    if len(parts) == 1:
        c.setFont(parts[0][1], size)
        {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[align](X, Y, s)
        return
    width = sum(c.stringWidth(t, f, size) for t, f in parts)
    X -= {"left": 0.0, "center": width / 2, "right": width}[align]
    for t, f in parts:
        c.setFont(f, size)
        c.drawString(X, Y, t)
        X += c.stringWidth(t, f, size)


def _page(draw: bool) -> bytes:
    surface = PdfSurface(title="text")
    surface.begin_page(210, 297)
    for i, (s, lang, align) in enumerate(LINES):
        font, y = fonts.text_font(lang), 20 + 12 * i
        if draw:
            surface.text(105, y, s, size_pt=9, align=align, font=font)  # type: ignore[arg-type]
        else:
            if i == 0:
                surface._style("#000000", None, 0)
            _reportlabs(surface, 105, y, s, 9, align, font)
    return surface.getvalue()


def test_text_is_what_reportlabs_own_calls_write():
    ours, theirs = _page(True), _page(False)
    assert re.search(rb"/F\d\+1 ", ours)  # the Japanese did span two subsets of the project font
    assert ours == theirs
