"""Boards and sheets (player aids, control sheets, charts): one page of the component's size per
copy, drawn through the layout vocabulary (built-in `board-basic`: the name, attributes and note;
a layout adds boxes, tracks, areas, text and images). A board that fits the build's paper prints
on it, centred, with crop marks; else it is the page (no bleed, no marks, like a rulebook page),
and when it is larger than the paper (generator/hexmap/tiling.py `tiles_paper`, what the
map stage asks too) it is also tiled with the map's tiling and assembly machinery
(generator/hexmap/tiling.py, tiles.py: overlapping sheets, guide lines, an assembly page):
`boards-<component>-<lang>.pdf` (+ SVG pages and a PNG per face), or for a tiled board
`boards-<component>-<lang>-tiles-<paper>.pdf` beside the full-size PDF.
"""
from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

from solver.game.base import pick
from solver.game.components import Component
from solver.game.loader import Game

from .. import fonts
from ..cards.deck import counts_for, deck_pieces, layouts_for, layouts_of
from ..cards.face import FaceDrawer
from ..context import PAPER_MM, BuildContext
from ..geometry import Box
from ..hexmap.tiles import TiledPage, draw_tiled
from ..hexmap.tiling import tile_plan, tiles_paper
from .draft import draft_note
from .grid import plan_sheet
from .model import Placement, SheetPage
from .punch import default_layout, printer_size
from .render import draw_placement, write_outputs, write_pages, write_pngs

BOARD_PNG_DPI = 100  # a screen preview, like the map's; print from the PDF


def write_board(game: Game, comp: Component, lang: str, ctx: BuildContext, drawer: FaceDrawer, title: str) -> list[Path]:
    """Every copy of a board or sheet: the page itself when it is the paper's size (an A4 player
    aid on A4), on the paper with crop marks when it fits, else full size and tiled."""
    cl = layouts_for(layouts_of(game), comp, default_layout(comp, "boards"))
    pieces = deck_pieces(game, comp, lang, ctx, cl, counts=counts_for(game, ctx))
    if not pieces:
        return []
    w, h = printer_size(comp, "boards")
    grid = plan_sheet(ctx.paper_mm, (w, h), ctx.bleed_mm)
    stem = f"boards-{comp.id}-{lang}"
    out = ctx.out_dir(game.id)
    png_dir = out / "png" / (comp.id if lang == game.meta.source_language else f"{comp.id}-{lang}")
    if fits(grid.page_w, grid.page_h, (w, h), ctx.bleed_mm):
        return write_outputs(stem, out, grid, pieces, drawer, ctx, title, png_dir.name)
    # The page is the finished size (MediaBox only, like a rulebook page): no bleed, no marks.
    pages = [SheetPage(w, h, (Placement(p, "front", Box(0, 0, w, h), 0.0),)) for p in pieces]
    written = write_pages(stem, out, pages, drawer, ctx, title)
    if "png" in ctx.formats:
        written += write_pngs(png_dir, dataclasses.replace(grid, bleed=0.0, piece_w=w, piece_h=h), pieces, drawer,
                              dpi=BOARD_PNG_DPI)
    paper = tiles_paper((w, h), ctx.paper)
    if paper is None:
        return written
    # Larger than the paper: tiled onto A4/Letter, one tiled file per distinct board.
    plan = tile_plan(Box(0, 0, w, h), PAPER_MM[paper])
    faces = fonts.faces(lang, game)
    # the full-size PDF draws each board's page: preflight judges the board's text there
    # (generator/tileflight.py), unless a draft's note drawn on it might hide some
    twin = f"{stem}.pdf" if "pdf" in ctx.formats and ctx.preflight and draft_note(game, pages) is None else None
    seen: set[str] = set()
    for p in pieces:
        if p.item.id in seen:
            continue
        seen.add(p.item.id)
        page = TiledPage(w, h, pick(p.item.name or comp.name, lang), lambda s: None,
                         partial(draw_placement, pl=Placement(p, "front", Box(0, 0, w, h), 0.0), drawer=drawer))
        part = "" if p.item.id == comp.id else f"-{p.item.id}"
        written += draw_tiled(page, plan, lang, faces, out / f"{stem}{part}-tiles-{paper}.pdf", f"{title} — tiles", twin)
    return written


def fits(page_w: float, page_h: float, size: tuple[float, float], bleed: float) -> bool:
    """Whether a piece of `size` with its bleed and crop marks fits the paper (either way round)."""
    from ..context import PRINTER_MARGIN_MM
    from .grid import MARK_GAP_MM, MARK_MIN_LEN_MM

    reserve = 2 * (PRINTER_MARGIN_MM + MARK_GAP_MM + MARK_MIN_LEN_MM + bleed)
    w, h = size
    return (w + reserve <= page_w and h + reserve <= page_h) or (h + reserve <= page_w and w + reserve <= page_h)


