"""What a typeset book drew, as its drawing pass drew it: every string (text, font, size, fill
colour, origin, and the fill under it), page by page, so that preflight judges a book it has just
written without reading the file back (generator/preflight.py; issue 26).

    note(canvas, x, y, text, font, size)      a string drawn at (x, y): kept when the canvas records
    BookRecord                                 a book's strings and its pages' size
    take(digest)                               the record of a book just written, by the file's bytes
                                               (generator/drawn_registry.py keeps them)
    imposed(record, flip, back_cover)          an A5 book's record placed on its booklet's sheets
    book_text(record)                          every page's characters as pdfium reads them, the whole book at once
    pages_text(pages, h_mm)                    a few pages' (pieces/drawn.py: a sheet's pages)
    seen_of(record)                            what preflight's checks are given of a book, a part of its pages
                                               at a time as one page: each string's characters a run, then the runs

The drawing pass notes one tuple a string (one per font subset: each is a text object in the
file), no per-glyph work while a book is set; the characters are worked out only when preflight
asks, from the fonts' advances and glyph boxes (pdfium gives a character its glyph's box), in the
order pdfium reads them (readorder.py), for many pages at once: numpy's work is per call, and a
book has hundreds of pages of a few hundred strings. Nothing here imports reportlab at module
level: preflight imports this module.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, Iterable, Iterator, NamedTuple, Sequence

import numpy as np

from ..drawn_registry import take_record
from ..geometry import MM_PER_PT
from ..glyphmetrics import glyph_metrics
from ..pageink import RENDER_DPI, window_places
from ..pagetext import BLANK_MAX, PageText, run_spans, span_boxes
from ..pdfread import RunsSeen
from .readorder import hyphens_marked, pdfium_order

PAPER_RGB = (255, 255, 255)
# one string drawn: (page (1-based), origin x, y in the canvas's space, the canvas's matrix, font,
# size (pt), fill colour, text, fill under it (None: the paper), decoration: never judged for
# contrast, whether it goes on from where the string before ends (the same origin: a run's next
# font subset); colours rgb 0-255); as the canvas holds them, worked out only when preflight asks
Drawn = tuple[int, float, float, tuple[float, ...], str, float, tuple[int, int, int], str, "tuple[int, int, int] | None", bool, bool]
# where a page's strings go on a page of the file: (scale, dx, dy), x -> scale * x + dx (pt, y up);
# a negative scale turns them 180° (a booklet's back printed for a long-edge flip)
Place = tuple[float, float, float]
UPRIGHT: Place = (1.0, 0.0, 0.0)


def note(canvas: Any, x: float, y: float, text: str, font: str, size: float, decoration: bool = False) -> None:
    """Keep a string drawn from (x, y) in the canvas's space, when the canvas records (`recording`)."""
    drawn = canvas.__dict__.get("_pnp_drawn")
    if drawn is not None:
        drawn.append((canvas._pageNumber, x, y, canvas._currentMatrix, font, size, fill_rgb(canvas), text,
                      canvas.__dict__.get("_pnp_ground"), decoration, False))


def fill_rgb(canvas: Any) -> tuple[int, int, int]:
    """The canvas's fill colour as 0-255 integers, worked out once per colour object it meets (kept
    with it, so that its id stays its own): a record of numbers and strings only, which the garbage
    collector stops walking (a book's is a few hundred thousand strings)."""
    fill = canvas._fillColorObj
    known = canvas.__dict__.setdefault("_pnp_rgb", {}).get(id(fill))
    if known is None:
        known = canvas._pnp_rgb[id(fill)] = (fill, rgb(fill))
    return known[1]


def recording(canvas: Any, drawn: list[Drawn]) -> Any:
    """The canvas, which from now on keeps every string `note` is told of in `drawn`."""
    canvas._pnp_drawn = drawn
    return canvas


def rgb(colour: Any) -> tuple[int, int, int]:
    """A reportlab colour (or an RGB tuple of 0-1) as 0-255 integers, as the PDF's operators give them."""
    r, g, b = colour.rgb() if hasattr(colour, "rgb") else tuple(colour)[:3]
    return round(r * 255), round(g * 255), round(b * 255)


