"""What a PDF page shows, read back from the file as a print shop's preflight reads it (pdfium,
pypdf): the page rendered, which of its characters (generator/pagetext.py reads them) the rendered
page shows and the colour behind each run of text (`runs_seen`, all of a page's runs as arrays at
once), the trims its crop marks stand for, the boxes of its symbols and the fonts it does not
embed. Lengths in mm, y down from the page's top-left. On a book's page (wide runs, little ink)
the colour under the runs is worked from the page's ink read sparse (generator/pageink.py);
elsewhere from the pixels of the runs' windows: the same colours either way.

generator/preflight.py judges what this reads.
"""
from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import numpy as np

from .pieces.plan import MARK_WIDTH
from .pieces.grid import MARK_LEN_MM, MARK_MIN_LEN_MM
from .geometry import MM_PER_PT
from .pageink import PAPER, RENDER_DPI, Ink, Places, far_stats, marks, own, paper_bin, paper_own, span_of, tally, window_places
from .pagetext import Char, PageText, Rect, raw_call, run_spans, span_boxes

if TYPE_CHECKING:
    import pypdfium2 as pdfium  # imported where it is used: `pnp --help` stays fast

# Crop marks are short strokes in the margin (pieces/grid.py draws them MARK_MIN_LEN_MM to MARK_LEN_MM
# long, MARK_WIDTH wide). pdfium's bounds of a stroked line reach a stroke width past each end and
# side (a 3 mm mark reads 0.4 x 3.4 mm), so a mark reads up to these sizes:
MARK_READ_SLACK_MM = 2 * MARK_WIDTH + 0.1
MARK_MAX_MM = MARK_LEN_MM + MARK_READ_SLACK_MM
MARK_THICK_MAX_MM = MARK_READ_SLACK_MM

# a page whose runs' windows cover more than WIDE of it and with no more ink than SPARSE_INK of its
# pixels (a book's page) has its ink read sparse; the others their windows' pixels
WIDE, SPARSE_INK = 0.15, 0.2
Image = np.ndarray  # a page rendered at RENDER_DPI: rows x columns x RGBX (uint8)


def unembedded_fonts(path: Path) -> list[str]:
    """BaseFont names of the fonts used by pages or forms that carry no font file: read from the
    few objects that say (generator/pdffonts.py), or by pypdf where that reader does not follow
    the file (a cross-reference stream, object streams, a malformed file)."""
    from . import pdffonts

    try:
        return pdffonts.unembedded(path)
    except (pdffonts.Unsupported, LookupError, TypeError, ValueError, RecursionError):
        pass
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
    cols, rows = trim_spans(sorted(xs)), trim_spans(sorted(ys))
    return [(a, b, c, d) for a, c in cols for b, d in rows]


def trim_spans(edges: list[float]) -> list[tuple[float, float]]:
    """Trim intervals from sorted trim edges: the long intervals are pieces, short ones gutters."""
    spans = list(zip(edges, edges[1:]))
    if not spans:
        return []
    longest = max(b - a for a, b in spans)
    return [(a, b) for a, b in spans if b - a > longest / 2]


@dataclass(frozen=True)
class RunsSeen:
    """What the rendered page shows of a page's text: the characters on paper (`chars`), their runs
    ([starts[i], ends[i]) in `chars`), the colour under each run (`under`, n x 3) and whether the
    run's window is on the page at all (`on_page`)."""
    chars: PageText
    starts: np.ndarray
    ends: np.ndarray
    under: np.ndarray
    on_page: np.ndarray


def runs_seen(chars: PageText, image: Image, w_mm: float, h_mm: float) -> RunsSeen:
    """The characters on the paper whose colour the rendered page shows as a glyph inside their box
    (at least three pixel rows and, unless the glyph is narrow, two columns: a line of the same
    colour crossing the box is not a glyph), their runs and the colour under each (`_under`). A
    clip hides the rest: a tiled map's sheets clip one big drawing."""
    starts, ends = run_spans(chars)
    ink = _sparse(image, chars, starts)
    shown = _glyphs_shown(image, ink, chars, w_mm, h_mm)
    if not shown.all():  # a full stop is too small to show: the runs are those of the characters shown
        chars = chars.take(shown)
        starts, ends = run_spans(chars)
    pad = 0.25 * chars.size[starts] * MM_PER_PT
    under, on_page = _under(image, ink, span_boxes(chars, starts), pad, chars.rgb[starts])
    return RunsSeen(chars, starts, ends, under, on_page)


