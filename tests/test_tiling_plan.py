"""Tiling a big page onto sheets (generator/hexmap/tiling.py), worked by hand in mm: A4 is 210 x 297,
a sheet's window the paper less 8 mm a side (194 x 281 portrait, 281 x 194 landscape), neighbours
overlapping by the stated width; every point of the page lands on a window, the windows are the
ones a hand count gives, and no sheet holds less than a tenth of its paper in map."""
from __future__ import annotations

import pytest

from generator.geometry import Box
from generator.hexmap.tiling import _fewest, _share, _usable, assembly_scale, larger_than, spans, tile_plan
from solver.errors import DataError

A4 = (210.0, 297.0)
A4_AREA = 210.0 * 297.0


def windows(plan) -> list[tuple[float, float, float, float]]:
    return [tuple(round(v, 6) for v in (t.window.x, t.window.y, t.window.w, t.window.h)) for t in plan.tiles]


def covering(plan, x: float, y: float) -> list[int]:
    return [t.number for t in plan.tiles if t.window.x <= x <= t.window.right and t.window.y <= y <= t.window.bottom]


def test_larger_than_either_way_round_beyond_the_tolerance():
    assert not larger_than((211.0, 298.0), A4)          # within 1 mm
    assert not larger_than((297.0, 210.0), A4)          # turned
    assert larger_than((211.1, 297.0), A4)
    assert larger_than((210.0, 298.5), A4)
    assert not larger_than((212.0, 297.0), A4, tolerance=2.0)
    assert larger_than((210.5, 297.0), A4, tolerance=0.0)


def test_spans_even_packed_from_the_start_and_from_the_end():
    # 100 mm in windows of 60 overlapping by 10: even halves are 55 long; packed: 60 then the rest
    assert spans(0, 100, 60, 10, 1, "even") == [(0, 100)]
    assert spans(0, 100, 60, 10, 2, "even") == [(0, 55), (45, 100)]
    assert spans(5, 105, 60, 10, 2, "start") == [(5, 65), (55, 105)]
    assert spans(5, 105, 60, 10, 2, "end") == [(5, 55), (45, 105)]
    # 150 mm in three: even (150 + 20) / 3; packed 60, 60, 50 long
    even = spans(0, 150, 60, 10, 3, "even")
    assert [(round(a, 6), round(b, 6)) for a, b in even] == [(0, 56.666667), (46.666667, 103.333333), (93.333333, 150)]
    assert spans(0, 150, 60, 10, 3, "start") == [(0, 60), (50, 110), (100, 150)]
    assert spans(0, 150, 60, 10, 3, "end") == [(0, 50), (40, 100), (90, 150)]


def test_the_fewest_windows_that_reach():
    assert _fewest(60, 60, 10) == 1
    assert _fewest(60.5, 60, 10) == 2          # 60 + 50
    assert _fewest(110, 60, 10) == 2
    assert _fewest(110.01, 60, 10) == 3
    assert _fewest(160, 60, 10) == 3


def test_share_and_usable():
    assert _share(Box(0, 0, 10, 10), [Box(5, 5, 10, 10), Box(20, 0, 5, 5), Box(0, 10, 10, 5)], 100) == 0.25
    assert _share(Box(0, 0, 10, 10), [Box(-5, 2, 10, 2), Box(2, -5, 2, 10)], 50) == (10 + 10) / 50
    # a sliver of content half a millimetre into the window, either way, still counts
    assert _share(Box(0, 0, 10, 10), [Box(9.5, 0, 5, 10)], 100) == 0.05
    assert _share(Box(0, 0, 10, 10), [Box(0, 9.5, 10, 5)], 100) == 0.05
    assert _share(Box(0, 0, 10, 10), [Box(10, 0, 5, 10), Box(0, -5, 10, 5)], 100) == 0.0     # touching only
    assert _usable([(0, 60)], 60, 10) and not _usable([(0, 60.1)], 60, 10)
    assert _usable([(0, 5)], 60, 10)                       # a lone span may be short
    assert not _usable([(0, 55), (45, 55)], 60, 10)        # a span no longer than the overlap
    assert _usable([(0, 55), (45, 55.1)], 60, 10)


def test_a_page_two_windows_wide_is_spread_evenly():
    # 300 x 200 mm: portrait windows (194 x 281) need 2 x 1, landscape ones (281 x 194) 2 x 2
    extent = Box(0, 0, 300, 200)
    plan = tile_plan(extent, A4)
    assert (plan.paper, plan.rows, plan.cols) == (A4, 1, 2)
    assert windows(plan) == [(0, 0, 155, 200), (145, 0, 155, 200)]       # (300 + 10) / 2 = 155 each
    assert [t.number for t in plan.tiles] == [1, 2] and [(t.row, t.col) for t in plan.tiles] == [(0, 0), (0, 1)]
    assert plan.shares == pytest.approx((155 * 200 / A4_AREA,) * 2)
    assert plan.printable == Box(8, 8, 194, 281)
    assert plan.at(0, 1) is plan.tiles[1] and plan.at(1, 0) is None
    for x in range(0, 301, 5):     # every point of the page on a window; only the glue strip on two
        for y in (0, 100, 200):
            assert covering(plan, x, y) == ([1] if x < 145 else [2] if x > 155 else [1, 2])


