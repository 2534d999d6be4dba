"""Work a rulebook used to do again is done once (issue 26): a table measured again at the width it
had keeps its measures, and a font subset embedded again is not made again. What is measured and
embedded is read against reportlab's own (its Table, its TrueType font) and read back with pypdf
and fontTools."""
from __future__ import annotations

import io

from fontTools.ttLib import TTFont as FTFont
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Table

from generator import fonts
from generator.fontsubsets import kept as kept_subsets
from generator.rulebook.content import Text
from generator.rulebook.flowables import KPara, Recorder, RowTable, Style

WORDS = "Each player draws two cards, then passes one to the left; the ring moves on."
STYLE = [("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
         ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
         ("VALIGN", (0, 0), (-1, -1), "TOP")]


def _cells() -> list[list[KPara]]:
    font = fonts.register_face(fonts.face_of("en").id)
    style, rec = Style(font, 8.5, 11.5), Recorder(keep_lines=False)
    return [[KPara(Text(WORDS[: 12 + 9 * i]), style, rec, lang="en", role="cell"),
             KPara(Text(str(i)), style, rec, role="cell")] for i in range(6)]


def _measures(t: Table) -> tuple:
    return t._width, t._height, list(t._rowHeights), list(t._rowpositions), list(t._colpositions)


def test_a_table_measured_again_at_its_width_keeps_its_measures(monkeypatch):
    """Wrapped twice at one width and split there, the table's rows are measured once; wrapped at
    another width and back, its measures are those of reportlab's own Table, fresh, at each width."""
    calls = []
    measure = Table._calc_height

    def counted(self, *args, **kwargs):
        calls.append(self)
        return measure(self, *args, **kwargs)

    monkeypatch.setattr(Table, "_calc_height", counted)
    ours = RowTable(_cells(), colWidths=[70, 40], hAlign="LEFT")
    ours.setStyle(STYLE)
    ours.wrap(110, 400)
    ours.wrap(110, 300)
    parts = ours.split(110, 60)
    assert calls.count(ours) == 1
    assert len(parts) == 2  # it did split there, from the measures it kept
    reference = Table(_cells(), colWidths=[70, 40], hAlign="LEFT")
    reference.setStyle(STYLE)
    assert ours.wrap(110, 200) == reference.wrap(110, 200)
    assert _measures(ours) == _measures(reference)


def _one_page(font: str, text: str) -> bytes:
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(300, 100), invariant=1)
    canvas.setFont(font, 12)
    canvas.drawString(10, 50, text)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _font_files(pdf: bytes) -> list[bytes]:
    """The embedded font programs (FontFile2) of the PDF's page, decoded by pypdf."""
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    fonts_ = [f.get_object() for _, f in sorted(page["/Resources"]["/Font"].items())]
    return [f["/FontDescriptor"]["/FontFile2"].get_data() for f in fonts_ if "/FontDescriptor" in f]


def test_a_subset_embedded_again_is_not_made_again(monkeypatch):
    """Two documents that embed the same characters of a face make its subset once, and each embeds
    the subset reportlab's own TrueType font makes for them: a font fontTools reads, with their glyphs."""
    made = []
    make = TTFontFace.makeSubset

    def counted(self, subset):
        made.append(tuple(subset))
        return make(self, subset)

    monkeypatch.setattr(TTFontFace, "makeSubset", counted)
    path = str(fonts.FAMILIES[fonts.face_of("en").id].files()["regular"])
    text = "Gold rings: 12 of them"

    def registered(font: TTFont) -> str:
        # reportlab gives a face already registered under another name that name's font: each
        # font here is registered alone, so it is the one drawn
        monkeypatch.setattr(pdfmetrics, "_fonts", dict(pdfmetrics._fonts))
        monkeypatch.setattr(pdfmetrics, "_dynFaceNames", {})
        pdfmetrics.registerFont(font)
        return font.fontName

    own = _font_files(_one_page(registered(TTFont("PnpTestReportlabOwn", path)), text))
    made.clear()
    kept = registered(fonts._ttfont_class()("PnpTestKeptSubsets", path))
    with kept_subsets():  # as a book, its booklet and its print guide are made
        first, second = _one_page(kept, text), _one_page(kept, text)
    assert len(made) == 1
    _one_page(kept, text)  # after the block nothing is kept: made again
    assert len(made) == 2
    assert len(own) == 1 and _font_files(first) == _font_files(second) == own
    face = FTFont(io.BytesIO(own[0]))
    assert len(face.getGlyphOrder()) > len(set(text))  # .notdef and one glyph a character, at least