def _sparse(image: Image, chars: PageText, starts: np.ndarray) -> Ink | None:
    """The page's ink, read sparse, when its runs' windows (the runs starting at `starts`) cover
    more than WIDE of it and its ink no more than SPARSE_INK (a book's page); None for a page of a
    few labels or mostly inked (a card's picture), whose windows' own pixels are fewer to read."""
    places = window_places(image.shape, span_boxes(chars, starts), 0.25 * chars.size[starts] * MM_PER_PT)
    if places.area.sum() <= WIDE * image.size / 4:
        return None
    inked = image.view("<u4").reshape(-1) != PAPER
    return Ink.of(image, inked) if np.count_nonzero(inked) <= SPARSE_INK * inked.size else None


def _glyphs_shown(image: Image, ink: Ink | None, chars: PageText, w_mm: float, h_mm: float) -> np.ndarray:
    """Per character, whether it is on the paper and its colour marks at least three of its box's
    pixel rows and, unless it is narrow, two columns. A glyph's pixels are exactly its colour (text
    is rendered unsmoothed): a looser match would take the paper round a clipped-away light glyph
    (cream on white) for the glyph itself."""
    boxes, packed = chars.box, _packed(chars.rgb)
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    narrow = boxes[:, 2] - boxes[:, 0] < 0.6  # an "l" or "i" may be one pixel wide
    # a glyph in a colour the paper is its own colour of (white on a band) is not ink: its box's
    # pixels are read; every other box's marks are the same from the sparse ink (each box is judged
    # alone), so a page's few white headings no longer send its thousands of glyphs to their pixels
    light = paper_own(packed) if ink is not None else np.ones(len(packed), dtype=bool)
    rows, left, right = np.zeros(len(packed)), np.zeros(len(packed), dtype=np.int64), np.zeros(len(packed), dtype=np.int64)
    for part, pixels in ((~light, False), (light, True)):
        if part.all():
            rows, left, right = _marks_of(image, ink, boxes, packed, pixels)
        elif part.any():
            rows[part], left[part], right[part] = _marks_of(image, ink, boxes[part], packed[part], pixels)
    return (cx >= 0) & (cx <= w_mm) & (cy >= 0) & (cy <= h_mm) & (rows >= 3) & (narrow | (right > left))


