"""The colour under a run of text and which glyphs show, worked both ways preflight works them
(generator/pdfread.py): from the page's ink read sparse (a book's page: wide runs, little ink) and
from the pixels of the runs' windows (labels, or a page mostly inked). Each page is drawn here with
colours, bands and positions chosen by hand; the oracles are those colours and what a reader sees:
white text on a dark band, a run half over a band, text an opaque picture covers, text a clip
hides, and text so near white that the paper counts as its own colour.
"""
from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage

import generator.pdfread as pdfread
from pdf_pages import page_pdf
from generator.geometry import MM_PER_PT, Box
from generator.pagetext import read_page_text
from generator.pdfread import render, runs_seen
from generator.preflight import preflight_pdf
from generator.render.base import ImageSource

BAND = "#203040"


@pytest.fixture(params=["sparse", "windows"])
def way(request, monkeypatch):
    """Every test runs both ways: the page's ink read sparse, and the windows' pixels read."""
    if request.param == "sparse":
        monkeypatch.setattr(pdfread, "WIDE", 0.0)
        monkeypatch.setattr(pdfread, "SPARSE_INK", 1.0)
    else:
        monkeypatch.setattr(pdfread, "WIDE", 1e9)
    return request.param


def seen_of(path: Path):
    doc = pdfium.PdfDocument(str(path))
    page = doc[0]
    w, h = (v * MM_PER_PT for v in page.get_size())
    return runs_seen(read_page_text(page, h), render(page), w, h)


def runs(seen) -> dict[str, list[int]]:
    """Each run's text and the colour under it."""
    return {"".join(seen.chars.text[a:e]): u for a, e, u in zip(seen.starts.tolist(), seen.ends.tolist(), seen.under.tolist())}


def test_white_text_on_a_dark_band_stands_on_the_band(tmp_path, way):
    def draw(s):
        s.rect(Box(20, 40, 120, 20), fill=BAND)
        s.text(30, 53, "Setup", size_pt=14, colour="#ffffff")
        s.text(30, 100, "Paper", size_pt=14)
    path = page_pdf(tmp_path, draw)
    assert runs(seen_of(path)) == {"Setup": [0x20, 0x30, 0x40], "Paper": [255, 255, 255]}
    assert preflight_pdf(path, "x.pdf") == []


@pytest.mark.parametrize("band_from, under", [(32.0, "band"), (52.0, "paper")])
def test_a_run_half_over_a_band_stands_on_what_covers_most_of_its_window(tmp_path, way, band_from, under):
    # the run spans about x 30..62 mm; the band covers its window from `band_from` rightwards
    def draw(s):
        s.rect(Box(band_from, 40, 150, 20), fill="#f0d060")
        s.text(30, 53, "Mountains", size_pt=14)
    (got,) = runs(seen_of(page_pdf(tmp_path, draw))).values()
    if under == "band":  # the band's own pixels win; its anti-aliased edge may fall in the same bin
        assert all(abs(g - w) <= 2 for g, w in zip(got, (0xf0, 0xd0, 0x60))), got
    else:
        assert min(got) >= 250, got


def test_text_an_opaque_picture_covers_is_not_shown(tmp_path, way):
    buf = io.BytesIO()
    PILImage.new("RGB", (40, 40), (200, 40, 40)).save(buf, format="PNG")
    picture = ImageSource(tmp_path / "red.png", "raster", (40, 40), buf.getvalue())

    def draw(s):
        s.text(30, 53, "Under", size_pt=14)
        s.image(Box(25, 30, 50, 50), picture)  # drawn after the text, over it
        s.text(30, 100, "Beside", size_pt=14)
    seen = seen_of(page_pdf(tmp_path, draw))
    assert "".join(seen.chars.text) == "Beside" and runs(seen) == {"Beside": [255, 255, 255]}


def test_text_a_clip_hides_is_not_shown(tmp_path, way):
    def draw(s):
        with s.group(clip=Box(0, 0, 105, 297)):
            s.text(60, 80, "KEEP", size_pt=12)
            s.text(120, 80, "GONE", size_pt=12)
    assert runs(seen_of(page_pdf(tmp_path, draw))) == {"KEEP": [255, 255, 255]}


def test_text_so_near_white_that_the_paper_is_its_own_colour(tmp_path, way):
    pale = "#f8f8f8"  # 21 from white over R, G and B: the paper round it reads as the text's own colour

    def draw(s):
        s.rect(Box(20, 40, 120, 20), fill=BAND)
        s.text(30, 53, "Band", size_pt=14, colour=pale)
        s.text(30, 100, "Paper", size_pt=14, colour=pale)
    path = page_pdf(tmp_path, draw)
    assert runs(seen_of(path)) == {"Band": [0x20, 0x30, 0x40], "Paper": [0xf8, 0xf8, 0xf8]}
    (f,) = preflight_pdf(path, "x.pdf")
    assert (f.level, f.code) == ("error", "text-unreadable") and "#f8f8f8 on #f8f8f8" in f.message


