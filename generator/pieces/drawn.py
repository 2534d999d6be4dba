"""What a sheet of pieces drew, read from its recording (render/record.py `Recording`: the Surface
calls in mm), so that preflight judges a sheet it has just written without reading the file back
(generator/preflight.py; issue 26), as it judges a book from generator/rulebook/drawn.py's record.

    SheetRecord.of(rec)        a recording's calls and pages (None in an ink mode other than normal:
                               the ink transform recolours what the file holds)
    offer_sheets(data, rec)    the record of the PDF whose bytes are `data`, handed to preflight
    save_pdf(surface, rec, target)   a PDF surface drawn from `rec` saved, its record offered
    sheet_pages(record)        its pages as preflight's checks are given them, or None: read back
    sheet_pages_each(record)   the same a page at a time: None for a page it cannot tell (read back)

A page's characters are the text calls' strings cut into their fonts' runs (fonts.runs), placed as
the PDF backend places them and worked out by sheettext.py with rulebook/drawn.py's `pages_text` (glyph boxes from the
faces' outlines, pdfium's order). The colour under a text call is the topmost opaque fill drawn
before it that surely covers its window (its glyphs' box, a quarter of its size round it as the
read-back's window, and RENDER_SLACK_MM for whole pixels and anti-aliased edges): a rect (inside its
rounded corners and its stroke), a convex polygon or a circle; nothing under it: the paper. Where
anything else touches the window (an image, a symbol, a stroke, a fill that does not cover it, a
clip's edge, anything drawn after it) the colour is unknown and the page is read back. Text drawn
inside a symbol is read back too. Other text is not counted as covering a window: glyphs are a
small share of it, and the read-back's window colour is its commonest colour but the text's own.

The trims are the read-back's (pdfread.crop_mark_trims) worked from the page's paths (their bounds
with and without their stroke: where the two would read differently, the page is read back); the
symbols' boxes (forms) are the symbols placed on the page and pictures drawn as vectors (SVG), each
its frame joined with what its drawing draws; two of them on one piece that come within FORM_SLACK_MM
(sheettext.py) of each other send the page to the read-back.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ..drawn_registry import offer
from ..geometry import MM_PER_PT, PT_PER_MM, Box
from ..glyphmetrics import ink_box
from ..pagetext import Rect
from ..pdfread import MARK_MAX_MM, MARK_THICK_MAX_MM, trim_spans
from ..pieces.grid import MARK_MIN_LEN_MM
from ..render.ink import rgb
from ..rulebook import drawn as books
from .sheettext import RENDER_SLACK_MM, Page, forms_near, pages_seen, texts_touch
from .shapes import Shape, circle_covers, clear_of, cut, in_box, meeting, outset, polygon_covers, rect_covers

if TYPE_CHECKING:
    from ..render.record import Recording

PAPER_RGB = (255, 255, 255)
# a sharp join's miter reaches up to half the PDF's miter limit (10) widths past its point: a
# polygon's or a line's box is taken that wide, so that it holds what pdfium bounds it by
MITER = 5.0
Call = tuple[str, tuple, tuple]
Ink = tuple[float, float, float, float] | None


@dataclass
class SheetRecord:
    """A sheet's recorded calls (every page, in order) and its pages' sizes (mm)."""
    calls: list[Call]
    sizes: list[tuple[float, float]]

    @staticmethod
    def of(rec: Recording) -> SheetRecord | None:
        from ..render.ink import current_mode

        if current_mode() != "normal":
            return None
        return SheetRecord(rec.calls, [(c[1][0], c[1][1]) for c in rec.calls if c[0] == "begin_page"])

    def sizes_pt(self) -> list[tuple[float, float]]:
        return [(w * PT_PER_MM, h * PT_PER_MM) for w, h in self.sizes]

    def pages(self) -> list[list[Call]]:
        starts = [i for i, c in enumerate(self.calls) if c[0] == "begin_page"]
        return [self.calls[a:b] for a, b in zip(starts, starts[1:] + [len(self.calls)])]


def offer_sheets(data: bytes, rec: Recording | None) -> None:
    """Hand the record of the PDF `data` (drawn from `rec`) to preflight (generator/drawn_registry.py)."""
    record = SheetRecord.of(rec) if rec is not None else None
    if record is not None:
        offer(data, record)


class Unknown(Exception):
    """What the record cannot tell: the page is read back."""


class _Walk:
    """One page's calls (or a symbol's), walked once: what is drawn where, in order."""

    def __init__(self, h_mm: float, symbols: dict[str, tuple[float, float, Any]], cache: dict) -> None:
        self.h = h_mm
        self.ox = self.oy = 0.0
        self.clip: Rect | None = None
        self.stack: list[tuple[float, float, Rect | None]] = []
        self.shapes: list[Shape] = []
        self.texts: list[tuple[int, list[books.Drawn], Rect]] = []  # shapes before it, its strings, its window
        self.paths: list[tuple[Rect, float, float]] = []  # each path's points' bounds (mm, y down), its stroke's width and reach
        self.forms: list[Rect] = []
        self.symbols, self.cache = symbols, cache
        self.redefined = False  # a symbol given another drawing than the one it had

    def walk(self, calls: Sequence[Call]) -> _Walk:
        for name, args, kwargs in calls:
            kw = dict(kwargs)
            if name in _DRAWS:  # the most calls: looked up once, not by name
                _DRAWS[name](self, *args, **kw)
            elif name == "group":
                self.stack.append((self.ox, self.oy, self.clip))
                self.ox, self.oy = self.ox + kw["dx"], self.oy + kw["dy"]
                if kw["clip"] is not None:
                    c = kw["clip"]
                    self.clip = cut((c.x + self.ox, c.y + self.oy, c.right + self.ox, c.bottom + self.oy), self.clip)
            elif name == "end_group":
                self.ox, self.oy, self.clip = self.stack.pop()
            elif name == "define_symbol":
                drawing = (args[1], args[2], args[3])
                self.redefined |= self.symbols.setdefault(args[0], drawing) != drawing
                self.symbols[args[0]] = drawing
            elif name not in ("begin_page", "end_page"):
                getattr(self, "_" + name)(*args, **kw)  # a call it has no method for: fails here
        return self

    def _box(self, b: Box) -> Rect:
        return b.x + self.ox, b.y + self.oy, b.right + self.ox, b.bottom + self.oy

    def _add(self, box: Rect, fill: str | None = None, covers: Callable[[Rect], bool] | None = None,
             inner: Callable[[Rect], bool] | None = None, path: tuple[Rect, float, float] | None = None) -> None:
        if path is not None:
            self.paths.append(path)
        clip = self.clip
        if fill and covers is not None and clip is not None:
            covers = (lambda test: lambda w: in_box(w, clip) and test(w))(covers)
        self.shapes.append(Shape(cut(box, clip), rgb(fill) if fill and covers else None, covers if fill else None, inner))

    def _rect(self, box: Box, fill: str | None, radius: float, stroke: str | None, width: float) -> None:
        if not (fill or stroke):
            return
        b, half = self._box(box), width / 2 if stroke else 0.0
        inside = rect_covers(outset(b, -half), radius)  # inside its stroke: what a fill covers, what an outline keeps clear of
        # a corner's miter reaches half a width times the square root of two past it
        self._add(outset(b, width if stroke else 0.0), fill, inside,
                  None if fill else inside, (b, width if stroke else 0.0, width if stroke else 0.0))

    def _polygon(self, points: Sequence[tuple[float, float]], fill: str | None, stroke: str | None, width: float) -> None:
        if not (fill or stroke) or len(points) < 3:
            return
        pts = [(x + self.ox, y + self.oy) for x, y in points]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        b, half = (min(xs), min(ys), max(xs), max(ys)), width / 2 if stroke else 0.0
        test = polygon_covers(pts, half)
        clear = clear_of(pts + pts[:1], MITER * width)  # an outline touches only near its edges
        reach = MITER * width if stroke else 0.0
        self._add(outset(b, reach), fill, test, None if fill else clear, (b, width if stroke else 0.0, reach))

    def _circle(self, cx: float, cy: float, r: float, fill: str | None, stroke: str | None, width: float) -> None:
        if not (fill or stroke):
            return
        x, y, half = cx + self.ox, cy + self.oy, width / 2 if stroke else 0.0
        b = (x - r, y - r, x + r, y + r)
        test = circle_covers(x, y, r - half)
        w = width if stroke else 0.0
        self._add(outset(b, w), fill, test, None if fill else test, (b, w, w))

    def _polyline(self, points: Sequence[tuple[float, float]], dash: Any, stroke: str | None, width: float) -> None:
        if not stroke or len(points) < 2:
            return
        xs, ys = [x + self.ox for x, _ in points], [y + self.oy for _, y in points]
        b, reach = (min(xs), min(ys), max(xs), max(ys)), (MITER if len(points) > 2 else 1.0) * width  # a line has no join
        self._add(outset(b, reach), inner=clear_of(list(zip(xs, ys)), reach) if len(points) > 2 else None, path=(b, width, reach))

    def _line(self, x1: float, y1: float, x2: float, y2: float, dash: Any, stroke: str | None, width: float) -> None:
        self._polyline([(x1, y1), (x2, y2)], dash, stroke, width)

    def _image(self, box: Box, image: Any, fit: str) -> None:
        from ..render.base import place_image

        placed = self._box(place_image(box, image.aspect, fit))  # type: ignore[arg-type]
        if image.kind == "svg":
            if b"<text" in image.data:  # its words are characters in the file
                raise Unknown("text in a picture")
            self.forms.append(placed)
        self._add(cut(placed, self._box(box)) if fit == "crop" else placed)

    def _use_symbol(self, name: str, x: float, y: float, scale: float) -> None:
        w, h, draw = self.symbols[name]
        key = (name, id(draw))
        if key not in self.cache:
            self.cache[key] = _symbol_bounds(w, h, draw, self.symbols, self.cache)
        x0, y0, x1, y1 = self.cache[key]
        ax, ay = x + self.ox, y + self.oy
        box = (ax + scale * x0, ay + scale * y0, ax + scale * x1, ay + scale * y1)
        self.forms.append(box)
        self._add(box)

    def _text(self, x: float, y: float, s: str, align: str, colour: str | None, font: str | None, size_pt: float) -> None:
        if not s:
            return
        if not font:
            from .. import fonts
            font = fonts.register()
        X, Y = (x + self.ox) * PT_PER_MM, (self.h - (y + self.oy)) * PT_PER_MM
        shift, parts = _layout(s, align, font, size_pt)
        if shift is not None:
            X -= shift
        colour_rgb, lo, hi, k = rgb(colour or "#000000"), [math.inf, math.inf], [-math.inf, -math.inf], size_pt / 1000
        strings: list[books.Drawn] = []
        for part, f, ink, width in parts:
            strings.append((1, X, Y, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), f, size_pt, colour_rgb, part, None, False, False))
            if ink is not None:
                lo = [min(lo[0], X + k * ink[0]), min(lo[1], k * ink[1])]
                hi = [max(hi[0], X + k * ink[2]), max(hi[1], k * ink[3])]
            if width is not None:
                X += width
        if not math.isfinite(lo[0]):
            return  # nothing with an outline: no character is read
        pad = 0.25 * size_pt * MM_PER_PT + RENDER_SLACK_MM
        window = (lo[0] * MM_PER_PT - pad, self.h - (Y + hi[1]) * MM_PER_PT - pad,
                  hi[0] * MM_PER_PT + pad, self.h - (Y + lo[1]) * MM_PER_PT + pad)
        if self.clip is not None and not in_box(window, self.clip):
            raise Unknown("text at a clip's edge")
        self.texts.append((len(self.shapes), strings, window))


_DRAWS = {name: getattr(_Walk, "_" + name) for name in ("rect", "polygon", "circle", "polyline", "line", "image", "use_symbol", "text")}


@lru_cache(maxsize=8192)  # a deck's labels repeat on every sheet and in every language built
def _layout(s: str, align: str, font: str, size_pt: float) -> tuple[float | None, tuple[tuple[str, str, Ink, float | None], ...]]:
    """How a text call sets `s`: what its point moves left by (None: left-aligned, its width not
    needed) and its font runs (fonts.runs), each with its glyphs' ink box (font units, None: no
    outline) and its width in pt, where the next run starts (None after the last)."""
    from .. import fonts

    share = {"left": 0.0, "center": 0.5, "right": 1.0}[align]
    parts = fonts.runs(s, font)
    return share * fonts.string_width(s, font, size_pt) if share else None, tuple(
        (part, f, ink_box(part, f), fonts.string_width(part, f, size_pt) if i + 1 < len(parts) else None)
        for i, (part, f) in enumerate(parts))


def _symbol_bounds(w: float, h: float, draw: Any, symbols: dict, cache: dict) -> Rect:
    """A symbol's frame joined with the bounds of what its drawing draws (a form's bounds, as pdfium
    reads them, are its content's); text in a symbol is not followed: read back."""
    from ..render.record import Recording

    rec = Recording()
    draw(rec)
    sub = _Walk(h, dict(symbols), cache).walk(rec.calls)
    if sub.texts:
        raise Unknown("text in a symbol")
    boxes = [s.box for s in sub.shapes] or [(0.0, 0.0, w, h)]
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def sheet_pages(record: SheetRecord) -> list[Page] | None:
    """Every page of the record as preflight's checks are given a page read back (`Page`: its
    characters, those on paper with their runs and the colour under each, its trims, its symbols'
    boxes), or None where the record cannot tell a page (the file is read back)."""
    pages = sheet_pages_each(record)
    told = [p for p in pages if p is not None]
    return told if len(told) == len(pages) else None


