"""PNG backend (pillow): one raster image per page at `dpi` (300 by default), y down.

Shapes are drawn with PIL's ImageDraw; text with the same TrueType files as the PDF, run by run
(`fonts.runs`), each string's rendering kept for the next image that draws it in the same face,
size and sub-pixel position (a deck's name on each of its cards): Pillow's own mask, so the same
pixels (`_Face`). A symbol is
rendered once per scale into a transparent tile and pasted wherever it is used (shared by the
images a process draws when they define it with the same drawing function); only the part of the
tile around what was drawn is kept and pasted (`_shrink`). SVG images are
rasterised by `cards.images.svg_to_pil` (svglib's drawing as PDF, rendered by pdfium), because
reportlab's own rasteriser needs cairo, which a fresh machine may lack. A page's file is written
by `pngwrite.png_bytes` (unfiltered rows, libdeflate's deflate), not by Pillow's `save`.
"""
from __future__ import annotations

import io
import re
import weakref
from contextlib import contextmanager
from pathlib import Path
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, TypeAlias

from PIL import ImageFont

from .. import fonts
from ..geometry import MM_PER_INCH, PT_PER_MM, Box
from ..output import atomic_path
from .pillowfast import internals_agree, paint_text, plain_reduce, text_agrees, wide_outline
from .base import Align, Colour, Fit, ImageSource, SurfaceBase, Point, place_image, rounded_rect_points

if TYPE_CHECKING:
    from PIL import Image, ImageDraw

_ANCHOR = {"left": "ls", "center": "ms", "right": "rs"}
# A shrunk symbol: the part of its tile around what was drawn and its place (or None: nothing drawn)
_Tile: TypeAlias = "tuple[Image.Image, tuple[int, int]] | None"
_RGB = re.compile(r"#[0-9a-fA-F]{6}")
# Symbol tiles shared between images, by drawing function: they go when it does (a deck's drawer,
# whose functions they are, is done), so a process that builds many games keeps none of theirs.
_TILES: weakref.WeakKeyDictionary[Callable, dict[tuple, _Tile]] = weakref.WeakKeyDictionary()
SUPERSAMPLE = 4  # a symbol's tile is drawn at this many times its size and shrunk (`_shrink`)
KEEP_MASKS = 256  # strings' renderings kept (a line of card text at 300 dpi is some 10-40 KB)
_MASKS: dict[tuple, tuple[Any, tuple[int, int]]] = {}


class _Face(ImageFont.FreeTypeFont):
    """A Pillow face that keeps the masks it renders: ImageDraw.text asks its font for a string's
    mask (`getmask2`: the string rendered at a sub-pixel start, in the draw's font mode) and paints
    it in the fill; an equal request, from this face or another of the same file and size, gets the
    kept mask, so the image gets the pixels it would get from a fresh rendering. The last
    `KEEP_MASKS` are kept; a colour mask (embedded colour glyphs, mode RGBA), which ImageDraw
    changes after asking, is rendered afresh each time."""

    def getmask2(self, text: Any, mode: str = "", *args: Any, **kwargs: Any) -> Any:
        key = (self.path, self.size, text, mode, args, tuple(sorted(kwargs.items())))
        try:  # hashed here: pop on an empty dict never hashes, and the store below would raise
            hash(key)
        except TypeError:  # an unhashable argument (a list of OpenType features, as Pillow 10 passes one)
            return super().getmask2(text, mode, *args, **kwargs)
        kept = _MASKS.pop(key, None) if mode != "RGBA" else None
        if kept is None:
            kept = super().getmask2(text, mode, *args, **kwargs)
            if mode == "RGBA":
                return kept
        _MASKS[key] = kept  # the most recent last
        while len(_MASKS) > KEEP_MASKS:
            del _MASKS[next(iter(_MASKS))]
        return kept


@lru_cache(maxsize=16)
def pil_font(size_px: int, font: str) -> _Face:
    """The Pillow face of `font` (a reportlab name, see `fonts.font_file`) at `size_px` pixels. Each
    holds about 0.7 MB of the face (a CJK font's tables) and opens in under a millisecond: a few are
    kept, not one per size a build ever drew (60 sizes, 44 MB, in the example games)."""
    return _Face(str(fonts.font_file(font)), size_px)


