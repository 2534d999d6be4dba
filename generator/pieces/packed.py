"""The packed print (`--layout packed`): every card, counter, token, tile, standee, tuck box and die net of a game on
the fewest sheets of the paper, as `SheetPage`s that render.py draws like any other plan.

The pieces are the ones each printer prints (the same copies, layouts, bleed and gutter as on its own
sheets); pack.py places them in strips, columns and stacks cut by guillotine. Marks: the cuts across
the whole sheet (between strips) in the paper's margin, as on a grid; the cuts inside a strip as
short ticks in the bleed, which the cut throws away, drawn over the art with a white edge (between
columns at the strip's top and bottom edge; each column's trim lines at its edges, like a
one-column grid's crop marks). Duplex: a backs page behind every fronts page, each back at the mirror
of its front across the flip edge (grid.back_box), the printer's back offset applied; with
gutterfold, fronts left of the fold line and backs mirrored right of it, as on gutterfold sheets.

`packed-<lang>.pdf` (`packed-<lang>-gutterfold.pdf`); `sheet_figures` gives the manifest's
`sheets:` block: sheets printed one component at a time, packed, and the area bound (the pieces'
area with bleed over one sheet's printable area, rounded up).
"""
from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..context import PRINTER_MARGIN_MM, BuildContext
from ..geometry import Box
from .grid import FOLD_GAP_MM, GUTTERFOLD_MARK_MM, MARK_GAP_MM, MARK_LEN_MM, MARK_MIN_LEN_MM, SheetGrid, \
    back_box, plan_gutterfold
from .model import Piece, Placement, SheetPage, Stroke, Wedge
from .pack import Kind, Packing, Strip, pack, strip_height, strip_width
from .plan import FOLD_COLOUR, FOLD_DASH, MARK_COLOUR, MARK_WIDTH, crop_strokes

if TYPE_CHECKING:
    from solver.game.components import Component
    from solver.game.loader import Game

HALO_COLOUR, HALO_WIDTH = "#ffffff", 0.15  # a tick's white edge, so it shows on dark art
MIN_TICK_MM = 0.8                          # a band narrower than this (no bleed, no gutter) gets no tick
TICK_BASE_MM = 0.7                         # a tick's width where it starts, at the band's outer edge
TICK_CLEAR_MM = 0.25                       # between a tick's point and the trim

Group = tuple[str, list[Piece], SheetGrid]  # a component's id, its pieces and the grid of its own sheets


def printed_groups(game: Game, ctx: BuildContext, lang: str) -> list[Group]:
    """Every component the card, counter and pieces stages print on sheets of their own (cards and
    each deck's tuck box, counters, tokens, tiles, standees, dice nets), with the same pieces and
    grid as there. Their warnings are the printers' own, said by their stages: not repeated here."""
    from ..cards.deck import counts_for, layouts_of, printable_items, sheet_of
    from ..coverage import printed_by_map

    quiet = dataclasses.replace(ctx, warnings=[])
    layouts = layouts_of(game)
    counts = counts_for(game, ctx)
    groups: list[Group] = []
    for comp in game.components:
        if printable_items(comp, counts) and not printed_by_map(game, comp):
            groups += component_groups(game, comp, sheet_of(layouts, comp), lang, quiet)
    return [g for g in groups if g[1]]


def component_groups(game: Game, comp: Component, printer: str, lang: str, ctx: BuildContext) -> list[Group]:
    """What one component prints on its own sheets, as the printer of its kind makes it."""
    from ..cards.deck import DEFAULT_CARD, DEFAULT_COUNTER, counts_for, deck_pieces, layouts_for, \
        layouts_of, piece_size
    from ..counters import counter_grid
    from .dice import dice_plan
    from .grid import plan_sheet
    from .punch import component_pieces, die_copies, die_layout
    from .tuckbox import TUCK_LAYOUT, boxed, tuck_plan

    layouts, counts = layouts_of(game), counts_for(game, ctx)
    if printer == "cards":
        cl = layouts_for(layouts, comp, DEFAULT_CARD)
        pieces = deck_pieces(game, comp, lang, ctx, cl, counts=counts)
        card = piece_size(comp, "cards")
        tuck, tuck_grid = tuck_plan(comp, len(pieces), card, lang, ctx, TUCK_LAYOUT, cl.back)
        return [(comp.id, pieces, plan_sheet(ctx.paper_mm, card, ctx.bleed_mm)),
                (f"{comp.id} (tuck box)", [tuck] if boxed(comp, len(pieces)) else [], tuck_grid)]
    if printer == "counters":
        cl = layouts_for(layouts, comp, DEFAULT_COUNTER)
        pieces = deck_pieces(game, comp, lang, ctx, cl, True, counts)
        return [(comp.id, pieces, counter_grid(ctx, piece_size(comp, "counters"), cl.gutter_mm))]
    if printer in ("tokens", "tiles", "standees"):
        return [(comp.id, *component_pieces(game, comp, printer, lang, ctx))]
    if printer == "dice" and comp.faces:
        return [(comp.id, *dice_plan(comp, die_copies(comp, counts), lang, ctx, die_layout(layouts, comp)))]
    return []


