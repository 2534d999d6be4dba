"""Card art and icons from files in the game folder: checked once, then drawn by any backend.

A path that leaves the game folder, a missing, malformed or oversized file is a one-line
DataError; a picture whose effective resolution on the card is under 300 dpi is a warning
naming the card, and `merged_image_warnings` makes one warning per picture file of those, counting
the pieces that use it (what a build, an export and the preview print). SVG files stay vectors in PDF and SVG output; for PNG output they are
rasterised by a small walker over svglib's shape tree (no cairo needed).
"""
from __future__ import annotations

import io
import math
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
    """Rasterise an SVG to an RGBA image of w×h pixels (fills, strokes, paths; no gradients)."""
    from PIL import Image, ImageDraw

    drawing = svg_drawing(image)
    scale = 4  # draw larger, then downsample: cheap anti-aliasing
    out = Image.new("RGBA", (w_px * scale, h_px * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(out)
    sx, sy = w_px * scale / drawing.width, h_px * scale / drawing.height
    # reportlab graphics are y up: map (x, y) to (x*sx, (H - y)*sy).
    base = (sx, 0, 0, -sy, 0, drawing.height * sy)
    _walk(drawing, base, draw)
    return out.resize((w_px, h_px), Image.Resampling.LANCZOS)


def _mul(a, b):
    return (a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1],
            a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3],
            a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5])


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _colour(c, opacity=1.0):
    if c is None:
        return None
    return (round(c.red * 255), round(c.green * 255), round(c.blue * 255), round(255 * getattr(c, "alpha", 1) * opacity))


def _walk(node, m, draw) -> None:
    from reportlab.graphics import shapes as S

    if isinstance(node, (S.Group, S.Drawing)):
        mm = _mul(m, tuple(node.transform)) if isinstance(node, S.Group) else m
        for child in node.contents:
            _walk(child, mm, draw)
        return
    fill = _colour(getattr(node, "fillColor", None), getattr(node, "fillOpacity", 1) or 1)
    stroke = _colour(getattr(node, "strokeColor", None), getattr(node, "strokeOpacity", 1) or 1)
    sw = max(1, round((getattr(node, "strokeWidth", 1) or 1) * math.hypot(m[0], m[1])))
    polys: list[tuple[list, bool]] = []
    if isinstance(node, S.Rect):
        pts = [(node.x, node.y), (node.x + node.width, node.y), (node.x + node.width, node.y + node.height),
               (node.x, node.y + node.height)]
        polys.append((pts, True))
    elif isinstance(node, (S.Circle, S.Ellipse)):
        rx = node.r if isinstance(node, S.Circle) else node.rx
        ry = node.r if isinstance(node, S.Circle) else node.ry
        polys.append(([(node.cx + rx * math.cos(t / 48 * 2 * math.pi), node.cy + ry * math.sin(t / 48 * 2 * math.pi))
                       for t in range(48)], True))
    elif isinstance(node, S.Line):
        polys.append(([(node.x1, node.y1), (node.x2, node.y2)], False))
    elif isinstance(node, S.Path):
        polys += _path_polys(node)
    elif isinstance(node, (S.Polygon, S.PolyLine)):
        p = node.points
        polys.append(([(p[i], p[i + 1]) for i in range(0, len(p) - 1, 2)], isinstance(node, S.Polygon)))
    for pts, closed in polys:
        tp = [_apply(m, x, y) for x, y in pts]
        if len(tp) < 2:
            continue
        if closed and fill and len(tp) >= 3:
            draw.polygon(tp, fill=fill)
        if stroke:
            draw.line(tp + ([tp[0]] if closed else []), fill=stroke, width=sw, joint="curve")


def _path_polys(path) -> list[tuple[list, bool]]:
    """Flatten a reportlab Path (moveTo/lineTo/curveTo/closePath) into polygons."""
    pts, ops = path.points, path.operators
    out: list[tuple[list, bool]] = []
    cur: list = []
    i = 0
    for op in ops:
        if op == 0:  # moveTo
            if cur:
                out.append((cur, False))
            cur = [(pts[i], pts[i + 1])]
            i += 2
        elif op == 1:  # lineTo
            cur.append((pts[i], pts[i + 1]))
            i += 2
        elif op == 2:  # curveTo
            p0 = cur[-1] if cur else (pts[i], pts[i + 1])
            c1, c2, p3 = (pts[i], pts[i + 1]), (pts[i + 2], pts[i + 3]), (pts[i + 4], pts[i + 5])
            for k in range(1, 13):
                t = k / 12
                a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
                cur.append((a * p0[0] + b * c1[0] + c * c2[0] + d * p3[0], a * p0[1] + b * c1[1] + c * c2[1] + d * p3[1]))
            i += 6
        elif op == 3:  # closePath
            if cur:
                out.append((cur, True))
            cur = []
    if cur:
        out.append((cur, getattr(path, "isClipPath", False) or False))
    return out
