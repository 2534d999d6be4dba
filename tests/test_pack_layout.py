"""The packed layout's numbers (generator/pieces/pack.py), each worked by hand in mm: footprints,
the greedy shelves, the heights a strip may take, and the fewest sheets. Every packing is checked
with geometry of its own here: the pieces laid out from the sheets' strips and columns (strips down
the sheet, columns side by side, stacks down a column) lie inside the sheet's region, never
overlap, and every copy asked for is there once; the sheet count is the one a hand count gives,
never below the area bound."""
from __future__ import annotations

import math

import pytest
from ortools.sat.python import cp_model

from generator.pieces import pack as pack_module
from generator.pieces.pack import Column, Kind, Packing, Strip, column_height, fill_sheet, fits, greedy, \
    greedy_mixed, heights, pack, sheets_at_least, strip_height, strip_width, units

# footprints in mm (trim + 2 x (bleed + gutter / 2)), worked out by hand
CARD = Kind(20, 30, 2, 2)     # band 3: 26 x 36
CHIT = Kind(10, 10, 1)        # band 1: 12 x 12
TALL = Kind(50, 60, 0)        # 50 x 60
SHORT = Kind(50, 33, 0)       # 50 x 33
SQUARE = ((100.0, 100.0), (100.0, 100.0))
SHEET = ((100.0, 150.0), (150.0, 100.0))   # portrait, landscape


def laid_out(packing: Packing, kinds: tuple[Kind, ...], regions) -> list[list[tuple[int, float, float, float, float]]]:
    """Each sheet's footprints (kind, x, y, w, h), strips from the top, columns from the left."""
    sheets = []
    for landscape, strips in packing.sheets:
        boxes, y = [], 0.0
        for strip in strips:
            x, tallest = 0.0, 0.0
            for col in strip.columns:
                k = kinds[col.kind]
                for n in range(col.count):
                    boxes.append((col.kind, x, y + n * k.fh, k.fw, k.fh))
                x += k.fw
                tallest = max(tallest, col.count * k.fh)
            y += tallest
        sheets.append(boxes)
    return sheets


def assert_valid(packing: Packing, kinds: tuple[Kind, ...], demand: tuple[int, ...], regions) -> None:
    """Every copy once, every footprint inside its sheet's region, no two overlapping."""
    placed = [0] * len(kinds)
    for (landscape, _), boxes in zip(packing.sheets, laid_out(packing, kinds, regions)):
        rw, rh = regions[int(landscape)]
        assert boxes, "an empty sheet"
        for t, x, y, w, h in boxes:
            placed[t] += 1
            assert x >= 0 and y >= 0 and x + w <= rw + 1e-9 and y + h <= rh + 1e-9, (x, y, w, h, rw, rh)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                overlap_w = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
                overlap_h = min(a[2] + a[4], b[2] + b[4]) - max(a[2], b[2])
                assert overlap_w <= 1e-9 or overlap_h <= 1e-9, (a, b)
    assert placed == list(demand)


def strip_heights(packing: Packing, kinds: tuple[Kind, ...]) -> list[list[float]]:
    """Each sheet's strip heights, top to bottom: the tallest stack in each."""
    return [[max(c.count * kinds[c.kind].fh for c in st.columns) for st in strips] for _, strips in packing.sheets]


def area_bound(kinds, demand, regions) -> int:
    region = max(w * h for w, h in regions)
    return math.ceil(sum(k.fw * k.fh * n for k, n in zip(kinds, demand)) / region - 1e-9)


def test_footprints_and_solver_units():
    assert (CARD.band, CARD.fw, CARD.fh) == (3.0, 26.0, 36.0)
    assert (CHIT.band, CHIT.fw, CHIT.fh) == (1.0, 12.0, 12.0)
    assert (units(12.34), units(12.341), units(0.001), units(26)) == (1234, 1235, 1, 2600)
    assert column_height(CARD, 3) == 108.0
    strip = Strip((Column(0, 2), Column(1, 5), Column(1, 1)))
    assert strip_height((CARD, CHIT), strip) == 72.0          # 2 x 36 > 5 x 12 > 12
    assert strip_width((CARD, CHIT), strip) == 50.0           # 26 + 12 + 12


