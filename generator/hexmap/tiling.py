"""Tiling a big page (a map's, a board's) onto home-printer sheets: pure geometry in millimetres.

One home for both: `tiles_paper` says whether a page is larger than the build's paper and onto
which paper it is tiled (a map or board no larger than the paper prints whole, never cut into
tiles), `tile_plan` chooses the tiling.
Only the page's drawn extent is tiled (a map's title, grid and panel, not its blank margins).
`tile_plan` enumerates candidates: the sheet portrait or landscape; per direction the fewest
sheets that reach, or one more; the sheets spread evenly (all of one size), packed from the
start (the last one short) or packed from the end (the first one short). Neighbours always
overlap by exactly the stated width (the glue strip). It keeps the candidates whose every sheet
holds at least MIN_MAP_SHARE of its paper's area in map (the drawn boxes, measured exactly),
then takes the fewest sheets, ties going to the most even (the smallest spread between the
fullest and the emptiest sheet), then to the order above: deterministic.

Sheets are numbered 1..n row by row ("Sheet 3 of 6, row 1, column 3"): a bare number cannot be
read as a hex label (A1, 0101). `assembly_scale` fits the whole page onto the assembly page.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from solver.errors import DataError, Problem

from ..context import PAPER_MM
from ..geometry import Box

MIN_OVERLAP_MM = 10.0    # the glue strip between neighbours
SHEET_MARGIN_MM = 8.0    # paper edge to the window (the header and footer sit in it)
MIN_MAP_SHARE = 0.10     # no sheet with less map than this share of its paper
TILE_PAPERS = ("a4", "letter")


def larger_than(size: tuple[float, float], paper: tuple[float, float], tolerance: float = 1.0) -> bool:
    """Whether a page of `size` is larger than `paper` either way round (beyond `tolerance` mm)."""
    w, h = size
    return not any(w <= pw + tolerance and h <= ph + tolerance for pw, ph in (paper, paper[::-1]))


def tiles_paper(size: tuple[float, float], paper: str) -> str | None:
    """The paper a page of `size` is tiled onto in a build on `paper`: None when the page is no
    larger than that paper (it prints whole), else the build's paper when a home printer's
    (a4, letter), else a4."""
    if not larger_than(size, PAPER_MM[paper]):
        return None
    return paper if paper in TILE_PAPERS else "a4"


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    window: Box        # the part of the big page this sheet shows (big-page mm)
    number: int        # 1..n, row by row


@dataclass(frozen=True)
class TilePlan:
    paper: tuple[float, float]
    margin: float
    overlap: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]
    shares: tuple[float, ...] = ()   # each sheet's map area over its paper's area, in tile order

    @property
    def printable(self) -> Box:
        return Box(self.margin, self.margin, self.paper[0] - 2 * self.margin, self.paper[1] - 2 * self.margin)

    def at(self, row: int, col: int) -> Tile | None:
        return next((t for t in self.tiles if (t.row, t.col) == (row, col)), None)


SPLITS = ("even", "start", "end")


def spans(lo: float, hi: float, window: float, overlap: float, n: int, split: str) -> list[tuple[float, float]]:
    """n spans covering [lo, hi], each at most `window` long, neighbours overlapping by `overlap`."""
    total = hi - lo
    if n == 1:
        return [(lo, hi)]
    if split == "even":
        size = (total + (n - 1) * overlap) / n
        return [(lo + i * (size - overlap), lo + i * (size - overlap) + size) for i in range(n)]
    step = window - overlap
    out = [(lo + i * step, min(lo + i * step + window, hi)) for i in range(n)]
    if split == "end":  # the mirror image: full windows from the far end, the first one short
        out = [(lo + hi - b, lo + hi - a) for a, b in reversed(out)]
    return out


def _fewest(total: float, window: float, overlap: float) -> int:
    return 1 if total <= window + 1e-9 else math.ceil((total - overlap) / (window - overlap) - 1e-9)


def _share(window: Box, content: Sequence[Box], area: float) -> float:
    inside = 0.0
    for b in content:
        w = min(window.right, b.right) - max(window.x, b.x)
        h = min(window.bottom, b.bottom) - max(window.y, b.y)
        if w > 0 and h > 0:
            inside += w * h
    return inside / area


def _usable(spans_: list[tuple[float, float]], window: float, overlap: float) -> bool:
    """Each span fits the window, and each but a lone one is longer than the strip it shares."""
    return all(b - a <= window + 1e-6 and (len(spans_) == 1 or b - a > overlap + 1e-6) for a, b in spans_)


def _candidates(extent: Box, paper: tuple[float, float], overlap: float, margin: float) -> Iterable[tuple]:
    for orient, (pw, ph) in enumerate((paper, paper[::-1]) if paper[0] != paper[1] else (paper,)):
        ww, wh = pw - 2 * margin, ph - 2 * margin
        nx, ny = _fewest(extent.w, ww, overlap), _fewest(extent.h, wh, overlap)
        for cols in (nx, nx + 1):
            for rows in (ny, ny + 1):
                for sx in SPLITS if cols > 1 else SPLITS[:1]:
                    for sy in SPLITS if rows > 1 else SPLITS[:1]:
                        xs = spans(extent.x, extent.right, ww, overlap, cols, sx)
                        ys = spans(extent.y, extent.bottom, wh, overlap, rows, sy)
                        if _usable(xs, ww, overlap) and _usable(ys, wh, overlap):
                            yield (orient, SPLITS.index(sx), SPLITS.index(sy)), (pw, ph), xs, ys


def tile_plan(extent: Box, paper: tuple[float, float], *, content: Sequence[Box] | None = None,
              overlap: float = MIN_OVERLAP_MM, margin: float = SHEET_MARGIN_MM) -> TilePlan:
    """The tiling of `extent` (big-page mm) onto `paper` with the fewest sheets, each holding at
    least MIN_MAP_SHARE map (`content`: the drawn boxes; default the whole extent), ties to the
    most even; see the module's docstring."""
    if overlap < 0 or overlap * 2 >= min(paper) - 2 * margin:
        raise DataError([Problem("--overlap", 0, 0, f"overlap {overlap} mm does not fit a sheet",
                                 "use an overlap between 0 and a third of the sheet, e.g. 10")])
    boxes = list(content) if content is not None else [extent]
    best: tuple | None = None
    for order, size, xs, ys in _candidates(extent, paper, overlap, margin):
        tiles = tuple(Tile(r, c, Box(x0, y0, x1 - x0, y1 - y0), r * len(xs) + c + 1)
                      for r, (y0, y1) in enumerate(ys) for c, (x0, x1) in enumerate(xs))
        shares = tuple(_share(t.window, boxes, size[0] * size[1]) for t in tiles)
        key = (min(shares) < MIN_MAP_SHARE, len(tiles), round(max(shares) - min(shares), 6), order)
        if best is None or key < best[0]:
            best = (key, TilePlan(size, margin, overlap, len(ys), len(xs), tiles, shares))
    assert best is not None  # every extent has at least the fewest-sheets candidate
    return best[1]


def assembly_scale(page_w: float, page_h: float, sheet: Box) -> float:
    """Scale that fits the big page into `sheet` (for the assembly diagram)."""
    return min(sheet.w / page_w, sheet.h / page_h)
