"""Card art and icons from files in the game folder: checked once, then drawn by any backend.

A path that leaves the game folder, a missing, malformed or oversized file is a one-line
DataError; a picture whose effective resolution on the card is under 300 dpi is a warning
naming the card, and `merged_image_warnings` makes one warning per picture file of those, counting
the pieces that use it (what a build, an export and the preview print). SVG files stay vectors in PDF and SVG output; for PNG output svglib's drawing
is rasterised by pdfium (no cairo needed).
"""
from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path

from solver.errors import DataError, Problem, display_path
from solver.game import limits

from ..geometry import MM_PER_INCH, Box
from ..render.base import ImageSource
from .svgrefs import check_references, parse_svg

MAX_BYTES = limits.MAX_IMAGE_BYTES
MAX_PIXELS = limits.MAX_IMAGE_PIXELS
MIN_DPI = 300


def load_image(folder: Path, rel: str, where: str) -> ImageSource:
    """Check and read an image given relative to the game folder."""
    return _load(folder.resolve(), rel, where)


@lru_cache(maxsize=256)
def _load(folder: Path, rel: str, where: str) -> ImageSource:
    def fail(what: str, todo: str) -> DataError:
        return DataError([Problem(where, 0, 0, what, todo)])

    path = (folder / rel).resolve()
    if folder not in path.parents:
        raise fail(f"image path {rel!r} leaves the game folder", "keep images inside the game folder")
    if not path.exists():
        raise fail(f"image {rel!r} not found", f"add {display_path(path)} or fix the path")
    if not path.is_file():  # a folder, a FIFO, a device: reading it could block or never end
        raise fail(f"image {rel!r} is not a regular file", "point it at a picture file")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise fail(f"image {rel!r} is too large ({size // 1_048_576} MB)", "use a file under 40 MB")
    data = path.read_bytes()
    if path.suffix.lower() == ".svg":
        return _load_svg(folder, path, rel, where, data)
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as im:
            if im.format not in ("PNG", "JPEG"):
                raise fail(f"image {rel!r} is {im.format}, not PNG, JPG or SVG", "convert it to PNG")
            w, h = im.size
            if w * h > MAX_PIXELS:
                raise fail(f"image {rel!r} is oversized ({w}x{h} pixels)", "scale it down to 1200 dpi or less")
            im.load()
    except DataError:
        raise
    except Image.DecompressionBombError:  # Pillow's own bound, far past ours: oversized, not corrupt
        raise fail(f"image {rel!r} is oversized (more than {MAX_PIXELS:,} pixels)",
                   "scale it down to 1200 dpi or less") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as e:
        raise fail(f"image {rel!r} is corrupt or unreadable ({type(e).__name__})", "re-export the file") from None
    return ImageSource(path, "raster", (w, h), data)


def low_dpi_warning(where: str, rel: str, dpi: float, image: ImageSource) -> str:
    """The warning of one piece whose picture prints under MIN_DPI (`merged_image_warnings` folds
    the warnings of every piece that uses the same file into one)."""
    return (f"{where}: image {rel!r} prints at {dpi:.0f} dpi (under {MIN_DPI}); "
            f"supply at least {round(image.pixels[0] * MIN_DPI / dpi)} px wide")


_LOW_DPI = re.compile(r"(?P<where>.+?): image (?P<rel>'[^']*'|\"[^\"]*\") prints at (?P<dpi>\d+) dpi "
                      r"\(under (?P<min>\d+)\); supply at least (?P<px>\d+) px wide")


