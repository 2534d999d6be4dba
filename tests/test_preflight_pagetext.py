"""Preflight's reading of a page's text as columns (generator/pagetext.py) and of what the rendered
page shows of it (pdfread.runs_seen): text inside a symbol (a form XObject) placed twice, colours
that change from one text object to the next, text a clip hides, a full stop too small to show,
text in its own background colour and a run near the paper's edge.

Each page is drawn here through the PDF surface with positions chosen by hand; the oracles are
those positions (in mm, y down), the colours and sizes set, and what a reader of the page sees.
"""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pdf_pages import page_pdf
from generator.geometry import MM_PER_PT, Box
from generator.pagetext import read_page_text
from generator.pdfread import render, runs_seen
from generator.preflight import preflight_pdf



def read(path: Path):
    doc = pdfium.PdfDocument(str(path))
    page = doc[0]
    w, h = (v * MM_PER_PT for v in page.get_size())
    text = read_page_text(page, h)
    seen = runs_seen(text, render(page), w, h)
    return text, seen


def test_text_in_a_symbol_placed_twice_is_read_where_each_copy_stands(tmp_path):
    def draw(s):
        s.define_symbol("badge", 30, 10, lambda f: f.text(2, 8, "AB", size_pt=12, colour="#aa0000"))
        s.use_symbol("badge", 50, 100)
        s.use_symbol("badge", 120, 200)
    text, seen = read(page_pdf(tmp_path, draw))
    assert "".join(text.text) == "ABAB"
    for (x, y), at in (((50, 100), 0), ((120, 200), 2)):
        x0, y0, x1, y1 = text.box[at].tolist()
        # the A's left side bearing is a fraction of a millimetre; it stands on the baseline 8 mm down
        assert x + 2 <= x0 < x + 2.6 and abs(y1 - (y + 8)) < 0.2 and y1 - y0 > 2.5
    assert text.rgb.tolist() == [[0xaa, 0, 0]] * 4 and [round(v, 2) for v in text.size.tolist()] == [12.0] * 4
    assert seen.starts.tolist() == [0, 2] and seen.ends.tolist() == [2, 4]  # a run per copy, 90 mm apart
    assert seen.under.tolist() == [[255, 255, 255]] * 2


def test_each_text_object_keeps_its_own_colour_and_size(tmp_path):
    def draw(s):  # three objects on one line: red, blue, red again, the blue one larger
        s.text(20, 50, "Ra", size_pt=10, colour="#cc0000")
        s.text(32, 50, "Bl", size_pt=14, colour="#0000cc")
        s.text(48, 50, "Rb", size_pt=10, colour="#cc0000")
    text, seen = read(page_pdf(tmp_path, draw))
    assert "".join(text.text) == "RaBlRb"
    assert text.rgb.tolist() == [[0xcc, 0, 0]] * 2 + [[0, 0, 0xcc]] * 2 + [[0xcc, 0, 0]] * 2
    assert [round(v, 2) for v in text.size.tolist()] == [10.0, 10.0, 14.0, 14.0, 10.0, 10.0]
    assert seen.starts.tolist() == [0, 2, 4]  # the colour changes twice: three runs


def test_text_a_clip_hides_is_read_but_not_shown(tmp_path):
    def draw(s):
        with s.group(clip=Box(0, 0, 105, 297)):  # the page's left half
            s.text(60, 80, "KEEP", size_pt=12)
            s.text(120, 80, "GONE", size_pt=12)
    text, seen = read(page_pdf(tmp_path, draw))
    assert "".join(text.text) == "KEEPGONE"  # pdfium reads the text whatever the clip
    assert "".join(seen.chars.text) == "KEEP" and seen.starts.tolist() == [0]
    assert seen.chars.box[:, 2].max() < 105


