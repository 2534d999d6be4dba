"""Sheet geometry, pure numbers in mm: where each card (or counter) sits on a page, where its
back sits after a duplex flip, and where the crop marks go.

Pieces are laid in a grid at a pitch of size + 2*bleed (+ gutter), so bleeds of neighbours
touch but never overlap. Crop marks are drawn only in the margin around the grid, one per trim
line, outside every bleed box, so a mark never crosses a neighbour's art. The orientation
(portrait or landscape) is the one that fits more pieces.

Duplex: after a flip about the paper's long edge a point (x, y) of the front meets the back at
(W - x, y) on a portrait page and (x, H - y) on a landscape page; a short-edge flip is the other
axis. The user's back offset (dx, dy) then shifts the whole back page (printer correction).

The back offset is measured on the calibration page, which is portrait: it is in the axes of the
paper as it leaves the printer. A landscape sheet is printed turned a quarter turn
counter-clockwise onto that paper (its top edge along the paper's left edge, as print dialogs
auto-rotate landscape pages), so the offset is turned into the sheet's axes before it is applied:
paper (dx, dy) is sheet (-dy, dx).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ..context import PRINTER_MARGIN_MM
from ..geometry import Box

MARK_GAP_MM = 1.0      # space between a crop mark and the outermost bleed
MARK_LEN_MM = 3.0
MARK_MIN_LEN_MM = 1.0  # crop marks shrink to fit a narrow margin, never below this

Flip = Literal["long", "short"]


@dataclass(frozen=True)
class SheetGrid:
    page_w: float
    page_h: float
    piece_w: float
    piece_h: float
    bleed: float
    gutter: float
    cols: int
    rows: int
    origin_x: float  # trim top-left of the first piece
    origin_y: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def pitch_x(self) -> float:
        return self.piece_w + 2 * self.bleed + self.gutter

    @property
    def pitch_y(self) -> float:
        return self.piece_h + 2 * self.bleed + self.gutter

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    def slot(self, index: int) -> Box:
        """Trim box of the piece in slot `index` (row by row from the top-left) on a front page."""
        r, c = divmod(index, self.cols)
        return Box(self.origin_x + c * self.pitch_x, self.origin_y + r * self.pitch_y, self.piece_w, self.piece_h)

    def back_slot(self, index: int, flip: Flip, offset: tuple[float, float] = (0.0, 0.0)) -> Box:
        """Trim box on the back page that lands behind front slot `index` after the flip;
        `offset` is the printer correction in the paper's axes (see `sheet_offset`)."""
        return back_box(self.slot(index), self.page_w, self.page_h, flip, offset)

    def sheet_offset(self, offset: tuple[float, float]) -> tuple[float, float]:
        return sheet_offset(offset, self.landscape)

    def trim_area(self, count: int | None = None) -> Box:
        """The box around the trims of the first `count` slots (where the crop marks go)."""
        n = self.per_page if count is None else count
        rows = math.ceil(n / self.cols) if n else 1
        cols = self.cols if rows > 1 else max(1, n)
        return Box(self.origin_x, self.origin_y, (cols - 1) * self.pitch_x + self.piece_w,
                   (rows - 1) * self.pitch_y + self.piece_h)

    def bleed_area(self, count: int | None = None) -> Box:
        return self.trim_area(count).outset(self.bleed)

    def crop_marks(self, count: int | None = None) -> list[tuple[float, float, float, float]]:
        """Line segments (x1, y1, x2, y2): short marks in the margin, in line with every trim edge."""
        area = self.bleed_area(count)
        n = self.per_page if count is None else count
        rows = math.ceil(n / self.cols) if n else 1
        cols = self.cols if rows > 1 else max(1, n)
        top0, top1 = area.y - MARK_GAP_MM - self._mark_len, area.y - MARK_GAP_MM
        bot0, bot1 = area.bottom + MARK_GAP_MM, area.bottom + MARK_GAP_MM + self._mark_len
        left0, left1 = area.x - MARK_GAP_MM - self._mark_len, area.x - MARK_GAP_MM
        right0, right1 = area.right + MARK_GAP_MM, area.right + MARK_GAP_MM + self._mark_len
        xs = sorted({round(self.origin_x + c * self.pitch_x + d, 6) for c in range(cols) for d in (0, self.piece_w)})
        ys = sorted({round(self.origin_y + r * self.pitch_y + d, 6) for r in range(rows) for d in (0, self.piece_h)})
        marks = []
        for x in xs:
            marks += [(x, top0, x, top1), (x, bot0, x, bot1)]
        for y in ys:
            marks += [(left0, y, left1, y), (right0, y, right1, y)]
        return marks

    @property
    def _mark_len(self) -> float:
        # Marks fill the margin between the printable edge and the bleed, at most MARK_LEN_MM.
        room = min(self.origin_x - self.bleed, self.origin_y - self.bleed) - MARK_GAP_MM - PRINTER_MARGIN_MM
        return max(MARK_MIN_LEN_MM, min(MARK_LEN_MM, room))


