"""SVG backend: one SVG file per page, user units are millimetres, y down.

Text is drawn as glyph outlines of the font the call names (each glyph used on a page defined
once in <defs>, placed with <use>), so an SVG never depends on fonts installed on the reader's
machine and its glyph positions are exactly those of the PDF (same advance widths, no kerning in
either; a character the face lacks in the project font, as `fonts.runs` cuts it). The string
itself stays in a <title> of its glyph group for search and accessibility (SVG 1.1 has no aria-*
attributes; the files validate against the SVG 1.1 DTD), and the group names the face it was
set in (`font-family`, `font-weight`, `font-style`, the fallback face after it). Symbols become a <g> in <defs> placed by <use>, images
are stored once per file in <defs> and placed by <use>. Numbers are rounded to 0.001 mm so the
same input gives the same bytes. A page's text is written by svgxml.py, as svgwrite (which this
backend once built its pages with) wrote it.
"""
from __future__ import annotations

import base64
import hashlib
import zlib
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from .. import fonts
from ..geometry import MM_PER_PT, Box
from ..output import write_bytes
from .base import Align, Colour, Fit, ImageSource, SurfaceBase, Point, place_image
from .svgglyphs import GlyphOutlines, glyph_outlines  # noqa: F401  # GlyphOutlines: where it always was
from .svgxml import Node, _esc_attr, _esc_text, attrs_xml, element, leaf, page_xml


_ALIGN = {"left": 0.0, "center": 0.5, "right": 1.0}  # the share of a line's width left of its x (exact factors)
RAW_BUDGET = 16 << 20  # bytes of a surface's pages kept as written; the pages after them are compressed


def _n(v: float) -> float:
    r = round(v, 3)
    return 0.0 if r == 0 else r


@lru_cache(maxsize=8192)
def _shaped(s: str, font: str) -> tuple[tuple[str, int, tuple[tuple[str, int], ...]], ...]:
    """`s` as glyphs, per run of `fonts.runs`: its font, advance (font units) and (glyph name, pen
    position) of each glyph with an outline (not a space); cached, for pages repeat their strings."""
    out = []
    for part, f in fonts.runs(s, font):
        go = glyph_outlines(f)
        pen, placed = 0, []
        for ch in part:
            name, adv = go.glyph(ch)
            if go.path(name):
                placed.append((name, pen))
            pen += adv
        out.append((f, pen, tuple(placed)))
    return tuple(out)


@lru_cache(maxsize=None)
def _family(font: str) -> dict[str, str]:  # callers spread it into attributes, never change it
    """The SVG font attributes (as written) naming `font` and, after it, the project font it falls back to."""
    info, family, base = fonts.font_info(font), fonts.font_family(font), fonts.font_family(fonts.register())
    families = [family] + ([base] if base != family else [])
    attrs = {"font-family": ", ".join(f"'{f}'" for f in families)}
    if info.bold:
        attrs["font-weight"] = "bold"
    if info.italic:
        attrs["font-style"] = "italic"
    return attrs


@lru_cache(maxsize=1024)
def _text_attrs(colour: str, font: str) -> str:
    """A line of text's fill and font attributes, as written."""
    return attrs_xml({"fill": colour, **_family(font)})


