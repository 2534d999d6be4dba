"""Tuck boxes: one per deck, a net cut from one sheet, folded and glued round the deck.

The inside is sized from the deck: the card's width and height plus `CLEARANCE_MM`, and a depth of
the printed copies times the card's thickness (components.yaml `card_thickness_mm`; default
`DEFAULT_THICKNESS_MM`, a 300 gsm card) plus the same clearance: within 1 mm of the deck every way.

The net, left to right: a glue flap, the back (the deck's back art, its own back layout), a side,
the front (the deck's name, built-in layout `tuck-basic`), a side. Above the back the
lid and its tuck flap, above each side a dust flap; below every panel a bottom flap. Dashed lines
fold, the outline and the slits between flaps are cut. `tuckbox-<deck>-<lang>.pdf` (+ SVG, PNG).

A deck gets its box when the box is at least `MIN_DEPTH_MM` deep (`boxed`): the sides of a box for
a few cards are too narrow to fold, and a sheet printed for one card is paper and ink for nothing.
components.yaml `tuck_box: true` or `false` decides otherwise; the manifest says which decks have none.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from solver.game.components import Component, Item


from ..geometry import Box
from .grid import SheetGrid, plan_sheet
from .model import Mark, Outline, Panel, Piece
from .plan import grid_pages
from .render import write_pages

from ..cards.facedata import FaceData

if TYPE_CHECKING:
    from ..cards.face import FaceDrawer
    from ..context import BuildContext

CLEARANCE_MM = 0.5        # inside the box, beyond the deck, every way
DEFAULT_THICKNESS_MM = 0.3  # a 300 gsm card (about 0.3 mm); components.yaml card_thickness_mm says otherwise
GLUE_MM = 8.0
TUCK_MM = 14.0
NET_BLEED_MM = 1.5         # the panels' art runs this far past their folds and the cut
TUCK_LAYOUT = "tuck-basic"
MIN_DEPTH_MM = 3.0         # 9 cards of 0.3 mm with the clearance: narrower sides do not fold by hand


@dataclass(frozen=True)
class TuckBox:
    """Inside sizes (mm) of the box for a deck of `cards` cards of `card` size."""
    width: float
    height: float
    depth: float

    @classmethod
    def for_deck(cls, card: tuple[float, float], cards: int, thickness: float | None) -> "TuckBox":
        t = DEFAULT_THICKNESS_MM if thickness is None else thickness
        return cls(card[0] + CLEARANCE_MM, card[1] + CLEARANCE_MM, max(cards, 1) * t + CLEARANCE_MM)

    @property
    def columns(self) -> list[float]:
        """x of the net's fold columns: glue | back | side | front | side."""
        g, w, d = GLUE_MM, self.width, self.depth
        return [0.0, g, g + w, g + w + d, g + 2 * w + d, g + 2 * w + 2 * d]

    @property
    def rows(self) -> list[float]:
        """y of the net's rows: tuck flap | lid (and dust flaps) | body | bottom flaps."""
        t, d, h = min(TUCK_MM, self.width / 3), self.depth, self.height
        return [0.0, t, t + d, t + d + h, t + 2 * d + h]

    @property
    def size(self) -> tuple[float, float]:
        return (self.columns[-1], self.rows[-1])

    def outline(self) -> Outline:
        a, b, c, d, e, f = self.columns
        y0, y1, y2, y3, y4 = self.rows
        pts = [(a, y2), (b, y2), (b, y0), (c, y0), (c, y1), (d, y1), (d, y2), (e, y2), (e, y1), (f, y1),
               (f, y4), (b, y4), (b, y3), (a, y3)]
        return Outline("polygon", points=tuple(pts))

    def marks(self) -> tuple[Mark, ...]:
        a, b, c, d, e, f = self.columns
        y0, y1, y2, y3, y4 = self.rows
        folds = [((x, y2), (x, y3)) for x in (b, c, d, e)]                     # the body's corners
        folds += [((b, y1), (c, y1)), ((b, y2), (c, y2)), ((c, y2), (d, y2)), ((e, y2), (f, y2)),  # lid, dust flaps
                  ((b, y3), (f, y3))]                                           # bottom flaps
        cuts = [((c, y1), (c, y2))] + [((x, y3), (x, y4)) for x in (c, d, e)]  # slits between flaps
        return tuple(Mark("fold", p) for p in folds) + tuple(Mark("cut", p) for p in cuts)

    def front(self) -> Box:
        _a, _b, _c, d, e, _f = self.columns
        return Box(d, self.rows[2], e - d, self.height)

    def back(self) -> Box:
        _a, b, c, *_ = self.columns
        return Box(b, self.rows[2], c - b, self.height)


def boxed(comp: Component, cards: int) -> bool:
    """Whether the deck's `cards` printed copies get a tuck box: `tuck_box:` when the data says,
    else when the box is at least MIN_DEPTH_MM deep."""
    if comp.tuck_box is not None:
        return comp.tuck_box and cards > 0
    return cards > 0 and TuckBox.for_deck((0.0, 0.0), cards, comp.card_thickness_mm).depth >= MIN_DEPTH_MM - 1e-9


def tuck_piece(comp: Component, box: TuckBox, lang: str, front_layout: str, back_layout: str | None) -> Piece:
    """The deck's tuck box: its name on the front panel, its back art (the deck's back layout and
    common back face) on the back panel."""
    where = f"{comp.id} (tuck box)"
    front = FaceData(None, comp, None, lang, where)
    panels = [Panel(front_layout, front, box.front())]
    if back_layout:
        panels.append(Panel(back_layout, FaceData(None, comp, comp.back, lang, where), box.back()))
    item = Item(id=f"{comp.id}-tuck-box", name=comp.name, count=1)
    return Piece(item, front_layout, None, front, None, size=box.size, outline=box.outline(),
                 panels=tuple(panels), marks=box.marks(), cut_line=True)


def tuck_plan(comp: Component, cards: int, card: tuple[float, float], lang: str, ctx: BuildContext,
              front_layout: str, back_layout: str | None) -> tuple[Piece, SheetGrid]:
    """The deck's tuck box and the grid of its own sheet (the packed print takes the same)."""
    box = TuckBox.for_deck(card, cards, comp.card_thickness_mm)
    piece = tuck_piece(comp, box, lang, front_layout, back_layout)
    return piece, plan_sheet(ctx.paper_mm, box.size, min(ctx.bleed_mm, NET_BLEED_MM))


def write_tuck_box(comp: Component, cards: int, card: tuple[float, float], lang: str, ctx: BuildContext,
                   drawer: FaceDrawer, title: str, front_layout: str, back_layout: str | None, out: Path) -> list[Path]:
    """`tuckbox-<deck>-<lang>.pdf` (+ SVG): the net of the deck's box on the build's paper."""
    piece, grid = tuck_plan(comp, cards, card, lang, ctx, front_layout, back_layout)
    pages = grid_pages(grid, [piece], marks=False)
    return write_pages(f"tuckbox-{comp.id}-{lang}", out, pages, drawer, ctx, f"{title} — tuck box")
