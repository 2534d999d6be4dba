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
from solver.model import size_mm

from .cards.deck import DEFAULT_COUNTER, build_sheets
from .cards.sheet import plan_sheet
from .context import BuildContext


def counter_grid(ctx: BuildContext, size: tuple[float, float], gutter: float):
    bleed = min(ctx.bleed_mm, gutter / 2)
    return plan_sheet(ctx.paper_mm, size, bleed, gutter - 2 * bleed)


def build_counters(game: Game, ctx: BuildContext) -> list[Path]:
    """Stage `counters`: output/<game>/counters-<sheet>-<lang>.pdf, .svg pages and PNGs."""
    return build_sheets(game, ctx, "counters", DEFAULT_COUNTER, lambda comp, cl: counter_grid(
        ctx, size_mm(comp.size) or size_mm("half-inch"), cl.gutter_mm or 0.0), back_shows_front=True)
