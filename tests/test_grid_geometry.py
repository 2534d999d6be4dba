"""Sheet grids (generator/pieces/grid.py) against what they promise, checked by the test's own
geometry: every bleed box inside the printable area, none overlapping, neighbours exactly one gutter
apart, the grid centred and as large as a brute-force count says fits, crop marks in line with
every trim edge and off every bleed; the gutterfold grid the same, its backs the fronts' mirror
images across the fold with marks on both halves. The printer's margin (5 mm), the gap before a
crop mark (1 mm), a mark's length (3 mm; 1.5 mm allowed on gutterfold sheets) and the fold gap
(2 mm) are the documented figures, written out here rather than read from the module."""
from __future__ import annotations

import itertools

import pytest

from generator.geometry import Box
from generator.pieces.grid import plan_gutterfold, plan_sheet

MARGIN, GAP, MARK, GF_MARK, FOLD_GAP = 5.0, 1.0, 3.0, 1.5, 2.0
A4, LETTER, A5 = (210.0, 297.0), (215.9, 279.4), (148.0, 210.0)
SHEETS = [(A4, (63.0, 88.0), 3.0, 0.0), (A4, (44.0, 63.0), 3.0, 2.0), (LETTER, (57.0, 89.0), 2.0, 0.0),
          (A4, (12.7, 12.7), 0.0, 1.5), (A4, (15.9, 15.9), 1.0, 3.0), (A5, (25.4, 25.4), 2.0, 4.0),
          (LETTER, (70.0, 120.0), 3.0, 5.0)]


def fits(length: float, piece: float, bleed: float, gutter: float, reserve: float) -> int:
    """The most pieces in a row: n pieces with their bleeds and n - 1 gutters, counted up one by one."""
    n = 0
    while (n + 1) * (piece + 2 * bleed) + n * gutter <= length - reserve + 1e-9:
        n += 1
    return n


def marks_as_boxes(marks) -> list[Box]:
    return [Box(min(x1, x2), min(y1, y2), abs(x2 - x1) or 1e-3, abs(y2 - y1) or 1e-3) for x1, y1, x2, y2 in marks]


def assert_apart(boxes: list[Box], gutter: float) -> None:
    """No two boxes overlap; a box's nearest neighbour in its row or column is exactly `gutter` away."""
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)
    for a in boxes:
        right = [b.x - a.right for b in boxes if abs(b.y - a.y) < 1e-6 and b.x > a.x]
        below = [b.y - a.bottom for b in boxes if abs(b.x - a.x) < 1e-6 and b.y > a.y]
        for gaps in (right, below):
            if gaps:
                assert min(gaps) == pytest.approx(gutter, abs=1e-6)


def test_the_box_predicates_these_tests_lean_on():
    """Box.contains / overlaps / inset / outset decide many asserts below and in test_cards_sheet.py,
    so they are pinned here on hand-drawn rectangles: touching edges neither overlap nor escape."""
    a = Box(10, 20, 30, 40)                                      # x 10..40, y 20..60
    assert a.inset(5) == Box(15, 25, 20, 30) and a.outset(2) == Box(8, 18, 34, 44)
    assert a.inset(5, 1) == Box(15, 21, 20, 38)
    assert a.contains(a) and a.contains(Box(10, 20, 1, 1)) and a.contains(Box(39, 59, 1, 1))
    for out in (Box(9.9, 20, 1, 1), Box(10, 19.9, 1, 1), Box(39.1, 20, 1, 1), Box(10, 59.1, 1, 1)):
        assert not a.contains(out), out                           # 0.1 mm past each edge in turn
    assert not a.overlaps(Box(40, 20, 5, 5)) and not a.overlaps(Box(10, 60, 5, 5))  # edge to edge
    assert not a.overlaps(Box(0, 0, 10, 20))                     # corner to corner
    for over in (Box(39.9, 20, 5, 5), Box(5, 59.9, 10, 5), Box(15, 25, 1, 1), Box(0, 0, 100, 100)):
        assert a.overlaps(over) and over.overlaps(a), over