def test_fits_in_solver_units():
    assert fits((CARD, CHIT), (26.0, 36.0))
    assert not fits((CARD, CHIT), (25.99, 36.0))
    assert not fits((CARD, CHIT), (26.0, 35.99))
    assert fits((), (0.0, 0.0))


def test_heights_are_every_stack_that_fits():
    # stacks of 36 mm: 36, 72, 108, 144 in 150 mm; of 50 mm: 50, 100, 150
    assert heights((CARD, Kind(50, 50, 0)), 15000) == [15000, 14400, 10800, 10000, 7200, 5000, 3600]
    assert heights((CARD,), 3599) == [3599]      # none fits: the region's own height
    assert heights((CARD,), 3600) == [3600]


def test_greedy_shelves_tallest_first():
    # 100 x 150 mm: a shelf as tall as a card takes 3 cards (78 mm) and one stack of 3 chits (90 mm)
    sheets = greedy((CARD, CHIT), (5, 10), 10000, 15000)
    assert sheets == [[Strip((Column(0, 1), Column(0, 1), Column(0, 1), Column(1, 3))),
                       Strip((Column(0, 1), Column(0, 1), Column(1, 3), Column(1, 3), Column(1, 1)))]]
    # 50 mm tall: one 36 mm shelf a sheet
    assert len(greedy((CARD, CHIT), (5, 10), 10000, 5000)) == 2


def test_greedy_puts_the_tallest_strips_on_sheets_first():
    # strips 30, 30, 20, 20 mm tall on sheets 50 mm tall: first fit decreasing pairs a 30 with a 20
    high, low = Kind(60, 30, 0), Kind(60, 20, 0)
    sheets = greedy((high, low), (2, 2), 10000, 5000)
    assert sheets == [[Strip((Column(0, 1),)), Strip((Column(1, 1),))]] * 2


def test_greedy_orders_kinds_of_one_height_widest_first():
    narrow, wide = Kind(30, 30, 0), Kind(60, 30, 0)
    assert greedy((narrow, wide), (2, 1), 10000, 10000) == [[Strip((Column(1, 1), Column(0, 1))),
                                                             Strip((Column(0, 1),))]]


def test_greedy_gives_a_piece_wider_than_the_region_a_strip_of_its_own():
    wide = Kind(200, 10, 0)
    assert greedy((wide,), (2,), 10000, 15000) == [[Strip((Column(0, 1),)), Strip((Column(0, 1),))]]


def test_fill_sheet_takes_the_tallest_piece_that_fits_the_height_left():
    high, low = Kind(60, 30, 0), Kind(60, 20, 0)
    left = [2, 2]
    assert fill_sheet((high, low), left, 10000, 5000) == [Strip((Column(0, 1),)), Strip((Column(1, 1),))]
    assert left == [1, 1]
    left = [1, 3]   # a 30 mm shelf holds one stack of a single 20 mm piece
    assert fill_sheet((high, low), left, 10000, 7000) == [Strip((Column(0, 1),)), Strip((Column(1, 1),)),
                                                         Strip((Column(1, 1),))]
    assert left == [0, 1]
    left = [2]      # wider than the region: nothing taken
    assert fill_sheet((Kind(200, 10, 0),), left, 10000, 5000) == [] and left == [2]


