"""A font subset embedded again is neither made nor formatted again (generator/fontsubsets.py,
issue 26), and the documents are byte for byte those reportlab's own TrueType font writes; the
font program embedded is one fontTools reads."""
from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont as FTFont
from pypdf import PdfReader
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace
from reportlab.pdfgen.canvas import Canvas

from generator import fonts, fontsubsets

LATIN = "Gold rings: 12 of them"
# more than 256 characters: reportlab embeds two subsets of the face
JAPANESE = "".join(chr(c) for c in range(0x3041, 0x3097)) + "".join(chr(c) for c in range(0x4E00, 0x4EB0))


@pytest.fixture
def registry(monkeypatch):
    """Each font registered alone, under the same name: reportlab gives a face already registered
    under another name that name's font, and the name is written in the PDF."""

    fonts_before = dict(pdfmetrics._fonts)

    def register(font: TTFont) -> str:
        monkeypatch.setattr(pdfmetrics, "_fonts", dict(fonts_before))
        monkeypatch.setattr(pdfmetrics, "_dynFaceNames", {})
        pdfmetrics.registerFont(font)
        return font.fontName

    monkeypatch.setattr(fontsubsets, "_KEPT", fontsubsets._Kept(fontsubsets.BUDGET))
    return register


@pytest.fixture
def made(monkeypatch):
    """The subsets reportlab makes (TTFontFace.makeSubset), and the streams it formats."""
    seen: dict[str, list] = {"subsets": [], "streams": []}
    make, fmt = TTFontFace.makeSubset, pdfdoc.PDFStream.format

    def counted_make(self, subset):
        seen["subsets"].append(tuple(subset))
        return make(self, subset)

    def counted_format(self, document):
        seen["streams"].append(self.dictionary.dict.get("Length1"))
        return fmt(self, document)

    monkeypatch.setattr(TTFontFace, "makeSubset", counted_make)
    monkeypatch.setattr(pdfdoc.PDFStream, "format", counted_format)
    return seen


def _document(font: str, lines: list[str], compression: int = 1) -> bytes:
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(400, 200), invariant=1, pageCompression=compression)
    canvas.setFont(font, 12)
    for i, line in enumerate(lines):
        canvas.drawString(10, 180 - 14 * i, line)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _font_files(pdf: bytes) -> list[bytes]:
    """The embedded font programs (FontFile2) of the PDF's page, decoded by pypdf."""
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    found = [f.get_object() for _, f in sorted(page["/Resources"]["/Font"].items())]
    return [f["/FontDescriptor"]["/FontFile2"].get_data() for f in found if "/FontDescriptor" in f]


@pytest.mark.parametrize("lang, lines", [("en", [LATIN]), ("ja", [JAPANESE[:200], JAPANESE[200:]])])
@pytest.mark.parametrize("compression", [1, 0])
def test_documents_embedding_a_subset_again_are_reportlabs_own(registry, made, lang, lines, compression):
    path = str(fonts.FAMILIES[fonts.face_of(lang).id].files()["regular"])
    own = _document(registry(TTFont("PnpTestSubsets", path)), lines, compression)
    made["subsets"].clear()
    kept = registry(fonts._ttfont_class()("PnpTestSubsets", path))
    first = _document(kept, lines, compression)
    subsets = len(made["subsets"])
    assert subsets == len(_font_files(own)) == (2 if lang == "ja" else 1)
    made["streams"].clear()
    second = _document(kept, lines, compression)
    assert len(made["subsets"]) == subsets  # none made again
    # no font file formatted again (a font file's stream alone has a Length1); the page's is
    assert [n for n in made["streams"] if n is not None] == []
    assert first == second == own
    assert len(FTFont(io.BytesIO(_font_files(own)[0])).getGlyphOrder()) > len(set(LATIN))


