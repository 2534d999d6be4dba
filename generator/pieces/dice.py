"""Dice whose faces are not a standard die's: a fold-and-glue net of a six-sided die, one per copy.

A die component with `faces:` (six of them, in order: the first on top) prints as a cross of six
squares (components.yaml `size`: the edge, default `DEFAULT_EDGE_MM`); each face is drawn through
the layout vocabulary (built-in `die-face-basic`: its label or values, large; layouts.yaml `front` another) from its `Face`.
Opposite faces sit in line (1 and 6, 2 and 5, 3 and 4), as on a die. Glue tabs on seven edges; dashed
lines fold, solid lines cut. A die without `faces:` is a standard die and is left out with that reason.
`dice-<component>-<lang>.pdf` (+ SVG).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from solver.game.components import Component, Item, size_mm

from ..cards.face import FaceData
from ..geometry import Box
from .grid import SheetGrid, plan_sheet
from .model import Mark, Outline, Panel, Piece, Point
from .plan import grid_pages
from .render import write_pages

if TYPE_CHECKING:
    from ..cards.face import FaceDrawer
    from ..context import BuildContext

DEFAULT_EDGE_MM = 16.0
DIE_LAYOUT = "die-face-basic"
NET_BLEED_MM = 1.0
# (column, row) of faces 1..6 in the cross: 1 in the middle, 6 opposite it, 2/5 and 4/3 in line
CROSS = [(1, 1), (1, 0), (2, 1), (0, 1), (1, 2), (3, 1)]
# the free edges that carry a glue tab: (face index, side)
TABS = [(3, "top"), (2, "top"), (5, "top"), (3, "bottom"), (2, "bottom"), (5, "bottom"), (5, "right")]


def edge(col: int, row: int, side: str, s: float, o: float) -> tuple[Point, Point]:
    x, y = o + col * s, o + row * s
    return {"top": ((x, y), (x + s, y)), "bottom": ((x, y + s), (x + s, y + s)),
            "left": ((x, y), (x, y + s)), "right": ((x + s, y), (x + s, y + s))}[side]


def tab(a: Point, b: Point, side: str, t: float) -> tuple[Point, ...]:
    """A trapezoid glue tab outside the edge a-b, `t` deep, its ends slanted in by t."""
    dx, dy = {"top": (0, -t), "bottom": (0, t), "left": (-t, 0), "right": (t, 0)}[side]
    ux, uy = (b[0] - a[0]) / max(abs(b[0] - a[0]) + abs(b[1] - a[1]), 1e-9), (b[1] - a[1]) / max(abs(b[0] - a[0]) + abs(b[1] - a[1]), 1e-9)
    return (a, (a[0] + dx + ux * t, a[1] + dy + uy * t), (b[0] + dx - ux * t, b[1] + dy - uy * t), b)


def die_marks(s: float, t: float) -> tuple[Mark, ...]:
    """Folds on the shared edges and the tabs' bases, cuts round the rest."""
    cells = set(CROSS)
    marks: list[Mark] = []
    tabbed = {(CROSS[i], side) for i, side in TABS}
    for col, row in CROSS:
        for side, (dc, dr) in (("top", (0, -1)), ("bottom", (0, 1)), ("left", (-1, 0)), ("right", (1, 0))):
            a, b = edge(col, row, side, s, t)
            if (col + dc, row + dr) in cells:
                if side in ("bottom", "right"):  # each shared edge once
                    marks.append(Mark("fold", (a, b)))
            elif ((col, row), side) in tabbed:
                marks.append(Mark("fold", (a, b)))
                marks.append(Mark("cut", tab(a, b, side, t)))
            else:
                marks.append(Mark("cut", (a, b)))
    return tuple(marks)


def die_piece(comp: Component, lang: str, layout: str) -> Piece:
    s = (size_mm(comp.size) or (DEFAULT_EDGE_MM,))[0]
    t = min(5.0, s / 3)
    where = f"{comp.id} (die)"
    panels = tuple(Panel(layout, FaceData(None, comp, face, lang, f"{where} face {i + 1}"),
                         Box(t + col * s, t + row * s, s, s)) for i, ((col, row), face) in enumerate(zip(CROSS, comp.faces)))
    item = Item(id=f"{comp.id}-die", name=comp.name, count=1)
    return Piece(item, layout, None, panels[0].data, None, size=(4 * s + 2 * t, 3 * s + 2 * t),
                 outline=Outline("rect"), panels=panels, marks=die_marks(s, t))


def dice_plan(comp: Component, copies: int, lang: str, ctx: BuildContext, layout: str) -> tuple[list[Piece], SheetGrid]:
    """A net per copy and the grid of the die's own sheets (the packed print takes the same)."""
    piece = die_piece(comp, lang, layout)
    assert piece.size is not None
    return [piece] * copies, plan_sheet(ctx.paper_mm, piece.size, min(ctx.bleed_mm, NET_BLEED_MM), 2.0)


def write_dice(comp: Component, copies: int, lang: str, ctx: BuildContext, drawer: FaceDrawer, title: str,
               layout: str, out: Path) -> list[Path]:
    pieces, grid = dice_plan(comp, copies, lang, ctx, layout)
    pages = grid_pages(grid, pieces, marks=False)
    return write_pages(f"dice-{comp.id}-{lang}", out, pages, drawer, ctx, f"{title} — dice")