def _marks_of(image: Image, ink: Ink | None, boxes: np.ndarray, packed: np.ndarray, pixels: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per box (no pad), the pixel rows its colour marks and the leftmost and rightmost column:
    from the boxes' own pixels (`pixels`), else from the page's sparse `ink`."""
    none = np.zeros(len(boxes))
    if pixels or ink is None:
        return _marks(Windows(image, boxes, none), packed)
    return marks(ink, window_places(image.shape, boxes, none), packed)


def _marks(win: Windows, packed: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`pageink.marks` from the pixels of the boxes' windows (`win`, read with no pad)."""
    n = len(packed)
    mine = own(win.pixels, np.repeat(packed, win.area))
    # per pixel row of a box: whether its colour marks it
    rows_of = np.where(win.area > 0, win.h, 0)
    row_box = np.repeat(np.arange(n), rows_of)
    row_in_box = np.arange(len(row_box)) - np.repeat(np.cumsum(rows_of) - rows_of, rows_of)
    row_start = np.repeat(win.start, rows_of) + row_in_box * win.w[row_box]
    marked = np.logical_or.reduceat(mine, row_start) if len(row_start) else np.zeros(0, dtype=bool)
    # the leftmost and rightmost column its colour marks
    at = np.flatnonzero(mine)
    box = np.searchsorted(win.start, at, side="right") - 1
    column = (at - win.start[box]) % np.maximum(win.w[box], 1)
    left, right = span_of(box, column, n)
    return np.bincount(row_box, weights=marked, minlength=n), left, right


def _under(image: Image, ink: Ink | None, boxes: np.ndarray, pad: np.ndarray, rgbs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each run (its box, a quarter of its size round it: its window), the colour under the run
    as a reader sees it: the commonest colour in its window that is not the text's own (the page is
    rendered with text unsmoothed, so a glyph's pixels are exactly its colour): the paper, band,
    shape or picture the text is read against. Where under 15 % of the window is another colour,
    the text stands on its own colour (a label in its band's colour) and that is its background.
    Colours are counted in bins of 16 per channel, and the winning bin's pixels averaged. With
    the page's `ink` read sparse, a window whose only colour besides the text's is one (the
    paper, a band) needs no more, nor one whose palest bin, the paper's, holds most of it
    (`pageink.paper_bin`). Returns the colours (n x 3) and whether each window is on the page at
    all."""
    n = len(rgbs)
    if not n:
        return np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=bool)
    places, packed = window_places(image.shape, boxes, pad), _packed(rgbs)
    if ink is not None:
        count, lo, hi = far_stats(ink, places, packed)
    else:  # the windows' pixels and which are far from the text's colour: read once, for the bins below too
        win = Windows(image, boxes, pad)
        item = win.item()
        far = ~own(win.pixels, packed[item])
        count, lo, hi = tally(win.pixels, win.area, win.area, packed, far)
    enough = (count >= 0.15 * places.area) & (places.area > 0)
    means = np.stack([(lo >> s) & 0xFF for s in (0, 8, 16)], axis=1).astype(np.float64)
    mixed = enough & (lo != hi)
    if ink is not None and mixed.any():  # most are the paper with a few other glyphs or edges in it
        at = np.flatnonzero(mixed)
        sub = Places(places.x0[at], places.y0[at], places.w[at], places.h[at])
        wins, paler = paper_bin(ink, sub, packed[at], count[at])
        means[at[wins]] = paler[wins]
        mixed[at[wins]] = False
    if mixed.any():  # the pixels of these windows, read one by one
        if ink is not None:
            win = Windows(image, boxes[mixed], pad[mixed])
            item = win.item()
            far = ~own(win.pixels, packed[mixed][item])
            means[mixed] = _commonest_bin_means(win.pixels[far], item[far], int(mixed.sum()))
        else:
            use = far & mixed[item]
            means[mixed] = _commonest_bin_means(win.pixels[use], (np.cumsum(mixed) - 1)[item[use]], int(mixed.sum()))
    return np.where(enough[:, None], means.astype(np.int64), rgbs), places.area > 0


def _commonest_bin_means(pix: np.ndarray, item: np.ndarray, n: int) -> np.ndarray:
    """Per box (0..n-1), the mean colour (rounded) of its pixels (`pix`, packed, each of the box
    `item`) in the commonest bin of 16 per channel among them (the lowest bin, R before G before B,
    among equals)."""
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
    """Colours as the rendered page holds them: R + G << 8 + B << 16 + 255 << 24 (`render`'s RGBX
    read little-endian, the unused byte 255 as the render leaves it), so that a glyph's pixels equal
    its packed colour (`pageink.own` measures only the others)."""
    rgb = np.asarray(colours, dtype=np.uint32).reshape(-1, 3)
    return rgb[:, 0] | rgb[:, 1] << 8 | rgb[:, 2] << 16 | np.uint32(0xFF000000)


class Windows:
    """The rendered pixels inside many boxes at once: each box (mm) widened by its `pad` (mm) and
    cut to whole pixels of the page (`window_places`), all of their pixels side by side in `pixels`
    (packed as `_packed`, the unused fourth byte on top), box after box, row by row (`area[i]`
    pixels for box i, `w[i]` by `h[i]`, starting at `start[i]`; 0 for a box off the page)."""

    def __init__(self, image: Image, boxes: np.ndarray, pad: np.ndarray):
        places = window_places(image.shape, boxes, pad)
        self.w, self.h, self.area = places.w, places.h, places.area
        self.start = np.cumsum(self.area) - self.area  # where each box's pixels start in `pixels`
        # one entry per pixel row read: where it starts on the page; the pixels' places on the page
        # count up by one along a row and jump at each row's start
        h = np.where(self.area > 0, places.h, 0)
        row_box = np.repeat(np.arange(len(boxes)), h)
        row_in_box = np.arange(len(row_box)) - np.repeat(np.cumsum(h) - h, h)
        row_len = places.w[row_box]
        on_page = (places.y0[row_box] + row_in_box) * image.shape[1] + places.x0[row_box]
        step = np.ones(int(self.area.sum()), dtype=np.int64)
        if len(step):
            step[np.cumsum(row_len) - row_len] = np.diff(on_page, prepend=0) - np.r_[0, row_len[:-1] - 1]
        flat = image.view("<u4").reshape(-1)  # a pixel's R, G, B, X bytes as one number
        self.pixels = flat[np.cumsum(step)]

    def item(self) -> np.ndarray:
        """Per pixel, its box."""
        return np.repeat(np.arange(len(self.area)), self.area)


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
    straight, with plain addresses: a rulebook page has thousands of objects, and a helper object
    each was most of the time)."""
    import pypdfium2.raw as raw

    V, I = ctypes.c_void_p, ctypes.c_int
    get, kind_of = raw_call(raw.FPDFPage_GetObject, V, V, I), raw_call(raw.FPDFPageObj_GetType, I, V)
    bounds = raw_call(raw.FPDFPageObj_GetBounds, I, V, V, V, V, V)
    box = np.zeros(4, dtype=np.float32)  # pdfium writes left, bottom, right, top here
    a = box.ctypes.data
    handle = ctypes.cast(page.raw, V).value
    for i in range(raw.FPDFPage_CountObjects(page.raw)):
        obj = get(handle, i)
        if kind_of(obj) == kind and bounds(obj, a, a + 4, a + 8, a + 12):
            left, bottom, right, top = box.tolist()
            yield left, bottom, right, top


def render(page: pdfium.PdfPage, clips: Sequence[tuple[int, int, int, int]] | None = None) -> Image:
    """The page at RENDER_DPI on white paper, text drawn without anti-aliasing: its pixels have
    exactly its colour. Four bytes a pixel, R, G, B and an unused one (255), so that `Windows`
    reads a pixel as one number. pdfium draws straight into the array (no bitmap of its own to
    fill and copy): the pixels pypdfium2's `page.render(scale=RENDER_DPI / 72, no_smoothtext=True,
    rev_byteorder=True, prefer_bgrx=True)` gives. Given `clips` (pixel rectangles: first column and
    row, end column and row), only those are drawn, the rest left white: each with the whole render's
    matrix (`_whole_matrix`) as its clip, which draws the whole render's pixels inside it but for its
    outermost two (the clip's own edge is anti-aliased; tileflight.own_seen keeps off them)."""
    import pypdfium2.raw as raw

    h, w = pixels_of(page)
    image = np.full((h, w, 4), 255, dtype=np.uint8)
    bitmap = raw.FPDFBitmap_CreateEx(w, h, raw.FPDFBitmap_BGRx, image.ctypes.data_as(ctypes.c_void_p), 4 * w)
    flags = raw.FPDF_ANNOT | raw.FPDF_RENDER_NO_SMOOTHTEXT | raw.FPDF_REVERSE_BYTE_ORDER
    try:
        if clips is None:
            raw.FPDF_RenderPageBitmap(bitmap, page.raw, 0, 0, w, h, 0, flags)
        else:
            matrix = _whole_matrix(page.get_width(), page.get_height(), w, h)
            for x0, y0, x1, y1 in clips:
                raw.FPDF_RenderPageBitmapWithMatrix(bitmap, page.raw, matrix, raw.FS_RECTF(x0, y0, x1, y1), flags)
    finally:
        raw.FPDFBitmap_Destroy(bitmap)
    return image


def pixels_of(page: pdfium.PdfPage) -> tuple[int, int]:
    """The rows and columns of the page rendered (`render`)."""
    scale = RENDER_DPI / 72
    return math.ceil(page.get_height() * scale), math.ceil(page.get_width() * scale)


def _whole_matrix(width: float, height: float, w: int, h: int) -> Any:
    """What FPDF_RenderPageBitmapWithMatrix must be given to draw with FPDF_RenderPageBitmap's matrix
    onto w x h pixels (x times w / width, y times -h / height, h down), to the bit: it maps the page
    onto its own size first (x times 1, y times -1, `height` down, in float32) and then applies this."""
    import pypdfium2.raw as raw

    f = np.float32
    sx, sy = f(w) / f(width), f(h) / f(height)
    return raw.FS_MATRIX(float(sx), 0.0, 0.0, float(sy), 0.0, float(f(h) - f(height) * sy))


def inks_strip(c: Char, image: Image, w: float, h: float, strip_mm: float) -> bool:
    """Whether the page shows `c`'s colour inside the part of its box that lies in the printer's
    margin strip (`strip_mm` wide). A label a map tile's clip cuts at the strip's edge reaches into
    the strip by its box only: nothing of it is printed there."""
    px = image.shape[1] / w  # pixels per mm
    inner = strip_mm - 0.1  # a pixel whose centre is on the clip's edge may be either side
    x0, y0, x1, y1 = c.box
    parts = [(x0, y0, min(x1, inner), y1), (max(x0, w - inner), y0, x1, y1),
             (x0, y0, x1, min(y1, inner)), (x0, max(y0, h - inner), x1, y1)]
    for a, b, e, f in parts:
        if e <= a or f <= b:
            continue
        window = image[max(0, int(b * px)):max(0, int(np.ceil(f * px))), max(0, int(a * px)):max(0, int(np.ceil(e * px))), :3]
        if window.size and (np.abs(window - np.array(c.rgb, dtype=np.int16)).sum(axis=2) < 120).any():
            return True
    return False
