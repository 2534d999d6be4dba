"""What a PDF page shows, read back from the file as a print shop's preflight reads it (pdfium,
pypdf): its characters with their boxes, sizes and colours, whether the rendered page shows each,
the colour behind a run of text, the trims its crop marks stand for, the boxes of its symbols and
the fonts it does not embed. Lengths in mm, y down from the page's top-left.

generator/preflight.py judges what this reads.
"""
from __future__ import annotations

import ctypes
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from .pieces.plan import MARK_WIDTH
from .pieces.grid import MARK_LEN_MM, MARK_MIN_LEN_MM
from .geometry import MM_PER_PT
from .pagetext import PageText, Rect

if TYPE_CHECKING:
    import pypdfium2 as pdfium  # imported where it is used: `pnp --help` stays fast

RENDER_DPI = 100
# Crop marks are short strokes in the margin (pieces/grid.py draws them MARK_MIN_LEN_MM to MARK_LEN_MM
# long, MARK_WIDTH wide). pdfium's bounds of a stroked line reach a stroke width past each end and
# side (a 3 mm mark reads 0.4 x 3.4 mm), so a mark reads up to these sizes:
MARK_READ_SLACK_MM = 2 * MARK_WIDTH + 0.1
MARK_MAX_MM = MARK_LEN_MM + MARK_READ_SLACK_MM
MARK_THICK_MAX_MM = MARK_READ_SLACK_MM
# a pixel within this sum of R, G, B distances of a text's colour is the text's own colour (a
# band's anti-aliased edge or a picture may come close; glyphs, drawn unsmoothed, are exact)
OWN_COLOUR = 24

Image = np.ndarray  # a page rendered at RENDER_DPI: rows x columns x RGBX (uint8)


def unembedded_fonts(path: Path) -> list[str]:
    """BaseFont names of the fonts used by pages or forms that carry no font file."""
    import pypdf

    bad: set[str] = set()
    seen: set[int] = set()

    def walk(resources) -> Iterator:
        if resources is None:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            yield ref.get_object()
        for ref in (resources.get("/XObject") or {}).values():
            key = getattr(ref, "idnum", id(ref))
            if key in seen:
                continue
            seen.add(key)
            x = ref.get_object()
            if x.get("/Subtype") == "/Form":
                yield from walk(x.get("/Resources"))

    for page in pypdf.PdfReader(path).pages:
        for font in walk(page.get("/Resources")):
            f = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
            desc = f.get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            if not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                bad.add(str(font.get("/BaseFont", "?")).lstrip("/"))
    return sorted(bad)


def crop_mark_trims(page: pdfium.PdfPage, h_mm: float) -> list[Rect]:
    """Trim boxes (mm, y down) read from the crop marks: short lines in the margin in line with the
    trim edges. Pairs of mark positions are a piece; the shorter gaps between pieces are bleed."""
    import pypdfium2.raw as raw

    xs, ys = set(), set()
    for bounds in _bounds_of(page, raw.FPDF_PAGEOBJ_PATH):
        x0, y0, x1, y1 = (v * MM_PER_PT for v in bounds)
        w, h = x1 - x0, y1 - y0
        if w < MARK_THICK_MAX_MM and MARK_MIN_LEN_MM <= h <= MARK_MAX_MM:
            xs.add(round((x0 + x1) / 2, 1))
        elif h < MARK_THICK_MAX_MM and MARK_MIN_LEN_MM <= w <= MARK_MAX_MM:
            ys.add(round(h_mm - (y0 + y1) / 2, 1))
    cols, rows = _trim_spans(sorted(xs)), _trim_spans(sorted(ys))
    return [(a, b, c, d) for a, c in cols for b, d in rows]


def _trim_spans(edges: list[float]) -> list[tuple[float, float]]:
    """Trim intervals from sorted trim edges: the long intervals are pieces, short ones gutters."""
    spans = list(zip(edges, edges[1:]))
    if not spans:
        return []
    longest = max(b - a for a, b in spans)
    return [(a, b) for a, b in spans if b - a > longest / 2]


