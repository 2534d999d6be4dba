"""The `counters` build stage: double-sided counter sheets (½″, ⅝″, 1″ presets or mm sizes).

Every component of kind `counters` or `chits` (or marked `print_as: counters` in layouts.yaml) becomes `counters-<component>-<lang>.pdf` (+ SVG pages and
PNG per counter side). Fronts show `item.front`, backs `item.back` (a unit stepping down to its
reduced side, a Nazgûl's other face); a counter without a back face shows the component's
common back, or its front data again. Backs follow the same duplex rules as cards.

Counters are cut apart like cards: by default a gutter of 3 mm separates their trims and each
counter's art bleeds 1.5 mm into it (up to --bleed), so a cut 1 mm off still shows the counter's own
colour. `gutter_mm` in layouts.yaml sets another gutter (bleed: half of it, capped by --bleed);
`gutter_mm: 0` lays counters edge to edge with no bleed, the classic wargame sheet cut with one
stroke per line, where a cut off the line shows the neighbour's edge.
"""
from __future__ import annotations

from pathlib import Path

from solver.game.loader import Game

from .cards.deck import DEFAULT_COUNTER, build_sheets, piece_size
from .pieces.grid import SheetGrid, plan_sheet
from .context import BuildContext


COUNTER_GUTTER_MM = 3.0


def counter_grid(ctx: BuildContext, size: tuple[float, float], gutter: float | None) -> SheetGrid:
    """The sheet grid of counters of `size` mm; `gutter` None is the default gutter."""
    gutter = COUNTER_GUTTER_MM if gutter is None else gutter
    bleed = min(ctx.bleed_mm, gutter / 2)
    return plan_sheet(ctx.paper_mm, size, bleed, gutter - 2 * bleed)


def build_counters(game: Game, ctx: BuildContext) -> list[Path]:
    """Stage `counters`: output/<game>/counters-<sheet>-<lang>.pdf, .svg pages and PNGs."""
    return build_sheets(game, ctx, "counters", DEFAULT_COUNTER, lambda comp, cl: counter_grid(
        ctx, piece_size(comp, "counters"), cl.gutter_mm), back_shows_front=True)
