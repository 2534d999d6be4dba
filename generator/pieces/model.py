"""The piece-and-sheet model every printer shares: pure data in mm, nothing drawn here.

A `Piece` is one printed copy of something cut out of paper:
- `size`: its trim size (w, h) in mm (None: the size of the grid that places it);
- `outline`: the cut's shape inside that trim box: a rectangle, a rounded rectangle, a circle
  (the largest inside the box) or a polygon (a net: a standee, a die, a tuck box), in mm from the
  trim's top-left;
- its faces, each drawn through the one layout vocabulary (solver/game/layouts.py) by a
  `FaceDrawer`: `front_layout`/`front` on the front page, `back_layout`/`back` (optional) on the
  back page, registered behind the front after the duplex flip; or, for a net, `panels`: several
  faces drawn side by side on one side of the paper (a standee's front and its back, mirrored
  about the fold; the sides of a tuck box), each with its own layout, data and box in the piece;
- `marks`: fold lines, glue areas and cut slits drawn over the piece (standees, nets, boxes);
- `cut_line`: draw the outline as a thin line (round tokens, nets: what crop marks cannot show).

Copies are the same `Piece` repeated in a list (`[piece] * count`).

A `SheetPage` is one page of a plan: paper size, page boxes for the PDF (TrimBox/BleedBox when it
holds a single piece), the lines drawn on the paper itself (crop marks, a gutterfold's fold line),
and `Placement`s: a piece's side put at a trim box in page mm with its bleed. A plan is a list of
pages in print order (a fronts page, then its backs page, for duplex). generator/pieces/plan.py
makes plans from grids; generator/pieces/render.py draws any plan to PDF, SVG and PNG, so a packed
plan (pieces of different sizes on one sheet) only has to produce `SheetPage`s.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..geometry import Box

if TYPE_CHECKING:
    from solver.game.components import Item

    from ..cards.facedata import FaceData

Point = tuple[float, float]
Shape = Literal["rect", "rounded", "circle", "polygon"]
Side = Literal["front", "back"]


@dataclass(frozen=True)
class Outline:
    """Where the piece is cut, inside its trim box (mm from the trim's top-left for a polygon)."""
    shape: Shape = "rect"
    radius: float = 0.0                   # a rounded rectangle's corners
    points: tuple[Point, ...] = ()        # a polygon (a net's outline)

    def placed(self, trim: Box) -> list[Point]:
        """A polygon's points on the page, for a piece whose trim lands at `trim`."""
        return [(trim.x + x, trim.y + y) for x, y in self.points]


RECT = Outline()


@dataclass(frozen=True)
class Mark:
    """A line drawn on a piece: `fold` (dashed: fold here), `cut` (a slit to cut, solid), or
    `glue` (a hatched flap edge, drawn as a thin dotted line); points in mm from the trim's top-left."""
    kind: Literal["fold", "cut", "glue"]
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Panel:
    """One face of a net: `layout` drawn with `data` into `box` (mm, in the piece's frame)."""
    layout: str
    data: FaceData
    box: Box


@dataclass(frozen=True)
class Piece:
    """One printed copy: its item, the layouts of both sides and the data each side shows
    (see the module docstring for the rest)."""
    item: Item
    front_layout: str
    back_layout: str | None
    front: FaceData
    back: FaceData | None
    size: tuple[float, float] | None = None
    outline: Outline = RECT
    panels: tuple[Panel, ...] = ()
    marks: tuple[Mark, ...] = ()
    cut_line: bool = False

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

    @property
    def has_back_page(self) -> bool:
        """Whether the piece prints anything on the back page (a net prints all on the front)."""
        return bool(self.back_layout) and self.back is not None and not self.panels


@dataclass(frozen=True)
class Stroke:
    """A line on the paper itself (a crop mark, a fold line), page mm."""
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str
    width: float
    dash: tuple[float, float] | None = None


@dataclass(frozen=True)
class Wedge:
    """A small filled triangle on the paper, page mm: a packed sheet's cut tick in the bleed, its
    point on the line to cut (a shape, not a stroke, so no reader takes it for a margin crop mark)."""
    points: tuple[Point, Point, Point]
    fill: str
    stroke: str
    width: float


@dataclass(frozen=True)
class Placement:
    """A piece's `side` drawn with its trim at `trim` (page mm) and `bleed` mm of art around it."""
    piece: Piece
    side: Side
    trim: Box
    bleed: float


@dataclass(frozen=True)
class SheetPage:
    width: float
    height: float
    placements: tuple[Placement, ...]
    strokes: tuple[Stroke, ...] = ()
    trim: Box | None = None    # the PDF TrimBox/BleedBox of a page holding a single piece
    bleed: Box | None = None
    overlay: tuple[Wedge, ...] = ()  # drawn over the placements (a packed sheet's cut ticks in the bleed)