def visible_chars(chars: PageText, image: Image, w_mm: float, h_mm: float) -> np.ndarray:
    """Which characters are on the paper and show their colour as a glyph inside their box on the
    rendered page (at least three pixel rows and, unless the glyph is narrow, two columns: a line
    of the same colour crossing the box is not a glyph), as a mask. A clip hides the rest: a tiled
    map's sheets clip one big drawing. The page's characters are judged together (`Windows`)."""
    if not len(chars):
        return np.zeros(0, dtype=bool)
    boxes = chars.box
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    narrow = boxes[:, 2] - boxes[:, 0] < 0.6  # an "l" or "i" may be one pixel wide
    win = Windows(image, boxes, np.zeros(len(chars)))
    # a glyph's pixels are exactly its colour (text is rendered unsmoothed): a looser match would take
    # the paper round a clipped-away light glyph (cream on white) for the glyph itself
    mask = win.distance(_packed(chars.rgb)) <= OWN_COLOUR
    rows, cols = win.lines_hit(mask)
    return (cx >= 0) & (cx <= w_mm) & (cy >= 0) & (cy <= h_mm) & win.area.astype(bool) & (rows >= 3) & (narrow | (cols >= 2))


def backgrounds(boxes: np.ndarray, sizes: np.ndarray, rgbs: np.ndarray, image: Image) -> tuple[np.ndarray, np.ndarray]:
    """For each run (its box, size in pt and colour), the colour under it as a reader sees it: the
    commonest colour in its box and a quarter of its size round it that is not the text's own (the
    page is rendered with text unsmoothed, so a glyph's pixels are exactly its colour): the paper,
    band, shape or picture the text is read against. Where under 15 % of that window is another
    colour, the text stands on its own colour (a label in its band's colour) and that is its
    background. Colours are counted in bins of 16 per channel, and the winning bin's pixels
    averaged. Returns the colours (n x 3) and whether each run is on the page at all."""
    n = len(boxes)
    if not n:
        return np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=bool)
    win = Windows(image, boxes, 0.25 * sizes * MM_PER_PT)
    far = win.distance(_packed(rgbs)) > OWN_COLOUR
    enough = (win.count(far) >= 0.15 * win.area) & (win.area > 0)
    # most windows show one colour besides the text's (the paper, a band): that colour is the answer
    lo, hi = win.lowest(far), win.highest(far)
    means = np.stack([(lo >> s) & 0xFF for s in (0, 8, 16)], axis=1).astype(np.float64)
    mixed = enough & (lo != hi)
    if mixed.any():
        means[mixed] = _commonest_bin_means(win, far & np.repeat(mixed, win.area), n)[mixed]
    return np.where(enough[:, None], means.astype(np.int64), rgbs), win.area > 0


def _commonest_bin_means(win: Windows, use: np.ndarray, n: int) -> np.ndarray:
    """Per box, the mean colour (rounded) of the pixels of `use` in the commonest bin of 16 per
    channel among them (the lowest bin, R before G before B, among equals)."""
    pix, item = win.pixels[use], win.item()[use]
    # each pixel's bin (R, G, B: 0..4095), numbered densely among those present
    keys = ((pix >> 4) & 0xF) << 8 | ((pix >> 12) & 0xF) << 4 | (pix >> 20) & 0xF
    present = np.bincount(keys, minlength=4096) > 0
    dense = (np.cumsum(present) - 1)[keys]
    best = _commonest(item, dense, n, int(present.sum()))
    won = dense == best[item]
    picked, owner = pix[won], item[won]
    many = np.bincount(owner, minlength=n)
    sums = np.stack([np.bincount(owner, weights=(picked >> s) & 0xFF, minlength=n) for s in (0, 8, 16)], axis=1)
    return np.round(sums / np.maximum(many, 1)[:, None])