@dataclass
class BookRecord:
    """A book's strings (`Drawn`, in drawing order) and its file's pages: how many and their size
    (pt); `places` (None: each page as drawn) per page of the file the drawn pages on it, where."""
    strings: list[Drawn]
    pages: int
    size: tuple[float, float]
    places: list[list[tuple[int, Place]]] | None = None


def take(data_digest: str) -> BookRecord | None:
    """The record of the book whose bytes have this digest (let go of here), or None."""
    record = take_record(data_digest)
    return record if isinstance(record, BookRecord) else None


def imposed(record: BookRecord, flip: str = "short", back_cover: bool = False) -> BookRecord:
    """The record of `impose(pdf, flip, back_cover)` of the book `record` describes: each page
    placed as impose.py places it on its sheet (its half, the back turned 180° with a long-edge flip)."""
    from .impose import A4_LANDSCAPE_PT, padded_order, saddle_sides

    order = padded_order(record.pages, back_cover)
    sheet_w, sheet_h = A4_LANDSCAPE_PT
    pw, ph = record.size
    scale = min((sheet_w / 2) / pw, sheet_h / ph)
    places: list[list[tuple[int, Place]]] = []
    for front, back in saddle_sides(len(order)):
        for side, is_back in ((front, False), (back, True)):
            places.append([])
            for slot, booklet_page in ((0, side.left), (1, side.right)):
                src = order[booklet_page - 1] if booklet_page else None
                if src is None:
                    continue
                dx, dy = slot * sheet_w / 2 + (sheet_w / 2 - pw * scale) / 2, (sheet_h - ph * scale) / 2
                turned = is_back and flip == "long"  # x -> W - (scale * x + dx)
                places[-1].append((src, (-scale, sheet_w - dx, sheet_h - dy) if turned else (scale, dx, dy)))
    return BookRecord(record.strings, len(places), (sheet_w, sheet_h), places)


# --------------------------------------------------------------------------- characters

class BookText(NamedTuple):
    """Every page's non-blank characters as pdfium reads them, page after page (each page's in
    pdfium's order): text, box (mm, y down from its page's top), size, colour (`read`), the colour
    under each (n x 3), whether each is decoration, and its page of the file (0-based)."""
    read: PageText
    under: np.ndarray
    deco: np.ndarray
    page: np.ndarray


@lru_cache(maxsize=None)
def _blank() -> np.ndarray:
    return np.array([chr(c).isspace() for c in range(BLANK_MAX + 1)] + [False])


def book_text(record: BookRecord) -> BookText:
    """The characters of every page of the file `record` describes (each page's strings placed
    where they go on it), worked out for the whole book at once: numpy's work per call, not per
    page (a book has hundreds of pages of a few hundred strings)."""
    return _characters(_glyphs(_columns(record.strings), *_book_selection(record)), record.size[1] * MM_PER_PT)


