"""PDF backend: reportlab canvas, deterministic, embedded TrueType fonts only, page boxes set.

- `invariant=1` fixes the creation date and document id, so the same input gives the same bytes;
- the canvas starts every page with our embedded font (`initialFontName`), so no page ever
  references reportlab's default Helvetica (which is not embedded); text is set in the font each
  call names, run by run (`fonts.runs`: a character the face lacks in the project font), and
  reportlab embeds each font used as a subset;
- symbols become form XObjects: drawn once, placed by reference (one content stream per page
  stays linear in the number of placements);
- coordinates arrive in mm, y down; they are converted to PDF points, y up, here and only here.
"""
from __future__ import annotations

import hashlib
import io
import re
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, Sequence

from .. import fonts
from ..geometry import PT_PER_MM, Box
from ..output import write_bytes
# imported here, not in `text`: an import statement run per call cost 3 us, a sheet draws thousands
from ..rulebook.drawstring import draw_string
from .base import Align, Colour, Fit, ImageSource, SurfaceBase, Point, place_image

K = PT_PER_MM


@lru_cache(maxsize=None)
def _rgb(colour: str) -> tuple[float, float, float]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return (int(c[0:2], 16) / 255, int(c[2:4], 16) / 255, int(c[4:6], 16) / 255)


def _encode_last_page(canvas: object) -> None:
    """Encode the page just shown now, with the filters reportlab would run when the document is
    saved (so the bytes are the same), instead of holding every page's operators as text until
    then: a deck of 20,000 cards has 5,000 pages."""
    from reportlab import rl_config
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFBase85Encode, PDFName, PDFStream, PDFZCompress

    page = canvas._doc.Pages.pages[-1]  # type: ignore[attr-defined]
    if not page.compression or not page.stream or page.Contents:
        return
    content = page.stream
    names: list[PDFName] = []
    for f in reversed([PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]):
        content = f.encode(content)
        names.insert(0, PDFName(f.pdfname))
    stream = PDFStream(content=content)
    stream.dictionary["Filter"] = PDFArray(names)
    stream.__Comment__ = "page stream"
    page.Contents, page.stream = stream, None