@pytest.mark.parametrize("paper, piece, bleed, gutter", SHEETS)
def test_the_grid_is_the_largest_that_fits_inside_the_printable_area_centred(paper, piece, bleed, gutter):
    g = plan_sheet(paper, piece, bleed, gutter)
    reserve = 2 * (MARGIN + GAP + MARK)
    upright, turned = (fits(w, piece[0], bleed, gutter, reserve) * fits(h, piece[1], bleed, gutter, reserve)
                       for w, h in (paper, paper[::-1]))
    assert g.per_page == max(upright, turned)
    assert g.landscape == (turned > upright)  # the paper as given (portrait) unless turning fits more
    assert {g.page_w, g.page_h} == set(paper)
    page = Box(0, 0, g.page_w, g.page_h)
    bleeds = [g.slot(i).outset(bleed) for i in range(g.per_page)]
    assert all(page.inset(MARGIN + GAP + MARK).contains(b) for b in bleeds)
    assert len({(b.x, b.y) for b in bleeds}) == g.per_page == g.cols * g.rows
    assert_apart(bleeds, gutter)
    assert all(g.slot(i).w == piece[0] and g.slot(i).h == piece[1] for i in range(g.per_page))
    left, top = min(b.x for b in bleeds), min(b.y for b in bleeds)
    right, bottom = max(b.right for b in bleeds), max(b.bottom for b in bleeds)
    assert left == pytest.approx(g.page_w - right) and top == pytest.approx(g.page_h - bottom)
    # slots go row by row from the top-left
    assert [(g.slot(i).y, g.slot(i).x) for i in range(g.per_page)] == sorted((s.y, s.x) for s in map(g.slot, range(g.per_page)))


@pytest.mark.parametrize("paper, piece, bleed, gutter", SHEETS)
def test_trim_and_bleed_areas_are_the_bounding_boxes_of_the_slots(paper, piece, bleed, gutter):
    g = plan_sheet(paper, piece, bleed, gutter)
    for count in sorted({1, 2, g.cols, g.cols + 1, g.per_page} & set(range(1, g.per_page + 1))):
        slots = [g.slot(i) for i in range(count)]
        x0, y0 = min(s.x for s in slots), min(s.y for s in slots)
        expected = (x0, y0, max(s.right for s in slots) - x0, max(s.bottom for s in slots) - y0)
        assert g.trim_area(count).rounded(6) == pytest.approx(expected, abs=1e-6)
        b = g.bleed_area(count)
        assert (b.x, b.y, b.w, b.h) == pytest.approx((x0 - bleed, y0 - bleed, expected[2] + 2 * bleed,
                                                      expected[3] + 2 * bleed), abs=1e-6)
    assert g.trim_area().rounded(6) == g.trim_area(g.per_page).rounded(6)


@pytest.mark.parametrize("paper, piece, bleed, gutter", SHEETS)
def test_crop_marks_stand_in_line_with_every_trim_edge_in_the_margin(paper, piece, bleed, gutter):
    g = plan_sheet(paper, piece, bleed, gutter)
    for count in sorted({1, g.cols, g.per_page}):
        slots = [g.slot(i) for i in range(count)]
        bleeds = [s.outset(bleed) for s in slots]
        area = Box(min(b.x for b in bleeds), min(b.y for b in bleeds), 0, 0)
        area = Box(area.x, area.y, max(b.right for b in bleeds) - area.x, max(b.bottom for b in bleeds) - area.y)
        xs = {round(v, 4) for s in slots for v in (s.x, s.right)}
        ys = {round(v, 4) for s in slots for v in (s.y, s.bottom)}
        marks = g.crop_marks(count)
        vertical = sorted((round(x1, 4), round(min(y1, y2), 4), round(max(y1, y2), 4))
                          for x1, y1, x2, y2 in marks if x1 == x2)
        horizontal = sorted((round(y1, 4), round(min(x1, x2), 4), round(max(x1, x2), 4))
                            for x1, y1, x2, y2 in marks if y1 == y2)
        assert len(vertical) + len(horizontal) == len(marks)
        # one mark above and one below the bleeds at every trim x; one left and one right at every trim y
        assert vertical == sorted((x, lo, hi) for x in xs for lo, hi in
                                  ((round(area.y - GAP - MARK, 4), round(area.y - GAP, 4)),
                                   (round(area.bottom + GAP, 4), round(area.bottom + GAP + MARK, 4))))
        assert horizontal == sorted((y, lo, hi) for y in ys for lo, hi in
                                    ((round(area.x - GAP - MARK, 4), round(area.x - GAP, 4)),
                                     (round(area.right + GAP, 4), round(area.right + GAP + MARK, 4))))
        printable = Box(0, 0, g.page_w, g.page_h).inset(MARGIN)
        for seg in marks_as_boxes(marks):
            assert printable.contains(seg)
            assert not any(b.overlaps(seg) for b in bleeds)