def sheet_pages_each(record: SheetRecord) -> list[Page | None]:
    """`sheet_pages`, a page at a time: None for each page the record cannot tell (that page is read
    back). A page whose calls are an earlier page's (a deck's backs, a sheet of the same tokens) is
    that page's Page, the very object: preflight judges it once (its findings would be the earlier
    page's)."""
    symbols: dict[str, tuple[float, float, Any]] = {}
    cache: dict = {}
    drawn: list[tuple[tuple[float, float], list[books.Drawn], list[Rect], list[Rect]]] = []  # the pages worked out
    of: list[int] = []  # per page, its page in `drawn`, -1 where the record cannot tell it
    # the pages worked out since a symbol last changed its drawing (a page using it would differ)
    done: list[tuple[tuple[float, float], list[Call], int]] = []
    for size, calls in zip(record.sizes, record.pages()):
        # equal lengths first: a list's == stops at the first call that differs, mostly early
        j = next((j for s, c, j in done if s == size and len(c) == len(calls) and c == calls), None)
        if j is None:
            walk = _Walk(size[1], symbols, cache)
            try:
                walk.walk(calls)
                j, page = len(drawn), (size, *_strings(walk))
            except Unknown:
                j, page = -1, None
                _define_rest(walk, calls)  # the symbols the page defines after where it stopped
            if walk.redefined:
                done.clear()
            if page is not None:
                drawn.append(page)
            done.append((size, calls, j))
        of.append(j)
    pages = pages_seen(drawn) if drawn else []
    return [pages[j] if j >= 0 else None for j in of]