class PdfSurface(SurfaceBase):
    def __init__(self, title: str = "", author: str = "pnp-forge", subject: str = ""):
        from reportlab.pdfgen.canvas import Canvas

        self.font = fonts.register()
        self._buf = io.BytesIO()
        self.c = Canvas(self._buf, invariant=1, pageCompression=1, initialFontName=self.font,
                        initialFontSize=10)
        self.c.setTitle(title)
        self.c.setAuthor(author)
        self.c.setSubject(subject)
        self.c.setCreator("pnp-forge")
        self.c.setProducer("pnp-forge (reportlab)")
        self._frame_h = 0.0  # height in mm of the frame being drawn (page or symbol)
        self._symbols: dict[str, tuple[str, float, float]] = {}
        self._svg_forms: dict[str, tuple[str, float, float]] = {}
        self._open = False
        self.pages = 0
        self._state: dict[str, object] = {}

    # ------------------------------------------------------------------ coordinates
    def _x(self, x: float) -> float:
        return (x + self._ox) * K

    def _y(self, y: float) -> float:
        return (self._frame_h - (y + self._oy)) * K

    def _style(self, fill: Colour, stroke: Colour, width: float) -> tuple[int, int]:
        # Graphics state is only emitted when it changes: fewer operators, smaller content streams.
        c, st = self.c, self._state
        if fill and st.get("fill") != fill:
            c.setFillColorRGB(*_rgb(fill))
            st["fill"] = fill
        if stroke:
            if st.get("stroke") != stroke:
                c.setStrokeColorRGB(*_rgb(stroke))
                st["stroke"] = stroke
            if st.get("lw") != width:
                c.setLineWidth(width * K)
                st["lw"] = width
        return (1 if fill else 0, 1 if stroke else 0)

    def _forget_state(self) -> None:
        """After restoreState, a new page or a form boundary the PDF state is not what we noted."""
        self._state = {}

    # ------------------------------------------------------------------ pages
    def begin_page(self, width_mm: float, height_mm: float, *, trim: Box | None = None,
                   bleed: Box | None = None) -> None:
        self._frame_h = height_mm
        self.c.setPageSize((width_mm * K, height_mm * K))
        self.c.setTrimBox(self._pdf_box(trim) if trim else None)
        self.c.setBleedBox(self._pdf_box(bleed) if bleed else None)
        self._open = True

    def _pdf_box(self, b: Box) -> tuple[float, float, float, float]:
        # PDF boxes are [llx lly urx ury] in points, y up; rounded so the numbers stay readable.
        return (round(b.x * K, 4), round((self._frame_h - b.bottom) * K, 4),
                round(b.right * K, 4), round((self._frame_h - b.y) * K, 4))

    def end_page(self) -> None:
        self.c.showPage()
        _encode_last_page(self.c)
        self._forget_state()
        self._open = False
        self.pages += 1

    # ------------------------------------------------------------------ shapes
    def rect(self, box: Box, *, fill: Colour = None, stroke: Colour = None, width: float = 0.25,
             radius: float = 0.0) -> None:
        if not (fill or stroke):
            return
        f, s = self._style(fill, stroke, width)
        x, y = self._x(box.x), self._y(box.bottom)
        if radius > 0:
            self.c.roundRect(x, y, box.w * K, box.h * K, radius * K, stroke=s, fill=f)
        else:
            self.c.rect(x, y, box.w * K, box.h * K, stroke=s, fill=f)

    def polyline(self, points: Sequence[Point], *, stroke: Colour = "#000000", width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None:
        if not stroke or len(points) < 2:
            return
        self._style(None, stroke, width)
        if dash:
            self.c.setDash([d * K for d in dash])
        p = self.c.beginPath()
        p.moveTo(self._x(points[0][0]), self._y(points[0][1]))
        for x, y in points[1:]:
            p.lineTo(self._x(x), self._y(y))
        self.c.drawPath(p, stroke=1, fill=0)
        if dash:
            self.c.setDash([])

    def polygon(self, points: Sequence[Point], *, fill: Colour = None, stroke: Colour = None,
                width: float = 0.25) -> None:
        if not (fill or stroke) or len(points) < 3:
            return
        f, s = self._style(fill, stroke, width)
        p = self.c.beginPath()
        p.moveTo(self._x(points[0][0]), self._y(points[0][1]))
        for x, y in points[1:]:
            p.lineTo(self._x(x), self._y(y))
        p.close()
        self.c.drawPath(p, stroke=s, fill=f)

    def circle(self, cx: float, cy: float, r: float, *, fill: Colour = None, stroke: Colour = None,
               width: float = 0.25) -> None:
        if not (fill or stroke):
            return
        f, s = self._style(fill, stroke, width)
        self.c.circle(self._x(cx), self._y(cy), r * K, stroke=s, fill=f)

    def text(self, x: float, y: float, s: str, *, size_pt: float, colour: Colour = "#000000",
             align: Align = "left", font: str | None = None) -> None:
        if not s:
            return
        self._style(colour or "#000000", None, 0)
        X, Y = self._x(x), self._y(y)
        font = font or self.font
        if align != "left":
            # reportlab's drawCentredString and drawRightString start at x - 0.5 * width and
            # x - width, width its stringWidth: the runs' widths summed (fonts.string_width)
            X -= (0.5 if align == "center" else 1.0) * fonts.string_width(s, font, size_pt)
        # run by run, the bytes drawString prints, each string's operators remembered per canvas
        # (a deck's sheets draw the same names and numbers again and again): rulebook/drawstring.py
        draw_string(self.c, X, Y, s, font, size_pt)

    # ------------------------------------------------------------------ images
    def image(self, box: Box, image: ImageSource, *, fit: Fit = "fit") -> None:
        placed = place_image(box, image.aspect, fit)
        with self.group(clip=box if fit == "crop" else None):
            if image.kind == "svg":
                name, w, h = self._svg_form(image)
                self._place_form(name, placed, w, h)
            else:
                from reportlab.lib.utils import ImageReader
                reader = ImageReader(io.BytesIO(image.data))
                self.c.drawImage(reader, self._x(placed.x), self._y(placed.bottom), placed.w * K,
                                 placed.h * K, mask="auto")

    def _svg_form(self, image: ImageSource) -> tuple[str, float, float]:
        """An SVG file becomes one form XObject of vector drawing, reused wherever it appears."""
        key = hashlib.sha1(image.data).hexdigest()[:16]
        if key not in self._svg_forms:
            from reportlab.graphics import renderPDF

            from ..cards.images import svg_drawing
            drawing = svg_drawing(image)
            # reportlab starts every drawing in Times-Roman, which nothing embeds: start it in the
            # project font instead (an SVG's own text names its fonts itself)
            drawing.initialFontName = fonts.register()
            name = f"svg{key}"
            saved = self._state
            self.c.beginForm(name, 0, 0, drawing.width, drawing.height)
            renderPDF.draw(drawing, self.c, 0, 0)
            self.c.endForm()
            self._state = saved
            self._svg_forms[key] = (name, drawing.width, drawing.height)
        return self._svg_forms[key]

    def _place_form(self, name: str, box: Box, w_pt: float, h_pt: float) -> None:
        c = self.c
        c.saveState()
        c.translate(self._x(box.x), self._y(box.bottom))
        c.scale(box.w * K / w_pt, box.h * K / h_pt)
        c.doForm(name)
        c.restoreState()
        self._forget_state()

    # ------------------------------------------------------------------ symbols and groups
    def define_symbol(self, name: str, width: float, height: float,
                      draw: Callable[["PdfSurface"], None]) -> None:
        form = "sym" + re.sub(r"[^A-Za-z0-9]", "", name) + hashlib.sha1(name.encode()).hexdigest()[:6]
        saved = (self._frame_h, self._ox, self._oy, self._state)
        self.c.beginForm(form, 0, 0, width * K, height * K)
        self._frame_h, self._ox, self._oy, self._state = height, 0.0, 0.0, {}
        draw(self)
        self.c.endForm()
        self._frame_h, self._ox, self._oy, self._state = saved
        self._symbols[name] = (form, width, height)

    def has_symbol(self, name: str) -> bool:
        return name in self._symbols

    def use_symbol(self, name: str, x: float, y: float, *, scale: float = 1.0) -> None:
        form, w, h = self._symbols[name]
        self._place_form(form, Box(x, y, w * scale, h * scale), w * K, h * K)

    @contextmanager
    def group(self, *, dx: float = 0.0, dy: float = 0.0, clip: Box | None = None) -> Iterator[None]:
        prev = self._push(dx, dy)
        if clip is not None:
            self.c.saveState()
            p = self.c.beginPath()
            p.rect(self._x(clip.x), self._y(clip.bottom), clip.w * K, clip.h * K)
            self.c.clipPath(p, stroke=0, fill=0)
        try:
            yield
        finally:
            if clip is not None:
                self.c.restoreState()
                self._forget_state()
            self._pop(prev)

    # ------------------------------------------------------------------ output
    def getvalue(self) -> bytes:
        if self._open:
            self.end_page()
        self.c.save()
        return self._buf.getvalue()

    def save(self, target: Path) -> list[Path]:
        return [write_bytes(Path(target), self.getvalue())]