class PngSurface(SurfaceBase):
    def __init__(self, dpi: int = 300, title: str = ""):
        self.dpi = dpi
        self.s = dpi / MM_PER_INCH  # px per mm
        self.pages: list[Image.Image] = []
        self._img: Image.Image | None = None
        self._draw: ImageDraw.ImageDraw | None = None
        self._blank: tuple[int, int] | None = None  # the open page's size in px while nothing is drawn on it
        self._ground = "white"  # the colour the open page is made in (`_open_page`)
        self._symbols: dict[str, tuple[float, float, Callable[[PngSurface], None]]] = {}
        self._tiles: dict[tuple[str, float], _Tile] = {}
        # a symbol's tile while drawn by shapes in opaque colours only (`_shrink`); anything else clears it
        self._plain = False

    @property
    def img(self) -> Image.Image:
        """The image being drawn on: the open page, or a layer or tile standing in for it."""
        if self._img is None:
            self._open_page()
        assert self._img is not None
        return self._img

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        if self._draw is None:
            self._open_page()
        assert self._draw is not None
        return self._draw

    def _open_page(self) -> None:
        """Make the open page's image, all of it `_ground`: white, or the colour of the last of the
        first shapes that cover it (a face's background with its bleed), which need no drawing."""
        from PIL import Image

        if self._blank is None:
            raise RuntimeError("PngSurface: no page is open (call begin_page first)")
        self._canvas(Image.new("RGB", self._blank, self._ground))
        self._blank = None

    def _canvas(self, img: Image.Image | None) -> None:
        """Draw on `img` from now on (None: no page open)."""
        from PIL import ImageDraw

        self._img = img
        self._draw = ImageDraw.Draw(img) if img is not None else None

    def _px(self, x: float, y: float) -> tuple[float, float]:
        return ((x + self._ox) * self.s, (y + self._oy) * self.s)

    def _w(self, width: float) -> int:
        return max(1, round(width * self.s))

    # ------------------------------------------------------------------ pages
    def begin_page(self, width_mm: float, height_mm: float, *, trim: Box | None = None,
                   bleed: Box | None = None) -> None:
        # the image is made when something is drawn (`_open_page`)
        self._canvas(None)
        self._blank = (round(width_mm * self.s), round(height_mm * self.s))
        self._ground = "white"

    def end_page(self) -> None:
        self.pages.append(self.img)
        self._canvas(None)

    # ------------------------------------------------------------------ shapes
    def rect(self, box: Box, *, fill: Colour = None, stroke: Colour = None, width: float = 0.25,
             radius: float = 0.0) -> None:
        if not (fill or stroke):
            return
        if self._plain:
            self._plain = _opaque(fill, stroke)
        if radius > 0:
            # a deck's faces draw the same rounded border: its corners' points worked out once
            self._polygon_px(list(_rounded_px(box, radius, self._ox, self._oy, self.s)), fill, stroke, width)
            return
        x0, y0 = self._px(box.x, box.y)
        x1, y1 = self._px(box.right, box.bottom)
        if self._blank is not None and not stroke and isinstance(fill, str) and _RGB.fullmatch(fill) \
                and round(x0) <= 0 and round(y0) <= 0 and round(x1) >= self._blank[0] and round(y1) >= self._blank[1]:
            self._ground = fill  # the same pixels as the rectangle drawn over what the page was to be
            return
        self.draw.rectangle([round(x0), round(y0), round(x1) - 1, round(y1) - 1], fill=fill,
                            outline=stroke, width=self._w(width) if stroke else 0)

    def polyline(self, points: Sequence[Point], *, stroke: Colour = "#000000", width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None:
        if not stroke or len(points) < 2:
            return
        if self._plain:
            self._plain = _opaque(stroke)
        if dash:
            for a, b in _dashes(points, dash):
                self.draw.line([self._px(*a), self._px(*b)], fill=stroke, width=self._w(width))
            return
        self.draw.line([self._px(x, y) for x, y in points], fill=stroke, width=self._w(width), joint="curve")

    def polygon(self, points: Sequence[Point], *, fill: Colour = None, stroke: Colour = None,
                width: float = 0.25) -> None:
        if not (fill or stroke) or len(points) < 3:
            return
        if self._plain:
            self._plain = _opaque(fill, stroke)
        self._polygon_px([self._px(x, y) for x, y in points], fill, stroke, width)

    def _polygon_px(self, pts: list[tuple[float, float]], fill: Colour, stroke: Colour, width: float) -> None:
        w = self._w(width) if stroke else 0
        if w < 2 or not internals_agree():
            self.draw.polygon(pts, fill=fill, outline=stroke, width=w)
            return
        wide_outline(self.draw, pts, fill, stroke, w, self.img.size)

    def circle(self, cx: float, cy: float, r: float, *, fill: Colour = None, stroke: Colour = None,
               width: float = 0.25) -> None:
        if not (fill or stroke):
            return
        if self._plain:
            self._plain = _opaque(fill, stroke)
        x, y = self._px(cx, cy)
        rp = r * self.s
        self.draw.ellipse([x - rp, y - rp, x + rp, y + rp], fill=fill, outline=stroke,
                          width=self._w(width) if stroke else 0)

    def text(self, x: float, y: float, s: str, *, size_pt: float, colour: Colour = "#000000",
             align: Align = "left", font: str | None = None) -> None:
        if not s:
            return
        self._plain = False  # anti-aliased: partly transparent pixels where nothing lay under it
        font = font or fonts.register()
        px = max(1, round(size_pt / PT_PER_MM * self.s))
        parts = fonts.runs(s, font)
        X, Y = self._px(x, y)
        fill = colour or "#000000"
        if len(parts) == 1:
            self._line(X, Y, s, pil_font(px, font), fill, _ANCHOR[align])
            return
        # Runs in several fonts: placed one after another from the left end, each at its advance.
        widths = [pil_font(px, f).getlength(part) for part, f in parts]
        X -= {"left": 0.0, "center": sum(widths) / 2, "right": sum(widths)}[align]
        for (part, f), w in zip(parts, widths):
            self._line(X, Y, part, pil_font(px, f), fill, "ls")
            X += w

    def _line(self, x: float, y: float, s: str, face: _Face, fill: str, anchor: str) -> None:
        """One run of text in one face, as ImageDraw.text draws it (`pillowfast.paint_text`)."""
        if "\n" in s or not text_agrees():  # ImageDraw.text would set a newline as a second line
            self.draw.text((x, y), s, font=face, fill=fill, anchor=anchor)
        else:
            paint_text(self.draw, (x, y), s, face, fill, anchor)

    # ------------------------------------------------------------------ images
    def image(self, box: Box, image: ImageSource, *, fit: Fit = "fit") -> None:
        from PIL import Image

        self._plain = False  # pasted with its own transparency
        placed = place_image(box, image.aspect, fit)
        x0, y0 = self._px(placed.x, placed.y)
        w, h = max(1, round(placed.w * self.s)), max(1, round(placed.h * self.s))
        if image.kind == "svg":
            from ..cards.images import svg_to_pil
            pic = svg_to_pil(image, w, h)
        else:
            pic = Image.open(io.BytesIO(image.data)).convert("RGBA").resize((w, h), Image.Resampling.LANCZOS)
        if fit == "crop":
            # Cut the overflow away before pasting: the same result as clipping to the box.
            bx0, by0 = self._px(box.x, box.y)
            left, top = round(bx0 - x0), round(by0 - y0)
            pic = pic.crop((left, top, left + round(box.w * self.s), top + round(box.h * self.s)))
            x0, y0 = bx0, by0
        self.img.paste(pic, (round(x0), round(y0)), pic)

    # ------------------------------------------------------------------ symbols and groups
    def define_symbol(self, name: str, width: float, height: float,
                      draw: Callable[["PngSurface"], None]) -> None:
        self._symbols[name] = (width, height, draw)

    def has_symbol(self, name: str) -> bool:
        return name in self._symbols

    def use_symbol(self, name: str, x: float, y: float, *, scale: float = 1.0) -> None:
        w, h, draw = self._symbols[name]
        self._plain = False  # a tile's edges are partly transparent
        key = (name, round(scale, 6))
        if key not in self._tiles:
            # Render once on a transparent tile at 4x the placed size, then shrink (`_shrink`): smooth
            # edges (ImageDraw itself does not anti-alias) for the cost of one tile. Later uses only paste,
            # and so do other images drawing the same symbol with the same drawing function (a
            # deck's PNG per card): the tiles are shared by (name, scale, dpi, function).
            shared = _TILES.setdefault(draw, {})
            at = (name, round(scale, 6), self.dpi, w, h)
            if at not in shared:
                shared[at] = self._render_tile(w, h, draw, scale)
            self._tiles[key] = shared[at]
        img, tile = self.img, self._tiles[key]
        if tile is None:
            return
        part, (dx, dy) = tile
        px, py = self._px(x, y)
        # the rest of the tile is transparent: pasting it would leave the pixels as they are
        img.paste(part, (round(px) + dx, round(py) + dy), part)

    def _render_tile(self, w: float, h: float, draw: Callable[["PngSurface"], None], scale: float) -> _Tile:
        from PIL import Image

        size = (max(1, round(w * scale * self.s)), max(1, round(h * scale * self.s)))
        sub = PngSurface(dpi=round(self.dpi * scale * SUPERSAMPLE))
        sub._canvas(Image.new("RGBA", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), (0, 0, 0, 0)))
        sub._plain = True
        sub._symbols = self._symbols
        draw(sub)
        return _shrink(sub.img, sub._plain)

    @contextmanager
    def group(self, *, dx: float = 0.0, dy: float = 0.0, clip: Box | None = None) -> Iterator[None]:
        from PIL import Image

        prev = self._push(dx, dy)
        if clip is not None:
            self._plain = False  # the clipped layer is pasted with its own transparency
        if clip is None:
            try:
                yield
            finally:
                self._pop(prev)
            return
        # Clipping: draw the block on a transparent layer, then paste only the clip rectangle of it.
        base = self.img
        self._canvas(Image.new("RGBA", base.size, (0, 0, 0, 0)))
        try:
            yield
        finally:
            layer = self.img
            x0, y0 = self._px(clip.x, clip.y)
            x1, y1 = self._px(clip.right, clip.bottom)
            rect = (round(x0), round(y0), round(x1), round(y1))
            part = layer.crop(rect)
            self._canvas(base)
            base.paste(part, rect[:2], part)
            self._pop(prev)

    # ------------------------------------------------------------------ output
    def png_bytes(self, page: int = 0) -> bytes:
        from .pngwrite import png_bytes

        return png_bytes(self.pages[page], self.dpi)

    def save(self, target: Path) -> list[Path]:
        """One page: `target`; several: `<stem>-p1.png`, ..."""
        if self._img is not None or self._blank is not None:
            self.end_page()
        target = Path(target)
        names = [target] if len(self.pages) == 1 else [
            target.with_name(f"{target.stem}-p{i}{target.suffix}") for i in range(1, len(self.pages) + 1)]
        for i, name in enumerate(names):
            with atomic_path(name) as tmp:
                tmp.write_bytes(self.png_bytes(i))
        return names