class SvgSurface(SurfaceBase):
    def __init__(self, title: str = ""):
        self.title = title
        # each page's file until saved; past RAW_BUDGET bytes of them zlib-compressed: a 20,000-card
        # deck has thousands of pages, a usual sheet a few, whose compressing was a sixth of their writing
        self.pages: list[tuple[bool, bytes]] = []  # (compressed, bytes)
        self._raw = 0
        self._root: Node | None = None  # the open page's <svg>
        self._defs = Node("defs", {})
        self._target = self._defs  # the container drawing goes into: the page, a group, a symbol
        self._page_boxes: tuple[Box | None, Box | None] = (None, None)
        self._glyph_ids: dict[tuple[str, str], str] = {}
        # a run's glyphs' <use> as written on this page, by the `_shaped` run they place (kept beside
        # it, so that its id names it): a sheet repeats its strings, each written once a page
        self._uses: dict[int, tuple[Any, str]] = {}
        self._ids = 0
        self._symbols: dict[str, tuple[str, float, float]] = {}
        self._images: dict[str, str] = {}

    def _open(self) -> Node:
        """The open page's <svg>."""
        if self._root is None:
            raise RuntimeError("SvgSurface: no page is open (call begin_page first)")
        return self._root

    def _put(self, xml: str) -> None:
        self._open()
        self._target.children.append(xml)

    def _id(self, prefix: str) -> str:
        self._ids += 1
        return f"{prefix}{self._ids}"

    # ------------------------------------------------------------------ pages
    def begin_page(self, width_mm: float, height_mm: float, *, trim: Box | None = None,
                   bleed: Box | None = None) -> None:
        w, h = _n(width_mm), _n(height_mm)
        # what svgwrite's Drawing(size=..., profile="full") with viewbox(0, 0, w, h) wrote, less the
        # XML Events namespace it declared and we never use (the SVG 1.1 DTD does not allow it)
        self._root = Node("svg", {"baseProfile": "full", "height": f"{h}mm", "version": "1.1", "viewBox": f"0,0,{w},{h}",
                                  "width": f"{w}mm", "xmlns": "http://www.w3.org/2000/svg",
                                  "xmlns:xlink": "http://www.w3.org/1999/xlink"})
        if self.title:
            self._root.children.append(f"<title>{_esc_text(self.title)}</title>")
        self._defs = Node("defs", {})
        self._root.children.append(self._defs)
        self._target = self._root
        self._glyph_ids = {}
        self._uses = {}
        self._symbols = {}
        self._images = {}
        self._ids = 0
        self._page_boxes = (trim, bleed)

    def end_page(self) -> None:
        root = self._open()
        trim, bleed = self._page_boxes
        # Trim and bleed boxes as invisible rectangles with ids, the SVG counterpart of PDF page boxes.
        for name, b in (("trim-box", trim), ("bleed-box", bleed)):
            if b is not None:
                self._defs.children.append(leaf("rect", {"x": _n(b.x), "y": _n(b.y), "width": _n(b.w), "height": _n(b.h),
                                                         "id": name, "fill": "none"}))
        text = '<?xml version="1.0" encoding="utf-8" ?>\n' + page_xml(root)
        data = text.encode("utf-8")
        self._raw += len(data)
        self.pages.append((True, zlib.compress(data, 1)) if self._raw > RAW_BUDGET else (False, data))
        self._root = None
        self._uses = {}

    # ------------------------------------------------------------------ helpers
    def _paint(self, fill: Colour, stroke: Colour, width: float) -> dict[str, str | float]:
        attrs: dict[str, str | float] = {"fill": fill or "none"}
        if stroke:
            attrs.update({"stroke": stroke, "stroke-width": _n(width)})
        return attrs

    def _p(self, x: float, y: float) -> tuple[float, float]:
        # _n of each, inline (a sheet places tens of thousands of points)
        rx, ry = round(x + self._ox, 3), round(y + self._oy, 3)
        return (rx if rx else 0.0, ry if ry else 0.0)

    # ------------------------------------------------------------------ shapes
    def rect(self, box: Box, *, fill: Colour = None, stroke: Colour = None, width: float = 0.25,
             radius: float = 0.0) -> None:
        if not (fill or stroke):
            return
        x, y = self._p(box.x, box.y)
        # written here, not by `leaf` (a sheet has thousands): its attributes in their sorted order,
        # none of them empty
        rounded = f' rx="{_n(radius)}" ry="{_n(radius)}"' if radius > 0 else ""
        stroked = f' stroke="{_esc_attr(stroke)}" stroke-width="{_n(width)}"' if stroke else ""
        self._put(f'<rect fill="{_esc_attr(fill or "none")}" height="{_n(box.h)}"{rounded}{stroked} '
                  f'width="{_n(box.w)}" x="{x}" y="{y}" />')

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: Colour = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        if not stroke:
            return
        (ax, ay), (bx, by) = self._p(x1, y1), self._p(x2, y2)
        dashed = f' stroke-dasharray="{",".join(str(_n(d)) for d in dash)}"' if dash else ""
        # as a rectangle is written: its attributes in their sorted order, none of them empty
        self._put(f'<line fill="none" stroke="{_esc_attr(stroke)}"{dashed} stroke-width="{_n(width)}" '
                  f'x1="{ax}" x2="{bx}" y1="{ay}" y2="{by}" />')

    def _points(self, points: Sequence[Point]) -> str:
        return " ".join("%s,%s" % self._p(x, y) for x, y in points)

    def polyline(self, points: Sequence[Point], *, stroke: Colour = "#000000", width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None:
        if not stroke or len(points) < 2:
            return
        attrs: dict[str, Any] = {"points": self._points(points), **self._paint(None, stroke, width)}
        if dash:
            attrs["stroke-dasharray"] = ",".join(str(_n(d)) for d in dash)
        self._put(leaf("polyline", attrs))

    def polygon(self, points: Sequence[Point], *, fill: Colour = None, stroke: Colour = None,
                width: float = 0.25) -> None:
        if not (fill or stroke) or len(points) < 3:
            return
        self._put(leaf("polygon", {"points": self._points(points), **self._paint(fill, stroke, width)}))

    def circle(self, cx: float, cy: float, r: float, *, fill: Colour = None, stroke: Colour = None,
               width: float = 0.25) -> None:
        if not (fill or stroke):
            return
        x, y = self._p(cx, cy)
        self._put(leaf("circle", {"cx": x, "cy": y, "r": _n(r), **self._paint(fill, stroke, width)}))

    def text(self, x: float, y: float, s: str, *, size_pt: float, colour: Colour = "#000000",
             align: Align = "left", font: str | None = None) -> None:
        if not s:
            return
        font = font or fonts.register()
        shaped = _shaped(s, font)
        em = size_pt * MM_PER_PT
        if len(shaped) == 1:  # the usual case: one face
            [(f, advance, placed)] = shaped
            scale = em / glyph_outlines(f).upm
            px, py = self._p(x - advance * em / glyph_outlines(f).upm * _ALIGN[align], y)
            # the glyphs are in font units, scaled and flipped (font y is up) by the text's group,
            # whose attributes are, sorted, its fill and font's, then its transform (numbers alone:
            # nothing to escape)
            self._put(f'<g{_text_attrs(colour or "#000000", font)} '
                      f'transform="translate({px} {py}) scale({scale:.6g} {-scale:.6g})">'
                      f"<title>{_esc_text(s)}</title>{self._glyph_uses(f, placed)}</g>")
            return
        widths = [advance * em / glyph_outlines(f).upm for f, advance, _ in shaped]
        x0 = x - sum(widths) * _ALIGN[align]
        runs = []
        for (f, _, placed), width in zip(shaped, widths):  # a group per run, placed as the text's above
            px, py = self._p(x0, y)
            scale = em / glyph_outlines(f).upm
            run = {"transform": f"translate({px} {py}) scale({scale:.6g} {-scale:.6g})"}
            if f != font:  # a fallback run says its own face (and that it is not bold)
                run.update(_family(f))
                run["font-weight"] = "bold" if fonts.font_info(f).bold else "normal"
            runs.append(element("g", run, None, self._glyph_uses(f, placed)))
            x0 += width
        self._put(element("g", {"fill": colour or "#000000", **_family(font)}, s, "".join(runs)))

    def _glyph_uses(self, font: str, placed: tuple[tuple[str, int], ...]) -> str:
        """Each glyph's <use> (its outline defined once a page), x its pen position in font units."""
        known = self._uses.get(id(placed))
        if known is not None and known[0] is placed:
            return known[1]
        ids = self._glyph_ids
        out = []
        for name, pen in placed:
            gid = ids.get((font, name)) or self._glyph_id(font, name)
            out.append(f'<use x="{pen}" xlink:href="#{gid}" />' if pen else f'<use xlink:href="#{gid}" />')
        written = "".join(out)
        self._uses[id(placed)] = (placed, written)
        return written

    def _glyph_id(self, font: str, name: str) -> str:
        key = (font, name)
        if key not in self._glyph_ids:
            gid = f"g{len(self._glyph_ids) + 1}"
            self._defs.children.append(f'{glyph_outlines(font).path_xml(name)}id="{gid}" />')
            self._glyph_ids[key] = gid
        return self._glyph_ids[key]

    # ------------------------------------------------------------------ images
    def image(self, box: Box, image: ImageSource, *, fit: Fit = "fit") -> None:
        placed = place_image(box, image.aspect, fit)
        key = hashlib.sha1(image.data).hexdigest()
        self._open()
        if key not in self._images:
            mime = "image/svg+xml" if image.kind == "svg" else (
                "image/png" if image.data[:4] == b"\x89PNG" else "image/jpeg")
            href = f"data:{mime};base64," + base64.b64encode(image.data).decode("ascii")
            iid = self._id("img")
            self._defs.children.append(leaf("image", {"id": iid, "xlink:href": href, "x": 0, "y": 0, "width": 1,
                                                      "height": 1, "preserveAspectRatio": "none"}))
            self._images[key] = iid
        with self.group(clip=box if fit == "crop" else None):
            x, y = self._p(placed.x, placed.y)
            self._put(leaf("use", {"xlink:href": f"#{self._images[key]}",
                                   "transform": f"translate({x} {y}) scale({_n(placed.w)} {_n(placed.h)})"}))

    # ------------------------------------------------------------------ symbols and groups
    def define_symbol(self, name: str, width: float, height: float,
                      draw: Callable[["SvgSurface"], None]) -> None:
        # A plain <g> in <defs> placed by <use transform=...>: every SVG reader supports it, while
        # some (svglib, older print-shop RIPs) mis-scale <symbol viewBox> on <use width height>.
        self._open()
        sid = self._id("sym")
        sym = Node("g", {"id": sid})
        saved = (self._target, self._ox, self._oy)
        self._target, self._ox, self._oy = sym, 0.0, 0.0
        draw(self)
        self._target, self._ox, self._oy = saved
        self._defs.children.append(sym)
        self._symbols[name] = (sid, width, height)

    def has_symbol(self, name: str) -> bool:
        return name in self._symbols

    def use_symbol(self, name: str, x: float, y: float, *, scale: float = 1.0) -> None:
        sid, w, h = self._symbols[name]
        px, py = self._p(x, y)
        place = f"translate({px} {py})" + (f" scale({scale:.6g})" if scale != 1 else "")
        self._put(f'<use transform="{_esc_attr(place)}" xlink:href="#{_esc_attr(sid)}" />')

    @contextmanager
    def group(self, *, dx: float = 0.0, dy: float = 0.0, clip: Box | None = None) -> Iterator[None]:
        prev = self._push(dx, dy)
        saved = self._target
        if clip is not None:
            self._open()
            cid = self._id("clip")
            x, y = self._p(clip.x, clip.y)
            self._defs.children.append(element("clipPath", {"id": cid}, None,
                                               leaf("rect", {"x": x, "y": y, "width": _n(clip.w), "height": _n(clip.h)})))
            g = Node("g", {"clip-path": f"url(#{cid})"})
            self._target.children.append(g)
            self._target = g
        try:
            yield
        finally:
            self._target = saved
            self._pop(prev)

    # ------------------------------------------------------------------ output
    def save(self, target: Path) -> list[Path]:
        """One page: `target`; several: `<stem>-p1.svg`, `<stem>-p2.svg`, ..."""
        if self._root is not None:
            self.end_page()
        target = Path(target)
        if len(self.pages) == 1:
            return [write_bytes(target, _page_bytes(*self.pages[0]))]
        return [write_bytes(target.with_name(f"{target.stem}-p{i}{target.suffix}"), _page_bytes(*page))
                for i, page in enumerate(self.pages, 1)]


def _page_bytes(compressed: bool, data: bytes) -> bytes:
    return zlib.decompress(data) if compressed else data