def test_a_full_stop_too_small_to_show_leaves_its_run_but_in_its_band_colour_it_shows(tmp_path, way):
    def draw(s):
        s.rect(Box(20, 20, 80, 30), fill="#336699")
        s.text(40, 38, "Go.", size_pt=14, colour="#336699")  # its box all its colour: every row marked
        s.text(40, 100, "Ok.", size_pt=14)  # about 2 pixel rows at 100 dpi: under the 3 a glyph must mark
    seen = seen_of(page_pdf(tmp_path, draw))
    assert runs(seen) == {"Go.": [0x33, 0x66, 0x99], "Ok": [255, 255, 255]}


def test_white_and_dark_glyphs_on_one_page_are_each_judged_by_their_own_pixels(tmp_path, way):
    """White glyphs on a band (the paper is their own colour) between dark ones on the paper: each
    keeps its own answer, a too-small full stop of either colour dropped, whatever way the page's
    glyphs are read (the white ones from their boxes' pixels, the dark ones from the sparse ink)."""
    def draw(s):
        s.text(30, 30, "Before.", size_pt=14)
        s.rect(Box(20, 40, 120, 20), fill=BAND)
        s.text(30, 53, "Set.", size_pt=14, colour="#ffffff")
        s.text(30, 100, "After.", size_pt=14, colour="#402010")
    seen = seen_of(page_pdf(tmp_path, draw))
    assert runs(seen) == {"Before": [255, 255, 255], "Set": [0x20, 0x30, 0x40], "After": [255, 255, 255]}
    assert [c.rgb for c in seen.chars.chars()] == [(0, 0, 0)] * 6 + [(255, 255, 255)] * 3 + [(0x40, 0x20, 0x10)] * 5


@pytest.mark.parametrize("pale", [None, "#f4f4f4"])
def test_a_window_of_paper_and_other_colours_reads_as_its_windows_pixels_do(tmp_path, monkeypatch, pale):
    """A run whose window holds the paper, a red rule and (or not) a pale grey patch: the palest bin
    (the paper's, with the patch) holds most of it. Read sparse, its colour is worked from the ink
    and the paper counted; it must be the colour the windows' own pixels give (the mean of that
    bin's pixels: the paper's white, or between the patch's grey and white)."""
    def draw(s):
        if pale:
            s.rect(Box(26, 47, 8, 8), fill=pale)  # the left part of the window
        s.text(30, 53, "Rules", size_pt=14)
        s.rect(Box(26, 53.6, 30, 0.4), fill="#c02020")  # a rule crossing the window under the text
    path = page_pdf(tmp_path, draw)
    got = {}
    for way, wide in (("sparse", 0.0), ("windows", 1e9)):
        monkeypatch.setattr(pdfread, "WIDE", wide)
        monkeypatch.setattr(pdfread, "SPARSE_INK", 1.0)
        got[way] = runs(seen_of(path))
    assert got["sparse"] == got["windows"]
    (under,) = got["sparse"].values()
    if pale:
        assert all(0xf4 < c < 255 for c in under), under
    else:
        assert under == [255, 255, 255]


@pytest.mark.parametrize("width", [1, 15, 16, 17, 31, 32, 33, 583, 827])
def test_where_a_place_falls_among_the_ink_is_counted_as_a_search_finds_it(width):
    """`Ink.before` counts, from the page's ink packed sixteen pixels to a word, what a binary
    search of the ink's places finds: at every place of every row, the row's end included (which
    is the next row's start), on pages whose width is a whole number of words and not, with rows
    bare, full and scattered."""
    import numpy as np

    from generator.pageink import Ink

    rng = np.random.default_rng(width)
    height = 5
    image = np.full((height, width, 4), 255, dtype=np.uint8)
    inked = rng.random((height, width)) < np.array([0.0, 1.0, 0.3, 0.05, 0.6])[:, None]
    image[inked, 1] = 0
    ink = Ink.of(image)
    assert ink.at.tolist() == np.flatnonzero(inked).tolist()
    row = np.repeat(np.arange(height), width + 1)
    column = np.tile(np.arange(width + 1), height)
    assert ink.before(row, column).tolist() == np.searchsorted(ink.at, row * width + column).tolist()