def _shrink(big: Image.Image, plain: bool = False) -> _Tile:
    """A tile drawn at `SUPERSAMPLE` times its size, shrunk: each pixel the average of its block
    (`Image.reduce`, on premultiplied alpha), that is the share of the pixel each shape covers,
    the usual supersampling filter (LANCZOS, before issue 26: six times the CPU). Only the blocks
    around what was drawn are reduced and kept, with their place in the tile (the rest stays
    transparent, as its average would be): a tile is some half empty.

    `plain`: every pixel of `big` is transparent black or opaque (shapes in opaque colours only,
    `PngSurface._plain`), so it is its own premultiplied form, and the blocks are averaged as they
    are, without the copy Pillow premultiplies (two thirds of the shrinking: 0.06 against 0.18
    CPU-s for the examples' 82 tiles); the average is then turned back as Pillow does it."""
    from PIL import Image

    n = SUPERSAMPLE
    drawn = big.getbbox()  # where the alpha is not 0
    if drawn is None:
        return None
    x0, y0, x1, y1 = drawn[0] // n, drawn[1] // n, -(-drawn[2] // n), -(-drawn[3] // n)
    box = (x0 * n, y0 * n, x1 * n, y1 * n)
    if not plain or not internals_agree():
        return big.crop(box).reduce(n), (x0, y0)
    return plain_reduce(big, n, box), (x0, y0)


