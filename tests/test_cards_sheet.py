"""Sheet geometry in mm: slots, mirrored backs for both flips and with an offset, crop marks."""
from __future__ import annotations

import pytest

from generator.pieces.grid import plan_sheet
from generator.geometry import Box

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
POKER = (63.0, 88.0)
PRINTER_MARGIN_MM = 5.0  # home printers print from about 5 mm inside the paper edge (the documented figure)


def test_poker_on_a4_is_four_by_two_landscape_centred():
    g = plan_sheet(A4, POKER, 3.0)
    assert (g.cols, g.rows, g.landscape) == (4, 2, True)
    assert (g.page_w, g.page_h) == (297.0, 210.0)
    # 4 * 69 = 276 mm used of 297: 10.5 mm each side, trim 3 mm further in.
    assert g.slot(0).rounded(2) == (13.5, 14.0, 63.0, 88.0)
    assert g.slot(5).rounded(2) == (82.5, 108.0, 63.0, 88.0)


@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("piece", [POKER, (57.0, 89.0), (44.0, 63.0), (70.0, 120.0), (70.0, 70.0)])
def test_slots_fit_the_paper_and_bleeds_never_overlap(paper, piece):
    g = plan_sheet(paper, piece, 3.0)
    page = Box(0, 0, g.page_w, g.page_h)
    printable = page.inset(PRINTER_MARGIN_MM)
    bleeds = [g.slot(i).outset(3.0) for i in range(g.per_page)]
    for i, b in enumerate(bleeds):
        assert printable.contains(b)
        for other in bleeds[i + 1:]:
            assert not b.overlaps(other)


def test_long_edge_flip_on_portrait_mirrors_across_the_vertical_axis():
    g = plan_sheet(A4, (44.0, 63.0), 3.0)  # mini cards: portrait 3 x 4
    assert not g.landscape
    for i in range(g.per_page):
        f, b = g.slot(i), g.back_slot(i, "long")
        assert b.y == pytest.approx(f.y, abs=0.01)
        assert b.x == pytest.approx(g.page_w - f.x - f.w, abs=0.01)
    assert g.back_slot(0, "long").rounded(2) == (133.0, 13.5, 44.0, 63.0)


def test_short_edge_flip_on_portrait_mirrors_across_the_horizontal_axis():
    g = plan_sheet(A4, (44.0, 63.0), 3.0)
    for i in range(g.per_page):
        f, b = g.slot(i), g.back_slot(i, "short")
        assert b.x == pytest.approx(f.x, abs=0.01)
        assert b.y == pytest.approx(g.page_h - f.y - f.h, abs=0.01)


def test_landscape_sheets_flip_about_the_papers_long_edge():
    g = plan_sheet(A4, POKER, 3.0)
    assert g.landscape
    f, b = g.slot(1), g.back_slot(1, "long")
    assert (b.x, b.y) == (pytest.approx(f.x, abs=0.01), pytest.approx(210.0 - f.bottom, abs=0.01))
    b = g.back_slot(1, "short")
    assert (b.x, b.y) == (pytest.approx(297.0 - f.right, abs=0.01), pytest.approx(f.y, abs=0.01))


@pytest.mark.parametrize("flip", ["long", "short"])
def test_back_offset_shifts_every_back_by_exactly_the_offset(flip):
    g = plan_sheet(A4, (44.0, 63.0), 3.0)
    for i in range(g.per_page):
        plain = g.back_slot(i, flip)
        moved = g.back_slot(i, flip, (0.7, -1.25))
        assert moved.x - plain.x == pytest.approx(0.7, abs=0.01)
        assert moved.y - plain.y == pytest.approx(-1.25, abs=0.01)


def test_every_back_lands_behind_its_front_after_the_physical_flip():
    # Simulate the flip: a long-edge flip of a portrait sheet maps back-page x to W - x.
    g = plan_sheet(A4, (44.0, 63.0), 3.0)
    for i in range(g.per_page):
        b = g.back_slot(i, "long")
        seen_from_front = Box(g.page_w - b.right, b.y, b.w, b.h)
        assert seen_from_front.rounded(2) == g.slot(i).rounded(2)


@pytest.mark.parametrize("count", [1, 3, 8])
@pytest.mark.parametrize("piece,bleed", [(POKER, 3.0), ((57.0, 89.0), 2.0), ((12.7, 12.7), 0.0)])
def test_crop_marks_lie_outside_every_bleed_and_on_the_page(count, piece, bleed):
    g = plan_sheet(A4, piece, bleed)
    count = min(count, g.per_page)
    bleeds = [g.slot(i).outset(bleed) for i in range(count)]
    marks = g.crop_marks(count)
    assert marks
    for x1, y1, x2, y2 in marks:
        seg = Box(min(x1, x2), min(y1, y2), abs(x2 - x1) or 1e-3, abs(y2 - y1) or 1e-3)
        assert Box(0, 0, g.page_w, g.page_h).contains(seg)
        for b in bleeds:
            assert not b.overlaps(seg), (seg, b)


def test_crop_marks_align_with_every_trim_edge():
    g = plan_sheet(A4, POKER, 3.0)
    marks = g.crop_marks()
    xs = {round(m[0], 3) for m in marks if m[0] == m[2]}
    ys = {round(m[1], 3) for m in marks if m[1] == m[3]}
    for i in range(g.per_page):
        s = g.slot(i)
        assert round(s.x, 3) in xs and round(s.right, 3) in xs
        assert round(s.y, 3) in ys and round(s.bottom, 3) in ys
