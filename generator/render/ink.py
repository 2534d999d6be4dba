"""Ink modes (`pnp build --ink normal|saver|mono`): one colour transform between the drawing code
and every backend, so no printer, face or map drawer knows about ink.

`open_surface` wraps the backend in an `InkSurface` when the mode in force (`ink_mode`, set by the
build for each work unit) is not `normal`; `normal` draws through no wrapper at all, byte for byte
what it drew before.

- saver: a fill of at least LARGE_MM2 (a card's or counter's background, a hex, a board's box)
  becomes a light tint of its colour (TINT of its ink) outlined in the colour itself, so the colour
  that tells pieces apart is still there; smaller fills (symbols, pips, badges), lines and text keep
  their colours, and a text whose colour no longer reads on what lies under it (white type on a
  background that is now a pale tint) turns near-black or white, whichever reads (WCAG contrast
  under 3:1, the large-text minimum). Pictures are faded towards white (IMAGE_TINT).
- mono: every colour becomes the grey of its own relative luminance (ITU-R BT.709), the same
  greyscale model the colour-vision check simulates (generator/colourvision.py), so two colours that
  become greys too alike are the pairs that check reports; contrast ratios, which depend on
  luminance alone, are unchanged. Pictures are turned to greyscale the same way.
"""
from __future__ import annotations

import io
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable, Iterator, Sequence

from ..geometry import Box
from .base import Align, Colour, Fit, ImageSource, Point

INK_MODES = ("normal", "saver", "mono")
LARGE_MM2 = 40.0      # saver: a fill at least this large (about a 6.3 mm square) becomes a tint
TINT = 0.18           # saver: the share of a large fill's ink that its tint keeps
OUTLINE_MM = 0.5      # saver: the outline drawn in the fill's own colour around a tinted fill
IMAGE_TINT = 0.4      # saver: the share of a picture's ink that is kept
MIN_CONTRAST = 3.0    # saver: text under this WCAG contrast ratio with what lies under it is recoloured
DARK = "#1a1a1a"      # the near-black of text on pieces (generator/cards/face.py FALLBACK_INK)

_MODE: ContextVar[str] = ContextVar("pnp_ink", default="normal")


@contextmanager
def ink_mode(mode: str) -> Iterator[None]:
    """Draw every surface opened in the block in ink `mode`."""
    if mode not in INK_MODES:
        raise ValueError(f"unknown ink mode {mode!r}")
    token = _MODE.set(mode)
    try:
        yield
    finally:
        _MODE.reset(token)


def current_mode() -> str:
    return _MODE.get()


def wrap(surface: Any, mode: str | None = None) -> Any:
    """`surface` itself in normal ink, else wrapped in the ink transform of `mode` (default: the mode in force)."""
    mode = mode or _MODE.get()
    return surface if mode == "normal" else InkSurface(surface, mode)


# --------------------------------------------------------------------------- colours

@lru_cache(maxsize=4096)
def rgb(colour: str) -> tuple[int, int, int]:
    """A "#rrggbb" (or "#rgb") colour as 0-255 integers."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _hex(r: float, g: float, b: float) -> str:
    return "#%02x%02x%02x" % tuple(max(0, min(255, round(v))) for v in (r, g, b))


@lru_cache(maxsize=4096)
def luminance(colour: str) -> float:
    """Relative luminance Y (BT.709 on linear sRGB), 0..1."""
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = rgb(colour)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


@lru_cache(maxsize=4096)
def grey(colour: str) -> str:
    """The sRGB grey of the colour's relative luminance."""
    y = luminance(colour)
    v = 12.92 * y if y <= 0.0031308 else 1.055 * y ** (1 / 2.4) - 0.055
    return _hex(v * 255, v * 255, v * 255)


@lru_cache(maxsize=4096)
def tint(colour: str, share: float = TINT) -> str:
    """The colour with `share` of its ink (each channel's distance from white scaled by `share`)."""
    return _hex(*(255 - share * (255 - v) for v in rgb(colour)))


def contrast_ratio(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_on(text: str, under: str) -> str:
    """`text` where it reads on `under`, else near-black or white, whichever reads better."""
    if contrast_ratio(text, under) >= MIN_CONTRAST:
        return text
    return DARK if contrast_ratio(DARK, under) >= contrast_ratio("#ffffff", under) else "#ffffff"


# --------------------------------------------------------------------------- pictures

_SVG_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")


@lru_cache(maxsize=64)
def _picture(data: bytes, kind: str, mode: str) -> bytes:
    if kind == "svg":  # the colours written as #rgb/#rrggbb (what drawing programs write)
        text = data.decode("utf-8", errors="surrogateescape")
        recolour = grey if mode == "mono" else (lambda c: tint(c, IMAGE_TINT))
        return _SVG_COLOUR.sub(lambda m: recolour(m.group(0)), text).encode("utf-8", errors="surrogateescape")
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        rgba = im.convert("RGBA")
    alpha = rgba.getchannel("A")
    if mode == "mono":
        rgb = rgba.convert("RGB").convert("L").convert("RGB")
    else:
        rgb = Image.blend(rgba.convert("RGB"), Image.new("RGB", rgba.size, "white"), 1 - IMAGE_TINT)
    rgb.putalpha(alpha)
    out = io.BytesIO()
    rgb.save(out, "PNG", optimize=False)
    return out.getvalue()


def picture(image: ImageSource, mode: str) -> ImageSource:
    """The image as the ink mode prints it (a new PNG for a raster picture, recoloured SVG text)."""
    return replace(image, data=_picture(image.data, image.kind, mode))


# --------------------------------------------------------------------------- the wrapper

Region = tuple[str, Any, str]  # (shape, geometry in page mm, colour as drawn)


def _inside(region: Region, x: float, y: float) -> bool:
    shape, g, _ = region
    if shape == "rect":
        return g.x <= x <= g.right and g.y <= y <= g.bottom
    if shape == "circle":
        cx, cy, r = g
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    inside = False  # even-odd rule over the polygon's edges
    for (x1, y1), (x2, y2) in zip(g, g[1:] + g[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _area(points: Sequence[Point]) -> float:
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, list(points[1:]) + list(points[:1])))) / 2