def test_greedy_mixed_turns_each_sheet_the_way_that_holds_more():
    # 60 x 30 mm: 1 x 5 on a portrait 100 x 150 mm region, 2 x 3 on a landscape one
    wide = Kind(60, 30, 0)
    shapes = ((10000, 15000), (15000, 10000))
    six = greedy_mixed((wide,), (6,), shapes)
    assert [landscape for landscape, _ in six] == [True]
    assert sum(c.count for st in six[0][1] for c in st.columns) == 6
    five = greedy_mixed((wide,), (5,), shapes)       # a tie: portrait
    assert [landscape for landscape, _ in five] == [False]
    eleven = greedy_mixed((wide,), (11,), shapes)    # 6 landscape, then 5: portrait on the tie
    assert [landscape for landscape, _ in eleven] == [True, False]
    with pytest.raises(ValueError):
        greedy_mixed((Kind(200, 200, 0),), (1,), shapes)


def test_one_kind_fills_the_portrait_sheet():
    # 26 x 36 mm: 3 x 4 = 12 on portrait 100 x 150, 5 x 2 = 10 on landscape
    for n, sheets in ((1, 1), (10, 1), (12, 1), (13, 2), (24, 2), (25, 3)):
        result = pack((CARD,), (n,), SHEET)
        assert_valid(result, (CARD,), (n,), SHEET)
        assert len(result.sheets) == sheets, n
        assert result.optimal and result.solver == "optimal"
    assert [landscape for landscape, _ in pack((CARD,), (12,), SHEET).sheets] == [False]


def test_the_solver_stacks_short_pieces_where_shelves_do_not():
    # 100 x 100 mm, one 50 x 60 and four 50 x 33: shelves (60, then 33, 33) need 126 mm, two sheets;
    # a 66 mm strip (the tall piece beside two short ones) and a 33 mm strip of two take 99 mm
    kinds, demand = (TALL, SHORT), (1, 4)
    assert greedy(kinds, demand, 10000, 10000) == [[Strip((Column(0, 1), Column(1, 1))), Strip((Column(1, 1), Column(1, 1)))],
                                                   [Strip((Column(1, 1),))]]     # 50 + 50 fills the 100 mm exactly
    assert len(greedy_mixed(kinds, demand, ((10000, 10000), (10000, 10000)))) == 2
    result = pack(kinds, demand, SQUARE)
    assert_valid(result, kinds, demand, SQUARE)
    assert len(result.sheets) == 1 and result.optimal and result.solver == "optimal"
    assert len(result.sheets) >= area_bound(kinds, demand, SQUARE)


def test_mixed_kinds_on_the_fewest_sheets():
    # 5 cards (26 x 36) and 30 chits (12 x 12) on 100 x 150: cards take 3 a 36 mm strip; the 30 chits
    # fill 8 columns of 3 in a 36 mm strip (96 mm) or 3 rows of 8 (36 mm a row of 8)...
    # area 5 x 936 + 30 x 144 = 9,000 mm2 of 15,000: one sheet, as 36 + 36 + 36 + 36 = 144 <= 150 mm
    kinds, demand = (CARD, CHIT), (5, 30)
    result = pack(kinds, demand, SHEET)
    assert_valid(result, kinds, demand, SHEET)
    assert len(result.sheets) == 1 and result.optimal
    # three times as many: 27,000 mm2 over 15,000: two sheets at least; 2 do it
    big = (15, 90)
    result = pack(kinds, big, SHEET)
    assert_valid(result, kinds, big, SHEET)
    assert len(result.sheets) == 2 == area_bound(kinds, big, SHEET)


def test_nothing_to_pack_is_no_sheet():
    assert pack((CARD,), (0,), SHEET) == Packing((), True, "optimal")


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
def test_the_sheet_count_does_not_depend_on_the_kinds_order(order):
    # 3 cards, 2 tall, 3 short on 100 x 100, the kinds in any order: one sheet holds the 2 tall (a 60 mm
    # strip) and the 3 cards (a 36 mm strip), a second the 3 short (two 33 mm strips)
    kinds = (CARD, TALL, SHORT)
    demand = (3, 2, 3)
    result = pack(tuple(kinds[i] for i in order), tuple(demand[i] for i in order), SQUARE)
    assert_valid(result, tuple(kinds[i] for i in order), tuple(demand[i] for i in order), SQUARE)
    # area 3 x 936 + 2 x 3000 + 3 x 1650 = 13,758 mm2: two sheets at least, and two hold them
    assert len(result.sheets) == 2 and result.optimal


