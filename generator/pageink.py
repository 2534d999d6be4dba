"""A rendered page's ink, held sparse: a printed page is mostly bare paper, and the pixels that are
not (`Ink.at`, their places on the page in reading order, and `Ink.colour`, their packed colours)
are all that preflight's questions of the page's windows round its text need one by one. The paper
in a window is counted, not read: a window's pixels are its ink and `area - ink` paper pixels, all
of the paper's one colour.

    Ink.of(image) -> Ink                        the page's pixels that are not bare paper
    window_places(shape, boxes, pad)            each box widened by `pad`, cut to whole pixels of the page
    marks(ink, places, colours)                 per box: the pixel rows and columns its colour marks
    far_stats(ink, places, colours)             per window: its pixels far from its colour, counted, lowest, highest
    paper_bin(ink, places, colours, far)        per window: the mean of its palest bin where that bin holds most of it

Colours are packed as the rendered page holds them (R + G << 8 + B << 16, the unused fourth byte,
255, on top); two colours within OWN_COLOUR (the sum of R, G, B distances) are one. generator/pdfread.py
asks these questions (which glyphs show, the colour under each run) and holds the rule for each.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RENDER_DPI = 100
# a pixel within this sum of R, G, B distances of a text's colour is the text's own colour (a
# band's anti-aliased edge or a picture may come close; glyphs, drawn unsmoothed, are exact)
OWN_COLOUR = 24
PAPER = 0xFFFFFFFF  # a pixel the render left as it was: white paper, and the fourth byte 255


# per 16-bit word, how many of its bits are set; and the k lowest bits (k = 0..15) of a word
_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).sum(axis=1)
_BITS = (_BYTE_BITS[:, None] + _BYTE_BITS[None, :]).reshape(-1).astype(np.uint8)  # word = high byte * 256 + low
_LOW = np.array([(1 << k) - 1 for k in range(16)], dtype=np.uint16)


@dataclass(frozen=True)
class Ink:
    """The page's pixels that are not bare paper: their places (row * width + column, ascending) and
    colours; and, to find a place among them, the page's pixels sixteen to a word, 1 for ink (`bits`:
    the first pixel the lowest bit, row after row, each row padded to whole words, one 0 word after),
    and per word how many ink pixels come before its first (`ahead`)."""
    at: np.ndarray  # int64
    colour: np.ndarray  # uint32, packed
    width: int
    height: int
    bits: np.ndarray  # uint16
    ahead: np.ndarray  # int64

    @staticmethod
    def of(image: np.ndarray, inked: np.ndarray | None = None) -> Ink:
        """The ink of a rendered page (`inked`: its pixels that are not paper, as a mask, if known)."""
        flat = image.view("<u4").reshape(-1)
        inked = flat != PAPER if inked is None else inked
        at = np.flatnonzero(inked)
        h, w = image.shape[:2]
        # each row packed on its own (numpy pads it to whole bytes with 0 bits), then to whole words
        # by a 0 byte where its bytes are odd: the mask itself is not copied into padded rows
        packed = np.packbits(inked.reshape(h, w), axis=1, bitorder="little")
        if packed.shape[1] % 2:
            packed = np.concatenate([packed, np.zeros((h, 1), dtype=np.uint8)], axis=1)
        bits = np.append(packed.reshape(-1).view("<u2"), np.uint16(0))
        count = _BITS.take(bits)
        return Ink(at, flat[at], w, h, bits, np.cumsum(count, dtype=np.int64) - count)

    def before(self, row: np.ndarray, column: np.ndarray) -> np.ndarray:
        """Per place on the page (its row, and its column, up to the width), how many ink pixels
        come before it: the index in `at` of the first at or after it (np.searchsorted(at, row *
        width + column), counted from `bits` rather than searched)."""
        word = row * -(-self.width // 16) + (column >> 4)
        return self.ahead.take(word) + _BITS.take(self.bits.take(word) & _LOW.take(column & 15))


def distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pair, the sum over R, G, B of the distances of packed colours `a[i]` and `b[i]`."""
    x = np.ascontiguousarray(a, dtype=np.uint32).view(np.uint8).reshape(-1, 4)
    y = np.ascontiguousarray(b, dtype=np.uint32).view(np.uint8).reshape(-1, 4)
    out = np.zeros(len(x), dtype=np.int16)
    for c in range(3):
        out += np.maximum(x[:, c], y[:, c]) - np.minimum(x[:, c], y[:, c])
    return out


