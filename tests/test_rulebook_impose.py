"""Saddle-stitch imposition: page order per sheet, padding, and where pages land on the A4 sheets."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.rulebook.impose import Side, impose, padded_order, saddle_sides
from generator.rulebook.pdftext import Run, text_runs


def test_order_for_4_8_12_pages():
    assert saddle_sides(4) == [(Side(4, 1), Side(2, 3))]
    assert saddle_sides(8) == [(Side(8, 1), Side(2, 7)), (Side(6, 3), Side(4, 5))]
    assert saddle_sides(12) == [(Side(12, 1), Side(2, 11)), (Side(10, 3), Side(4, 9)), (Side(8, 5), Side(6, 7))]


@pytest.mark.parametrize("n", [4, 8, 12, 16, 20])
def test_every_page_printed_once_and_facing_pages_add_up(n):
    pages = [p for front, back in saddle_sides(n) for side in (front, back) for p in (side.left, side.right)]
    assert sorted(pages) == list(range(1, n + 1))
    for front, back in saddle_sides(n):
        assert front.left + front.right == n + 1 and back.left + back.right == n + 1


@pytest.mark.parametrize("n,expected", [
    (1, [1, None, None, None]),
    (5, [1, 2, 3, 4, 5, None, None, None]),
    (6, [1, 2, 3, 4, 5, 6, None, None]),
    (7, [1, 2, 3, 4, 5, 6, 7, None]),
    (8, [1, 2, 3, 4, 5, 6, 7, 8]),
])
def test_without_a_back_cover_padding_blanks_go_after_the_last_page(n, expected):
    assert padded_order(n) == expected


@pytest.mark.parametrize("n,expected", [
    (1, [1, None, None, None]),
    (5, [1, 2, 3, 4, None, None, None, 5]),
    (6, [1, 2, 3, 4, 5, None, None, 6]),
    (7, [1, 2, 3, 4, 5, 6, None, 7]),
    (8, [1, 2, 3, 4, 5, 6, 7, 8]),
])
def test_padding_blanks_go_before_the_back_cover(n, expected):
    assert padded_order(n, back_cover=True) == expected


def test_unpadded_count_is_refused():
    with pytest.raises(ValueError):
        saddle_sides(6)


def _numbered_a5(n: int) -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(148 * mm, 210 * mm), invariant=1)
    for i in range(1, n + 1):
        c.setFont("Helvetica", 40)
        c.drawString(60 * mm, 100 * mm, f"P{i}")
        c.showPage()
    c.save()
    return buf.getvalue()


A4_LANDSCAPE_PT = (297 * mm, 210 * mm)  # the sheet, written out rather than imported from impose.py


def _placed(pdf: bytes) -> list[dict[str, Run]]:
    """Per sheet side: label -> where it is drawn on the sheet (read from the PDF's operators)."""
    runs, sizes = text_runs(pdf)
    out: list[dict[str, Run]] = [{} for _ in sizes]
    for r in runs:
        if r.text.startswith("P"):
            out[r.page - 1][r.text] = r
    return out


@pytest.mark.parametrize("flip", ["short", "long"])
def test_imposed_sheets_put_each_page_in_its_slot(flip):
    pdf = impose(_numbered_a5(6), flip=flip)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 4  # 8 booklet pages = 2 sheets, front and back
    half = float(reader.pages[0].mediabox.width) / 2
    assert float(reader.pages[0].mediabox.width) > float(reader.pages[0].mediabox.height)  # landscape A4
    sides = []
    for placed in _placed(pdf):
        left = sorted(k for k, r in placed.items() if r.x1 < half)
        right = sorted(k for k, r in placed.items() if r.x0 >= half)
        assert len(left) + len(right) == len(placed)  # no page straddles the fold
        sides.append((left, right))
    # 6 pages -> booklet 1..6, blank, blank. Sheet 0 front: (8=blank, 1), back: (2, 7=blank)
    if flip == "short":
        assert sides == [([], ["P1"]), (["P2"], []), (["P6"], ["P3"]), (["P4"], ["P5"])]
    else:  # backs turned 180°: their left page lands on the right half
        assert sides == [([], ["P1"]), ([], ["P2"]), (["P6"], ["P3"]), (["P5"], ["P4"])]


@pytest.mark.parametrize("flip", ["short", "long"])
def test_pages_keep_their_size_and_sit_centred_in_their_half(flip):
    """A5 on half an A4 sheet is 1:1; each label lands where it was on its page, offset to its half."""
    pdf = impose(_numbered_a5(4), flip=flip)
    sheet_w, sheet_h = A4_LANDSCAPE_PT
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (float(box.width), float(box.height)) == (pytest.approx(sheet_w, abs=0.01), pytest.approx(sheet_h, abs=0.01))
    half = sheet_w / 2
    dx, dy = (half - 148 * mm) / 2, (sheet_h - 210 * mm) / 2  # the A5 page centred in its half
    placed = _placed(pdf)
    for side, (left, right) in enumerate([("P4", "P1"), ("P2", "P3")]):
        rotated = side == 1 and flip == "long"
        for label, slot in ((left, 0), (right, 1)):
            r = placed[side][label]
            assert abs(r.size - 40) < 1e-6  # scale 1
            if rotated:  # turned about the sheet's centre: the left page's label is now on the right
                x_right, y = sheet_w - (slot * half + dx + 60 * mm), sheet_h - (dy + 100 * mm)
                assert abs(r.x1 - x_right) < 0.01 and abs(r.y - y) < 0.01
            else:
                assert abs(r.x0 - (slot * half + dx + 60 * mm)) < 0.01 and abs(r.y - (dy + 100 * mm)) < 0.01


def test_same_pages_same_booklet_bytes():
    pages = _numbered_a5(6)
    assert impose(pages, flip="long") == impose(pages, flip="long")


def test_back_cover_is_the_outside_of_the_first_sheet():
    """6 pages with a back cover -> booklet 1..5, blank, blank, 6: sheet 0's front carries (6, 1)."""
    pdf = impose(_numbered_a5(6), flip="short", back_cover=True)
    half = A4_LANDSCAPE_PT[0] / 2
    placed = _placed(pdf)
    front = placed[0]
    assert set(front) == {"P6", "P1"}
    assert front["P6"].x1 < half <= front["P1"].x0
    # back of sheet 0: (2, 7=blank); sheet 1: front (6=blank, 3), back (4, 5)
    assert set(placed[1]) == {"P2"} and set(placed[2]) == {"P3"} and set(placed[3]) == {"P4", "P5"}


# --------------------------------------------------------------------------- the booklet without pypdf's clone

def _rich_a5(n: int, title: str = "Don’t — 指輪の本") -> bytes:
    """An A5 book as the typesetter's are: an embedded TrueType font (subsets, widths, a ToUnicode
    map), links between pages, plus what a book may hold besides: an image and a form XObject."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    from generator import fonts

    font = fonts.register()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(148 * mm, 210 * mm), invariant=1, pageCompression=1, initialFontName=font)
    c.setTitle(title)
    c.beginForm("mark")
    c.circle(5, 5, 4, fill=1)
    c.endForm()
    tile = ImageReader(Image.new("RGB", (3, 2), (200, 30, 30)))
    for i in range(1, n + 1):
        c.setFont(font, 12)
        c.drawString(20 * mm, 100 * mm, f"Page {i}: gold ring, 指輪 {i}")
        c.bookmarkPage(f"p{i}")
        c.linkAbsolute("", f"p{max(1, i - 1)}", (20 * mm, 90 * mm, 60 * mm, 96 * mm))
        if i % 2:
            c.doForm("mark")
            c.drawImage(tile, 30 * mm, 30 * mm, 9 * mm, 6 * mm)
        c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize("n", [1, 5, 6, 9])
@pytest.mark.parametrize("flip", ["short", "long"])
@pytest.mark.parametrize("back_cover", [False, True])
def test_a_reportlab_book_is_imposed_byte_for_byte_as_pypdf_imposes_it(n, flip, back_cover):
    """pypdf's parse and clone is the reference; the cross-reference path must give its bytes."""
    from generator.rulebook import impose as imposing
    from generator.rulebook.rawpdf import Book

    for pdf in (_rich_a5(n), _numbered_a5(n)):
        reference = imposing._by_pypdf(pdf, flip, back_cover)
        assert imposing._by_xref(Book(pdf), flip, back_cover) == reference
        assert impose(pdf, flip, back_cover) == reference


def test_the_booklet_keeps_the_book_s_title_and_embeds_its_font():
    pdf = impose(_rich_a5(3, title="Don’t Drop the Ring — 指輪"), flip="long", back_cover=True)
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.metadata.title == "Don’t Drop the Ring — 指輪"
    forms = reader.pages[0]["/Resources"]["/XObject"]
    font = next(iter(forms["/P1"]["/Resources"]["/Font"].values())).get_object()
    assert font["/FontDescriptor"]["/FontFile2"].get_data()  # the subset travels with the page


def _edited(pdf: bytes, old: bytes, new: bytes) -> bytes:
    """`pdf` with the first `old` replaced by `new`, its cross-reference table and startxref moved
    to match (a file a reader still reads)."""
    at, shift = pdf.index(old), len(new) - len(old)
    pdf = pdf[:at] + new + pdf[at + len(old):]
    xref = int(re.search(rb"startxref\n(\d+)", pdf).group(1)) + shift
    def moved(m: re.Match) -> bytes:
        offset = int(m.group(1))
        return b"%010d 00000 n " % (offset + shift if offset > at else offset)
    table = re.sub(rb"(\d{10}) 00000 n ", moved, pdf[xref:])
    return pdf[:xref] + re.sub(rb"startxref\n\d+", b"startxref\n%d" % xref, table)


@pytest.mark.parametrize("old,new", [
    (b"/PageMode /UseNone", b"/Lang (en-GB)"),  # a string: in the catalog, read first
    (b"/F1 ", b"/F#31 "),  # a name with an escape: in the fonts, read as the booklet is written
    (b"/Rotate 0", b"/Rotate 0 % upright\n"),  # a comment: in a page, read first
])
def test_what_the_xref_reader_does_not_read_goes_to_pypdf(old, new):
    """A file not as reportlab writes it (so not read here as pypdf reads it) is imposed by pypdf."""
    from generator.rulebook import impose as imposing
    from generator.rulebook.rawpdf import Book, NotPlain

    pdf = _edited(_numbered_a5(3), old, new)
    with pytest.raises(NotPlain):
        imposing._by_xref(Book(pdf), "short", False)
    assert impose(pdf, flip="short") == imposing._by_pypdf(pdf, "short", False)