def test_fill_sheet_fills_the_width_exactly_and_takes_the_widest_kind_first():
    # 50 + 50 mm on a 100 mm wide region: the tall piece and a short one side by side, then two short
    left = [1, 4]
    assert fill_sheet((TALL, SHORT), left, 10000, 10000) == [Strip((Column(0, 1), Column(1, 1))),
                                                           Strip((Column(1, 1), Column(1, 1)))]
    assert left == [0, 1]
    narrow, wide = Kind(30, 30, 0), Kind(60, 30, 0)
    left = [2, 1]
    assert fill_sheet((narrow, wide), left, 10000, 3000) == [Strip((Column(1, 1), Column(0, 1)))]
    assert left == [1, 0]


def test_greedy_mixed_weighs_area_not_pieces():
    # portrait 30 x 30 mm holds a 29 x 30 piece (870 mm2), landscape 31 x 29 a 31 x 28 one (868 mm2):
    # the first sheet is portrait, the other piece goes on a landscape one
    a, b = Kind(29, 30, 0), Kind(31, 28, 0)
    sheets = greedy_mixed((a, b), (1, 1), ((3000, 3000), (3100, 2900)))
    assert sheets == [(False, (Strip((Column(0, 1),)),)), (True, (Strip((Column(1, 1),)),))]
    # a 31 x 28.08 mm piece (870.48 mm2) on the landscape one outweighs the 870 mm2 one by under 1 mm2
    c = Kind(31, 28.08, 0)
    sheets = greedy_mixed((a, c), (1, 1), ((3000, 3000), (3100, 2900)))
    assert sheets == [(True, (Strip((Column(1, 1),)),)), (False, (Strip((Column(0, 1),)),))]


def test_heights_of_a_hundredth_of_a_millimetre():
    assert heights((Kind(1, 0.01, 0),), 4) == [4, 3, 2, 1]


def test_the_strips_take_the_least_height_tallest_first():
    # 3 cards: one 36 mm strip; 12: four on a portrait sheet; 13: two sheets, and then landscape
    # ones take 5 a strip: three strips (108 mm: 5 + 5 + 3, or 5 + 5 and a portrait strip of 3) rather
    # than five (a portrait sheet's 4 and one more)
    for n, used in ((1, [[36.0]]), (3, [[36.0]]), (12, [[36.0] * 4])):
        assert strip_heights(pack((CARD,), (n,), SHEET), (CARD,)) == used, n
    thirteen = pack((CARD,), (13,), SHEET)
    assert sorted(strip_heights(thirteen, (CARD,))) == [[36.0], [36.0, 36.0]]
    assert strip_heights(pack((TALL, SHORT), (1, 4), SQUARE), (TALL, SHORT)) == [[66.0, 33.0]]
    for kinds, demand, regions in (((CARD, CHIT), (15, 90), SHEET), ((CARD, TALL, SHORT), (3, 2, 3), SQUARE)):
        for sheet in strip_heights(pack(kinds, demand, regions), kinds):
            assert sheet == sorted(sheet, reverse=True)


def test_a_landscape_sheet_where_it_holds_more():
    # 60 x 30 mm: 5 on a portrait 100 x 150 mm region (one column), 6 on a landscape one (2 x 3)
    wide = Kind(60, 30, 0)
    result = pack((wide,), (6,), SHEET)
    assert_valid(result, (wide,), (6,), SHEET)
    assert [landscape for landscape, _ in result.sheets] == [True]
    result = pack((wide,), (11,), SHEET)
    assert_valid(result, (wide,), (11,), SHEET)
    assert len(result.sheets) == 2