def _define_rest(walk: _Walk, calls: Sequence[Call]) -> None:
    """Every symbol definition among a page's calls, as the walk of the whole page would have kept
    it (the walk stopped at what the record cannot tell): the next pages draw with them."""
    for name, args, _ in calls:
        if name == "define_symbol":
            drawing = (args[1], args[2], args[3])
            walk.redefined |= walk.symbols.setdefault(args[0], drawing) != drawing
            walk.symbols[args[0]] = drawing


def _strings(walk: _Walk) -> tuple[list[books.Drawn], list[Rect], list[Rect]]:
    """A page's strings, each with the colour under it, its trims and its symbols' boxes; Unknown
    where the record cannot tell."""
    trims = _trims(walk.paths)
    if trims and forms_near(walk.forms):
        raise Unknown("symbols close together on a sheet with crop marks")
    boxes = np.array([s.box for s in walk.shapes], dtype=np.float64).reshape(-1, 4)
    strings: list[books.Drawn] = []
    windows = np.array([t[2] for t in walk.texts], dtype=np.float64).reshape(-1, 4)
    # first: a page it cannot tell mostly fails here, at its first texts
    for (before, drawn, window), touch in zip(walk.texts, meeting(boxes, windows)):
        under = _under(walk.shapes, touch, before, window)
        strings += [s[:8] + (under,) + s[9:] for s in drawn]
    if texts_touch(walk.texts):
        raise Unknown("a text's window touches another text")
    return strings, trims, walk.forms