def merged_image_warnings(warnings: list[str]) -> list[str]:
    """One warning per picture file of a game, located at the file (`game/art/x.png: ...`), where
    its first piece's warning was, counting every piece that prints it too small (the range of dpi,
    the widest size asked): a deck of 80 cards with 6 pictures says 6 things, not 80, whatever the
    languages and outputs. Other warnings pass unchanged."""
    groups: dict[tuple[str, str], list[re.Match[str]]] = {}
    for w in warnings:
        m = _LOW_DPI.fullmatch(w)
        if m:
            groups.setdefault((m["where"].split("/")[0], m["rel"]), []).append(m)
    out, said = [], set()
    for w in warnings:
        m = _LOW_DPI.fullmatch(w)
        if not m:
            out.append(w)
            continue
        key = (m["where"].split("/")[0], m["rel"])
        if key in said:
            continue
        said.add(key)
        ms = groups[key]
        pieces = list(dict.fromkeys(x["where"].split("/", 1)[-1] for x in ms))
        names = ", ".join(pieces[:3]) + (", …" if len(pieces) > 3 else "")
        low, high = min(int(x["dpi"]) for x in ms), max(int(x["dpi"]) for x in ms)
        dpi = f"{low}" if low == high else f"{low}-{high}"
        count = "1 piece" if len(pieces) == 1 else f"{len(pieces)} pieces"
        out.append(f"{key[0]}/{key[1][1:-1]}: image prints at {dpi} dpi (under {m['min']}) on {count} ({names}); "
                   f"supply at least {max(int(x['px']) for x in ms)} px wide")
    return out


def effective_dpi(image: ImageSource, placed: Box) -> float:
    """Pixels per inch of the image as printed at `placed` (the smaller of both axes)."""
    return min(image.pixels[0] / (placed.w / MM_PER_INCH), image.pixels[1] / (placed.h / MM_PER_INCH))


def _load_svg(folder: Path, path: Path, rel: str, where: str, data: bytes) -> ImageSource:
    try:
        root = parse_svg(data)
    except Exception:  # lxml raises many kinds; all mean "not a usable SVG"
        raise DataError([Problem(where, 0, 0, f"image {rel!r} is not a readable SVG", "re-export the SVG")]) from None
    check_references(root, path, folder, rel, where, lambda other: _load(folder, other, where))
    try:
        drawing = _svg_drawing_from(root, path, folder)
    except Exception as e:  # svglib raises many kinds; all mean "not a usable SVG"
        raise DataError([Problem(where, 0, 0, f"image {rel!r} is not a readable SVG ({type(e).__name__})",
                                 "re-export the SVG")]) from None
    return ImageSource(path, "svg", (max(1, round(drawing.width)), max(1, round(drawing.height))), data, folder)


def _svg_drawing_from(root, path: Path, folder: Path | None):
    from svglib.svglib import SvgRenderer

    # external_reference_root: svglib too refuses what resolves outside the game folder
    drawing = SvgRenderer(str(path), external_reference_root=str(folder) if folder else None).render(root)
    if drawing is None or not drawing.width or not drawing.height:
        raise ValueError("empty drawing")
    return drawing


def svg_drawing(image: ImageSource):
    """A fresh svglib Drawing of an SVG ImageSource (reportlab graphics, drawn as vectors)."""
    return _svg_drawing_from(parse_svg(image.data), image.path, image.folder)


# --------------------------------------------------------------------------- SVG -> PIL

def svg_to_pil(image: ImageSource, w_px: int, h_px: int):
    """Rasterise an SVG to an RGBA image of w×h pixels: svglib's drawing as a one-page PDF (what the
    PDF backend draws), rendered by pdfium, whose scanline rasteriser takes time in proportion to
    the drawing's size (a Python polygon walker took minutes on one long path)."""
    import pypdfium2 as pdfium
    from PIL import Image
    from reportlab.graphics import renderPDF

    drawing = svg_drawing(image)
    doc = pdfium.PdfDocument(renderPDF.drawToString(drawing))
    try:
        page = doc[0]
        scale = max(w_px / page.get_width(), h_px / page.get_height())
        pic = page.render(scale=scale, fill_color=(255, 255, 255, 0)).to_pil().convert("RGBA")
    finally:
        doc.close()
    return pic if pic.size == (w_px, h_px) else pic.resize((w_px, h_px), Image.Resampling.LANCZOS)