def _book_selection(record: BookRecord) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The strings of every page of the file `record` describes, page after page (indices into its
    strings), where each goes (scale, dx, dy) and its page of the file (0-based)."""
    src = np.fromiter(map(itemgetter(0), record.strings), dtype=np.int64, count=len(record.strings))
    by_src = np.argsort(src, kind="stable")  # each drawn page's strings, in drawing order
    bounds = np.searchsorted(src[by_src], np.arange(1, record.pages + 2 if record.places is None else max(
        [p for page in record.places for p, _ in page] + [0]) + 2))
    places = [[(p, UPRIGHT)] for p in range(1, record.pages + 1)] if record.places is None else record.places
    # per page of the file, the strings of the pages placed on it (1-based drawn pages: bounds[p-1]:bounds[p])
    spans = [(f, bounds[p - 1], bounds[p], place) for f, page in enumerate(places) for p, place in page]
    counts = np.array([b - a for _, a, b, _ in spans], dtype=np.int64)
    sel = by_src[np.repeat(np.array([a for _, a, _, _ in spans], dtype=np.int64) - (np.cumsum(counts) - counts), counts)
                 + np.arange(int(counts.sum()))] if spans else np.zeros(0, dtype=np.int64)
    where = np.repeat(np.array([place for *_, place in spans], dtype=np.float64).reshape(-1, 3), counts, axis=0)
    return sel, where, np.repeat(np.array([f for f, *_ in spans], dtype=np.int64), counts)


def pages_text(pages: Sequence[list[Drawn]], h_mm: Sequence[float]) -> BookText:
    """`book_text` of a few pages (a sheet's: pieces/drawn.py), each page's strings drawn upright on
    it and each page `h_mm[i]` high: the characters of page after page as pdfium reads each."""
    strings = [s for page in pages for s in page]
    page = np.repeat(np.arange(len(pages)), [len(p) for p in pages])
    where = np.tile(np.array(UPRIGHT, dtype=np.float64), (len(strings), 1))
    return _characters(_glyphs(_columns(strings), np.arange(len(strings)), where, page), np.array(h_mm, dtype=np.float64))


class _Glyphs(NamedTuple):
    """Strings of a record placed on their pages, with text: per string (in `sel`, indices into the
    record's) its page of the file, first character, length, colour, the colour under it and whether
    it is decoration; per character its string (`of`), code, origin (pt, y up), advance, glyph box
    (pt, y up), size and whether its glyph has an outline (`inked`)."""
    sel: np.ndarray
    page: np.ndarray
    firsts: np.ndarray
    lengths: np.ndarray
    fill: np.ndarray
    under: np.ndarray
    deco: np.ndarray
    of: np.ndarray
    codes: np.ndarray
    ox: np.ndarray
    y: np.ndarray
    width: np.ndarray
    box: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    size: np.ndarray
    inked: np.ndarray


class _Columns(NamedTuple):
    """A record's strings as columns (`Drawn`'s fields), taken a column at a time: zip(*strings)
    makes an iterator a string, which the garbage collector counts. The text as code points, each
    string's from `firsts` on; the fonts as indices into `fonts`."""
    lengths: np.ndarray
    firsts: np.ndarray
    codes: np.ndarray
    x: np.ndarray
    y: np.ndarray
    matrix: np.ndarray
    font: np.ndarray
    fonts: list[str]
    size: np.ndarray
    fill: np.ndarray
    under: np.ndarray
    deco: np.ndarray
    goes_on: np.ndarray


def _columns(strings: Sequence[Drawn]) -> _Columns:
    n = len(strings)

    def field(j: int) -> Iterator[Any]:
        return map(itemgetter(j), strings)

    def rows(values: Iterable[tuple], dtype: type, width: int) -> np.ndarray:  # np.array takes a tuple at a time
        return np.fromiter(itertools.chain.from_iterable(values), dtype=dtype, count=width * n).reshape(-1, width)
    texts = list(field(7))
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    ids: dict[str, int] = {}
    font = np.fromiter((ids.setdefault(f, len(ids)) for f in field(4)), dtype=np.int64, count=n)
    return _Columns(lengths, np.cumsum(lengths) - lengths, np.frombuffer("".join(texts).encode("utf-32-le"), dtype="<u4")
                    .astype(np.int64), np.fromiter(field(1), np.float64, n), np.fromiter(field(2), np.float64, n),
                    rows(field(3), np.float64, 6), font, list(ids), np.fromiter(field(5), np.float64, n),
                    rows(field(6), np.int64, 3), rows((g or PAPER_RGB for g in field(8)), np.int64, 3),
                    np.fromiter(field(9), bool, n), np.fromiter(field(10), bool, n))


def _glyphs(c: _Columns, sel: np.ndarray, where: np.ndarray, page: np.ndarray) -> _Glyphs | None:
    """The strings `sel` (indices into the columns `c`: page after page, each page's in drawing
    order), each placed by its `where` on its `page`, and their characters; None when none has
    text. A character whose glyph has no outline has no box, as pdfium gives none."""
    has_text = c.lengths[sel] > 0
    sel, where, page = sel[has_text], where[has_text], page[has_text]
    if not len(sel):
        return None
    lengths = c.lengths[sel]
    firsts = np.cumsum(lengths) - lengths
    n = int(lengths.sum())
    of = np.repeat(np.arange(len(sel)), lengths)  # each character's string (in `sel`)
    codes = c.codes[np.repeat(c.firsts[sel] - firsts, lengths) + np.arange(n)]
    metric = _metrics(c.fonts, c.font[sel][of], codes)
    x, y, k = _placed(c.x[sel], c.y[sel], c.matrix[sel], where)
    x, y, k, size = x[of], y[of], k[of], c.size[sel][of]
    step = k * size / 1000  # pt per font unit along the baseline (negative: turned)
    advance = metric[:, 0] * step
    ends = np.empty(n)  # summed page by page: a page's origins to the last bit as worked out for it alone
    for a, b in itertools.pairwise(firsts[np.flatnonzero(np.r_[True, page[1:] != page[:-1]])].tolist() + [n]):
        np.cumsum(advance[a:b], out=ends[a:b])
    # each glyph's origin: its string's, moved by the advances before it there (and in the strings
    # of its run before it: a run's pieces in other font subsets share its origin)
    starts = firsts[~c.goes_on[sel]]
    ox = x + ends - advance - np.repeat(ends[starts] - advance[starts], np.diff(np.r_[starts, n]))
    xa, xb = ox + step * metric[:, 1], ox + step * metric[:, 3]
    ya, yb = y + step * metric[:, 2], y + step * metric[:, 4]
    x0, x1, y0, y1 = np.minimum(xa, xb), np.maximum(xa, xb), np.minimum(ya, yb), np.maximum(ya, yb)
    return _Glyphs(sel, page, firsts, lengths, c.fill[sel], c.under[sel], c.deco[sel], of, codes,
                   ox, y, np.abs(advance), (x0, y0, x1, y1), np.abs(k * size), (x1 > x0) & (y1 > y0))


def _characters(g: _Glyphs | None, h_mm: float | np.ndarray) -> BookText:
    """The characters of `g`'s strings as pdfium reads them (each page's in its order, readorder.py)."""
    if g is None:
        return _no_text()
    lasts = g.firsts + g.lengths - 1
    shown = np.flatnonzero(np.logical_or.reduceat(g.inked, g.firsts))
    order, line_ends = pdfium_order(g.ox[g.firsts][shown], g.y[g.firsts][shown], g.width[g.firsts][shown],
                                    g.width[lasts][shown], g.page[shown])
    order, line_ends = shown[order], shown[line_ends]
    count = g.lengths[order]  # each string's characters, strings in pdfium's order
    chars = np.repeat(g.firsts[order] - (np.cumsum(count) - count), count) + np.arange(int(count.sum()))
    at = chars[_kept(g)[chars]]
    text = hyphens_marked(g.codes, lasts[line_ends], g.firsts[np.searchsorted(g.page, g.page[line_ends])])
    return _taken(g, at, text, h_mm)


def _kept(g: _Glyphs) -> np.ndarray:
    """Whether each character is one pdfium gives with a box: not blank, its glyph with an outline."""
    return ~_blank()[np.minimum(g.codes, BLANK_MAX + 1)] & g.inked


def _taken(g: _Glyphs, at: np.ndarray, codes: np.ndarray, h_mm: float | np.ndarray) -> BookText:
    """The characters `at`, as pdfium gives them (`codes` their text), in that order; `h_mm` the
    pages' height, or each page's (an array)."""
    x0, y0, x1, y1 = (v[at] for v in g.box)
    pt, on = MM_PER_PT, g.of[at]
    h_mm = h_mm[g.page[on]] if isinstance(h_mm, np.ndarray) else h_mm
    read = PageText(_as_list(codes[at]), np.stack([x0 * pt, h_mm - y1 * pt, x1 * pt, h_mm - y0 * pt], axis=1),
                    g.size[at], g.fill[on])
    return BookText(read, g.under[on], g.deco[on], g.page[on])


def _no_text() -> BookText:
    return BookText(PageText([], np.zeros((0, 4)), np.zeros(0), np.zeros((0, 3), dtype=np.int64)),
                    np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=bool), np.zeros(0, dtype=np.int64))