def own(px: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Per pixel (packed), whether it is within OWN_COLOUR of the colour `want` (packed, one per
    pixel). A glyph's pixels are its colour exactly: only the others are measured."""
    out = px == want
    rest = np.flatnonzero(~out)
    out[rest] = distance(px[rest], want[rest]) <= OWN_COLOUR
    return out


@dataclass(frozen=True)
class Places:
    """Windows on the page: their first column and row, their width and height in pixels (0 off the page)."""
    x0: np.ndarray
    y0: np.ndarray
    w: np.ndarray
    h: np.ndarray

    @property
    def area(self) -> np.ndarray:
        return self.w * self.h


def window_places(shape: tuple[int, ...], boxes: np.ndarray, pad: np.ndarray) -> Places:
    """Each box (mm) widened by its `pad` (mm) and cut to whole pixels of a page of `shape` (rows, columns)."""
    k = RENDER_DPI / 25.4
    x0 = np.maximum(0, ((boxes[:, 0] - pad) * k).astype(np.int64))
    y0 = np.maximum(0, ((boxes[:, 1] - pad) * k).astype(np.int64))
    x1 = np.minimum(shape[1], ((boxes[:, 2] + pad) * k).astype(np.int64) + 1)
    y1 = np.minimum(shape[0], ((boxes[:, 3] + pad) * k).astype(np.int64) + 1)
    empty = (x1 <= x0) | (y1 <= y0)
    return Places(x0, y0, np.where(empty, 0, x1 - x0), np.where(empty, 0, y1 - y0))


def _row_spans(ink: Ink, p: Places) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One entry per pixel row of each window: its window, where it starts on the page, and the
    span of `ink.at` holding the ink pixels of the row."""
    h = np.where(p.w > 0, p.h, 0)
    of = np.repeat(np.arange(len(h)), h)
    row = p.y0[of] + np.arange(len(of)) - np.repeat(np.cumsum(h) - h, h)
    x0 = p.x0[of]
    return of, row * ink.width + x0, ink.before(row, x0), ink.before(row, x0 + p.w[of])


def paper_own(colours: np.ndarray) -> np.ndarray:
    """Per colour (packed), whether the paper is within OWN_COLOUR of it."""
    return distance(np.full(len(colours), PAPER, dtype=np.uint32), colours) <= OWN_COLOUR


def span_of(box: np.ndarray, column: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per box (0..n-1), the lowest and highest `column` of its pixels (`box`, ascending), or
    2**63 - 1 and -1 for a box with none."""
    many = np.bincount(box, minlength=n)
    left, right = np.full(n, np.iinfo(np.int64).max), np.full(n, -1)
    if len(box):
        first, some = (np.cumsum(many) - many)[many > 0], many > 0
        left[some], right[some] = np.minimum.reduceat(column, first), np.maximum.reduceat(column, first)
    return left, right


def marks(ink: Ink, p: Places, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per box (its place `p`, its colour `colours[i]`, packed, the paper not within OWN_COLOUR of
    it), how many of its pixel rows its colour marks, and the leftmost and rightmost column it marks
    (2**63 - 1 and -1 where it marks none)."""
    n = len(colours)
    of, a, lo, hi = _row_spans(ink, p)
    many = hi - lo
    idx = np.repeat(lo - np.cumsum(many) + many, many) + np.arange(int(many.sum()))
    row = np.repeat(np.arange(len(of)), many)  # the box row of each ink pixel read
    mine = own(ink.colour[idx], colours[of[row]])
    if mine.all():  # a page of text on paper: every ink pixel in a box is its glyph's
        marked = many > 0
    else:
        row, idx = row[mine], idx[mine]
        marked = np.bincount(row, minlength=len(of)) > 0
    left, right = span_of(of[row], ink.at[idx] - a[row], n)
    return np.bincount(of, weights=marked, minlength=n), left, right


def far_stats(ink: Ink, p: Places, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per window, of its pixels more than OWN_COLOUR from its colour (`colours`, packed, one per
    window): how many, the lowest and the highest (packed; PAPER and 0 for a window with none)."""
    of, _, lo, hi = _row_spans(ink, p)
    many = hi - lo  # ink pixels per row
    # every ink pixel of every window, window after window
    idx = np.repeat(lo - np.cumsum(many) + many, many) + np.arange(int(many.sum()))
    return tally(ink.colour[idx], np.bincount(of, weights=many, minlength=len(colours)).astype(np.int64), p.area, colours)


def tally(px: np.ndarray, per: np.ndarray, area: np.ndarray, colours: np.ndarray,
          far: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`far_stats` of windows of `area` pixels, `per[i]` of them read (`px`, window after window;
    `far`: which are more than OWN_COLOUR from their window's colour, if known) and the rest bare paper."""
    n = len(colours)
    owner = np.repeat(np.arange(n), per)
    far = ~own(px, colours[owner]) if far is None else far
    paper_far = (area > per) & ~paper_own(colours)
    count = np.bincount(owner[far], minlength=n) + np.where(paper_far, area - per, 0)
    low, high = np.full(n, PAPER, dtype=np.uint32), np.zeros(n, dtype=np.uint32)
    some = per > 0
    if some.any():  # each window's lowest and highest far pixel in one pass
        first = (np.cumsum(per) - per)[some]
        low[some] = np.minimum.reduceat(np.where(far, px, np.uint32(PAPER)), first)
        high[some] = np.maximum.reduceat(np.where(far, px, np.uint32(0)), first)
    return count, low, np.where(paper_far, np.uint32(PAPER), high)


WHITE_BIN = 0xF0F0F0  # a packed colour's top four bits of R, G and B: all set in the palest bin of 16


def paper_bin(ink: Ink, p: Places, colours: np.ndarray, far: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per window whose pixels far from its colour (`colours`, packed, the paper among them: `far`
    of them, as `far_stats` counts) lie more than half in the palest bin of 16 per channel (R, G
    and B all 0xF0 or more), which the paper's pixels fill: that bin is the commonest (strictly: no
    tie to settle), and the mean of its pixels (rounded), counted from the sparse ink and the bare
    paper, is the colour under the run. Returns whether each window is so (n) and the means (n x
    3; zeros where not)."""
    n = len(colours)
    of, _, lo, hi = _row_spans(ink, p)
    many = hi - lo
    idx = np.repeat(lo - np.cumsum(many) + many, many) + np.arange(int(many.sum()))
    owner, px = np.repeat(of, many), ink.colour[idx]
    pale = ((px & WHITE_BIN) == WHITE_BIN) & ~own(px, colours[owner])
    read = np.bincount(of, weights=many, minlength=n).astype(np.int64)
    paper = np.where(paper_own(colours), 0, p.area - read)  # bare paper pixels, where far from the text
    inked = np.bincount(owner[pale], minlength=n)
    total = paper + inked
    sums = np.stack([np.bincount(owner[pale], weights=(px[pale] >> s) & 0xFF, minlength=n) + 255.0 * paper
                     for s in (0, 8, 16)], axis=1)
    wins = 2 * total > far
    return wins, np.where(wins[:, None], np.round(sums / np.maximum(total, 1)[:, None]), 0.0)