@pytest.fixture
def fresh_cache():
    pack.cache_clear()
    yield
    pack.cache_clear()


def test_the_solver_starts_from_the_greedy_layout(fresh_cache, monkeypatch):
    """With every variable held at its hinted value, the solver's answer is the hint itself: the
    greedy layout, whole and feasible (here two sheets, where the solver alone finds one)."""
    class Held(cp_model.CpSolver):
        def __init__(self):
            super().__init__()
            self.parameters.fix_variables_to_their_hinted_value = True
    monkeypatch.setattr(cp_model, "CpSolver", Held)
    kinds, demand = (TALL, SHORT), (1, 4)
    start = greedy(kinds, demand, 10000, 10000)
    result = pack(kinds, demand, SQUARE)
    assert result.solver == "optimal"
    assert result.sheets == tuple((False, tuple(strips)) for strips in start)
    assert len(result.sheets) == 2


def test_sheets_at_least_reads_the_objective_bound():
    # the objective is big x sheets + the strips' heights (< big): a bound of 2.19 x big leaves 2 sheets possible
    assert sheets_at_least(174852, 80001) == 2
    assert sheets_at_least(240003, 80001) == 3
    assert sheets_at_least(240002.5, 80001) == 2
    assert sheets_at_least(0, 80001) == 0


def test_a_layout_the_solver_ran_out_of_time_on_is_not_called_optimal(fresh_cache, monkeypatch):
    """3 tall, 9 short and 6 small pieces on 100 x 100 mm, the solver stopped early: the layout it has
    (3 sheets) is optimal only if its bound rules out 2 sheets. The objective is big x sheets + the
    strips' heights (0.01 mm), so big is read off the objective and the layout's own heights."""
    seen = []
    solve = cp_model.CpSolver.solve

    def recording(self, model, *args, **kwargs):
        status = solve(self, model, *args, **kwargs)
        seen.append((status, self.objective_value, self.best_objective_bound))
        return status
    monkeypatch.setattr(cp_model.CpSolver, "solve", recording)
    monkeypatch.setattr(pack_module, "DETERMINISTIC_LIMIT", 0.3)
    kinds, demand = (TALL, SHORT, Kind(30, 20, 0)), (3, 9, 6)
    result = pack(kinds, demand, SQUARE)
    assert_valid(result, kinds, demand, SQUARE)
    ((status, objective, bound),) = seen
    n = len(result.sheets)
    assert status == cp_model.FEASIBLE and result.solver == "feasible" and n == 3
    big = (objective - sum(units(h) for sheet in strip_heights(result, kinds) for h in sheet)) / n
    assert result.optimal == (bound >= big * n - 1e-6)
    assert not result.optimal      # its bound, 2.19 sheets' worth, leaves 2 sheets possible


def test_a_cached_packing_cannot_be_changed_by_its_caller():
    """pack() hands every caller of one build the same object: none may alter what the next gets."""
    import dataclasses
    result = pack((CARD,), (4,), SHEET)
    for thing, field in ((result, "optimal"), (result.sheets[0][1][0], "columns"), (result.sheets[0][1][0].columns[0], "count")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(thing, field, None)
    assert pack((CARD,), (4,), SHEET) is result


def test_a_solve_stopped_early_is_optimal_when_its_bound_says_so(fresh_cache, monkeypatch):
    """Stopped after 0.001 deterministic seconds the solver has the one-sheet layout but not the proof
    of its least height: it is optimal all the same, as no fewer sheets can hold a piece."""
    monkeypatch.setattr(pack_module, "DETERMINISTIC_LIMIT", 0.001)
    result = pack((TALL, SHORT), (1, 4), SQUARE)
    assert_valid(result, (TALL, SHORT), (1, 4), SQUARE)
    assert result.solver == "feasible" and len(result.sheets) == 1 and result.optimal
