"""The order pdfium reads a page's text objects in, worked out from where they are drawn (for the
drawing records: generator/rulebook/drawn.py), and the hyphens it marks at the lines' ends.

    pdfium_order(x, y, first, last, page)      each page's strings in pdfium's order, and each line's last
    hyphens_marked(codes, line_ends, firsts)   a line-ending hyphen after a letter as pdfium gives it
"""
from __future__ import annotations

import numpy as np


def pdfium_order(x: np.ndarray, y: np.ndarray, first: np.ndarray, last: np.ndarray,
                 page: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The order pdfium reads the strings (text objects) of each page in, as its
    CPDF_TextPage::ProcessTextObject keeps them: strings one after another whose origins' heights
    differ by at most half the wider of the last character before and the first character after
    (`last`, `first`: advances, pt) are one line, in which each goes after the last one whose
    origin is not right of its own (a footer draws its page number, then the running title left
    of it; a turned line's words come right to left); a page starts a line. So each line's
    strings are sorted by their origins' x, the order they came in kept among equals. Also the
    last string of each line. Indices into the strings given (those with a glyph shown)."""
    line = np.cumsum(_line_starts(x, y, first, last, page)) - 1
    by_x = np.argsort(x, kind="stable")
    order = by_x[np.argsort(line[by_x], kind="stable")]
    return order, order[np.flatnonzero(np.r_[line[order][1:] != line[order][:-1], True])]


def _line_starts(x: np.ndarray, y: np.ndarray, first: np.ndarray, last: np.ndarray, page: np.ndarray) -> np.ndarray:
    """Whether each string starts a line. A line's height is that of its string furthest right
    (the last one that did not go before another); taking it to be the one before each string's
    is right until a string goes before the one before it: from there, to the next line, strings
    are walked one by one (a page's footer, a turned page's lines)."""
    starts = np.r_[True, (page[1:] != page[:-1])
                   | (np.abs(y[1:] - y[:-1]) > np.maximum(last[:-1], first[1:]) / 2)]
    back = np.flatnonzero(~starts[1:] & (x[1:] < x[:-1])) + 1
    if not len(back):
        return starts
    xs, ys, fs, ls, ps = (v.tolist() for v in (x, y, first, last, page))
    walked = 0  # strings before this are settled
    for b in back.tolist():
        if b <= walked:
            continue
        end = b - 1  # the line's string furthest right: each string of it so far came after the one before
        walked = b
        while walked < len(xs):
            i = walked
            if ps[i] != ps[end] or abs(ys[i] - ys[end]) > max(ls[end], fs[i]) / 2:
                starts[i] = True  # a new line: from here the strings one before another hold again
                break
            starts[i] = False
            if xs[i] >= xs[end]:
                end = i
            walked += 1
    return starts


def hyphens_marked(codes: np.ndarray, line_ends: np.ndarray, page_firsts: np.ndarray) -> np.ndarray:
    """`codes` with a hyphen that ends a line (`line_ends`, a character's index) after a letter
    of its page as pdfium gives it: U+0002."""
    codes = codes.copy()
    for i, first in zip(line_ends.tolist(), page_firsts.tolist()):
        if codes[i] == 0x2D and i > first and chr(codes[i - 1]).isalpha():
            codes[i] = 2
    return codes