def _metrics(fonts: list[str], font_of: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Each character's advance and glyph box in its font (`fonts[font_of]`, 1000 to the em)."""
    metric = np.zeros((len(codes), 5))
    for i, f in enumerate(fonts):
        at = np.flatnonzero(font_of == i)
        if len(at):
            metric[at] = glyph_metrics(f).of(codes[at])
    return metric


def _placed(x: np.ndarray, y: np.ndarray, matrix: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each string's origin on the file's page (pt, y up) and the scale it is drawn at there
    (negative: turned 180°): its canvas matrix, then where its page goes."""
    a, b, c, d, e, f = matrix.T
    k, dx, dy = where.T
    return k * (a * x + c * y + e) + dx, k * (b * x + d * y + f) + dy, k * a


def _as_list(codes: np.ndarray) -> list[str]:
    """Code points as a list of one-character strings."""
    return list(codes.astype("<u4").tobytes().decode("utf-32-le"))


# --------------------------------------------------------------------------- what preflight is given

# how many pages the first part of a book judged at once holds, and how many times more each next
# part holds: the checks stop at the first part they find anything on; numpy's work is per part
FIRST_PART, GROWTH = 1, 4


def seen_of(record: BookRecord) -> Iterator[Iterator[tuple[PageText, RunsSeen | None]]]:
    """A book's pages as preflight's read-back gives a page (pdfread.runs_seen), each part of
    consecutive pages as one (a book's checks are per run or character): every character, and the
    characters on paper with their runs (none across pages), the fill under each run (the record's:
    the paper or a table header's band) and whether its window is on its page; None for no text.
    Of each part, first (`_strings_seen`) each string's characters as a run, in drawing order, then,
    asked only when that finds anything, the runs in pdfium's order, from the same characters.
    Nothing in a book is clipped: every character is on paper, but decoration (the contents' dot
    leaders), which the read-back never sees at 100 dpi either. The read-back also leaves out the
    glyphs the rendered page shows too small to count (a full stop, often an "l"): these are here,
    so that the runs judged here hold every run the read-back judges."""
    columns = _columns(record.strings)
    sel, where, page = _book_selection(record)
    cuts, want = [0], FIRST_PART
    while cuts[-1] < len(sel):
        cuts.append(int(np.searchsorted(page, page[cuts[-1]] + want)))
        want *= GROWTH
    for a, b in itertools.pairwise(cuts):
        yield _views(_glyphs(columns, sel[a:b], where[a:b], page[a:b]), record.size)
    if len(cuts) == 1:
        yield _views(None, record.size)


def _views(g: _Glyphs | None, size_pt: tuple[float, float]) -> Iterator[tuple[PageText, RunsSeen | None]]:
    """`seen_of`'s views of a part: each string as a run, then the runs."""
    yield _strings_seen(g, size_pt[1] * MM_PER_PT)
    read, under, deco, page = _characters(g, size_pt[1] * MM_PER_PT)
    if not len(read):
        yield read, None
        return
    chars, under, page = _picked(read, ~deco), under[~deco], page[~deco]
    starts, _ = run_spans(chars)
    cut = np.r_[False, page[1:] != page[:-1]]
    cut[starts] = True
    starts = np.flatnonzero(cut)
    scale = RENDER_DPI / 72
    shape = (math.ceil(size_pt[1] * scale), math.ceil(size_pt[0] * scale))
    pad = 0.25 * chars.size[starts] * MM_PER_PT
    on_page = window_places(shape, span_boxes(chars, starts), pad).area > 0
    yield read, RunsSeen(chars, starts, np.r_[starts[1:], len(chars)], under[starts], on_page)


def _strings_seen(g: _Glyphs | None, h_mm: float) -> tuple[PageText, RunsSeen | None]:
    """What `seen_of` gives, but the characters in drawing order, each string's a run of its own,
    every run taken to be on its page: no order to work out. Each run of `seen_of` is of its first
    string's colour, size and colour under it, so that when these runs pass the checks, so do
    those: what these find, `seen_of`'s runs are judged for (preflight._record_finds)."""
    if g is None or not (kept := _kept(g)).any():
        return _no_text().read, None
    at = np.flatnonzero(kept)
    read, on_paper = _taken(g, at, g.codes, h_mm).read, ~g.deco[g.of[at]]
    of = g.of[at[on_paper]]
    starts = np.flatnonzero(np.r_[True, of[1:] != of[:-1]])
    chars = read if len(of) == len(at) else _picked(read, on_paper)  # most parts have no decoration
    return read, RunsSeen(chars, starts, np.r_[starts[1:], len(of)], g.under[of[starts]], np.ones(len(starts), dtype=bool))


def _picked(t: PageText, keep: np.ndarray) -> PageText:
    """`t.take(keep)` (a mask), its text picked at C speed: a book has a hundred thousand characters."""
    return PageText(list(itertools.compress(t.text, keep.tolist())), t.box[keep], t.size[keep], t.rgb[keep])
