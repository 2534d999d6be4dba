"""A book's record judged string by string, the whole book at once, before its parts (issue 26).

preflight._record_finds judges a book a part at a time (drawn.seen_of): first each string's
characters as a run of its own, then, only where that finds anything, the runs in pdfium's order.
A book's checks are per character (text near the edge) or per run (contrast: a run's colour,
size and the fill under it are its first string's), so what the strings' view finds on the whole
book is what it finds on some part: when the whole book's strings pass, every part's do, and the
parts need not be worked out. This gives the checks only what they read of that view, as arrays,
with no character list, no page text and no part: the boxes of the characters on paper, and per
string its colour, the fill under it and its size.

    strings_judged(record)     a book's `Strings`, its characters worked out once for the whole book
    pair_ratios(fg, bg)        the contrast ratio of each pair of colours (n x 3 each), each pair met worked once
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..contrast import _channels, contrast_ratio
from ..geometry import MM_PER_PT
from .drawn import BookRecord, _book_selection, _columns, _glyphs, _kept


class Strings(NamedTuple):
    """A book's page size (mm), the boxes (mm, y down from its page's top) of every character on
    paper (not decoration, not blank, with an outline), and per string with any of them: its
    colour, the fill under it and its size (pt), as `drawn.seen_of`'s first view gives its runs."""
    w_mm: float
    h_mm: float
    box: np.ndarray
    fg: np.ndarray
    under: np.ndarray
    size: np.ndarray


def strings_judged(record: BookRecord) -> Strings:
    """The whole book's `Strings`: the same figures, to the bit, as `seen_of`'s parts give."""
    w_mm, h_mm = record.size[0] * MM_PER_PT, record.size[1] * MM_PER_PT
    g = _glyphs(_columns(record.strings), *_book_selection(record))
    if g is None:
        return Strings(w_mm, h_mm, np.zeros((0, 4)), np.zeros((0, 3), dtype=np.int64), np.zeros((0, 3), dtype=np.int64), np.zeros(0))
    on = np.flatnonzero(_kept(g) & ~g.deco[g.of])
    x0, y0, x1, y1 = (v[on] for v in g.box)
    pt, of = MM_PER_PT, g.of[on]
    box = np.stack([x0 * pt, h_mm - y1 * pt, x1 * pt, h_mm - y0 * pt], axis=1)  # as drawn._taken places them
    first = on[np.r_[True, of[1:] != of[:-1]]] if len(on) else on  # each string's first character on paper
    strings = g.of[first]
    return Strings(w_mm, h_mm, box, g.fill[strings], g.under[strings], g.size[first])


def pair_ratios(fg: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Per row, the contrast ratio of the colours `fg[i]` and `bg[i]` (R, G, B 0-255): a page has a
    few colours and thousands of runs, so each pair met is worked once (a pair as one number, its
    six channels a byte each: rows of numbers sort far slower)."""
    pair = np.zeros(len(fg), dtype=np.int64)
    for channel in np.concatenate([fg, bg], axis=1).T:
        pair = pair << 8 | channel
    pairs, pair_of = np.unique(pair, return_inverse=True)
    return np.array([contrast_ratio(_channels(p >> 24), _channels(p)) for p in pairs.tolist()])[pair_of.reshape(-1)]