def kind_of(grid: SheetGrid) -> Kind:
    return Kind(grid.piece_w, grid.piece_h, grid.bleed, grid.gutter)


def regions(ctx: BuildContext) -> tuple[tuple[float, float], tuple[float, float]]:
    """The area strips may take, portrait and landscape: the paper less the printer's margin and
    room for crop marks (as on a grid); with gutterfold, the half left of the fold."""
    reserve = PRINTER_MARGIN_MM + MARK_GAP_MM + MARK_LEN_MM
    w, h = ctx.paper_mm
    if ctx.sheet_layout == "gutterfold":
        reserve = PRINTER_MARGIN_MM + MARK_GAP_MM + GUTTERFOLD_MARK_MM
        return ((w / 2 - FOLD_GAP_MM / 2 - reserve, h - 2 * reserve),
                (h / 2 - FOLD_GAP_MM / 2 - reserve, w - 2 * reserve))
    return ((w - 2 * reserve, h - 2 * reserve), (h - 2 * reserve, w - 2 * reserve))


def problem(groups: list[Group], ctx: BuildContext) -> tuple[tuple[Kind, ...], list[list[Piece]], list[Group]]:
    """The kinds that fit a sheet either way (in first-seen order) with their pieces in print order,
    and the groups too large to pack (left on their own sheets)."""
    portrait, landscape = regions(ctx)
    kinds: list[Kind] = []
    pieces: list[list[Piece]] = []
    too_large: list[Group] = []
    for group in groups:
        k = kind_of(group[2])
        if not all(k.fw <= w and k.fh <= h for w, h in (portrait, landscape)):
            too_large.append(group)
            continue
        if k not in kinds:
            kinds.append(k)
            pieces.append([])
        pieces[kinds.index(k)] += group[1]
    return tuple(kinds), pieces, too_large


def own_sheets(group: Group, ctx: BuildContext) -> int:
    """The sheets (of paper, both sides) the component takes on its own grid."""
    _, pieces, grid = group
    per_page = grid.per_page
    if ctx.sheet_layout == "gutterfold":
        per_page = plan_gutterfold(ctx.paper_mm, (grid.piece_w, grid.piece_h), grid.bleed, grid.gutter).per_page
    return math.ceil(len(pieces) / per_page)


def area_bound(kinds: tuple[Kind, ...], pieces: list[list[Piece]], ctx: BuildContext) -> int:
    """The pieces' area with bleed over one sheet's printable area (the paper less the printer's
    margin), rounded up: no layout can use fewer sheets."""
    w, h = ctx.paper_mm
    printable = (w - 2 * PRINTER_MARGIN_MM) * (h - 2 * PRINTER_MARGIN_MM)
    if ctx.sheet_layout == "gutterfold":
        printable = printable / 2  # the backs take the other half
    area = sum((k.w + 2 * k.bleed) * (k.h + 2 * k.bleed) * len(p) for k, p in zip(kinds, pieces))
    return math.ceil(round(area / printable, 9))


def packing(game: Game, ctx: BuildContext, lang: str) -> tuple[Packing, tuple[Kind, ...], list[list[Piece]], dict[str, Any]]:
    """The packing of the game's pieces and the manifest's figures for it."""
    groups = printed_groups(game, ctx, lang)
    kinds, pieces, too_large = problem(groups, ctx)
    result = pack(kinds, tuple(len(p) for p in pieces), regions(ctx))
    figures: dict[str, Any] = {"per_component": sum(own_sheets(g, ctx) for g in groups),
               "packed": len(result.sheets) + sum(own_sheets(g, ctx) for g in too_large),
               "area_bound": area_bound(kinds, pieces, ctx)}
    if too_large:
        figures["not_packed"] = [g[0] for g in too_large]
    return result, kinds, pieces, figures