def back_box(front: Box, page_w: float, page_h: float, flip: Flip,
             offset: tuple[float, float] = (0.0, 0.0)) -> Box:
    """The box on the back page that lands behind `front` after the duplex flip of a page of
    `page_w` x `page_h` mm (mirrored across the flip edge); `offset` is the printer correction in
    the paper's axes (see `sheet_offset`). Every duplex plan (grids, packed sheets) registers here."""
    landscape = page_w > page_h
    if (flip == "long") != landscape:  # portrait+long or landscape+short
        b = Box(page_w - front.right, front.y, front.w, front.h)
    else:
        b = Box(front.x, page_h - front.bottom, front.w, front.h)
    return b.moved(*sheet_offset(offset, landscape))


def sheet_offset(offset: tuple[float, float], landscape: bool) -> tuple[float, float]:
    """A back offset in the paper's axes (portrait, as on the calibration page) in a sheet's axes:
    unchanged on a portrait sheet; on a landscape sheet, printed turned a quarter turn
    counter-clockwise, paper (dx, dy) is sheet (-dy, dx)."""
    dx, dy = offset
    return (-dy + 0.0, dx) if landscape else (dx, dy)


def plan_sheet(paper: tuple[float, float], piece: tuple[float, float], bleed: float,
               gutter: float = 0.0) -> SheetGrid:
    """The grid that fits most pieces on the paper, portrait or landscape, centred."""
    best: SheetGrid | None = None
    reserve = PRINTER_MARGIN_MM + MARK_GAP_MM + MARK_LEN_MM
    for pw, ph in (paper, (paper[1], paper[0])):
        pitch_x, pitch_y = piece[0] + 2 * bleed + gutter, piece[1] + 2 * bleed + gutter
        cols = int((pw - 2 * reserve + gutter) // pitch_x)
        rows = int((ph - 2 * reserve + gutter) // pitch_y)
        if cols < 1 or rows < 1:
            # Too big for marks in the margin: still print one per page, marks as room allows.
            cols, rows = max(cols, 1), max(rows, 1)
        used_w, used_h = cols * pitch_x - gutter, rows * pitch_y - gutter
        grid = SheetGrid(pw, ph, piece[0], piece[1], bleed, gutter, cols, rows,
                         (pw - used_w) / 2 + bleed, (ph - used_h) / 2 + bleed)
        if best is None or grid.per_page > best.per_page:
            best = grid
    assert best is not None
    return best


# --------------------------------------------------------------------------- gutterfold

FOLD_GAP_MM = 2.0  # between the fronts' bleed and the backs' bleed; the fold line runs down its middle
GUTTERFOLD_MARK_MM = 1.5


@dataclass(frozen=True)
class GutterfoldGrid:
    """Fronts in the left half of the page, each back mirrored about the vertical fold line in the
    right half: folded along the line (printed side out) and glued, every back lies behind its
    front, upright, whatever the printer's duplex registration. A vertical fold needs no rotation:
    the fold mirrors left and right, and turning the piece over to read its back mirrors them again.
    `fronts` is an ordinary grid of the left half (its `per_page`, `slot`, `crop_marks` apply)."""
    fronts: SheetGrid

    @property
    def fold_x(self) -> float:
        return self.fronts.page_w / 2

    @property
    def per_page(self) -> int:
        return self.fronts.per_page

    def back_slot(self, index: int) -> Box:
        f = self.fronts.slot(index)
        return Box(2 * self.fold_x - f.right, f.y, f.w, f.h)

    def crop_marks(self, count: int) -> list[tuple[float, float, float, float]]:
        """The fronts' marks but those on the fold side, and their mirror images for the backs."""
        g = self.fronts
        inner = g.bleed_area(count).right
        keep = [m for m in g.crop_marks(count) if max(m[0], m[2]) <= inner]
        mirror = [(2 * self.fold_x - x1, y1, 2 * self.fold_x - x2, y2) for x1, y1, x2, y2 in keep]
        return keep + mirror


def plan_gutterfold(paper: tuple[float, float], piece: tuple[float, float], bleed: float,
                    gutter: float = 0.0) -> GutterfoldGrid:
    """The gutterfold grid that fits most pieces, portrait or landscape: fronts packed against the
    fold, centred top to bottom."""
    best: GutterfoldGrid | None = None
    # Crop marks may shrink to GUTTERFOLD_MARK_MM, so that two poker cards fit each half of A4.
    reserve = PRINTER_MARGIN_MM + MARK_GAP_MM + GUTTERFOLD_MARK_MM
    for pw, ph in (paper, (paper[1], paper[0])):
        pitch_x, pitch_y = piece[0] + 2 * bleed + gutter, piece[1] + 2 * bleed + gutter
        cols = max(1, int((pw / 2 - FOLD_GAP_MM / 2 - reserve + gutter) // pitch_x))
        rows = max(1, int((ph - 2 * reserve + gutter) // pitch_y))
        used_w, used_h = cols * pitch_x - gutter, rows * pitch_y - gutter
        grid = SheetGrid(pw, ph, piece[0], piece[1], bleed, gutter, cols, rows,
                         pw / 2 - FOLD_GAP_MM / 2 - used_w + bleed, (ph - used_h) / 2 + bleed)
        if best is None or grid.per_page > best.per_page:
            best = GutterfoldGrid(grid)
    assert best is not None
    return best