def test_marks_shrink_to_the_margin_left_but_never_below_a_millimetre():
    """A piece that leaves 2 mm between the printer's margin and the mark gap gets 2 mm marks; one that
    leaves none still gets 1 mm marks (a mark outside the printable area beats no mark)."""
    for room, length in ((2.0, 2.0), (0.0, 1.0), (10.0, 3.0)):
        side = 100.0 - 2 * (MARGIN + GAP + room)
        g = plan_sheet((100.0, 100.0), (side, side), 0.0)
        assert g.per_page == 1
        top = [m for m in g.crop_marks() if m[0] == m[2] and m[1] < 50]
        assert top and all(abs(m[3] - m[1]) == pytest.approx(length) for m in top)
        # the mark's outer end: the printable edge, or further out where there is less than 1 mm
        assert all(min(m[1], m[3]) == pytest.approx(MARGIN + room - length) for m in top)


def test_a_piece_larger_than_the_paper_still_gets_one_slot():
    g = plan_sheet(A5, (200.0, 300.0), 3.0)
    assert (g.cols, g.rows) == (1, 1)
    assert g.slot(0).w == 200.0 and g.slot(0).h == 300.0
    # centred: the overhang is shared between both sides
    assert g.slot(0).x - 3.0 == pytest.approx(g.page_w - g.slot(0).right - 3.0)


@pytest.mark.parametrize("paper, piece, bleed, gutter", SHEETS)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_each_back_lands_behind_its_front_when_the_paper_is_turned_over(paper, piece, bleed, gutter, flip):
    """Turn the printed back page over about the paper's long (or short) edge and read its boxes from
    the front: each back's box is its front's. The paper is portrait in the hand (long edge vertical)
    and a landscape sheet is that paper turned a quarter turn, so the flip axis is the page's."""
    g = plan_sheet(paper, piece, bleed, gutter)
    vertical_axis = (flip == "long") == (g.page_h > g.page_w)
    for i in range(g.per_page):
        b = g.back_slot(i, flip)
        seen = Box(g.page_w - b.right, b.y, b.w, b.h) if vertical_axis else Box(b.x, g.page_h - b.bottom, b.w, b.h)
        assert seen.rounded(6) == g.slot(i).rounded(6)


def test_the_back_offset_is_in_the_papers_axes_and_turns_with_a_landscape_sheet():
    portrait, landscape = plan_sheet(A4, (44.0, 63.0), 3.0), plan_sheet(A4, (63.0, 88.0), 3.0)
    assert not portrait.landscape and landscape.landscape
    for g, (ex, ey) in ((portrait, (0.7, -1.25)), (landscape, (1.25, 0.7))):
        for flip in ("long", "short"):
            for i in range(g.per_page):
                plain, moved = g.back_slot(i, flip), g.back_slot(i, flip, (0.7, -1.25))
                assert (moved.x - plain.x, moved.y - plain.y) == (pytest.approx(ex), pytest.approx(ey))
                assert (moved.w, moved.h) == (plain.w, plain.h)


# ------------------------------------------------------------------------------------- gutterfold

