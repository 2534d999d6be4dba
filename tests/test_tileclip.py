"""A tiled print's sheet read on its own text (generator/tileflight.py `own_seen`) from a render of
its runs' windows alone (generator/pdfread.py `render` given clips): inside each clip, but for its
outermost two pixels, the pixels are those of the whole page's render, and the runs, colours under
them and on-paper flags read are the same as from the whole render."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from generator import pdfread, tileflight
from generator.geometry import MM_PER_PT
from generator.pdfplain import plain_forms
from tests.test_tileflight import DARK, write

EDGE = 2  # pixels a clip's own anti-aliased edge may change


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """The sheets (every page but the assembly page) of a tiled map drawn on dark hexes, each labelled."""
    _, tiled = write(tmp_path_factory.mktemp("tiles"), DARK)
    doc = pdfium.PdfDocument(plain_forms(tiled.read_bytes()))
    pages = [doc[i] for i in range(1, len(doc))]
    yield pages
    for p in pages:
        p.close()
    doc.close()


def test_a_clipped_render_draws_the_whole_renders_pixels_inside_each_clip(sheets):
    for page in sheets:
        whole = pdfread.render(page)
        h, w = whole.shape[:2]
        clips = [(5, 7, 90, 61), (w // 3, h // 3, w // 3 + 153, h // 3 + 97), (w - 60, h - 45, w, h)]  # over the map too
        part = pdfread.render(page, clips)
        drawn = np.zeros((h, w), dtype=bool)
        for x0, y0, x1, y1 in clips:
            inner = (slice(y0 + EDGE, y1 - EDGE), slice(x0 + EDGE, x1 - EDGE))
            assert np.array_equal(part[inner], whole[inner])
            drawn[y0:y1, x0:x1] = True
        middle = whole[h // 3 + EDGE:h // 3 + 97 - EDGE, w // 3 + EDGE:w // 3 + 153 - EDGE]
        assert len(np.unique(middle.reshape(-1, 4), axis=0)) > 2  # the map's hexes, lines and labels there
        assert (part[~drawn] == 255).all()  # outside the clips: the white paper


def test_a_sheets_own_runs_read_from_their_windows_alone_as_from_the_whole_render(sheets, monkeypatch):
    clipped = []
    render = pdfread.render

    def spy(page, clips=None):
        clipped.append(clips is not None)
        return render(page, clips)

    monkeypatch.setattr(tileflight, "render", spy)
    for page in sheets:
        w_mm, h_mm = (v * MM_PER_PT for v in page.get_size())
        mine = tileflight.own_text(page, h_mm, w_mm)
        assert mine is not None and len(mine)
        _, got = tileflight.own_seen(page, mine, w_mm, h_mm)
        want = pdfread.runs_seen(mine, render(page), w_mm, h_mm)
        assert got.chars.text == want.chars.text and np.array_equal(got.chars.box, want.chars.box)
        for k in ("starts", "ends", "under", "on_page"):
            assert np.array_equal(getattr(got, k), getattr(want, k)), k
    assert clipped and all(clipped)  # no sheet drew its whole page


def test_windows_covering_much_of_the_page_draw_it_whole(sheets, monkeypatch):
    monkeypatch.setattr(tileflight, "WIDE", 0.0)  # as if the runs' windows covered most of the page
    clipped = []
    render = pdfread.render
    monkeypatch.setattr(tileflight, "render", lambda page, clips=None: clipped.append(clips) or render(page, clips))
    page = sheets[0]
    w_mm, h_mm = (v * MM_PER_PT for v in page.get_size())
    mine = tileflight.own_text(page, h_mm, w_mm)
    assert mine is not None
    image, _ = tileflight.own_seen(page, mine, w_mm, h_mm)
    assert clipped == [None] and np.array_equal(image, render(page))


def test_clips_that_meet_are_drawn_as_one():
    m = tileflight.CLIP_MARGIN
    got = tileflight._merged([(10, 10, 20, 20), (100, 100, 110, 110), (22, 12, 30, 18)], (500, 400))
    assert sorted(got) == [(10 - m, 10 - m, 30 + m, 20 + m), (100 - m, 100 - m, 110 + m, 110 + m)]
    assert tileflight._merged([(0, 0, 5, 5)], (8, 8)) == [(0, 0, 8, 8)]  # on the page
