"""From pieces (one entry per printed copy) to files: PDF sheets (fronts page, then backs page),
SVG per sheet page, PNG per distinct face at 300 dpi with bleed.

Used by the card stage and the counter stage alike; they only differ in how they pick pieces,
layouts and the grid.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from solver.game.components import Item

from ..context import BuildContext
from ..geometry import Box
from ..render import open_surface
from ..render.base import Surface
from .face import FaceData, FaceDrawer
from .sheet import GutterfoldGrid, SheetGrid, plan_gutterfold

MARK_COLOUR = "#000000"
MARK_WIDTH = 0.2
FOLD_COLOUR = "#555555"
FOLD_DASH = (3.0, 1.5)


@dataclass(frozen=True)
class Piece:
    """One printed copy: its item, the layouts of both sides and the data each side shows."""
    item: Item
    front_layout: str
    back_layout: str | None
    front: FaceData
    back: FaceData | None

    @property
    def own_back(self) -> bool:
        """True when the back shows this item's own face (a counter's reduced side, a role card);
        False for a common back shared by the whole deck."""
        return self.item.back is not None

    @property
    def back_key(self) -> tuple:
        """Pieces with equal keys print the same back picture."""
        face = self.back.face.model_dump_json() if self.back and self.back.face else None
        return (self.back_layout, face, self.item.id if self.own_back else None)


def draw_sheets(s: Surface, grid: SheetGrid, pieces: list[Piece], drawer: FaceDrawer,
                ctx: BuildContext, marks: bool = True) -> None:
    """Every page pair: fronts with crop marks, then backs placed behind their fronts.

    Page boxes say what a print shop may trust: a page that holds a single piece carries
    TrimBox = the piece and BleedBox = piece + bleed; a multi-up sheet carries only its MediaBox
    (the paper), since no one box is its finished size: its crop marks show where to cut."""
    has_backs = any(p.back_layout for p in pieces)
    single = grid.per_page == 1
    for start in range(0, len(pieces), grid.per_page):
        chunk = pieces[start:start + grid.per_page]
        front = grid.slot(0)
        s.begin_page(grid.page_w, grid.page_h, trim=front if single else None,
                     bleed=front.outset(grid.bleed) if single else None)
        if marks:
            for x1, y1, x2, y2 in grid.crop_marks(len(chunk)):
                s.line(x1, y1, x2, y2, stroke=MARK_COLOUR, width=MARK_WIDTH)
        for i, p in enumerate(chunk):
            drawer.draw(s, p.front_layout, p.front, grid.slot(i), grid.bleed)
        s.end_page()
        if not has_backs:
            continue
        backs = [grid.back_slot(i, ctx.flip, ctx.back_offset_mm) for i in range(len(chunk))]
        s.begin_page(grid.page_w, grid.page_h, trim=backs[0] if single else None,
                     bleed=backs[0].outset(grid.bleed) if single else None)
        for p, slot in zip(chunk, backs):
            if p.back_layout and p.back is not None:
                drawer.draw(s, p.back_layout, p.back, slot, grid.bleed)
        s.end_page()


def draw_gutterfold(s: Surface, grid: GutterfoldGrid, pieces: list[Piece], drawer: FaceDrawer,
                    marks: bool = True) -> None:
    """One page per chunk: fronts left of the dashed fold line, their backs mirrored right of it.
    A piece without a back leaves its back slot blank."""
    g = grid.fronts
    for start in range(0, len(pieces), grid.per_page):
        chunk = pieces[start:start + grid.per_page]
        s.begin_page(g.page_w, g.page_h)
        if marks:
            for x1, y1, x2, y2 in grid.crop_marks(len(chunk)):
                s.line(x1, y1, x2, y2, stroke=MARK_COLOUR, width=MARK_WIDTH)
        area = g.bleed_area(len(chunk))
        s.line(grid.fold_x, area.y, grid.fold_x, area.bottom, stroke=FOLD_COLOUR, width=MARK_WIDTH, dash=FOLD_DASH)
        for i, p in enumerate(chunk):
            drawer.draw(s, p.front_layout, p.front, g.slot(i), g.bleed)
            if p.back_layout and p.back is not None:
                drawer.draw(s, p.back_layout, p.back, grid.back_slot(i), g.bleed)
        s.end_page()


def write_outputs(stem: str, out_dir: Path, grid: SheetGrid, pieces: list[Piece], drawer: FaceDrawer,
                  ctx: BuildContext, title: str, png_dir: str, marks: bool = True) -> list[Path]:
    """`<stem>.pdf`, `<stem>[-pN].svg` and `png/<png_dir>/<item>.png` (+ `-back.png` / `back.png`);
    with the gutterfold layout `<stem>-gutterfold.pdf` and its SVG pages instead of duplex sheets."""
    written: list[Path] = []
    fold = plan_gutterfold(ctx.paper_mm, (grid.piece_w, grid.piece_h), grid.bleed, grid.gutter) \
        if ctx.sheet_layout == "gutterfold" else None
    for kind in ("pdf", "svg"):
        if kind in ctx.formats:
            s = open_surface(kind, title=title)
            if fold is not None:
                draw_gutterfold(s, fold, pieces, drawer, marks)
                written += s.save(out_dir / f"{stem}-gutterfold.{kind}")
            else:
                draw_sheets(s, grid, pieces, drawer, ctx, marks)
                written += s.save(out_dir / f"{stem}.{kind}")
    if "png" in ctx.formats:
        written += write_pngs(out_dir / "png" / png_dir, grid, pieces, drawer)
    return written


def write_pngs(folder: Path, grid: SheetGrid, pieces: list[Piece], drawer: FaceDrawer, dpi: int = 300) -> list[Path]:
    """One PNG per distinct front (by item) and per distinct back, each with its bleed."""
    written: list[Path] = []
    seen_fronts: set[str] = set()
    seen_backs: dict[tuple, str] = {}
    b = grid.bleed
    trim = Box(b, b, grid.piece_w, grid.piece_h)
    size = (grid.piece_w + 2 * b, grid.piece_h + 2 * b)
    for p in pieces:
        if p.item.id not in seen_fronts:
            seen_fronts.add(p.item.id)
            written += _png(folder / f"{p.item.id}.png", size, lambda s: drawer.draw(s, p.front_layout, p.front, trim, b), dpi)
        if p.back_layout and p.back is not None and p.back_key not in seen_backs:
            # The deck's common back is back.png; any other back is named after its item.
            name = "back.png" if not p.own_back and "back.png" not in seen_backs.values() else f"{p.item.id}-back.png"
            seen_backs[p.back_key] = name
            written += _png(folder / name, size, lambda s: drawer.draw(s, p.back_layout, p.back, trim, b), dpi)
    return written


def _png(target: Path, size: tuple[float, float], draw, dpi: int) -> list[Path]:
    s = open_surface("png", dpi=dpi)
    s.begin_page(*size)
    draw(s)
    s.end_page()
    return s.save(target)