@lru_cache(maxsize=64)
def _rounded_px(box: Box, radius: float, ox: float, oy: float, s: float) -> tuple[tuple[float, float], ...]:
    """A rounded rectangle's outline in pixels on a page at `s` px per mm with its origin at
    (ox, oy) mm: PngSurface._px of each of `rounded_rect_points`, the same floats."""
    return tuple(((x + ox) * s, (y + oy) * s) for x, y in rounded_rect_points(box, radius))


def _opaque(*colours: Colour) -> bool:
    """Whether each colour is none or opaque: `#rrggbb` (a colour written otherwise counts as not)."""
    return all(c is None or _RGB.fullmatch(c) is not None for c in colours)


def _dashes(points: Sequence[Point], dash: Sequence[float]) -> list[tuple[Point, Point]]:
    """Split a polyline into the 'on' segments of a dash pattern (lengths in mm)."""
    import math

    out: list[tuple[Point, Point]] = []
    pattern = list(dash) if len(dash) % 2 == 0 else list(dash) * 2
    idx, left, on = 0, pattern[0], True
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        seg = math.hypot(bx - ax, by - ay)
        pos = 0.0
        while seg > 0 and pos < seg:
            step = min(left, seg - pos)
            if on:
                t0, t1 = pos / seg, (pos + step) / seg
                out.append(((ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1)))
            pos += step
            left -= step
            if left <= 1e-9:
                idx = (idx + 1) % len(pattern)
                left, on = pattern[idx], not on
    return out
