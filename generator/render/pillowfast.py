"""Three Pillow drawings made through Pillow's internals, for speed, with the public call's pixels:
a polygon's wide outline with its mask kept for equal polygons (`wide_outline`: a deck's faces
draw the same rounded border), a tile of opaque shapes averaged without the premultiplied
copy `Image.reduce` makes (`plain_reduce`: 0.06 against 0.18 CPU-s for the examples' 82 symbol
tiles), and a line of text painted from its mask without ImageDraw.text's multiline and stroke
machinery (`paint_text`). The internals are not Pillow's public API and pyproject admits any
Pillow from 10: `internals_agree` and `text_agrees` try them once against the public calls, and
where they are missing or give other pixels, render/png.py makes the public calls instead.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image, ImageDraw

    from .base import Colour, Point


def plain_reduce(big: Image.Image, n: int, box: tuple[int, int, int, int]) -> Image.Image:
    """`big.crop(box).reduce(n)` for a tile whose pixels are transparent black or opaque: Pillow's
    core reduce, which `Image.reduce` runs on the premultiplied copy, run on `big` as it is (its own
    premultiplied form), its result taken as premultiplied."""
    from PIL import Image

    averaged = big._new(big.im.reduce((n, n), box)).tobytes()
    return Image.frombytes("RGBa", ((box[2] - box[0]) // n, (box[3] - box[1]) // n), averaged).convert("RGBA")


def wide_outline(draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]], fill: Colour, stroke: Colour,
                  w: int, size: tuple[int, int]) -> None:
    """`draw.polygon(pts, fill=fill, outline=stroke, width=w)` made through the calls ImageDraw makes,
    with the mask it draws the outline through kept for equal polygons (`_inside`)."""
    ink, fill_ink = draw._getink(stroke, fill)
    if fill_ink is not None:
        draw.draw.draw_polygon(pts, fill_ink, 1)
    if ink is not None and ink != fill_ink:
        inside = _inside if size[0] * size[1] <= KEEP_MASK_PX else _inside.__wrapped__
        draw.draw.draw_polygon(pts, ink, 0, w * 2 - 1, inside(size, tuple(pts)).im)


@lru_cache(maxsize=1)
def internals_agree() -> bool:
    """Whether the Pillow installed has the internals `wide_outline` and `plain_reduce` call (not
    public: pyproject admits any Pillow from 10, whose internals differ) and they give the public
    calls' pixels, tried once on a small drawing; where not, the public calls draw."""
    from PIL import Image, ImageDraw

    pts = [(2.0, 2.0), (28.5, 4.0), (20.0, 27.25), (3.0, 20.0)]
    try:
        public, ours = (Image.new("RGB", (32, 32), "white") for _ in range(2))
        ImageDraw.Draw(public).polygon(pts, fill="#336699", outline="#102030", width=3)
        wide_outline(ImageDraw.Draw(ours), pts, "#336699", "#102030", 3, ours.size)
        tile = Image.new("RGBA", (16, 16), (0, 0, 0, 0))
        ImageDraw.Draw(tile).polygon([(1, 1), (14, 3), (6, 13)], fill="#aa2200")
        return (public.tobytes() == ours.tobytes()
                and plain_reduce(tile, 4, (0, 0, 16, 16)).tobytes() == tile.reduce(4).tobytes())
    except (AttributeError, TypeError, ValueError):
        return False


def paint_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Any, fill: Colour,
               anchor: str) -> None:
    """`draw.text(xy, text, font=font, fill=fill, anchor=anchor)` for one line (no newline) without
    a stroke: the calls ImageDraw.text makes for it, with the same arguments (so that png.py's kept
    masks serve it alike), without building its Text object and splitting it into lines (some 15
    us of its 40 a call, and a face draws many short strings)."""
    ink = draw._getink(fill)[0]
    x, y = xy
    mask, (dx, dy) = font.getmask2(text, draw.fontmode, None, None, None, 0, anchor, ink,
                                   (math.modf(x)[0], math.modf(y)[0]), stroke_filled=True)
    draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)


@lru_cache(maxsize=1)
def text_agrees() -> bool:
    """Whether `paint_text` runs on the Pillow installed and paints what ImageDraw.text paints,
    tried once on a line at a fractional start, in each anchor png.py uses; where not, the public
    call draws."""
    from PIL import Image, ImageDraw, ImageFont

    try:
        font = ImageFont.load_default(14)
        if not isinstance(font, ImageFont.FreeTypeFont):  # a Pillow built without FreeType
            return False
        for anchor in ("ls", "ms", "rs"):
            public, ours = (Image.new("RGB", (96, 32), "#203040") for _ in range(2))
            ImageDraw.Draw(public).text((48.37, 21.6), "Ag 7", font=font, fill="#f0e0a0", anchor=anchor)
            paint_text(ImageDraw.Draw(ours), (48.37, 21.6), "Ag 7", font, "#f0e0a0", anchor)
            if public.tobytes() != ours.tobytes() or public.getcolors() == [(96 * 32, (0x20, 0x30, 0x40))]:
                return False
        return True
    except (AttributeError, TypeError, ValueError, OSError):
        return False


# Masks are kept only for pages up to this size (a poker card with its bleed at 300 dpi is 0.65
# million pixels, a tarot card 1.3): a map's page is 3.9 million, a byte each in the mask, and its
# hexes' outlines are all different, so keeping them held 8 x 3.9 MB for nothing (a cold build's
# peak 306 against 285 MB).
KEEP_MASK_PX = 1_500_000


@lru_cache(maxsize=8)
def _inside(size: tuple[int, int], points: tuple[Point, ...]) -> Image.Image:
    """The mask ImageDraw.polygon draws a wide outline through (so that it does not spread outwards):
    the polygon filled on an image of `size`. ImageDraw makes it for each outline (a card's rounded
    border: 0.1 of 0.3 ms), and a deck's faces draw the same border: a few are kept (0.7 MB each
    for a poker card's face; none for a page over KEEP_MASK_PX)."""
    from PIL import Image, ImageDraw

    mask = Image.new("1", size)
    draw = ImageDraw.Draw(mask)
    draw.draw.draw_polygon(list(points), draw._getink(1)[0], 1)
    return mask