def sheet_figures(game: Game, ctx: BuildContext) -> dict[str, Any]:
    """manifest.json's `sheets:` block (the source language's pieces: sizes do not depend on it)."""
    return packing(game, ctx, game.meta.source_language)[3]


# --------------------------------------------------------------------------- pages

@dataclasses.dataclass(frozen=True)
class Laid:
    """A sheet's fronts: each piece's trim (page mm) and the ticks over them, on a page of w x h."""
    width: float
    height: float
    placed: tuple[tuple[Piece, Box, float], ...]   # piece, trim, bleed
    margin: tuple[Stroke, ...]
    ticks: tuple[Wedge, ...]


def lay_sheet(strips: tuple[Strip, ...], kinds: tuple[Kind, ...], queues: list[Iterator[Piece]],
              page: tuple[float, float], ctx: BuildContext) -> Laid:
    """One sheet's pieces at their places: the strips' block centred on the page (against the
    fold with gutterfold), strips top to bottom, columns left to right, stacks top down."""
    block_w = max(strip_width(kinds, st) for st in strips)
    block_h = sum(strip_height(kinds, st) for st in strips)
    pw, ph = page
    gutterfold = ctx.sheet_layout == "gutterfold"
    ox = pw / 2 - FOLD_GAP_MM / 2 - block_w if gutterfold else (pw - block_w) / 2
    oy = (ph - block_h) / 2
    placed: list[tuple[Piece, Box, float]] = []
    ticks: list[Wedge] = []
    seams: list[float] = []
    y = oy
    for st in strips:
        x, height = ox, strip_height(kinds, st)
        for i, col in enumerate(st.columns):
            k = kinds[col.kind]
            for n in range(col.count):
                trim = Box(x + k.band, y + n * k.fh + k.band, k.w, k.h)
                placed.append((next(queues[col.kind]), trim, k.bleed))
            ticks += column_ticks(Box(x, y, k.fw, col.count * k.fh), k)
            if i:
                ticks += seam_ticks(x, y, height, min(k.band, kinds[st.columns[i - 1].kind].band))
            x += k.fw
        y += height
        seams.append(y)
    margin = margin_marks(Box(ox, oy, block_w, block_h), seams[:-1], pw, gutterfold)
    return Laid(pw, ph, tuple(placed), margin, tuple(ticks))


def tick(x1: float, y1: float, x2: float, y2: float) -> list[Wedge]:
    """A cut tick over the bleed: a black wedge with a white edge, from (x1, y1) on the
    footprint's edge along the cut line, its point short of the trim at (x2, y2)."""
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    tip = (x1 + ux * (length - TICK_CLEAR_MM), y1 + uy * (length - TICK_CLEAR_MM))
    half = TICK_BASE_MM / 2
    return [Wedge(((x1 - uy * half, y1 + ux * half), (x1 + uy * half, y1 - ux * half), tip),
                  MARK_COLOUR, HALO_COLOUR, HALO_WIDTH)]


def column_ticks(col: Box, k: Kind) -> list[Wedge]:
    """A column's trim lines, marked in its bleed band at its four edges (its one-column grid's
    crop marks), each wedge pointing from the band's outer edge towards the trim."""
    length = min(k.band, MARK_LEN_MM)
    if length < MIN_TICK_MM:
        return []
    out: list[Wedge] = []
    for x in (col.x + k.band, col.right - k.band):
        out += tick(x, col.y, x, col.y + length) + tick(x, col.bottom, x, col.bottom - length)
    for n in range(round(col.h / k.fh)):
        for y in (col.y + n * k.fh + k.band, col.y + (n + 1) * k.fh - k.band):
            out += tick(col.x, y, col.x + length, y) + tick(col.right, y, col.right - length, y)
    return out


