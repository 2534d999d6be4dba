"""The `counters` build stage: double-sided counter sheets (½″, ⅝″, 1″ presets or mm sizes).

Every component of kind `counters` or `chits` (or marked `print_as: counters` in layouts.yaml) becomes `counters-<component>-<lang>.pdf` (+ SVG pages and
PNG per counter side). Fronts show `item.front`, backs `item.back` (a unit stepping down to its
reduced side, a Nazgûl's other face); a counter without a back face shows the component's
common back, or its front data again. Backs follow the same duplex rules as cards.

Counters usually touch their neighbours (gutter 0): then there is no bleed, since a neighbour
is where a bleed would go; with a gutter from layouts.yaml (`gutter_mm`) each counter gets a
bleed of up to half the gutter, capped by --bleed.
"""
from __future__ import annotations

from pathlib import Path

from solver.loader import Game
from solver.model import pick, size_mm

from .cards.deck import DEFAULT_COUNTER, deck_pieces, layouts_for, layouts_of, printable_items, sheet_of
from .cards.face import FaceDrawer
from .cards.printing import write_outputs
from .cards.sheet import plan_sheet
from .context import BuildContext



def counter_grid(ctx: BuildContext, size: tuple[float, float], gutter: float):
    bleed = min(ctx.bleed_mm, gutter / 2)
    return plan_sheet(ctx.paper_mm, size, bleed, gutter - 2 * bleed)


def build_counters(game: Game, ctx: BuildContext) -> list[Path]:
    lang = ctx.language(game.meta.source_language)
    layouts = layouts_of(game)
    drawer = FaceDrawer(layouts, game.folder, ctx.warn)
    out = ctx.out_dir(game.id)
    written: list[Path] = []
    for comp in game.components:
        if sheet_of(layouts, comp) != "counters" or not printable_items(comp):
            continue
        cl = layouts_for(layouts, comp, DEFAULT_COUNTER)
        pieces = deck_pieces(game, comp, lang, ctx, cl, back_shows_front=True)
        if not pieces:
            continue
        size = size_mm(comp.size) or size_mm("half-inch")
        grid = counter_grid(ctx, size, cl.gutter_mm or 0.0)
        title = f"{pick(game.meta.title, lang)} — {pick(comp.name, lang)}"
        written += write_outputs(f"counters-{comp.id}-{lang}", out, grid, pieces, drawer, ctx, title, comp.id)
    return written