GUTTERFOLDS = [(A4, (63.0, 88.0), 3.0, 0.0), (A4, (44.0, 63.0), 3.0, 2.0), (LETTER, (57.0, 89.0), 2.0, 0.0),
               (A4, (15.9, 15.9), 1.0, 3.0), (A5, (25.4, 25.4), 2.0, 4.0), (A4, (88.0, 63.0), 3.0, 0.0),
               (A4, (60.0, 150.0), 3.0, 0.0), (A4, (42.4, 60.0), 3.0, 0.0)]  # the last: 2 x 48.4 mm a half, 0.3 mm spare


@pytest.mark.parametrize("paper, piece, bleed, gutter", GUTTERFOLDS)
def test_gutterfold_fronts_and_mirrored_backs_fit_the_printable_area(paper, piece, bleed, gutter):
    gf = plan_gutterfold(paper, piece, bleed, gutter)
    g = gf.fronts
    fold = g.page_w / 2
    assert gf.fold_x == fold and gf.per_page == g.cols * g.rows
    # as many as fit: each half holds the fronts, the fold gap's half and a short mark's room
    upright, turned = (fits(w / 2, piece[0], bleed, gutter, FOLD_GAP / 2 + MARGIN + GAP + GF_MARK)
                       * fits(h, piece[1], bleed, gutter, 2 * (MARGIN + GAP + GF_MARK)) for w, h in (paper, paper[::-1]))
    assert gf.per_page == max(upright, turned) and g.landscape == (turned > upright)
    fronts = [g.slot(i).outset(bleed) for i in range(gf.per_page)]
    backs = [gf.back_slot(i).outset(bleed) for i in range(gf.per_page)]
    printable = Box(0, 0, g.page_w, g.page_h).inset(MARGIN)
    assert all(printable.contains(b) for b in fronts + backs)
    assert all(b.right <= fold - FOLD_GAP / 2 + 1e-6 for b in fronts)
    assert all(b.x >= fold + FOLD_GAP / 2 - 1e-6 for b in backs)
    assert max(b.right for b in fronts) == pytest.approx(fold - FOLD_GAP / 2)  # packed against the fold
    assert_apart(fronts, gutter)
    assert_apart(backs, gutter)
    top, bottom = min(b.y for b in fronts), max(b.bottom for b in fronts)
    assert top == pytest.approx(g.page_h - bottom)  # centred top to bottom
    for i in range(gf.per_page):
        f, b = g.slot(i), gf.back_slot(i)
        assert (b.w, b.h, b.y) == (f.w, f.h, f.y)
        assert b.x == pytest.approx(g.page_w - f.right)  # folded along the line, it lies on its front


@pytest.mark.parametrize("paper, piece, bleed, gutter", GUTTERFOLDS)
def test_gutterfold_marks_on_both_halves_never_in_the_fold_or_on_a_piece(paper, piece, bleed, gutter):
    gf = plan_gutterfold(paper, piece, bleed, gutter)
    g, fold = gf.fronts, gf.fronts.page_w / 2
    for count in sorted({1, g.cols, gf.per_page}):
        fronts = [g.slot(i) for i in range(count)]
        backs = [gf.back_slot(i) for i in range(count)]
        marks = gf.crop_marks(count)
        bleeds = [s.outset(bleed) for s in fronts + backs]
        for seg in marks_as_boxes(marks):
            assert Box(0, 0, g.page_w, g.page_h).contains(seg)
            assert not any(b.overlaps(seg) for b in bleeds)
            assert seg.right <= fold - FOLD_GAP / 2 + 1e-6 or seg.x >= fold + FOLD_GAP / 2 - 1e-6
        vertical = {(round(x1, 4), y1 < fronts[0].y) for x1, y1, x2, y2 in marks if x1 == x2}
        horizontal = {(round(y1, 4), x1 < fold) for x1, y1, x2, y2 in marks if y1 == y2}
        for half in (fronts, backs):
            for s in half:
                for x in (s.x, s.right):
                    assert {(round(x, 4), True), (round(x, 4), False)} <= vertical  # above and below
                for y in (s.y, s.bottom):
                    assert (round(y, 4), True) in horizontal and (round(y, 4), False) in horizontal
        # the outer side only: a horizontal mark left of the fronts, its mirror right of the backs
        left = [min(x1, x2) for x1, y1, x2, y2 in marks if y1 == y2 and x1 < fold]
        right = [max(x1, x2) for x1, y1, x2, y2 in marks if y1 == y2 and x1 > fold]
        assert all(x < fronts[0].x - bleed for x in left) and all(x > backs[0].right + bleed for x in right)
        assert len(left) == len(right) == 2 * len({round(s.y, 4) for s in fronts})
        front_xs = {round(v, 4) for s in fronts for v in (s.x, s.right)}
        vertical_xs = sorted(round(x1, 4) for x1, y1, x2, y2 in marks if x1 == x2)
        assert vertical_xs == sorted([x for x in front_xs for _ in "ab"]
                                     + [round(g.page_w - x, 4) for x in front_xs for _ in "ab"])
        assert len(marks) == len(left) + len(right) + len(vertical_xs)


