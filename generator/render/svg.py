"""SVG backend (svgwrite): one SVG file per page, user units are millimetres, y down.

The font is embedded in each file as a subset (only the characters the page uses), so an SVG
never depends on fonts installed on the reader's machine. Symbols become <symbol>/<use>, images
are stored once per file in <defs> and placed by <use>. Numbers are rounded to 0.001 mm so the
same input gives the same bytes.
"""
from __future__ import annotations

import base64
import hashlib
import io
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..geometry import MM_PER_PT, Box
from ..output import write_text
from .base import Align, Colour, Fit, ImageSource, OffsetMixin, Point, place_image

FONT_FAMILY = "PnpGothic"
_ANCHOR = {"left": "start", "center": "middle", "right": "end"}


def _n(v: float) -> float:
    r = round(v, 3)
    return 0.0 if r == 0 else r


@lru_cache(maxsize=64)
def _font_subset_b64(chars: frozenset[str]) -> str:
    """The project font cut down to `chars`, as base64 TrueType for an @font-face rule."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    from .. import fonts

    font = TTFont(str(fonts.font_path()))
    options = subset.Options()
    options.name_IDs = ["*"]  # keep the font's licence and copyright names
    sub = subset.Subsetter(options)
    sub.populate(text="".join(sorted(chars)))
    sub.subset(font)
    buf = io.BytesIO()
    font.save(buf)
    return base64.b64encode(buf.getvalue()).decode("ascii")


class SvgSurface(OffsetMixin):
    def __init__(self, title: str = "", embed_font: bool = True):
        self.title = title
        self.embed_font = embed_font
        self.pages: list[str] = []
        self._dwg = None
        self._target = None
        self._chars: set[str] = set()
        self._ids = 0
        self._symbols: dict[str, tuple[str, float, float]] = {}
        self._images: dict[str, str] = {}

    def _id(self, prefix: str) -> str:
        self._ids += 1
        return f"{prefix}{self._ids}"

    # ------------------------------------------------------------------ pages
    def begin_page(self, width_mm: float, height_mm: float, *, trim: Box | None = None,
                   bleed: Box | None = None) -> None:
        import svgwrite

        self._dwg = svgwrite.Drawing(size=(f"{_n(width_mm)}mm", f"{_n(height_mm)}mm"), profile="full",
                                     debug=False)
        self._dwg.viewbox(0, 0, _n(width_mm), _n(height_mm))
        if self.title:
            self._dwg.set_desc(title=self.title)
        self._target = self._dwg
        self._chars = set()
        self._symbols: dict[str, tuple[str, float, float]] = {}
        self._images = {}
        self._ids = 0
        self._page_boxes = (trim, bleed)

    def end_page(self) -> None:
        dwg = self._dwg
        trim, bleed = self._page_boxes
        # Trim and bleed boxes as invisible rectangles with ids, the SVG counterpart of PDF page boxes.
        for name, b in (("trim-box", trim), ("bleed-box", bleed)):
            if b is not None:
                dwg.defs.add(dwg.rect(insert=(_n(b.x), _n(b.y)), size=(_n(b.w), _n(b.h)), id=name, fill="none"))
        if self.embed_font and self._chars:
            css = (f"@font-face{{font-family:{FONT_FAMILY};src:url(data:font/ttf;base64,"
                   f"{_font_subset_b64(frozenset(self._chars))}) format('truetype');}}"
                   f"text{{font-family:{FONT_FAMILY};}}")
            dwg.defs.add(dwg.style(css))
        out = io.StringIO()
        dwg.write(out, pretty=False)
        self.pages.append(out.getvalue())
        self._dwg = None

    # ------------------------------------------------------------------ helpers
    def _paint(self, fill: Colour, stroke: Colour, width: float) -> dict:
        attrs = {"fill": fill or "none"}
        if stroke:
            attrs.update(stroke=stroke, stroke_width=_n(width))
        return attrs

    def _p(self, x: float, y: float) -> tuple[float, float]:
        return (_n(x + self._ox), _n(y + self._oy))

    # ------------------------------------------------------------------ shapes
    def rect(self, box: Box, *, fill: Colour = None, stroke: Colour = None, width: float = 0.25,
             radius: float = 0.0) -> None:
        if not (fill or stroke):
            return
        extra = {"rx": _n(radius), "ry": _n(radius)} if radius > 0 else {}
        self._target.add(self._dwg.rect(insert=self._p(box.x, box.y), size=(_n(box.w), _n(box.h)),
                                        **extra, **self._paint(fill, stroke, width)))

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: Colour = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        if not stroke:
            return
        el = self._dwg.line(self._p(x1, y1), self._p(x2, y2), **self._paint(None, stroke, width))
        if dash:
            el["stroke-dasharray"] = ",".join(str(_n(d)) for d in dash)
        self._target.add(el)

    def polyline(self, points: Sequence[Point], *, stroke: Colour = "#000000", width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None:
        if not stroke or len(points) < 2:
            return
        el = self._dwg.polyline([self._p(x, y) for x, y in points], **self._paint(None, stroke, width))
        if dash:
            el["stroke-dasharray"] = ",".join(str(_n(d)) for d in dash)
        self._target.add(el)

    def polygon(self, points: Sequence[Point], *, fill: Colour = None, stroke: Colour = None,
                width: float = 0.25) -> None:
        if not (fill or stroke) or len(points) < 3:
            return
        self._target.add(self._dwg.polygon([self._p(x, y) for x, y in points], **self._paint(fill, stroke, width)))

    def circle(self, cx: float, cy: float, r: float, *, fill: Colour = None, stroke: Colour = None,
               width: float = 0.25) -> None:
        if not (fill or stroke):
            return
        self._target.add(self._dwg.circle(center=self._p(cx, cy), r=_n(r), **self._paint(fill, stroke, width)))

    def text(self, x: float, y: float, s: str, *, size_pt: float, colour: Colour = "#000000",
             align: Align = "left") -> None:
        if not s:
            return
        self._chars.update(s)
        el = self._dwg.text(s, insert=self._p(x, y), fill=colour or "#000000",
                            font_size=_n(size_pt * MM_PER_PT), font_family=FONT_FAMILY)
        if align != "left":
            el["text-anchor"] = _ANCHOR[align]
        el["xml:space"] = "preserve"
        self._target.add(el)

    # ------------------------------------------------------------------ images
    def image(self, box: Box, image: ImageSource, *, fit: Fit = "fit") -> None:
        placed = place_image(box, image.aspect, fit)
        key = hashlib.sha1(image.data).hexdigest()
        if key not in self._images:
            mime = "image/svg+xml" if image.kind == "svg" else (
                "image/png" if image.data[:4] == b"\x89PNG" else "image/jpeg")
            href = f"data:{mime};base64," + base64.b64encode(image.data).decode("ascii")
            iid = self._id("img")
            el = self._dwg.image(href=href, insert=(0, 0), size=(1, 1), id=iid)
            el["preserveAspectRatio"] = "none"
            self._dwg.defs.add(el)
            self._images[key] = iid
        with self.group(clip=box if fit == "crop" else None):
            x, y = self._p(placed.x, placed.y)
            use = self._dwg.use(f"#{self._images[key]}")
            use["transform"] = f"translate({x} {y}) scale({_n(placed.w)} {_n(placed.h)})"
            self._target.add(use)

    # ------------------------------------------------------------------ symbols and groups
    def define_symbol(self, name: str, width: float, height: float,
                      draw: Callable[["SvgSurface"], None]) -> None:
        sid = self._id("sym")
        sym = self._dwg.symbol(id=sid)
        sym.viewbox(0, 0, _n(width), _n(height))
        saved = (self._target, self._ox, self._oy)
        self._target, self._ox, self._oy = sym, 0.0, 0.0
        draw(self)
        self._target, self._ox, self._oy = saved
        self._dwg.defs.add(sym)
        self._symbols[name] = (sid, width, height)

    def has_symbol(self, name: str) -> bool:
        return name in self._symbols

    def use_symbol(self, name: str, x: float, y: float, *, scale: float = 1.0) -> None:
        sid, w, h = self._symbols[name]
        use = self._dwg.use(f"#{sid}", insert=self._p(x, y), size=(_n(w * scale), _n(h * scale)))
        self._target.add(use)

    @contextmanager
    def group(self, *, dx: float = 0.0, dy: float = 0.0, clip: Box | None = None) -> Iterator[None]:
        prev = self._push(dx, dy)
        saved = self._target
        if clip is not None:
            cid = self._id("clip")
            cp = self._dwg.clipPath(id=cid)
            cp.add(self._dwg.rect(insert=self._p(clip.x, clip.y), size=(_n(clip.w), _n(clip.h))))
            self._dwg.defs.add(cp)
            g = self._dwg.g(clip_path=f"url(#{cid})")
            self._target.add(g)
            self._target = g
        try:
            yield
        finally:
            self._target = saved
            self._pop(prev)

    # ------------------------------------------------------------------ output
    def save(self, target: Path) -> list[Path]:
        """One page: `target`; several: `<stem>-p1.svg`, `<stem>-p2.svg`, ..."""
        if self._dwg is not None:
            self.end_page()
        target = Path(target)
        if len(self.pages) == 1:
            return [write_text(target, self.pages[0])]
        return [write_text(target.with_name(f"{target.stem}-p{i}{target.suffix}"), page)
                for i, page in enumerate(self.pages, 1)]
