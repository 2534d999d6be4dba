"""Plans from grids: pieces of one size laid on a `SheetGrid` (duplex: a fronts page, then a backs
page with every back registered behind its front) or a `GutterfoldGrid` (fronts and their mirrored
backs on one page, either side of a fold line). Pure geometry: `SheetPage`s in mm, nothing drawn."""
from __future__ import annotations

from typing import Literal

from .grid import GutterfoldGrid, SheetGrid
from .model import Piece, Placement, SheetPage, Stroke

MARK_COLOUR = "#000000"
MARK_WIDTH = 0.2
FOLD_COLOUR = "#555555"
FOLD_DASH = (3.0, 1.5)


def crop_strokes(marks: list[tuple[float, float, float, float]]) -> tuple[Stroke, ...]:
    return tuple(Stroke(x1, y1, x2, y2, MARK_COLOUR, MARK_WIDTH) for x1, y1, x2, y2 in marks)


def grid_pages(grid: SheetGrid, pieces: list[Piece], flip: Literal["long", "short"] = "long",
               offset: tuple[float, float] = (0.0, 0.0), marks: bool = True) -> list[SheetPage]:
    """Every page pair: fronts with crop marks, then backs placed behind their fronts (when any
    piece has a back page).

    Page boxes say what a print shop may trust: a page that holds a single piece carries
    TrimBox = the piece and BleedBox = piece + bleed; a multi-up sheet carries only its MediaBox
    (the paper), since no one box is its finished size: its crop marks show where to cut."""
    has_backs = any(p.has_back_page for p in pieces)
    single = grid.per_page == 1
    pages: list[SheetPage] = []
    for start in range(0, len(pieces), grid.per_page):
        chunk = pieces[start:start + grid.per_page]
        front = grid.slot(0)
        strokes = crop_strokes(grid.crop_marks(len(chunk))) if marks else ()
        fronts = tuple(Placement(p, "front", grid.slot(i), grid.bleed) for i, p in enumerate(chunk))
        pages.append(SheetPage(grid.page_w, grid.page_h, fronts, strokes,
                               front if single else None, front.outset(grid.bleed) if single else None))
        if not has_backs:
            continue
        slots = [grid.back_slot(i, flip, offset) for i in range(len(chunk))]
        backs = tuple(Placement(p, "back", slot, grid.bleed) for p, slot in zip(chunk, slots) if p.has_back_page)
        pages.append(SheetPage(grid.page_w, grid.page_h, backs, (),
                               slots[0] if single else None, slots[0].outset(grid.bleed) if single else None))
    return pages


def gutterfold_pages(grid: GutterfoldGrid, pieces: list[Piece], marks: bool = True) -> list[SheetPage]:
    """One page per chunk: fronts left of the dashed fold line, their backs mirrored right of it.
    A piece without a back leaves its back slot blank."""
    g = grid.fronts
    pages: list[SheetPage] = []
    for start in range(0, len(pieces), grid.per_page):
        chunk = pieces[start:start + grid.per_page]
        strokes = crop_strokes(grid.crop_marks(len(chunk))) if marks else ()
        area = g.bleed_area(len(chunk))
        fold = Stroke(grid.fold_x, area.y, grid.fold_x, area.bottom, FOLD_COLOUR, MARK_WIDTH, FOLD_DASH)
        placed: list[Placement] = []
        for i, p in enumerate(chunk):
            placed.append(Placement(p, "front", g.slot(i), g.bleed))
            if p.has_back_page:
                placed.append(Placement(p, "back", grid.back_slot(i), g.bleed))
        pages.append(SheetPage(g.page_w, g.page_h, tuple(placed), strokes + (fold,)))
    return pages
