"""One renderer interface (`base.Surface`), three backends: PDF (reportlab), SVG (its own writer), PNG (pillow),
and one colour transform in front of them for the ink modes (`ink.py`: `--ink saver|mono`).

  base.py  the `Surface` protocol in mm, `ImageSource`, `place_image`, `text_width`;
  pdf.py   the PDF backend (reportlab);
  svg.py   the SVG backend; svgxml.py writes its pages (as svgwrite did), svgglyphs.py its glyph outlines;
  png.py   the PNG backend (pillow); pillowfast.py two of its drawings through Pillow's internals, checked once against the public calls;
  ink.py   `ink_mode` (the mode a build unit draws in) and `InkSurface`, which recolours every call.
  record.py  `Recording`, a surface that records calls to replay them, `png_once` and `pdf_once` (equal PNGs and PDFs made once).
"""
from .base import ImageSource, Surface, place_image, text_width

__all__ = ["ImageSource", "Surface", "open_surface", "place_image", "text_width"]


def open_surface(kind: str, **kwargs):
    """A new surface of backend `kind` ('pdf', 'svg' or 'png'), in the ink mode in force (ink.py)."""
    from .ink import wrap

    if kind == "pdf":
        from .pdf import PdfSurface
        return wrap(PdfSurface(**kwargs))
    if kind == "svg":
        from .svg import SvgSurface
        return wrap(SvgSurface(**kwargs))
    if kind == "png":
        from .png import PngSurface
        return wrap(PngSurface(**kwargs))
    raise ValueError(f"unknown surface kind {kind!r}")