def test_what_is_kept_is_bounded(registry, made, monkeypatch):
    """Past the budget the subset kept longest unused is let go, and made again when needed."""
    path = str(fonts.FAMILIES[fonts.face_of("ja").id].files()["regular"])
    kept = registry(fonts._ttfont_class()("PnpTestSubsets", path))
    a, b = _document(kept, [JAPANESE[:120]]), _document(kept, [JAPANESE[120:240]])
    held = fontsubsets._KEPT.used
    # room for about one document's objects: the first is let go when the second is kept
    monkeypatch.setattr(fontsubsets, "_KEPT", fontsubsets._Kept(held * 2 // 3))
    made["subsets"].clear()
    assert _document(kept, [JAPANESE[:120]]) == a
    assert _document(kept, [JAPANESE[120:240]]) == b
    assert fontsubsets._KEPT.used <= held * 2 // 3
    assert _document(kept, [JAPANESE[:120]]) == a
    assert len(made["subsets"]) == 3


def test_a_subset_is_cut_from_the_font_file_without_copying_its_glyph_table(registry, made, monkeypatch):
    """makeSubset reads a few glyphs of the glyf table: the table (3 MB for a CJK face) is not
    copied out whole for each subset, and the face's own get_table still gives the bytes after."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    path = str(fonts.FAMILIES[fonts.face_of("ja").id].files()["regular"])
    own = _document(registry(TTFont("PnpTestSubsets", path)), [JAPANESE[:200]])
    copied: list[str] = []
    get_table = TTFontFile.get_table

    def counted(self, tag):
        copied.append(tag)
        return get_table(self, tag)

    monkeypatch.setattr(TTFontFile, "get_table", counted)
    kept = registry(fonts._ttfont_class()("PnpTestSubsets", path))
    assert _document(kept, [JAPANESE[:200]]) == own
    assert made["subsets"] and "glyf" not in copied and "head" in copied
    face = pdfmetrics.getFont(kept).face
    pos, length = face.get_table_pos("glyf")
    assert face.get_table("glyf") == face._ttf_data[pos:pos + length]


def test_a_make_subset_that_reads_the_table_otherwise_runs_on_the_table_itself(registry, monkeypatch):
    """Another reportlab 4 release may read the glyf table otherwise than by slices (its length,
    a byte at an index): the subset is then made from the table itself, the bytes reportlab's own."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    path = str(fonts.FAMILIES[fonts.face_of("ja").id].files()["regular"])
    own = _document(registry(TTFont("PnpTestSubsets", path)), [JAPANESE[:200]])
    make_subset = TTFontFile.makeSubset

    def reads_its_length(self, subset):
        len(self.get_table("glyf"))  # a view has no length
        return make_subset(self, subset)

    monkeypatch.setattr(TTFontFile, "makeSubset", reads_its_length)
    kept = registry(fonts._ttfont_class()("PnpTestSubsets", path))
    assert _document(kept, [JAPANESE[:200]]) == own


def test_a_subset_s_unicode_map_is_made_once_and_is_reportlab_s(registry, monkeypatch):
    """The ToUnicode map of a subset embedded again is not formatted again: its text is
    reportlab's makeToUnicodeCMap's for the same subset, and the documents are the same bytes."""
    from reportlab.pdfbase import ttfonts

    path = str(fonts.FAMILIES[fonts.face_of("ja").id].files()["regular"])
    kept = registry(fonts._ttfont_class()("PnpTestSubsets", path))
    made: list[tuple[str, tuple[int, ...]]] = []
    real = fontsubsets.REPORTLAB_CMAP
    monkeypatch.setattr(fontsubsets, "REPORTLAB_CMAP", lambda name, subset: made.append((name, tuple(subset))) or real(name, subset))
    fontsubsets._cmap_text.cache_clear()
    first = _document(kept, [JAPANESE[:200], JAPANESE[200:]])
    assert ttfonts.makeToUnicodeCMap is fontsubsets.to_unicode_cmap and len(made) == 2  # two subsets
    assert _document(kept, [JAPANESE[:200], JAPANESE[200:]]) == first and len(made) == 2
    for name, subset in made:
        assert fontsubsets.to_unicode_cmap(name, list(subset)) == real(name, list(subset))