class InkSurface:
    """A Surface that recolours every call for its ink mode and passes it on to `inner`."""

    def __init__(self, inner: Any, mode: str) -> None:
        if mode not in ("saver", "mono"):
            raise ValueError(f"no ink transform for mode {mode!r}")
        self.inner, self.mode = inner, mode
        self._ox = self._oy = 0.0
        self._regions: list[Region] = []  # saver: the fills drawn on the page so far, to read text against

    def __getattr__(self, name: str) -> Any:  # pages, save, has_symbol, a backend's own extras
        return getattr(self.inner, name)

    def _c(self, colour: Colour) -> Colour:
        return grey(colour) if colour and self.mode == "mono" else colour

    def _fill(self, fill: Colour, stroke: Colour, width: float, area: float) -> tuple[Colour, Colour, float]:
        """(fill, stroke, width) as drawn: saver turns a large fill into a tint outlined in its colour."""
        if self.mode == "mono":
            return self._c(fill), self._c(stroke), width
        if fill and area >= LARGE_MM2:
            return tint(fill), stroke or fill, width if stroke else OUTLINE_MM
        return fill, stroke, width

    def _note(self, shape: str, geometry: Any, fill: Colour) -> None:
        if fill and self.mode == "saver":
            self._regions.append((shape, geometry, fill))

    # ------------------------------------------------------------------ pages
    def begin_page(self, width_mm: float, height_mm: float, **boxes: Any) -> None:
        self._regions = []
        self.inner.begin_page(width_mm, height_mm, **boxes)

    def end_page(self) -> None:
        self._regions = []
        self.inner.end_page()

    # ------------------------------------------------------------------ shapes
    def rect(self, box: Box, *, fill: Colour = None, stroke: Colour = None, width: float = 0.25,
             radius: float = 0.0) -> None:
        fill, stroke, width = self._fill(fill, stroke, width, box.w * box.h)
        self._note("rect", box.moved(self._ox, self._oy), fill)
        self.inner.rect(box, fill=fill, stroke=stroke, width=width, radius=radius)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: Colour = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        self.inner.line(x1, y1, x2, y2, stroke=self._c(stroke), width=width, dash=dash)

    def polyline(self, points: Sequence[Point], *, stroke: Colour = "#000000", width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None:
        self.inner.polyline(points, stroke=self._c(stroke), width=width, dash=dash)

    def polygon(self, points: Sequence[Point], *, fill: Colour = None, stroke: Colour = None,
                width: float = 0.25) -> None:
        fill, stroke, width = self._fill(fill, stroke, width, _area(points) if fill else 0.0)
        self._note("polygon", [(x + self._ox, y + self._oy) for x, y in points], fill)
        self.inner.polygon(points, fill=fill, stroke=stroke, width=width)

    def circle(self, cx: float, cy: float, r: float, *, fill: Colour = None, stroke: Colour = None,
               width: float = 0.25) -> None:
        fill, stroke, width = self._fill(fill, stroke, width, 3.14159 * r * r)
        self._note("circle", (cx + self._ox, cy + self._oy, r), fill)
        self.inner.circle(cx, cy, r, fill=fill, stroke=stroke, width=width)

    def text(self, x: float, y: float, s: str, *, size_pt: float, colour: Colour = "#000000",
             align: Align = "left", font: str | None = None) -> None:
        if self.mode == "mono":
            colour = self._c(colour)
        elif colour:
            colour = readable_on(colour, self._under(x + self._ox, y + self._oy))
        self.inner.text(x, y, s, size_pt=size_pt, colour=colour, align=align, font=font)

    def _under(self, x: float, y: float) -> str:
        """The colour drawn last under the point (white paper where nothing is)."""
        return next((c for r in reversed(self._regions) if _inside(r, x, y) for c in (r[2],)), "#ffffff")

    def image(self, box: Box, image: ImageSource, *, fit: Fit = "fit") -> None:
        self.inner.image(box, picture(image, self.mode), fit=fit)

    # ------------------------------------------------------------------ symbols and groups
    def define_symbol(self, name: str, width: float, height: float, draw: Callable[[Any], None]) -> None:
        """The symbol's drawing goes through the same transform, in its own frame."""
        def drawn(t: Any) -> None:
            draw(InkSurface(t, self.mode))
        self.inner.define_symbol(name, width, height, drawn)

    def has_symbol(self, name: str) -> bool:
        return bool(self.inner.has_symbol(name))

    def use_symbol(self, name: str, x: float, y: float, *, scale: float = 1.0) -> None:
        self.inner.use_symbol(name, x, y, scale=scale)

    @contextmanager
    def group(self, *, dx: float = 0.0, dy: float = 0.0, clip: Box | None = None) -> Iterator[None]:
        prev = (self._ox, self._oy)
        self._ox, self._oy = self._ox + dx, self._oy + dy
        try:
            with self.inner.group(dx=dx, dy=dy, clip=clip):
                yield
        finally:
            self._ox, self._oy = prev

    def save(self, target: Any) -> Any:
        return self.inner.save(target)