def _under(shapes: list[Shape], touch: list[int], before: int, w: Rect) -> tuple[int, int, int]:
    """The colour under a text's window `w`: the topmost shape before it (`before` of them) that
    touches it (of `touch`, those whose box meets it, ascending), an opaque fill that covers it; the
    paper when none touches."""
    for i in reversed(touch):  # the topmost first: what lies under it is hidden
        if _inside(shapes[i], w):
            continue
        if i >= before:
            raise Unknown("drawn over a text")
        top = shapes[i]
        if top.fill is None or top.covers is None or not top.covers(w):
            raise Unknown("no fill surely under a text")
        return top.fill
    return PAPER_RGB


def _inside(shape: Shape, w: Rect) -> bool:
    """Whether `w` lies inside a stroked outline (`shape.inner`), which does not touch it."""
    return shape.inner is not None and shape.inner(w)


def _trims(paths: list[tuple[Rect, float, float]]) -> list[Rect]:
    """pdfread.crop_mark_trims of the page's paths: pdfium bounds a stroked path by its points
    widened by the stroke's width all round (a 3 mm crop mark reads 0.4 x 3.4 mm), and a sharp
    join's miter may reach further (`reach`): where the two would read differently, Unknown."""
    xs, ys = set(), set()
    for b, width, reach in paths:
        near = outset(b, width)
        if near[2] - near[0] >= MARK_THICK_MAX_MM and near[3] - near[1] >= MARK_THICK_MAX_MM:
            continue  # thick both ways: no mark, nor at its reach (never less than its width: no narrower)
        kinds = {_mark_kind(near), _mark_kind(outset(b, reach))}
        if len(kinds) > 1:
            raise Unknown("a path that may read as a crop mark")
        kind = kinds.pop()
        if kind == "x":
            xs.add(round((b[0] + b[2]) / 2, 1))
        elif kind == "y":
            ys.add(round((b[1] + b[3]) / 2, 1))
    cols, rows = trim_spans(sorted(xs)), trim_spans(sorted(ys))
    return [(a, b, c, d) for a, c in cols for b, d in rows]


def _mark_kind(b: Rect) -> str:
    w, h = b[2] - b[0], b[3] - b[1]
    if w < MARK_THICK_MAX_MM and MARK_MIN_LEN_MM <= h <= MARK_MAX_MM:
        return "x"
    if h < MARK_THICK_MAX_MM and MARK_MIN_LEN_MM <= w <= MARK_MAX_MM:
        return "y"
    return ""


def save_pdf(surface: Any, rec: Recording | None, target: Path) -> list[Path]:
    """`surface.save(target)` of a PDF surface drawn from `rec` (None: drawn directly), its record
    handed to preflight by the bytes written."""
    record = SheetRecord.of(rec) if rec is not None else None
    if record is None:
        return list(surface.save(target))
    from ..output import write_bytes

    data = surface.getvalue()
    offer(data, record)
    return [write_bytes(target, data)]
