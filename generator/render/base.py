"""The renderer interface: drawing primitives in millimetres, y down from the page's top-left.

Layout code computes boxes in mm and calls a `Surface`; each backend (PDF, SVG, PNG) converts
to its own units. Because every backend takes the same numbers, a sheet drawn to PDF and to SVG
agree on positions, and tests can assert layout numbers without rendering.

Conventions shared by every backend:
- colours are "#rrggbb" strings (None = no fill / no stroke);
- line widths and dash lengths are mm; font sizes are points (typographic custom);
- `text(x, y, ...)` puts the baseline at y; `align` says whether x is the left end, centre or right end;
  `font` is a font name from generator/fonts.py (`fonts.faces(lang, game)`), the project font when
  None; characters the font lacks are drawn in the project font (`fonts.runs`), in every backend;
- a symbol is a drawing defined once (`define_symbol`) and placed many times (`use_symbol`):
  PDF reuses it as one form XObject, SVG as a <g> in <defs> placed by <use>, so repeated shapes
  cost one copy;
- pages are opened with `begin_page` and closed with `end_page`; `save(target)` writes the
  result atomically and returns the paths written (SVG and PNG write one file per page).
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal, Protocol, Sequence

from ..geometry import MM_PER_PT, Box

Colour = str | None
Point = tuple[float, float]
Align = Literal["left", "center", "right"]
Fit = Literal["fit", "fill", "crop"]



@dataclass(frozen=True)
class ImageSource:
    """An image file already checked (inside the game folder, readable, not oversized).

    `kind` is "raster" (PNG/JPG, `pixels` = (w, h)) or "svg" (drawn as vectors; `pixels` is its
    viewBox size, used only for the aspect ratio).
    """
    path: Path
    kind: Literal["raster", "svg"]
    pixels: tuple[int, int]
    data: bytes
    folder: Path | None = None  # an SVG's game folder: the files it references are read only inside it

    @property
    def aspect(self) -> float:
        return self.pixels[0] / self.pixels[1]


def place_image(box: Box, aspect: float, fit: Fit) -> Box:
    """Where an image of `aspect` (w/h) lands in `box`.

    fit: whole image inside the box, centred (may leave margins);
    fill: stretched to the box exactly;
    crop: covers the box, centred, the overflow clipped by the caller.
    """
    if fit == "fill":
        return box
    box_aspect = box.w / box.h
    wider = aspect > box_aspect
    if (fit == "fit") == wider:
        w, h = box.w, box.w / aspect
    else:
        w, h = box.h * aspect, box.h
    return Box(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)


def text_width(s: str, size_pt: float, font: str | None = None) -> float:
    """Width in mm of `s` set in `font` (the project font when None) at `size_pt`, as every
    backend draws it (characters the font lacks in the project font)."""
    from .. import fonts

    return fonts.string_width(s, font or fonts.register(), size_pt) * MM_PER_PT


class Surface(Protocol):
    """Drawing primitives in mm. Every backend implements exactly this."""

    def begin_page(self, width_mm: float, height_mm: float, *, trim: Box | None = None,
                   bleed: Box | None = None) -> None:
        """Start a page; `trim`/`bleed` become the PDF TrimBox/BleedBox (mm, y down)."""

    def end_page(self) -> None: ...

    def rect(self, box: Box, *, fill: Colour = None, stroke: Colour = None, width: float = 0.25,
             radius: float = 0.0) -> None: ...

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: Colour = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None: ...

    def polyline(self, points: Sequence[Point], *, stroke: Colour = "#000000", width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None: ...

    def polygon(self, points: Sequence[Point], *, fill: Colour = None, stroke: Colour = None,
                width: float = 0.25) -> None: ...

    def circle(self, cx: float, cy: float, r: float, *, fill: Colour = None, stroke: Colour = None,
               width: float = 0.25) -> None: ...

    def text(self, x: float, y: float, s: str, *, size_pt: float, colour: Colour = "#000000",
             align: Align = "left", font: str | None = None) -> None:
        """One line of text in `font`, baseline at y. Check glyphs (fonts.require_glyphs) before calling."""

    def image(self, box: Box, image: ImageSource, *, fit: Fit = "fit") -> None:
        """Draw an image into `box` (crop clips to the box)."""

    def define_symbol(self, name: str, width: float, height: float,
                      draw: Callable[["Surface"], None]) -> None:
        """Record a reusable drawing: `draw(surface)` draws in a local w×h mm frame, origin top-left."""

    def has_symbol(self, name: str) -> bool: ...

    def use_symbol(self, name: str, x: float, y: float, *, scale: float = 1.0) -> None:
        """Place a defined symbol with its local top-left at (x, y)."""

    def group(self, *, dx: float = 0.0, dy: float = 0.0, clip: Box | None = None) -> AbstractContextManager[None]:
        """Shift the origin by (dx, dy) for the block; clip to `clip` (given in the new frame)."""

    def save(self, target: Path) -> list[Path]: ...


class SurfaceBase:
    """What every backend shares: the origin stack that `group(dx, dy)` pushes (backends add
    `_ox/_oy` to coordinates), and a line drawn as a two-point polyline."""
    _ox: float = 0.0
    _oy: float = 0.0

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: Colour = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        self.polyline([(x1, y1), (x2, y2)], stroke=stroke, width=width, dash=dash)  # type: ignore[attr-defined]

    def _push(self, dx: float, dy: float) -> tuple[float, float]:
        prev = (self._ox, self._oy)
        self._ox += dx
        self._oy += dy
        return prev

    def _pop(self, prev: tuple[float, float]) -> None:
        self._ox, self._oy = prev


def arc_points(cx: float, cy: float, r: float, a0: float, a1: float, steps: int = 8) -> list[Point]:
    """Points on a circle arc from angle a0 to a1 (radians, y down), for rounded corners in polygons."""
    import math
    return [(cx + r * math.cos(a0 + (a1 - a0) * i / steps), cy + r * math.sin(a0 + (a1 - a0) * i / steps))
            for i in range(steps + 1)]


def rounded_rect_points(box: Box, radius: float) -> list[Point]:
    import math
    r = min(radius, box.w / 2, box.h / 2)
    pts: list[Point] = []
    pts += arc_points(box.right - r, box.y + r, r, -math.pi / 2, 0)
    pts += arc_points(box.right - r, box.bottom - r, r, 0, math.pi / 2)
    pts += arc_points(box.x + r, box.bottom - r, r, math.pi / 2, math.pi)
    pts += arc_points(box.x + r, box.y + r, r, math.pi, 3 * math.pi / 2)
    return pts