@pytest.mark.parametrize("piece", [(20.0, 300.0), (300.0, 20.0)])
def test_a_piece_too_long_one_way_still_gets_a_row_of_slots(piece):
    """Longer than the paper one way only: one row (or column) of as many as fit the other way."""
    g = plan_sheet(A4, piece, 0.0)
    assert g.per_page == max(g.cols, g.rows) > 1 and min(g.cols, g.rows) == 1
    assert len({(g.slot(i).x, g.slot(i).y) for i in range(g.per_page)}) == g.per_page


def test_no_gutter_unless_asked():
    for paper, piece, bleed, _ in SHEETS:
        assert plan_sheet(paper, piece, bleed) == plan_sheet(paper, piece, bleed, 0.0)
        assert plan_gutterfold(paper, piece, bleed) == plan_gutterfold(paper, piece, bleed, 0.0)


def test_grids_are_values_that_nobody_changes_in_place():
    import dataclasses
    g, gf = plan_sheet(A4, (63.0, 88.0), 3.0), plan_gutterfold(A4, (63.0, 88.0), 3.0)
    assert len({g, plan_sheet(A4, (63.0, 88.0), 3.0), gf, plan_gutterfold(A4, (63.0, 88.0), 3.0)}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.cols = 9  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        gf.fronts = g  # type: ignore[misc]


def test_an_empty_page_has_the_first_slot_as_its_area_and_marks():
    g = plan_sheet(A4, (63.0, 88.0), 3.0)
    assert g.trim_area(0) == g.trim_area(1) == g.slot(0)
    assert g.crop_marks(0) == g.crop_marks(1)


def test_marks_shrink_to_the_narrower_margin_with_a_bleed():
    """Bleed 3 mm, 2 mm left between the printer's margin and the mark gap at the sides, more at the
    top: the marks are 2 mm long and end at the printable edge on the sides."""
    side = 100.0 - 2 * (MARGIN + GAP + 2.0 + 3.0)
    for paper in ((100.0, 140.0), (140.0, 100.0)):  # the narrow margin at the sides, then at the top
        g = plan_sheet(paper, (side, side), 3.0)
        assert g.per_page == 1 and (g.page_w, g.page_h) == paper
        for x1, y1, x2, y2 in g.crop_marks():
            assert max(abs(x2 - x1), abs(y2 - y1)) == pytest.approx(2.0)
        outer = [min(m[0], m[2]) for m in g.crop_marks() if m[1] == m[3] and m[0] < 50] if paper[0] < paper[1] else \
            [min(m[1], m[3]) for m in g.crop_marks() if m[0] == m[2] and m[1] < 50]
        assert outer and all(v == pytest.approx(MARGIN) for v in outer)


def test_a_zero_back_offset_moves_nothing_and_prints_no_negative_zero():
    """-0.0 would be written as "-0" into the PDF: the same sheet would not give the same bytes."""
    import math
    g = plan_sheet(A4, (63.0, 88.0), 3.0)
    assert g.landscape
    dx, dy = g.sheet_offset((0.0, 0.0))
    assert (dx, dy) == (0.0, 0.0) and math.copysign(1.0, dx) == 1.0 and math.copysign(1.0, dy) == 1.0
