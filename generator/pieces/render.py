"""Draw any plan (a list of `SheetPage`s) to PDF, SVG and PNG through generator/render, and write
a component's files: `<stem>.pdf`, `<stem>[-pN].svg`, and a PNG per distinct face with its bleed.

Used by every printer (cards, counters, tokens, tiles, standees, boards, tuck boxes); they differ
only in how they make pieces and plans."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..geometry import Box
from ..render import open_surface
from ..render.base import Surface
from ..gcpause import fewer_collections
from ..render.record import Recording, png_once
from .draft import COLOUR as NOTE_COLOUR, DraftNote, draft_note, place
from .grid import SheetGrid, plan_gutterfold
from .model import Mark, Piece, Placement, SheetPage
from .plan import FOLD_COLOUR, FOLD_DASH, MARK_COLOUR, MARK_WIDTH, gutterfold_pages, grid_pages

if TYPE_CHECKING:
    from ..cards.face import FaceDrawer
    from ..context import BuildContext

CUT_COLOUR = "#6e6e6e"   # a cut line on the art: thin and grey, so a cut just inside it hides it
CUT_WIDTH = 0.15
GLUE_DASH = (0.6, 0.9)


def draw_pages(s: Surface, pages: list[SheetPage], drawer: FaceDrawer, note: DraftNote | None = None) -> int:
    """Each page: its strokes on the paper (crop marks, fold line), then its placements in order,
    then the lines drawn over them (`overlay`), then a translation draft's `note` in its margin
    (draft.py). Returns how many pages had no margin free for the note."""
    crowded = 0
    for page in pages:
        s.begin_page(page.width, page.height, trim=page.trim, bleed=page.bleed)
        for k in page.strokes:
            s.line(k.x1, k.y1, k.x2, k.y2, stroke=k.colour, width=k.width, dash=k.dash)
        for pl in page.placements:
            draw_placement(s, pl, drawer)
        for w in page.overlay:
            s.polygon(w.points, fill=w.fill, stroke=w.stroke, width=w.width)
        at = place(page, note) if note else None
        if note and at:
            s.text(at[0], at[1], note.text, size_pt=at[2], colour=NOTE_COLOUR, font=note.font)
        crowded += bool(note and not at)
        s.end_page()
    return crowded


def draw_placement(s: Surface, pl: Placement, drawer: FaceDrawer) -> None:
    """One side of one piece: its faces (or a net's panels), then its marks and cut line."""
    p, trim = pl.piece, pl.trim
    if pl.side == "back":
        assert p.back_layout is not None and p.back is not None, "only pieces with a back page get a back placement"
        drawer.draw(s, p.back_layout, p.back, trim, pl.bleed)
        return
    if p.panels:
        draw_panels(s, p, trim, pl.bleed, drawer)
    else:
        drawer.draw(s, p.front_layout, p.front, trim, pl.bleed)
    for m in p.marks:
        draw_mark(s, m, trim)
    if p.cut_line:
        draw_outline(s, p, trim)


def draw_panels(s: Surface, p: Piece, trim: Box, bleed: float, drawer: FaceDrawer) -> None:
    """A net's faces: first every panel's background with its bleed, then every panel without
    bleed, so art runs past the cut but never over a neighbouring panel across a fold."""
    for panel in p.panels:
        background = drawer.background(panel.layout, panel.data)
        if background and bleed:
            s.rect(panel.box.moved(trim.x, trim.y).outset(bleed), fill=background)
    for panel in p.panels:
        drawer.draw(s, panel.layout, panel.data, panel.box.moved(trim.x, trim.y), 0.0)


def draw_mark(s: Surface, m: Mark, trim: Box) -> None:
    pts = [(trim.x + x, trim.y + y) for x, y in m.points]
    if m.kind == "fold":
        s.polyline(pts, stroke=FOLD_COLOUR, width=MARK_WIDTH, dash=FOLD_DASH)
    elif m.kind == "glue":
        s.polyline(pts, stroke=FOLD_COLOUR, width=MARK_WIDTH, dash=GLUE_DASH)
    else:
        s.polyline(pts, stroke=MARK_COLOUR, width=MARK_WIDTH)


def draw_outline(s: Surface, p: Piece, trim: Box) -> None:
    o = p.outline
    if o.shape == "circle":
        cx, cy = trim.center
        s.circle(cx, cy, min(trim.w, trim.h) / 2, stroke=CUT_COLOUR, width=CUT_WIDTH)
    elif o.shape == "polygon":
        s.polygon(o.placed(trim), stroke=CUT_COLOUR, width=CUT_WIDTH)
    else:
        s.rect(trim, stroke=CUT_COLOUR, width=CUT_WIDTH, radius=o.radius)


def write_outputs(stem: str, out_dir: Path, grid: SheetGrid, pieces: list[Piece], drawer: FaceDrawer,
                  ctx: BuildContext, title: str, png_dir: str, marks: bool = True) -> list[Path]:
    """`<stem>.pdf`, `<stem>[-pN].svg` and `png/<png_dir>/<item>.png` (+ `-back.png` / `back.png`);
    with the gutterfold layout `<stem>-gutterfold.pdf` and its SVG pages instead of duplex sheets."""
    if ctx.sheet_layout == "gutterfold":
        fold = plan_gutterfold(ctx.paper_mm, (grid.piece_w, grid.piece_h), grid.bleed, grid.gutter)
        pages, stem = gutterfold_pages(fold, pieces, marks), f"{stem}-gutterfold"
    else:
        pages = grid_pages(grid, pieces, ctx.flip, ctx.back_offset_mm, marks)
    written = write_pages(stem, out_dir, pages, drawer, ctx, title)
    if "png" in ctx.formats:
        written += write_pngs(out_dir / "png" / png_dir, grid, pieces, drawer)
    return written


@fewer_collections()
def write_pages(stem: str, out_dir: Path, pages: list[SheetPage], drawer: FaceDrawer, ctx: BuildContext,
                title: str) -> list[Path]:
    """Any plan as `<stem>.pdf` and `<stem>[-pN].svg`, in the formats the build asks for; a
    translation draft's pages say so in their margin (draft.py)."""
    written: list[Path] = []
    note = draft_note(drawer.game, pages)
    kinds = [kind for kind in ("pdf", "svg") if kind in ctx.formats]
    if not kinds:
        return written
    # With both formats the faces are laid out (text fitted, colours and symbols resolved) once and
    # the same calls made on each format's surface: drawing a sheet anew per format did that work
    # twice. With one, it is drawn straight on its surface (a recording would only add its cost).
    surfaces = [open_surface(kind, title=title) for kind in kinds]
    rec = Recording(any_surface=True) if len(kinds) > 1 else None
    if draw_pages(rec or surfaces[0], pages, drawer, note):
        drawer.note(f"{stem}: a page printed to the paper's edge (no free margin) does not say it is a translation draft")
    for kind, s in zip(kinds, surfaces):
        if rec is not None:
            rec.replay(s)
        # the PDF's recorded calls go to preflight with it, which judges it from them (pieces/drawn.py);
        # a build without preflight keeps no record (a big deck's holds millions of calls) and
        # imports none of the reader's modules (numpy)
        if kind == "pdf" and ctx.preflight:
            from .drawn import save_pdf

            written += save_pdf(s, rec, out_dir / f"{stem}.pdf")
        else:
            written += s.save(out_dir / f"{stem}.{kind}")
    return written


@fewer_collections()
def write_pngs(folder: Path, grid: SheetGrid, pieces: list[Piece], drawer: FaceDrawer, dpi: int = 300) -> list[Path]:
    """One PNG per distinct front (by item) and per distinct back, each with its bleed."""
    written: list[Path] = []
    seen_fronts: set[str] = set()
    seen_backs: dict[tuple, str] = {}
    b = grid.bleed
    for p in pieces:
        w, h = p.size or (grid.piece_w, grid.piece_h)
        trim = Box(b, b, w, h)
        size = (w + 2 * b, h + 2 * b)
        if p.item.id not in seen_fronts:
            seen_fronts.add(p.item.id)
            written += _png(folder / f"{p.item.id}.png", size,
                            lambda s: draw_placement(s, Placement(p, "front", trim, b), drawer), dpi)
        if p.has_back_page and p.back_key not in seen_backs:
            # The deck's common back is back.png; any other back is named after its item.
            name = "back.png" if not p.own_back and "back.png" not in seen_backs.values() else f"{p.item.id}-back.png"
            seen_backs[p.back_key] = name
            written += _png(folder / name, size, lambda s: draw_placement(s, Placement(p, "back", trim, b), drawer), dpi)
    return written


def _png(target: Path, size: tuple[float, float], draw: Callable[[Surface], None], dpi: int) -> list[Path]:
    """One face's PNG: its drawing recorded, drawn and encoded once for equal faces (render/record.py)."""
    rec = Recording()
    rec.begin_page(*size)
    draw(rec)
    rec.end_page()
    return png_once(rec, target, dpi)