def test_a_full_stop_too_small_to_show_leaves_its_run_and_text_in_its_band_colour_is_an_error(tmp_path):
    band = "#336699"

    def draw(s):
        s.rect(Box(20, 20, 80, 30), fill=band)
        s.text(40, 38, "Go.", size_pt=14, colour=band)  # inside the band, more than a quarter em from its edges
        s.text(40, 100, "Ok.", size_pt=14)
    path = page_pdf(tmp_path, draw)
    text, seen = read(path)
    assert "".join(text.text) == "Go.Ok."
    # a full stop at 14 pt is about 2 pixels high at 100 dpi: under the 3 rows a glyph must show on
    # the paper; in the band, its box is all its colour, which shows
    assert "".join(seen.chars.text) == "Go.Ok" and seen.starts.tolist() == [0, 3] and seen.ends.tolist() == [3, 5]
    assert seen.chars.box[4].tolist() == text.box[4].tolist()  # the run "Ok" ends at the k, not at the full stop
    assert seen.under.tolist() == [[0x33, 0x66, 0x99], [255, 255, 255]]
    (f,) = preflight_pdf(path, "x.pdf")
    assert (f.level, f.code, f.page) == ("error", "text-unreadable", 1)
    assert f.message.startswith("1 text runs #336699 on #336699 at 1.0:1") and "'Go.'" in f.message


@pytest.mark.parametrize("clip", [None, Box(10, 0, 190, 297)])
def test_a_run_near_the_paper_edge_is_a_warning_unless_a_clip_hides_it(tmp_path, clip):
    def draw(s):
        s.text(30, 150, "Safe", size_pt=10)
        if clip is None:
            s.text(2, 150, "Edge", size_pt=10)
        else:
            with s.group(clip=clip):
                s.text(2, 150, "Edge", size_pt=10)
    found = preflight_pdf(page_pdf(tmp_path, draw), "x.pdf")
    if clip is not None:
        assert found == []
        return
    (f,) = found
    assert (f.level, f.code, f.page) == ("warning", "text-near-edge", 1)
    # E and d start within 5 mm (10 pt: an E is about 2 mm wide), the g beyond
    m = re.match(r"2 characters within 5 mm of the paper edge \(closest (\d+\.\d) mm, e\.g\. 'Ed'\)", f.message)
    assert m and 2.0 <= float(m.group(1)) <= 2.5, f.message  # drawn 2 mm in, plus the E's side bearing


def test_the_characters_kept_are_those_python_does_not_count_blank():
    from generator.pagetext import BLANK_MAX, _not_blank

    # the table of blank code points stops at BLANK_MAX: no blank one lies beyond it
    assert max(c for c in range(0x110000) if chr(c).isspace()) <= BLANK_MAX
    text = "Go.\u00a0next\u3000語\t\x02\u2029\U0001f600 a\u200bb\n"
    want = [j for j, ch in enumerate(text) if not ch.isspace()]
    assert _not_blank(text) == want and _not_blank(list(text)) == want
    assert [text[j] for j in want] == list("Go.next語\x02\U0001f600a\u200bb")


def _sheet_text(path: Path) -> tuple[str, str]:
    """The characters preflight reads of the page (`_read_sheet`) and all pdfium finds on it (each
    sorted: pdfium orders them by place)."""
    from generator.preflight import _read_sheet

    doc = pdfium.PdfDocument(str(path))
    page = doc[0]
    h = page.get_size()[1] * MM_PER_PT
    return "".join(sorted(_read_sheet(page).read.text)), "".join(sorted(read_page_text(page, h).text))


def test_text_off_the_paper_is_not_read(tmp_path):
    def draw(s):  # a tiled map's sheet places the whole map: most of its labels lie off the paper
        s.text(60, 80, "ON", size_pt=12)
        s.text(-40, 80, "LEFT", size_pt=12)
        s.text(60, 320, "BELOW", size_pt=12)
    assert _sheet_text(page_pdf(tmp_path, draw)) == ("NO", "".join(sorted("ONLEFTBELOW")))


def test_text_off_the_paper_is_read_where_a_piece_reaches_past_the_paper(tmp_path):
    from generator.pieces.plan import MARK_WIDTH

    def draw(s):  # crop marks that make a piece from x = -30 to 100 mm: its text may be judged for its size
        for x in (-30, 100):
            s.line(x, 40, x, 43, stroke="#000000", width=MARK_WIDTH)
        for y in (50, 150):
            s.line(150, y, 153, y, stroke="#000000", width=MARK_WIDTH)
        s.text(60, 80, "ON", size_pt=12)
        s.text(-25, 80, "OFF", size_pt=4)
    assert _sheet_text(page_pdf(tmp_path, draw)) == ("FFNOO", "FFNOO")
