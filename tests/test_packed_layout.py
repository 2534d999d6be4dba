"""The packed print's geometry (generator/pieces/packed.py) in page mm, every figure worked by hand
below from the paper (A4 210 x 297 mm, Letter 215.9 x 279.4 mm), the printer's 5 mm margin, the
crop marks' 1 mm gap and 3 mm length, the gutterfold's 2 mm fold gap and 1.5 mm marks, and the
footprints (trim + 2 x (bleed + gutter / 2)): where each piece's trim lands, where the cut ticks
point, the margin marks, the backs behind their fronts and the manifest's sheet figures."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from generator.context import BuildContext
from generator.geometry import Box
from generator.pieces.grid import plan_sheet
from generator.pieces.model import Stroke, Wedge
from generator.pieces.pack import Column, Kind, Strip
from generator.pieces.packed import area_bound, column_ticks, lay_sheet, margin_marks, own_sheets, packed_stem, \
    problem, regions, seam_ticks, sheet_pages, tick

A4 = BuildContext()
A4_FOLD = BuildContext(sheet_layout="gutterfold")
CARD = Kind(20, 30, 2, 2)     # band 3 mm: footprint 26 x 36
CHIT = Kind(10, 10, 1)        # band 1 mm: footprint 12 x 12
KINDS = (CARD, CHIT)
# a 72 mm strip (2 cards stacked, a stack of 3 chits beside them), then a 24 mm strip (2 chits)
STRIPS = (Strip((Column(0, 2), Column(1, 3))), Strip((Column(1, 2),)))
BLACK, WHITE = "#000000", "#ffffff"


def pieces(prefix: str, n: int, back: bool = True) -> list[SimpleNamespace]:
    return [SimpleNamespace(name=f"{prefix}{i}", has_back_page=back) for i in range(1, n + 1)]


def laid(ctx: BuildContext, backs=(True, True)):
    queues = [iter(pieces("a", 2, backs[0])), iter(pieces("b", 5, backs[1]))]
    return lay_sheet(STRIPS, KINDS, queues, ctx.paper_mm, ctx)


def trims(result) -> list[tuple[str, tuple[float, float, float, float], float]]:
    return [(p.name, (round(t.x, 6), round(t.y, 6), t.w, t.h), b) for p, t, b in result.placed]


def tip(w: Wedge) -> tuple[float, float]:
    return (round(w.points[2][0], 6), round(w.points[2][1], 6))


def test_regions_are_the_paper_less_margin_and_marks():
    # 5 + 1 + 3 = 9 mm a side; with gutterfold 5 + 1 + 1.5 = 7.5 mm a side and the half less 1 mm
    assert regions(A4) == ((192.0, 279.0), (279.0, 192.0))
    (pw, ph), (lw, lh) = regions(BuildContext(paper="letter"))
    assert (pw, ph, lw, lh) == pytest.approx((197.9, 261.4, 261.4, 197.9))
    assert regions(A4_FOLD) == ((96.5, 282.0), (140.0, 195.0))


def test_problem_merges_kinds_in_first_seen_order_and_leaves_the_too_large():
    def group(name, n, w, h, bleed=0.0, gutter=0.0):
        return (name, pieces(name, n), SimpleNamespace(piece_w=w, piece_h=h, bleed=bleed, gutter=gutter))
    groups = [group("c", 2, 20, 30, 2, 2), group("t", 3, 10, 10, 1), group("d", 1, 20, 30, 2, 2),
              group("wide", 1, 200, 10),       # 200 mm: only a landscape sheet is wide enough
              group("tall", 1, 10, 193),       # 193 mm: too tall for a landscape sheet (192 mm)
              group("edge", 1, 186, 186, 3)]   # 192 x 192: fits both ways exactly
    kinds, laid_pieces, too_large = problem(groups, A4)
    assert kinds == (CARD, CHIT, Kind(186, 186, 3))
    assert [[p.name for p in ps] for ps in laid_pieces] == [["c1", "c2", "d1"], ["t1", "t2", "t3"], ["edge1"]]
    assert [g[0] for g in too_large] == ["wide", "tall"]


def test_own_sheets_count_a_components_own_grid():
    # poker cards 63 x 88 with 3 mm bleed (69 x 94): 2 x 2 on a portrait A4's 192 x 279 mm, 4 x 2 landscape: 8
    grid = plan_sheet(A4.paper_mm, (63, 88), 3)
    assert own_sheets(("deck", [None] * 16, grid), A4) == 2
    assert own_sheets(("deck", [None] * 17, grid), A4) == 3
    # gutterfold: 96.5 x 282 holds 1 x 3, 140 x 195 holds 2 x 2: 4 a sheet
    assert own_sheets(("deck", [None] * 17, grid), A4_FOLD) == 5


def test_area_bound_is_the_art_over_the_printable_area():
    # A4 less 5 mm a side: 200 x 287 = 57,400 mm2; a poker card with 3 mm bleed 69 x 94 = 6,486 mm2
    # (the gutter is not art); 8 cards 51,888 mm2: 1 sheet; 9: 58,374: 2; gutterfold: half a sheet each
    card = Kind(63, 88, 3, 4)
    assert area_bound((card,), [[None] * 8], A4) == 1
    assert area_bound((card,), [[None] * 9], A4) == 2
    assert area_bound((card,), [[None] * 8], A4_FOLD) == 2
    assert area_bound((card,), [[None] * 4], A4_FOLD) == 1
    assert area_bound((Kind(200, 287, 0), card), [[None], []], A4) == 1    # exactly one sheet's area
    assert area_bound((), [], A4) == 0


def test_lay_sheet_centres_the_block_and_stacks_strips_columns_and_pieces():
    # block 38 x 96 mm (26 + 12 wide; 72 + 24 tall) centred on A4: its corner at (86, 100.5)
    result = laid(A4)
    assert (result.width, result.height) == (210.0, 297.0)
    assert trims(result) == [
        ("a1", (89.0, 103.5, 20, 30), 2), ("a2", (89.0, 139.5, 20, 30), 2),           # cards, band 3 mm
        ("b1", (113.0, 101.5, 10, 10), 1), ("b2", (113.0, 113.5, 10, 10), 1), ("b3", (113.0, 125.5, 10, 10), 1),
        ("b4", (87.0, 173.5, 10, 10), 1), ("b5", (87.0, 185.5, 10, 10), 1)]           # second strip at 172.5
    # the cut between the strips, y = 172.5, marked 1 mm off the block for 3 mm each side
    assert result.margin == (Stroke(82.0, 172.5, 85.0, 172.5, BLACK, 0.2), Stroke(125.0, 172.5, 128.0, 172.5, BLACK, 0.2))


def test_lay_sheet_with_gutterfold_sets_the_block_against_the_fold():
    # the fronts' block ends 1 mm left of the fold at 105 mm: x from 66
    result = laid(A4_FOLD)
    assert [t[1][:2] for t in trims(result)] == [(69.0, 103.5), (69.0, 139.5), (93.0, 101.5), (93.0, 113.5),
                                                  (93.0, 125.5), (67.0, 173.5), (67.0, 185.5)]
    # margin marks left of the fronts and mirrored right of the backs
    assert result.margin == (Stroke(62.0, 172.5, 65.0, 172.5, BLACK, 0.2), Stroke(145.0, 172.5, 148.0, 172.5, BLACK, 0.2))


def test_every_tick_points_along_a_cut_and_stops_short_of_the_trim():
    result = laid(A4)
    tips = sorted(tip(w) for w in result.ticks)
    # the card column (86..112 x 100.5..172.5, band 3): its trim lines x = 89, 109 marked at the top and
    # bottom edges, 3 mm long less 0.25 mm (0.75 mm for a 1 mm band); y = 103.5, 133.5, 139.5, 169.5 at its left and right edges
    cards = [(89.0, 103.25), (89.0, 169.75), (109.0, 103.25), (109.0, 169.75)]
    cards += [(88.75, y) for y in (103.5, 133.5, 139.5, 169.5)] + [(109.25, y) for y in (103.5, 133.5, 139.5, 169.5)]
    # the chit column (112..124 x 100.5..136.5, band 1): 1 mm ticks
    chits = [(113.0, 101.25), (113.0, 135.75), (123.0, 101.25), (123.0, 135.75)]
    chits += [(x, y) for y in (101.5, 111.5, 113.5, 123.5, 125.5, 135.5) for x in (112.75, 123.25)]
    # the seam between them at x = 112 (the narrower band, 1 mm), at the strip's top and bottom (172.5)
    seam = [(112.0, 101.25), (112.0, 171.75)]
    # the second strip's chit column (86..98 x 172.5..196.5)
    lower = [(87.0, 173.25), (87.0, 195.75), (97.0, 173.25), (97.0, 195.75)]
    lower += [(x, y) for y in (173.5, 183.5, 185.5, 195.5) for x in (86.75, 97.25)]
    assert tips == sorted(cards + chits + seam + lower)
    assert all(w.fill == BLACK and w.stroke == WHITE and w.width == 0.15 for w in result.ticks)


def test_a_tick_is_a_wedge_0_7_mm_wide_at_the_band_edge():
    (down,) = tick(10.0, 20.0, 10.0, 23.0)
    assert [tuple(round(v, 9) for v in p) for p in down.points] == [(9.65, 20.0), (10.35, 20.0), (10.0, 22.75)]
    (left,) = tick(30.0, 5.0, 27.0, 5.0)        # pointing left: base across the line, tip 0.25 mm short
    assert [tuple(round(v, 9) for v in p) for p in left.points] == [(30.0, 4.65), (30.0, 5.35), (27.25, 5.0)]


def test_no_tick_in_a_band_narrower_than_0_8_mm():
    thin = Kind(10, 10, 0.5, 0.5)    # band 0.75 mm
    assert column_ticks(Box(0, 0, 11.5, 11.5), thin) == []
    assert seam_ticks(5.0, 0.0, 20.0, 0.75) == []
    assert len(column_ticks(Box(0, 0, 11.6, 11.6), Kind(10, 10, 0.8))) == 8   # 0.8 mm: ticked
    assert len(seam_ticks(5.0, 0.0, 20.0, 0.8)) == 2
    # a band wider than the 3 mm mark: ticks 3 mm long
    wide = Kind(10, 10, 5)
    assert tip(column_ticks(Box(0, 0, 20, 20), wide)[0]) == (5.0, 2.75)
    assert [tip(w) for w in seam_ticks(5.0, 0.0, 20.0, 4.0)] == [(5.0, 2.75), (5.0, 17.25)]


def test_margin_marks_shrink_to_the_margin_but_not_below_1_mm():
    block = Box(7.5, 20.0, 100.0, 50.0)     # 7.5 mm from the edge: 1.5 mm of room beyond the 5 + 1 mm
    assert margin_marks(block, [40.0], 115.0, False) == (Stroke(5.0, 40.0, 6.5, 40.0, BLACK, 0.2),
                                                          Stroke(108.5, 40.0, 110.0, 40.0, BLACK, 0.2))
    block = Box(6.0, 20.0, 100.0, 50.0)     # no room: 1 mm all the same
    assert margin_marks(block, [30.0, 40.0], 115.0, False) == (
        Stroke(4.0, 30.0, 5.0, 30.0, BLACK, 0.2), Stroke(4.0, 40.0, 5.0, 40.0, BLACK, 0.2),
        Stroke(107.0, 30.0, 108.0, 30.0, BLACK, 0.2), Stroke(107.0, 40.0, 108.0, 40.0, BLACK, 0.2))
    assert margin_marks(block, [], 115.0, True) == ()


def test_backs_land_behind_their_fronts():
    # portrait A4 flipped on the long edge: x mirrors, 210 - right; pieces with no back are left out
    result = laid(A4, backs=(True, False))
    fronts, backs = sheet_pages(result, A4, True)
    assert [(p.piece.name, p.side) for p in fronts.placements] == [(n, "front") for n in ("a1", "a2", "b1", "b2", "b3", "b4", "b5")]
    assert fronts.strokes == result.margin and fronts.overlay == result.ticks
    assert [(p.piece.name, p.side, p.trim, p.bleed) for p in backs.placements] == [
        ("a1", "back", Box(101.0, 103.5, 20, 30), 2), ("a2", "back", Box(101.0, 139.5, 20, 30), 2)]
    assert backs.strokes == () and backs.overlay == ()
    assert len(sheet_pages(result, A4, False)) == 1
    # a printer's back offset (1, 2) mm on a portrait sheet, and a short-edge flip: y mirrors
    shifted = dataclasses.replace(A4, back_offset_mm=(1.0, 2.0))
    assert sheet_pages(result, shifted, True)[1].placements[0].trim == Box(102.0, 105.5, 20, 30)
    short = dataclasses.replace(A4, flip="short")
    assert sheet_pages(result, short, True)[1].placements[0].trim == Box(89.0, 163.5, 20, 30)


def test_gutterfold_puts_backs_mirrored_beside_the_fronts_and_a_fold_line():
    result = laid(A4_FOLD, backs=(True, False))
    (page,) = sheet_pages(result, A4_FOLD, True)
    placed = [(p.piece.name, p.side, p.trim) for p in page.placements]
    assert placed[:7] == [(p.name, "front", t) for p, t, _ in result.placed]
    # mirrored about x = 105: a card at 69..89 lands at 121..141
    assert placed[7:] == [("a1", "back", Box(121.0, 103.5, 20, 30)), ("a2", "back", Box(121.0, 139.5, 20, 30))]
    # the fold from the highest bleed (a chit at 101.5 less 1) to the lowest (185.5 + 10 + 1)
    assert page.strokes == result.margin + (Stroke(105.0, 100.5, 105.0, 196.5, "#555555", 0.2, (3.0, 1.5)),)
    assert page.overlay == result.ticks


def test_the_packed_file_names():
    assert packed_stem("en", A4) == "packed-en"
    assert packed_stem("ja", A4_FOLD) == "packed-ja-gutterfold"