def _commonest(item: np.ndarray, value: np.ndarray, n: int, m: int) -> np.ndarray:
    """Per item (0..n-1), its commonest value (0..m-1), the lowest among equals (0 for an item with none)."""
    if n * m <= 1 << 22:  # a table of counts, items by values
        return np.bincount(item * m + value, minlength=n * m).reshape(n, m).argmax(axis=1)
    pairs, counts = np.unique(item.astype(np.int64) * m + value, return_counts=True)
    order = np.lexsort((pairs, -counts, pairs // m))
    first = order[np.r_[True, np.diff(pairs[order] // m) != 0]]
    best = np.zeros(n, dtype=np.int64)
    best[pairs[first] // m] = pairs[first] % m
    return best


def _packed(colours: np.ndarray) -> np.ndarray:
    """Colours as the rendered page holds them: R + G << 8 + B << 16 (`render`'s RGBX read little-endian)."""
    rgb = np.asarray(colours, dtype=np.uint32).reshape(-1, 3)
    return rgb[:, 0] | rgb[:, 1] << 8 | rgb[:, 2] << 16


class Windows:
    """The rendered pixels inside many boxes at once: each box (mm) widened by its `pad` (mm) and
    cut to whole pixels of the page, all of their pixels side by side in `pixels` (packed as
    `_packed`, the unused fourth byte on top), box after box, row by row (`area[i]` pixels for
    box i; 0 for a box off the page)."""

    def __init__(self, image: Image, boxes: np.ndarray, pad: np.ndarray):
        k = RENDER_DPI / 25.4
        x0 = np.maximum(0, ((boxes[:, 0] - pad) * k).astype(np.int64))
        y0 = np.maximum(0, ((boxes[:, 1] - pad) * k).astype(np.int64))
        x1 = np.minimum(image.shape[1], ((boxes[:, 2] + pad) * k).astype(np.int64) + 1)
        y1 = np.minimum(image.shape[0], ((boxes[:, 3] + pad) * k).astype(np.int64) + 1)
        empty = (x1 <= x0) | (y1 <= y0)
        self.w, self.h = np.where(empty, 0, x1 - x0), np.where(empty, 0, y1 - y0)
        self.area = self.w * self.h
        self.start = np.cumsum(self.area) - self.area  # where each box's pixels start in `pixels`
        # one entry per row of a window: its box, where it starts on the page and in `pixels`
        self.row_box = np.repeat(np.arange(len(boxes)), self.h)
        row_in_box = np.arange(len(self.row_box)) - np.repeat(np.cumsum(self.h) - self.h, self.h)
        row_len = self.w[self.row_box]
        self.row_at = np.cumsum(row_len) - row_len
        on_page = (y0[self.row_box] + row_in_box) * image.shape[1] + x0[self.row_box]
        flat = image.view("<u4").reshape(-1)  # a pixel's R, G, B, X bytes as one number
        self.pixels = flat[np.arange(int(self.area.sum())) + np.repeat(on_page - self.row_at, row_len)]

    def item(self) -> np.ndarray:
        """Per pixel, its box."""
        return np.repeat(np.arange(len(self.area)), self.area)

    def lowest(self, mask: np.ndarray) -> np.ndarray:
        """Per box, the lowest of its pixels (packed) that `mask` holds (2**32 - 1 when none)."""
        none = np.uint32(0xFFFFFFFF)
        return self._per_box(np.minimum, lambda: np.where(mask, self.pixels, none), none, np.uint32)

    def highest(self, mask: np.ndarray) -> np.ndarray:
        """Per box, the highest of its pixels (packed) that `mask` holds (0 when none)."""
        return self._per_box(np.maximum, lambda: np.where(mask, self.pixels, np.uint32(0)), 0, np.uint32)

    def count(self, mask: np.ndarray) -> np.ndarray:
        """Per box, how many of its pixels `mask` holds."""
        return self._per_box(np.add, lambda: mask, 0, np.int64)

    def _per_box(self, ufunc: Any, values: Any, empty: Any, dtype: Any) -> np.ndarray:
        """`ufunc` reduced over each box's run of `values()` (made only when a box has pixels);
        `empty` for a box with none."""
        out = np.full(len(self.area), empty, dtype=dtype)
        some = self.area > 0
        if some.any():
            out[some] = ufunc.reduceat(values(), self.start[some], dtype=dtype)
        return out

    def distance(self, rgb: np.ndarray) -> np.ndarray:
        """Per pixel, the sum over R, G, B of its distance to its box's colour (`rgb`, packed, one per box)."""
        px, want = self.pixels.view(np.uint8).reshape(-1, 4), np.repeat(rgb, self.area).view(np.uint8).reshape(-1, 4)
        out = np.zeros(len(self.pixels), dtype=np.int16)
        for c in range(3):
            a, b = px[:, c], want[:, c]
            out += np.maximum(a, b) - np.minimum(a, b)
        return out

    def lines_hit(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per box, how many of its pixel rows and how many of its columns hold a pixel of `mask`."""
        n = len(self.h)
        rows = np.zeros(n, dtype=np.int64)
        cols = np.zeros(n, dtype=np.int64)
        if not len(self.row_at):
            return rows, cols
        row_hit = np.logical_or.reduceat(mask, self.row_at)
        some = self.h > 0
        rows[some] = np.add.reduceat(row_hit, (np.cumsum(self.h) - self.h)[some], dtype=np.int64)
        at = np.flatnonzero(mask)  # the few pixels of the glyphs: their rows, boxes and columns
        row = np.searchsorted(self.row_at, at, side="right") - 1
        box = self.row_box[row]
        col_start = np.cumsum(self.w) - self.w  # where each box's columns start among all columns
        col_hit = np.bincount(col_start[box] + at - self.row_at[row], minlength=int(self.w.sum())) > 0
        cols[some] = np.add.reduceat(col_hit, col_start[some], dtype=np.int64)
        return rows, cols


def form_boxes(page: pdfium.PdfPage) -> list[Rect]:
    """Boxes of the form XObjects placed on the page (our symbols are drawn as forms)."""
    import pypdfium2.raw as raw

    h = page.get_size()[1] * MM_PER_PT
    boxes = []
    for bounds in _bounds_of(page, raw.FPDF_PAGEOBJ_FORM):
        x0, y0, x1, y1 = (v * MM_PER_PT for v in bounds)
        boxes.append((x0, h - y1, x1, h - y0))
    return boxes


def _bounds_of(page: pdfium.PdfPage, kind: int) -> Iterator[tuple[float, float, float, float]]:
    """Bounds (pt: left, bottom, right, top) of the page's own objects of one kind (pdfium's calls
    straight: a rulebook page has thousands of objects, and a helper object each was most of the time)."""
    import pypdfium2.raw as raw

    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    get, kind_of, bounds = raw.FPDFPage_GetObject, raw.FPDFPageObj_GetType, raw.FPDFPageObj_GetBounds
    for i in range(raw.FPDFPage_CountObjects(page.raw)):
        obj = get(page.raw, i)
        if kind_of(obj) == kind and bounds(obj, left, bottom, right, top):
            yield left.value, bottom.value, right.value, top.value


def render(page: pdfium.PdfPage) -> Image:
    """The page at RENDER_DPI, text drawn without anti-aliasing: its pixels have exactly its colour.
    Four bytes a pixel, R, G, B and an unused one, so that `Windows` reads a pixel as one number."""
    bitmap = page.render(scale=RENDER_DPI / 72, no_smoothtext=True, rev_byteorder=True, prefer_bgrx=True)
    if bitmap.mode == "RGBX":  # pdfium's layout when asked for it: used as it is, no copy
        return bitmap.to_numpy()
    rgb = np.asarray(bitmap.to_pil().convert("RGB"), dtype=np.uint8)
    return np.concatenate([rgb, np.full(rgb.shape[:2] + (1,), 255, dtype=np.uint8)], axis=2)
