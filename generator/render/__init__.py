"""One renderer interface (`base.Surface`), three backends: PDF (reportlab), SVG (svgwrite), PNG (pillow)."""
from .base import ImageSource, Surface, place_image, text_width

__all__ = ["ImageSource", "Surface", "open_surface", "place_image", "text_width"]


def open_surface(kind: str, **kwargs):
    """A new surface of backend `kind` ('pdf', 'svg' or 'png')."""
    if kind == "pdf":
        from .pdf import PdfSurface
        return PdfSurface(**kwargs)
    if kind == "svg":
        from .svg import SvgSurface
        return SvgSurface(**kwargs)
    if kind == "png":
        from .png import PngSurface
        return PngSurface(**kwargs)
    raise ValueError(f"unknown surface kind {kind!r}")
