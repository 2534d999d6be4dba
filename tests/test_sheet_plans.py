"""Sheet plans (generator/pieces/plan.py): pieces laid on a duplex grid (a fronts page, then a backs
page with each back behind its front) or a gutterfold grid, checked page by page: how many pages,
which piece in which slot, where each back lands once the paper is turned over (worked out here),
the crop marks and the fold line, and the PDF page boxes of a single-piece page."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from generator.geometry import Box
from generator.pieces.grid import plan_gutterfold, plan_sheet
from generator.pieces.plan import gutterfold_pages, grid_pages

A4 = (210.0, 297.0)


@dataclass(frozen=True)
class Card:
    """A stand-in for a piece: the plans read only whether it has a back page."""
    name: str
    has_back_page: bool = True


def cards(n: int, backs=lambda i: True) -> list[Card]:
    return [Card(f"c{i}", backs(i)) for i in range(n)]


def turned_over(page_w: float, page_h: float, box: Box, flip: str) -> Box:
    """A box of the back page as seen from the front once the paper is turned over about its long
    (or short) edge; the paper is portrait in the hand, a landscape page is it turned a quarter."""
    if (flip == "long") == (page_h > page_w):
        return Box(page_w - box.right, box.y, box.w, box.h)
    return Box(box.x, page_h - box.bottom, box.w, box.h)


@pytest.mark.parametrize("piece, flip", [((63.0, 88.0), "long"), ((44.0, 63.0), "short"), ((44.0, 63.0), "long")])
def test_fronts_then_backs_each_behind_its_front(piece, flip):
    grid = plan_sheet(A4, piece, 3.0)
    deck = cards(grid.per_page + 2)
    pages = grid_pages(grid, deck, flip)
    assert [len(p.placements) for p in pages] == [grid.per_page, grid.per_page, 2, 2]
    for front, back in zip(pages[::2], pages[1::2]):
        assert {pl.side for pl in front.placements} == {"front"} and {pl.side for pl in back.placements} == {"back"}
        assert [pl.piece for pl in front.placements] == [pl.piece for pl in back.placements]
        for i, (f, b) in enumerate(zip(front.placements, back.placements)):
            assert f.trim == grid.slot(i) and f.bleed == b.bleed == 3.0
            assert turned_over(back.width, back.height, b.trim, flip).rounded(6) == f.trim.rounded(6)
        assert (front.width, front.height) == (back.width, back.height) == (grid.page_w, grid.page_h)
        # crop marks on the fronts only, black hairlines at every mark of the grid
        n = len(front.placements)
        assert [(s.x1, s.y1, s.x2, s.y2) for s in front.strokes] == grid.crop_marks(n)
        assert {(s.colour, s.width, s.dash) for s in front.strokes} == {("#000000", 0.2, None)}
        assert back.strokes == ()
        # a multi-up sheet has no one finished size: no TrimBox or BleedBox
        assert front.trim is front.bleed is back.trim is back.bleed is None
    assert [pl.piece.name for p in pages[::2] for pl in p.placements] == [c.name for c in deck]


def test_a_back_offset_moves_every_back_by_the_offset():
    grid = plan_sheet(A4, (44.0, 63.0), 3.0)
    plain = grid_pages(grid, cards(3), "long")[1]
    moved = grid_pages(grid, cards(3), "long", (0.5, -0.25))[1]
    for a, b in zip(plain.placements, moved.placements):
        assert (b.trim.x - a.trim.x, b.trim.y - a.trim.y) == (pytest.approx(0.5), pytest.approx(-0.25))


def test_pieces_without_backs_leave_their_back_slots_empty_or_no_back_page():
    grid = plan_sheet(A4, (63.0, 88.0), 3.0)
    pages = grid_pages(grid, cards(5, backs=lambda i: i % 2 == 0))
    assert [p.placements[i].piece.name for p in pages[1:2] for i in range(len(p.placements))] == ["c0", "c2", "c4"]
    for pl in pages[1].placements:
        i = int(pl.piece.name[1:])
        assert turned_over(grid.page_w, grid.page_h, pl.trim, "long").rounded(6) == grid.slot(i).rounded(6)
    assert len(grid_pages(grid, cards(5, backs=lambda i: False))) == 1  # no back page at all
    no_backs = grid_pages(grid, cards(2 * grid.per_page + 1, backs=lambda i: False))
    assert [len(p.placements) for p in no_backs] == [grid.per_page, grid.per_page, 1]  # fronts only
    assert grid_pages(grid, cards(5), marks=False)[0].strokes == ()


def test_a_page_of_one_piece_carries_its_trim_and_bleed_boxes():
    grid = plan_sheet(A4, (180.0, 260.0), 3.0)
    assert grid.per_page == 1
    front, back = grid_pages(grid, cards(1), "long")
    assert front.trim == grid.slot(0) and front.bleed == grid.slot(0).outset(3.0)
    assert back.trim == grid.back_slot(0, "long") and back.bleed == grid.back_slot(0, "long").outset(3.0)


@pytest.mark.parametrize("n", [1, 3, 4, 9])
def test_gutterfold_pages_hold_fronts_and_their_mirrored_backs_with_a_dashed_fold(n):
    grid = plan_gutterfold(A4, (63.0, 88.0), 3.0)
    deck = cards(n, backs=lambda i: i != 1)
    pages = gutterfold_pages(grid, deck)
    assert len(pages) == -(-n // grid.per_page)
    names = []
    for page in pages:
        fronts = [pl for pl in page.placements if pl.side == "front"]
        backs = {pl.piece.name: pl for pl in page.placements if pl.side == "back"}
        names += [pl.piece.name for pl in fronts]
        for i, f in enumerate(fronts):
            assert f.trim == grid.fronts.slot(i)
            if f.piece.has_back_page:
                b = backs.pop(f.piece.name).trim
                assert b.rounded(6) == Box(page.width - f.trim.right, f.trim.y, f.trim.w, f.trim.h).rounded(6)
        assert backs == {}
        *marks, fold = page.strokes
        assert [(s.x1, s.y1, s.x2, s.y2) for s in marks] == grid.crop_marks(len(fronts))
        area = grid.fronts.bleed_area(len(fronts))
        assert (fold.x1, fold.x2, fold.y1, fold.y2) == (page.width / 2, page.width / 2, area.y, area.bottom)
        assert (fold.colour, fold.dash) == ("#555555", (3.0, 1.5))
    assert names == [c.name for c in deck]
    assert [s for p in gutterfold_pages(grid, deck, marks=False) for s in p.strokes if s.dash is None] == []
