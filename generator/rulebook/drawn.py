"""What a typeset book drew, as its drawing pass drew it: every string (text, font, size, fill
colour, origin, and the fill under it), page by page, so that preflight judges a book it has just
written without reading the file back (generator/preflight.py; issue 26).

    note(canvas, x, y, text, font, size)      a string drawn at (x, y): kept when the canvas records
    BookRecord                                 a book's strings and its pages' size
    take(digest)                               the record of a book just written, by the file's bytes
                                               (generator/drawn_registry.py keeps them)
    imposed(record, flip, back_cover)          an A5 book's record placed on its booklet's sheets
    page_text(strings, h_mm)                   one page's characters as pdfium reads them (PageText)
    seen_of(strings, size)                     what preflight's checks are given of a recorded page

The drawing pass notes one tuple a string (one per font subset: each is a text object in the
file), no per-glyph work while a book is set; a page's characters are worked out only when
preflight asks, from the fonts' advances and glyph boxes (pdfium gives a character its glyph's
box), in the order pdfium reads them (`_pdfium_order`). Nothing here imports reportlab at module
level: preflight imports this module.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ..drawn_registry import take_record
from ..geometry import MM_PER_PT
from ..glyphmetrics import glyph_metrics
from ..pageink import RENDER_DPI, window_places
from ..pagetext import BLANK_MAX, PageText, run_spans, span_boxes
from ..pdfread import RunsSeen

PAPER_RGB = (255, 255, 255)
# one string drawn: (page (1-based), origin x, y in the canvas's space, the canvas's matrix, font,
# size (pt), fill colour, text, fill under it (None: the paper), decoration: never judged for
# contrast, whether it goes on from where the string before ends (the same origin: a run's next
# font subset); colours rgb 0-255); as the canvas holds them, worked out only when preflight asks
Drawn = tuple[int, float, float, tuple[float, ...], str, float, tuple[int, int, int], str, "tuple[int, int, int] | None", bool, bool]
# where a page's strings go on a page of the file: (scale, dx, dy), x -> scale * x + dx (pt, y up);
# a negative scale turns them 180° (a booklet's back printed for a long-edge flip)
Place = tuple[float, float, float]
Part = tuple[list[Drawn], Place]
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

    def by_page(self) -> list[list[Part]]:
        """Per page of the file, its strings and where they go."""
        drawn: list[list[Drawn]] = [[] for _ in range(self.pages if self.places is None else max(
            [p for page in self.places for p, _ in page] + [0]))]
        for s in self.strings:
            if 1 <= s[0] <= len(drawn):
                drawn[s[0] - 1].append(s)
        if self.places is None:
            return [[(strings, UPRIGHT)] for strings in drawn]
        return [[(drawn[p - 1], place) for p, place in page] for page in self.places]


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

@lru_cache(maxsize=None)
def _blank() -> np.ndarray:
    return np.array([chr(c).isspace() for c in range(BLANK_MAX + 1)] + [False])


def page_text(parts: Sequence[Part], h_mm: float) -> tuple[PageText, np.ndarray, np.ndarray]:
    """The page's non-blank characters (text, box in mm y down, size, colour) as pdfium reads them
    from the file (in its order, `_pdfium_order`), with the colour under each (n x 3) and whether
    each is decoration. `parts`: the strings drawn on the page and where they go. A character whose
    glyph has no outline has no box, as pdfium gives none."""
    strings = [s for part, _ in parts for s in part if s[7]]
    if not strings:
        return (PageText([], np.zeros((0, 4)), np.zeros(0), np.zeros((0, 3), dtype=np.int64)),
                np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=bool))
    whole = "".join(s[7] for s in strings)
    codes = np.frombuffer(whole.encode("utf-32-le"), dtype="<u4").astype(np.int64)
    lengths = np.array([len(s[7]) for s in strings])
    firsts = np.cumsum(lengths) - lengths
    of = np.repeat(np.arange(len(strings)), lengths)
    metric = np.zeros((len(codes), 5))
    font_ids = {f: i for i, f in enumerate(dict.fromkeys(s[4] for s in strings))}
    font_of = np.array([font_ids[s[4]] for s in strings])[of]
    for f, i in font_ids.items():
        at = font_of == i
        metric[at] = glyph_metrics(f).of(codes[at])
    x, y, k = _placed(strings, [place for part, place in parts for s in part if s[7]])
    x, y, k, size = x[of], y[of], k[of], np.array([s[5] for s in strings], dtype=np.float64)[of]
    step = k * size / 1000  # pt per font unit along the baseline (negative: turned)
    advance = metric[:, 0] * step
    ends = np.cumsum(advance)
    # each glyph's origin: its string's, moved by the advances before it there (and in the strings
    # of its run before it: a run's pieces in other font subsets share its origin)
    run = ~np.array([s[10] for s in strings], dtype=bool)
    starts = firsts[run]
    per_run = np.diff(np.r_[starts, len(codes)])
    ox = x + ends - advance - np.repeat(ends[starts] - advance[starts], per_run)
    xa, xb = ox + step * metric[:, 1], ox + step * metric[:, 3]
    ya, yb = y + step * metric[:, 2], y + step * metric[:, 4]
    x0, x1, y0, y1 = np.minimum(xa, xb), np.maximum(xa, xb), np.minimum(ya, yb), np.maximum(ya, yb)
    lasts = firsts + lengths - 1
    width = np.abs(advance)
    shown = np.logical_or.reduceat((x1 > x0) & (y1 > y0), firsts)
    order, line_ends = _pdfium_order(ox[firsts].tolist(), y[firsts].tolist(), width[firsts].tolist(),
                                     width[lasts].tolist(), np.flatnonzero(shown).tolist())
    n = lengths[order]  # each string's characters, strings in pdfium's order
    chars = np.repeat(firsts[order] - (np.cumsum(n) - n), n) + np.arange(int(n.sum()))
    text = _hyphens_marked(list(whole), lasts[line_ends].tolist())
    keep = (~_blank()[np.minimum(codes, BLANK_MAX + 1)] & (x1 > x0) & (y1 > y0))[chars]
    at = chars[keep]
    pt = MM_PER_PT
    box = np.stack([x0 * pt, h_mm - y1 * pt, x1 * pt, h_mm - y0 * pt], axis=1)[at]
    fills = np.array([s[6] for s in strings], dtype=np.int64)
    under = np.array([s[8] or PAPER_RGB for s in strings], dtype=np.int64)[of[at]]
    deco = np.array([s[9] for s in strings], dtype=bool)[of[at]]
    return PageText([text[i] for i in at.tolist()], box, np.abs(k * size)[at], fills[of[at]]), under, deco


def _placed(strings: list[Drawn], places: list[Place]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each string's origin on the file's page (pt, y up) and the scale it is drawn at there
    (negative: turned 180°): its canvas matrix, then where its page goes."""
    x, y = (np.array([s[j] for s in strings], dtype=np.float64) for j in (1, 2))
    a, b, c, d, e, f = np.array([s[3] for s in strings], dtype=np.float64).T
    k, dx, dy = np.array(places, dtype=np.float64).T
    return k * (a * x + c * y + e) + dx, k * (b * x + d * y + f) + dy, k * a