def seam_ticks(x: float, top: float, height: float, band: float) -> list[Wedge]:
    """Where two columns of a strip part: a tick at the strip's top and bottom edge."""
    length = min(band, MARK_LEN_MM)
    if length < MIN_TICK_MM:
        return []
    return tick(x, top, x, top + length) + tick(x, top + height, x, top + height - length)


def margin_marks(block: Box, seams: list[float], pw: float, gutterfold: bool) -> tuple[Stroke, ...]:
    """The cuts across the whole sheet, between strips, marked in the margin left and right of the
    block (with gutterfold: left of the fronts and, mirrored, right of the backs)."""
    room = block.x - PRINTER_MARGIN_MM - MARK_GAP_MM
    length = max(MARK_MIN_LEN_MM, min(MARK_LEN_MM, room))
    left = [(block.x - MARK_GAP_MM - length, y, block.x - MARK_GAP_MM, y) for y in seams]
    if gutterfold:
        right = [(pw - x2, y, pw - x1, y) for x1, y, x2, _ in left]
    else:
        right = [(block.right + MARK_GAP_MM, y, block.right + MARK_GAP_MM + length, y) for y in seams]
    return crop_strokes(left + right)


def sheet_pages(laid: Laid, ctx: BuildContext, backs: bool) -> list[SheetPage]:
    """A sheet's fronts page and, with `backs`, its backs page (duplex: each back behind its front);
    with gutterfold, one page: fronts, their backs mirrored about the fold line, and the line."""
    fronts = [Placement(p, "front", trim, b) for p, trim, b in laid.placed]
    if ctx.sheet_layout == "gutterfold":
        fold_x = laid.width / 2
        mirrored = [Placement(p, "back", Box(2 * fold_x - t.right, t.y, t.w, t.h), b)
                    for p, t, b in laid.placed if p.has_back_page]
        top = min(t.y - b for _, t, b in laid.placed)
        bottom = max(t.bottom + b for _, t, b in laid.placed)
        fold = Stroke(fold_x, top, fold_x, bottom, FOLD_COLOUR, MARK_WIDTH, FOLD_DASH)
        return [SheetPage(laid.width, laid.height, tuple(fronts + mirrored), laid.margin + (fold,), overlay=laid.ticks)]
    pages = [SheetPage(laid.width, laid.height, tuple(fronts), laid.margin, overlay=laid.ticks)]
    if backs:
        placed = tuple(Placement(p, "back", back_box(t, laid.width, laid.height, ctx.flip, ctx.back_offset_mm), b)
                       for p, t, b in laid.placed if p.has_back_page)
        pages.append(SheetPage(laid.width, laid.height, placed))
    return pages


def packed_pages(game: Game, ctx: BuildContext, lang: str) -> tuple[list[SheetPage], dict[str, Any]]:
    """Every packed sheet's pages in print order, and the manifest's figures."""
    result, kinds, pieces, figures = packing(game, ctx, lang)
    queues = [iter(p) for p in pieces]
    w, h = ctx.paper_mm
    backs = any(p.has_back_page for group in pieces for p in group)
    pages: list[SheetPage] = []
    for landscape, strips in result.sheets:
        page = (h, w) if landscape else (w, h)
        pages += sheet_pages(lay_sheet(strips, kinds, queues, page, ctx), ctx, backs)
    return pages, figures


def packed_stem(lang: str, ctx: BuildContext) -> str:
    """The packed print's file name without .pdf."""
    return f"packed-{lang}" + ("-gutterfold" if ctx.sheet_layout == "gutterfold" else "")


def build_packed(game: Game, ctx: BuildContext) -> list[Path]:
    """Stage `packed` (with --layout packed): output/<game>/packed-<lang>.pdf (-gutterfold.pdf)."""
    from solver.game.base import pick

    from ..cards.face import FaceDrawer
    from ..cards.deck import layouts_of
    from .render import write_pages

    if not ctx.packed:
        return []
    lang = ctx.language(game.meta.source_language)
    pages, _ = packed_pages(game, ctx, lang)
    if not pages:
        return []
    drawer = FaceDrawer(layouts_of(game), game.folder, ctx.warn, game)
    stem = packed_stem(lang, ctx)
    pdf_only = dataclasses.replace(ctx, formats=("pdf",))
    return write_pages(stem, ctx.out_dir(game.id), pages, drawer, pdf_only, f"{pick(game.meta.title, lang)} — packed")