def test_a_wide_page_goes_on_landscape_sheets():
    # 400 x 150 mm: portrait windows need 3 (ceil(390 / 184)), landscape ones 2 (ceil(390 / 271))
    plan = tile_plan(Box(10, 20, 400, 150), A4)
    assert plan.paper == (297.0, 210.0) and (plan.rows, plan.cols) == (1, 2)
    assert windows(plan) == [(10, 20, 205, 150), (205, 20, 205, 150)]


def test_rows_and_columns_are_numbered_row_by_row_with_the_overlap_both_ways():
    # 500 x 500, 5 mm overlap: portrait 3 x 2 (ceil(495 / 189), ceil(495 / 276)), landscape 2 x 3: six either way;
    # portrait comes first on a tie of evenness
    plan = tile_plan(Box(0, 0, 500, 500), A4, overlap=5)
    assert (plan.paper, plan.rows, plan.cols, plan.overlap, plan.margin) == (A4, 2, 3, 5, 8.0)
    w, h = (500 + 2 * 5) / 3, (500 + 5) / 2
    assert [(t.row, t.col, t.number) for t in plan.tiles] == [(r, c, 3 * r + c + 1) for r in range(2) for c in range(3)]
    for t in plan.tiles:
        assert (t.window.x, t.window.y, t.window.w, t.window.h) == pytest.approx((t.col * (w - 5), t.row * (h - 5), w, h))


def test_no_sheet_of_almost_nothing_even_when_the_even_split_would_give_one():
    # the map fills the left half; a 5 mm scrap sits in the far corner. Split evenly, the right sheet
    # holds 5 x 200 + 25 mm2 (1.6 % of A4); packed from the start, only the 25 mm2; packed from the
    # end the left sheet is 116 mm wide and the right one holds 44 x 200 + 25 = 8,825 mm2 (14 %)
    content = [Box(0, 0, 150, 200), Box(295, 195, 5, 5)]
    plan = tile_plan(Box(0, 0, 300, 200), A4, content=content)
    assert windows(plan) == [(0, 0, 116, 200), (106, 0, 194, 200)]
    assert plan.shares == pytest.approx((116 * 200 / A4_AREA, (44 * 200 + 25) / A4_AREA))


def test_the_same_down_the_page():
    # 190 x 400 mm: portrait windows need 1 x 2 (ceil(390 / 271)), landscape ones 1 x 3. The map fills the
    # top 200 mm, a scrap sits at the bottom: split evenly (205 mm each) the lower sheet holds 5 x 190 + 25
    # mm2, packed from the top 25 mm2; packed from the bottom the upper sheet is 129 mm tall and the lower
    # holds 81 x 190 + 25 = 15,415 mm2
    content = [Box(0, 0, 190, 200), Box(185, 395, 5, 5)]
    plan = tile_plan(Box(0, 0, 190, 400), A4, content=content)
    assert (plan.paper, plan.rows, plan.cols) == (A4, 2, 1)
    assert windows(plan) == [(0, 0, 190, 129), (0, 119, 190, 281)]
    assert plan.shares == pytest.approx((129 * 190 / A4_AREA, (81 * 190 + 25) / A4_AREA))


def test_square_paper_has_one_way_round():
    plan = tile_plan(Box(0, 0, 300, 100), (200.0, 200.0), margin=10, overlap=20)
    # windows 180 x 180: (300 + 20) / 2 = 160 each
    assert plan.paper == (200.0, 200.0) and windows(plan) == [(0, 0, 160, 100), (140, 0, 160, 100)]


def test_an_overlap_that_cannot_fit_is_refused():
    tile_plan(Box(0, 0, 300, 200), A4, overlap=0)
    tile_plan(Box(0, 0, 300, 200), A4, overlap=96.9)     # under half the 194 mm window
    for bad in (-0.1, 97.0):
        with pytest.raises(DataError) as refused:
            tile_plan(Box(0, 0, 300, 200), A4, overlap=bad)
        assert str(refused.value).startswith("--overlap: ")      # an option: no line or column to name


def test_assembly_scale_fits_the_page_on_the_sheet():
    assert assembly_scale(100, 200, Box(0, 0, 50, 50)) == 0.25
    assert assembly_scale(200, 100, Box(0, 0, 50, 50)) == 0.25
    assert assembly_scale(100, 100, Box(3, 4, 80, 60)) == 0.6


def test_a_plan_cannot_be_changed_once_made():
    """The sheets, their headers and their guide marks all read one plan: none may alter it in place."""
    import dataclasses
    plan = tile_plan(Box(0, 0, 300, 200), A4)
    for thing, field in ((plan, "tiles"), (plan.tiles[0], "window")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(thing, field, None)
