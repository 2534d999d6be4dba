"""The `pieces` build stage: every component printed as tokens and chips (round or square
punch-outs), tiles, standees (fold-over pawns) or boards and sheets, drawn from data through the
one layout vocabulary, with built-in default layouts (`token-basic`, `tile-basic`,
`standee-basic`, `board-basic`) so a component with no layout still prints its name and
attributes.

- tokens, tiles: one piece per copy, cut as the component's `shape` says (round: a disc in the
  size's square, with a thin cut circle; square; rounded), a gutter of 3 mm with 1.5 mm bleed, and a
  backs page registered behind the fronts when the component or its items have a back face
  (`back:`) or layouts.yaml names a back layout;
- standees: a fold-over pawn, a net of the front panel and the back panel side by side: the back
  is the front's mirror image about the dashed vertical fold line, so folded and glued (unprinted
  sides together) it stands behind the front, upright; a base tab under each panel, folded out
  along its dashed line, one forward and one back, makes the foot. The slot between the tabs
  is cut (solid line) so they part;
- boards and sheets: one page of the board's size (boards.py), tiled onto the build's paper with
  the map's assembly machinery when larger;
- dice with `faces:`: a fold-and-glue net per copy (dice.py); a die without is a standard one.

Files: `<printer>-<component>-<lang>.pdf` (tokens-, tiles-, standees-, boards-, dice-) with SVG pages and
a PNG per face, like the card and counter sheets.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from solver.game.components import Component, size_mm
from solver.game.layouts import ComponentLayout, LayoutsFile
from solver.game.loader import Game

from ..cards.deck import Counts, SheetStage, counts_for, deck_pieces, layouts_for, layouts_of, printable_items, sheet_of
from ..context import BuildContext
from ..geometry import Box
from .grid import SheetGrid, plan_sheet
from .model import Mark, Outline, Panel, Piece
from .render import write_outputs

PUNCH_PRINTERS = ("tokens", "tiles", "standees", "boards", "dice")
PUNCH_GUTTER_MM = 3.0
STANDEE_TAB_MM = 12.0      # the base tab under each panel of a standee
ROUNDED_MM = 2.0
DEFAULT_SIZE_MM = {"tokens": (20.0, 20.0), "tiles": (30.0, 30.0), "standees": (25.0, 40.0), "boards": (210.0, 297.0)}
DEFAULT_LAYOUT = {"tokens": "token-basic", "tiles": "tile-basic", "standees": "standee-basic", "boards": "board-basic"}

def printer_size(comp: Component, printer: str) -> tuple[float, float]:
    """The trim size in mm of one piece (a standee: of one panel)."""
    return size_mm(comp.size) or DEFAULT_SIZE_MM[printer]

def outline_of(comp: Component, printer: str) -> Outline:
    shape = comp.shape or ("round" if printer == "tokens" else "square")
    if shape == "round":
        return Outline("circle")
    return Outline("rounded", ROUNDED_MM) if shape == "rounded" else Outline("rect")

def default_layout(comp: Component, printer: str) -> ComponentLayout:
    """The built-in layouts of the printer; a back only where the data gives a back face
    (standees always show their back panel: the front's data again when no back is given)."""
    lid = DEFAULT_LAYOUT[printer]
    has_back = comp.back is not None or any(i.back is not None for i in comp.items) or printer == "standees"
    return ComponentLayout(front=lid, back=lid if has_back else None)

def punch_grid(ctx: BuildContext, size: tuple[float, float]) -> SheetGrid:
    bleed = min(ctx.bleed_mm, PUNCH_GUTTER_MM / 2)
    return plan_sheet(ctx.paper_mm, size, bleed, PUNCH_GUTTER_MM - 2 * bleed)

def standee(p: Piece, w: float, h: float) -> Piece:
    """The fold-over net of one pawn: front panel at the left, back panel mirrored about the fold
    at x = w (drawn upright: turning the folded pawn round mirrors it back), a base tab under each."""
    t = STANDEE_TAB_MM
    back_layout = p.back_layout or p.front_layout
    back = p.back or p.front
    panels = (Panel(p.front_layout, p.front, Box(0, 0, w, h)), Panel(back_layout, back, Box(w, 0, w, h)))
    marks = (Mark("fold", ((w, 0), (w, h))),            # fold: back behind front
             Mark("fold", ((0, h), (w, h))), Mark("fold", ((w, h), (2 * w, h))),  # tabs fold out
             Mark("cut", ((w, h), (w, h + t))))          # the tabs part at the middle
    outline = Outline("polygon", points=((0, 0), (2 * w, 0), (2 * w, h + t), (0, h + t)))
    return dataclasses.replace(p, back_layout=None, back=None, size=(2 * w, h + t), outline=outline,
                               panels=panels, marks=marks, cut_line=True)

def component_pieces(game: Game, comp: Component, printer: str, lang: str, ctx: BuildContext) -> tuple[list[Piece], SheetGrid]:
    """Every copy of the component as pieces of `printer`, and the grid that holds them."""
    layouts = layouts_of(game)
    cl = layouts_for(layouts, comp, default_layout(comp, printer))
    pieces = deck_pieces(game, comp, lang, ctx, cl, back_shows_front=False, counts=counts_for(game, ctx))
    w, h = printer_size(comp, printer)
    if printer == "standees":
        pieces = [standee(p, w, h) for p in pieces]
        return pieces, punch_grid(ctx, (2 * w, h + STANDEE_TAB_MM))
    outline = outline_of(comp, printer)
    pieces = [dataclasses.replace(p, size=(w, h), outline=outline, cut_line=outline.shape != "rect") for p in pieces]
    return pieces, punch_grid(ctx, (w, h))

def die_copies(comp: Component, counts: Counts) -> int:
    """The nets to print of a die with faces: its stated or proposed count."""
    return counts.get((comp.id, comp.id), (comp.count, False))[0] or 0


def die_layout(layouts: LayoutsFile, comp: Component) -> str:
    from .dice import DIE_LAYOUT
    return layouts_for(layouts, comp, ComponentLayout(front=DIE_LAYOUT)).front or DIE_LAYOUT


def build_pieces(game: Game, ctx: BuildContext) -> list[Path]:
    """Stage `pieces`: tokens-, tiles-, standees- and boards-<component>-<lang>.pdf, SVG pages, PNGs."""
    from ..coverage import printed_by_map
    from .boards import write_board
    from .dice import write_dice

    st = SheetStage.of(game, ctx)
    written: list[Path] = []
    for comp in game.components:
        printer = sheet_of(st.layouts, comp)
        if printer not in PUNCH_PRINTERS or not printable_items(comp, st.counts) or printed_by_map(game, comp):
            continue
        if printer == "boards":
            written += write_board(game, comp, st.lang, ctx, st.drawer, st.title(comp))
            continue
        if printer == "dice":
            if comp.faces:  # a die without faces is a standard one: left out (generator/coverage.py)
                written += write_dice(comp, die_copies(comp, st.counts), st.lang, ctx, st.drawer, st.title(comp),
                                      die_layout(st.layouts, comp), st.out)
            continue
        pieces, grid = component_pieces(game, comp, printer, st.lang, ctx)
        if not pieces:
            continue
        written += write_outputs(f"{printer}-{comp.id}-{st.lang}", st.out, grid, pieces, st.drawer, ctx,
                                 st.title(comp), st.png_dir(comp))
    return written

__all__ = ["build_pieces", "component_pieces", "PUNCH_PRINTERS"]
