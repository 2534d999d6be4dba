"""A sheet of pieces' pages as preflight's checks are given a page read back, worked out from the
strings its record draws (generator/pieces/drawn.py): the characters of all its pages at once
(rulebook/drawn.py `pages_text`, pdfium's order), their runs, the colour under each and whether
its window is on its page.

    pages_seen(drawn)    per page (its size, its strings each with the colour under it, its trims
                         and its symbols' boxes): a `Page`
    texts_touch(texts)   whether another text's glyphs could outweigh the fill in a text's window
    forms_near(forms)    whether two symbols' boxes come within FORM_SLACK_MM of each other
"""
from __future__ import annotations

import math

import numpy as np

from ..geometry import MM_PER_PT, PT_PER_MM
from ..pageink import RENDER_DPI, window_places
from ..pagetext import PageText, Rect, run_spans, span_boxes
from ..pdfread import RunsSeen
from ..rulebook import drawn as books
from .shapes import meeting, outset

RENDER_SLACK_MM = 0.3  # a window is read in whole 100 dpi pixels (0.254 mm), anti-aliased at a fill's edge
FORM_SLACK_MM = 0.5

# a page's characters, those on paper with their runs and the colour under each (None: no text),
# its trims and its symbols' boxes
Page = tuple[PageText, "RunsSeen | None", list[Rect], list[Rect]]


def pages_seen(drawn: list[tuple[tuple[float, float], list[books.Drawn], list[Rect], list[Rect]]]) -> list[Page]:
    """The pages' characters and runs, worked out for all of a sheet's pages at once (numpy's work
    is per call; a page's characters and runs are what they are worked out alone: none crosses pages)."""
    read, under_of, _, page = books.pages_text([d[1] for d in drawn], [size[1] for size, *_ in drawn])
    starts, _ = run_spans(read)
    # a run is judged on one colour under it: one whose characters stand on two fills is cut in two
    cut = np.r_[False, (under_of[1:] != under_of[:-1]).any(axis=1) | (page[1:] != page[:-1])]
    cut[starts] = True
    starts = np.flatnonzero(cut)
    ends, boxes, pad = np.r_[starts[1:], len(read)], span_boxes(read, starts), 0.25 * read.size[starts] * MM_PER_PT
    shapes = [(math.ceil(h * PT_PER_MM * RENDER_DPI / 72), math.ceil(w * PT_PER_MM * RENDER_DPI / 72)) for (w, h), *_ in drawn]
    on_page = np.zeros(len(starts), dtype=bool)
    for shape in set(shapes):  # a sheet's pages are mostly of one size
        at = np.flatnonzero(np.isin(page[starts], [i for i, s in enumerate(shapes) if s == shape]))
        on_page[at] = window_places(shape, boxes[at], pad[at]).area > 0
    bounds, runs = np.searchsorted(page, np.arange(len(drawn) + 1)).tolist(), np.searchsorted(page[starts], np.arange(len(drawn) + 1)).tolist()
    out: list[Page] = []
    for i, (_, _, trims, forms) in enumerate(drawn):
        a, b, r, q = bounds[i], bounds[i + 1], runs[i], runs[i + 1]
        chars = PageText(read.text[a:b], read.box[a:b], read.size[a:b], read.rgb[a:b])
        seen = RunsSeen(chars, starts[r:q] - a, ends[r:q] - a, under_of[starts[r:q]], on_page[r:q]) if b > a else None
        out.append((chars, seen, trims, forms))
    return out


def texts_touch(texts: list[tuple[int, list[books.Drawn], Rect]]) -> bool:
    """Whether another text's glyphs could outweigh the fill in a text's window: the read-back takes
    the colour under a run as the commonest colour in its window besides its own, and other
    glyphs are among the pixels it counts. Each other text's ink box (its window less the pad)
    counts whole where it meets the window; the fill must surely keep more of the window than
    they take, and 15 % of it (else the read-back calls the text's own colour its background)."""
    if len(texts) < 2:
        return False
    w = np.array([t[2] for t in texts], dtype=np.float64)
    pad = np.array([0.25 * t[1][0][5] * MM_PER_PT + RENDER_SLACK_MM for t in texts])
    ink = w + pad[:, None] * np.array([1.0, 1.0, -1.0, -1.0])
    # per pair (window i, ink j): the area they share
    dx = np.minimum(w[:, None, 2], ink[None, :, 2]) - np.maximum(w[:, None, 0], ink[None, :, 0])
    dy = np.minimum(w[:, None, 3], ink[None, :, 3]) - np.maximum(w[:, None, 1], ink[None, :, 1])
    shared = np.clip(dx, 0, None) * np.clip(dy, 0, None)
    own = shared.diagonal().copy()
    np.fill_diagonal(shared, 0.0)
    others = shared.sum(axis=1)
    area = (w[:, 2] - w[:, 0]) * (w[:, 3] - w[:, 1])
    fill = area - own - others
    return bool(((fill <= others) | (fill < 0.15 * area)).any())


def forms_near(forms: list[Rect]) -> bool:
    """Whether two symbols' boxes come within FORM_SLACK_MM of each other (their overlap is then
    the read-back's to measure)."""
    grown = np.array([outset(f, FORM_SLACK_MM) for f in forms], dtype=np.float64).reshape(-1, 4)
    return any(j != i for i, near in enumerate(meeting(grown, grown)) for j in near)  # a box meeting another
