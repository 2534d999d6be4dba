"""A surface that only records the calls it is given (`Recording`), and `png_once`: a one-page PNG
drawn from a recording, encoded once per process for equal recordings; `pdf_once` likewise for a PDF.

Pieces' PNGs repeat: a counter whose back equals its front, the common backs of a deck's items,
a face with no text in every language built. Their drawing calls are equal, so their pixels and
their bytes are; `png_once` replays a recording on a PNG surface (in the ink mode in force) the
first time and hands out the same bytes after that, for the last `KEEP` recordings. A symbol's
drawing function counts as equal when it is (cards/symbols.py's `SymbolDrawing` is a value), as
the PNG backend's shared tiles already take it to be (png.py). `pdf_once` serves a PDF that every
unit of a game writes alike, the duplex calibration page (one per deck built, some 50 in the
example games, a dozen of them different).
"""
from __future__ import annotations

from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ..geometry import Box
from ..output import write_bytes
from .base import Align, Colour, Fit, ImageSource, Point, SurfaceBase

KEEP = 512  # PNGs kept (a card face at 300 dpi is some 35 KB)
_PNGS: dict[tuple, bytes] = {}
KEEP_PDFS = 16  # PDFs kept (a calibration page is some 20 KB)
_PDFS: dict[tuple, bytes] = {}


def _frozen(v: Any) -> Any:
    """A call's argument as a hashable value equal for equal arguments (lists become tuples)."""
    if isinstance(v, (list, tuple)):
        return tuple(_frozen(x) for x in v)
    return v


class Recording(SurfaceBase):
    """The calls of one page, in order: (method, positional arguments, keyword arguments).

    `any_surface`: the recording is replayed on surfaces that keep symbols differently (a PDF
    defines a symbol once per file, an SVG once per page), so it records a symbol's definition
    at every use (`has_symbol` is always false) and `replay` makes a definition only where the
    surface replayed on has none of that name yet: each surface gets the calls that drawing on
    it directly would have made."""

    def __init__(self, any_surface: bool = False) -> None:
        self.calls: list[tuple[str, tuple, tuple]] = []
        self._defined: set[str] = set()
        self._any_surface = any_surface

    # Each method appends its call as _add would make it (keyword arguments sorted by name, lists
    # as tuples), written out: a sheet records tens of thousands of calls, and the generic
    # *args/**kwargs path cost several times the append itself.
    def _add(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.calls.append((name, _frozen(args), tuple(sorted((k, _frozen(v)) for k, v in kwargs.items()))))

    def begin_page(self, width_mm: float, height_mm: float, *, trim: Box | None = None,
                   bleed: Box | None = None) -> None:
        self._add("begin_page", width_mm, height_mm, trim=trim, bleed=bleed)

    def end_page(self) -> None:
        self._add("end_page")

    def rect(self, box: Box, *, fill: Colour = None, stroke: Colour = None, width: float = 0.25,
             radius: float = 0.0) -> None:
        self.calls.append(("rect", (box,), (("fill", fill), ("radius", radius), ("stroke", stroke), ("width", width))))

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: Colour = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        self.calls.append(("line", (x1, y1, x2, y2), (("dash", _frozen(dash)), ("stroke", stroke), ("width", width))))

    def polyline(self, points: Sequence[Point], *, stroke: Colour = "#000000", width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None:
        self._add("polyline", points, stroke=stroke, width=width, dash=dash)

    def polygon(self, points: Sequence[Point], *, fill: Colour = None, stroke: Colour = None,
                width: float = 0.25) -> None:
        self._add("polygon", points, fill=fill, stroke=stroke, width=width)

    def circle(self, cx: float, cy: float, r: float, *, fill: Colour = None, stroke: Colour = None,
               width: float = 0.25) -> None:
        self.calls.append(("circle", (cx, cy, r), (("fill", fill), ("stroke", stroke), ("width", width))))

    def text(self, x: float, y: float, s: str, *, size_pt: float, colour: Colour = "#000000",
             align: Align = "left", font: str | None = None) -> None:
        self.calls.append(("text", (x, y, s), (("align", align), ("colour", colour), ("font", font), ("size_pt", size_pt))))

    def image(self, box: Box, image: ImageSource, *, fit: Fit = "fit") -> None:
        self._add("image", box, image, fit=fit)

    def define_symbol(self, name: str, width: float, height: float, draw: Callable[[Any], None]) -> None:
        self._defined.add(name)
        self._add("define_symbol", name, width, height, draw)

    def has_symbol(self, name: str) -> bool:
        return not self._any_surface and name in self._defined

    def use_symbol(self, name: str, x: float, y: float, *, scale: float = 1.0) -> None:
        self.calls.append(("use_symbol", (name, x, y), (("scale", scale),)))

    @contextmanager
    def group(self, *, dx: float = 0.0, dy: float = 0.0, clip: Box | None = None) -> Iterator[None]:
        self._add("group", dx=dx, dy=dy, clip=clip)
        try:
            yield
        finally:
            self._add("end_group")

    def replay(self, s: Any) -> None:
        """Make the same calls on `s`, in the same order."""
        groups: list[ExitStack] = []
        try:
            for name, args, kwargs in self.calls:
                if name == "group":
                    groups.append(ExitStack())
                    groups[-1].enter_context(s.group(**dict(kwargs)))
                elif name == "end_group":
                    groups.pop().close()
                elif name == "define_symbol" and self._any_surface and s.has_symbol(args[0]):
                    continue  # defined before on this surface (this page of an SVG, this PDF)
                else:
                    getattr(s, name)(*args, **dict(kwargs))
        finally:
            while groups:
                groups.pop().close()

    def save(self, target: Path) -> list[Path]:
        raise TypeError("a Recording writes nothing: replay it on a surface, or use png_once")


def png_once(rec: Recording, target: Path, dpi: int) -> list[Path]:
    """`rec` (one page) as the PNG at `target`: drawn and encoded on a PNG surface in the ink mode
    in force, or the bytes of an equal recording drawn before in this process."""
    def draw() -> bytes:
        from . import open_surface

        s = open_surface("png", dpi=dpi)
        rec.replay(s)
        return s.png_bytes(0)

    return [write_bytes(target, _once(_PNGS, KEEP, (dpi,), rec, draw))]


def pdf_once(rec: Recording, target: Path, title: str, preflight: bool = False) -> list[Path]:
    """`rec` (any pages) as the PDF at `target` with `title`: drawn on a PDF surface in the ink mode
    in force, or the bytes of an equal recording with the same title drawn before in this process;
    with `preflight`, its record handed to preflight (pieces/drawn.py)."""
    def draw() -> bytes:
        from . import open_surface

        s = open_surface("pdf", title=title)
        rec.replay(s)
        return bytes(s.getvalue())

    data = _once(_PDFS, KEEP_PDFS, (title,), rec, draw)
    if preflight:  # judged by preflight from its calls; numpy and the reader's modules only then
        from ..pieces.drawn import offer_sheets

        offer_sheets(data, rec)
    return [write_bytes(target, data)]


def _once(cache: dict[tuple, bytes], keep: int, options: tuple, rec: Recording, draw: Callable[[], bytes]) -> bytes:
    """The bytes `draw` makes of `rec`, made once for equal recordings with equal `options` in the
    same ink mode; the last `keep` kept."""
    from .ink import current_mode

    key = (*options, current_mode(), tuple(rec.calls))
    data = cache.pop(key, None)
    if data is None:
        data = draw()
    cache[key] = data  # the most recent last
    if len(cache) > keep:
        del cache[next(iter(cache))]
    return data
