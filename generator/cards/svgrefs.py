"""What an SVG image may reach, checked before svglib draws it (issue 31).

An SVG from a stranger's game folder may point at other files: `<image href="...">`, `<use
href="other.svg#id">`. Allowed are `#fragments` inside the document, `data:` URIs of PNG or JPEG
pictures within the pixel limit, and files inside the game folder that pass the same checks as an
image named directly (a regular file, within the size and pixel limits; an SVG among them is
checked in turn). A reference that leaves the folder, names a device, a FIFO, a URL or a missing
file is refused with one line naming the SVG, its line and the reference. `<use>` expansion is
bounded over the whole document, external SVGs included (limits.MAX_SVG_ELEMENTS), so fan-out
(ten uses of ten uses of ...) is refused before drawing instead of running the CPU for minutes, and
so is path data (`d`, `points`) past limits.MAX_SVG_PATH_DATA characters: the time to draw grows
with it, so the bound on it is the bound on an image's drawing time (bench/stress_folder.py measures
an SVG at both limits).
"""
from __future__ import annotations

import base64
import binascii
import io
import os
import re
import stat
from pathlib import Path
from typing import Any, Callable

from solver.errors import DataError, Problem
from solver.game import limits

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
MAX_SVG_NESTING = 4  # an SVG that references an SVG that references ...
_DATA_PICTURE = re.compile(r"data:image/(png|jpe?g);base64,?", re.IGNORECASE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

# rel (relative to the game folder) -> checks a raster file as a direct image would, raising DataError
RasterCheck = Callable[[str], Any]


class _Refused(Exception):
    def __init__(self, line: int | None, href: str, what: str, todo: str):
        super().__init__(what)
        self.line, self.href, self.what, self.todo = line, href, what, todo


def parse_svg(data: bytes) -> Any:
    """The XML tree of an SVG file: no entities resolved, no network."""
    from lxml import etree  # svglib depends on lxml

    return etree.fromstring(data, parser=etree.XMLParser(resolve_entities=False, no_network=True))


def check_references(root: Any, svg: Path, folder: Path, rel: str, where: str, raster: RasterCheck) -> None:
    """Refuse (DataError, one line) anything `root` (the tree of the SVG file `svg`, shown as `rel`)
    would make svglib read outside `folder`, or expand past the element limit."""
    try:
        _check(root, svg, folder, raster, (svg,))
    except _Refused as e:
        at = f" line {e.line}" if e.line else ""
        raise DataError([Problem(where, 0, 0, f"image {rel!r}{at}: reference {e.href[:80]!r} {e.what}", e.todo)]) from None


def _check(root: Any, svg: Path, folder: Path, raster: RasterCheck, chain: tuple[Path, ...]) -> tuple[int, int]:
    """Check every reference of one SVG document; return its size with `<use>` expanded (elements,
    characters of path data)."""
    external: dict[Any, tuple[int, int]] = {}
    for el in _elements(root):
        href = (el.get(XLINK_HREF) or el.get("href") or "").strip()
        if not href or href.startswith("#"):
            continue
        if href[:5].lower() == "data:":
            _check_data_picture(el, href)
            continue
        external[el] = _check_file(el, href, svg, folder, raster, chain)
    return _expanded_size(root, external)


def _elements(root: Any):
    from lxml import etree

    return root.iter(etree.Element)


def _check_data_picture(el: Any, href: str) -> None:
    m = _DATA_PICTURE.match(href)
    if not m:
        return  # svglib draws only PNG and JPEG data URIs; any other is never opened
    try:
        data = base64.b64decode(href[m.end():])
    except (binascii.Error, ValueError):
        raise _Refused(el.sourceline, href, "is not valid base64", "re-export the SVG") from None
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            fmt, (w, h) = im.format, im.size
    except Image.DecompressionBombError:
        raise _Refused(el.sourceline, href, "is oversized", "scale it down to 1200 dpi or less") from None
    except Exception:  # Pillow raises many kinds for a damaged picture
        raise _Refused(el.sourceline, href, "is a corrupt or unreadable picture", "re-export the SVG") from None
    if fmt not in ("PNG", "JPEG"):
        raise _Refused(el.sourceline, href, f"is {fmt}, not PNG or JPEG", "embed a PNG or JPEG")
    if w * h > limits.MAX_IMAGE_PIXELS:
        raise _Refused(el.sourceline, href, f"is oversized ({w}x{h} pixels)", "scale it down to 1200 dpi or less")


def _check_file(el: Any, href: str, svg: Path, folder: Path, raster: RasterCheck,
                chain: tuple[Path, ...]) -> tuple[int, int]:
    """A reference to a file: inside the folder, a regular file, a checked picture or SVG.
    Returns what it may add to the document's expanded size."""
    line = el.sourceline
    iri = href.split("#", 1)[0]
    keep = "embed the picture in the SVG (a data: URI) or keep it inside the game folder"
    if _SCHEME.match(iri) or os.path.isabs(iri):
        raise _Refused(line, href, "is not a path inside the game folder", keep)
    target = (svg.parent / iri).resolve()
    if folder not in target.parents:
        raise _Refused(line, href, "leaves the game folder", keep)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        raise _Refused(line, href, "is not found", "add the file or fix the reference") from None
    if not stat.S_ISREG(mode):
        raise _Refused(line, href, "is not a regular file", "point it at a picture file")
    if target.suffix.lower() != ".svg":
        raster(target.relative_to(folder).as_posix())  # raises DataError as for a direct image
        return 1, 0
    if target in chain:
        raise _Refused(line, href, "refers back to an SVG that uses it", "remove the circular reference")
    if len(chain) >= MAX_SVG_NESTING:
        raise _Refused(line, href, f"nests SVG files more than {MAX_SVG_NESTING} deep", "merge them into one SVG")
    if os.stat(target).st_size > limits.MAX_IMAGE_BYTES:
        raise _Refused(line, href, "is too large", "use a file under 40 MB")
    try:
        root = parse_svg(target.read_bytes())
    except Exception:  # lxml's XMLSyntaxError and kin
        raise _Refused(line, href, "is not a readable SVG", "re-export it") from None
    return _check(root, target, folder, raster, chain + (target,))


def _expanded_size(root: Any, external: dict[Any, tuple[int, int]]) -> tuple[int, int]:
    """Elements svglib would draw, each `<use>` counted as a copy of its target, over the whole
    document; refused past limits.MAX_SVG_ELEMENTS or limits.MAX_SVG_PATH_DATA characters of
    geometry (`d`, `points`: what drawing time grows with), or when a `<use>` contains itself."""
    ids: dict[str, Any] = {}
    for el in _elements(root):
        ids.setdefault(el.get("id"), el)
    memo: dict[Any, tuple[int, int]] = {}
    active: set[Any] = set()

    def size(el: Any) -> tuple[int, int]:
        if el in memo:
            return memo[el]
        href = (el.get(XLINK_HREF) or el.get("href") or "").strip()
        if el in active:
            raise _Refused(el.sourceline, href, "makes a <use> contain itself", "remove the circular reference")
        active.add(el)
        ext = external.get(el, (0, 0))
        n, chars = 1 + ext[0], ext[1] + len(el.get("d") or "") + len(el.get("points") or "")
        for child in _elements_of(el):
            cn, cc = size(child)
            n, chars = n + cn, chars + cc
        if href.startswith("#") and href[1:] in ids and _localname(el) == "use":
            tn, tc = size(ids[href[1:]])
            n, chars = n + tn, chars + tc
        _bound(el, href, n, chars, el is root)
        active.discard(el)
        memo[el] = (n, chars)
        return n, chars

    try:
        return size(root)
    except RecursionError:
        raise _Refused(None, "<use>", "chains nest too deeply", "simplify the SVG") from None


def _bound(el: Any, href: str, n: int, chars: int, root: bool) -> None:
    """Refuse an element whose expansion passes a limit, at the element (a `<use>`, a long path) or the root."""
    simplify = "draw repeated parts once, or simplify the SVG"
    if n > limits.MAX_SVG_ELEMENTS and (href or root):
        raise _Refused(el.sourceline, href or "<svg>", f"expands the SVG past {limits.MAX_SVG_ELEMENTS:,} elements", simplify)
    if chars > limits.MAX_SVG_PATH_DATA and (href or root or el.get("d") or el.get("points")):
        what = href or f"<{_localname(el)}>"
        raise _Refused(el.sourceline, what, f"expands the SVG past {limits.MAX_SVG_PATH_DATA:,} characters of path "
                       "data (the drawing would take too long)", "simplify the paths (fewer nodes) or use a PNG")


def _elements_of(el: Any):
    from lxml import etree

    return el.iterchildren(etree.Element)


def _localname(el: Any) -> str:
    tag = el.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