def _pdfium_order(x: list[float], y: list[float], first: list[float], last: list[float],
                  shown: list[int]) -> tuple[list[int], list[int]]:
    """The order pdfium reads the strings (text objects) in, as its CPDF_TextPage::ProcessTextObject
    keeps them: strings one after another whose origins' heights differ by at most half the wider
    of the last character before and the first character after (`last`, `first`: advances, pt) are
    one line, in which each goes after the last one whose origin is not right of its own (a footer
    draws its page number, then the running title left of it; a turned line's words come right to
    left); only the strings with a glyph shown (`shown`) count. Also the last string of each line."""
    order: list[int] = []
    ends: list[int] = []
    line: list[int] = []
    end = -1  # the line's last string
    for i in shown:
        if end >= 0 and abs(y[i] - y[end]) > max(last[end], first[i]) / 2:
            order += line
            ends.append(end)
            line = []
        elif end >= 0 and x[i] < x[end]:  # before the line's last string: where it goes
            at = len(line) - 1
            while at and x[i] < x[line[at - 1]]:
                at -= 1
            line.insert(at, i)
            end = line[-1]
            continue
        line.append(i)
        end = i
    return order + line, ends + line[-1:]


def _hyphens_marked(text: list[str], line_ends: list[int]) -> list[str]:
    """`text` with a hyphen that ends a line after a letter as pdfium gives it: U+0002."""
    for i in line_ends:
        if text[i] == "-" and i > 0 and text[i - 1].isalpha():
            text[i] = "\x02"
    return text


# --------------------------------------------------------------------------- what preflight is given

def seen_of(parts: Sequence[Part], size_pt: tuple[float, float]) -> tuple[PageText, RunsSeen | None]:
    """A recorded page as preflight's read-back gives it (pdfread.runs_seen): every character, and
    the characters on paper with their runs, the fill under each run (the record's: the paper or
    a table header's band) and whether its window is on the page; None for a page with no text.
    Nothing in a book is clipped: every character is on paper, but decoration (the contents' dot
    leaders), which the read-back never sees at 100 dpi either. The read-back also leaves out the
    glyphs the rendered page shows too small to count (a full stop, often an "l"): these are
    here, so that the runs judged here hold every run the read-back judges."""
    w_mm, h_mm = size_pt[0] * MM_PER_PT, size_pt[1] * MM_PER_PT
    read, under, deco = page_text(parts, h_mm)
    if not len(read):
        return read, None
    chars, under = read.take(~deco), under[~deco]
    starts, ends = run_spans(chars)
    scale = RENDER_DPI / 72
    shape = (math.ceil(size_pt[1] * scale), math.ceil(size_pt[0] * scale))
    pad = 0.25 * chars.size[starts] * MM_PER_PT
    on_page = window_places(shape, span_boxes(chars, starts), pad).area > 0
    return read, RunsSeen(chars, starts, ends, under[starts], on_page)
