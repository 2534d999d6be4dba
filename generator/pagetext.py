"""The characters of a PDF page as pdfium reads them, held as columns (numpy arrays: a rulebook page
has thousands of characters, and an object each was most of preflight's time), and the runs of
text they make: characters of one colour and size side by side on one line. Lengths in mm, y down
from the page's top-left.

    read_page_text(page, h_mm) -> PageText      every non-blank character: text, box, size, colour
    run_spans(text) -> (starts, ends)           the runs of a PageText, as index ranges
    text_runs(chars) -> [Run]                   the same runs of a list of Char
    raw_call(fn, restype, *argtypes)            a pdfium function called with plain addresses (pdfread's too)

generator/pdfread.py reads the rest of the page (the rendered pixels, crop marks, symbols, fonts);
generator/preflight.py judges.
"""
from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import repeat
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

import numpy as np

from .geometry import MM_PER_PT

if TYPE_CHECKING:
    import pypdfium2 as pdfium  # imported where it is used: `pnp --help` stays fast

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, y down from the page top
BLANK_MAX = 0x3000  # the highest code point Python counts blank (the ideographic space)
_SURROGATE = re.compile("[\ud800-\udfff]")  # half of a character beyond U+FFFF, in UTF-16


class Char(NamedTuple):  # a tuple: made only for the few characters a finding names
    text: str
    box: Rect
    size_pt: float
    rgb: tuple[int, int, int]


@dataclass(frozen=True)
class PageText:
    """Characters as columns: `text[i]`, `box[i]` (x0, y0, x1, y1 mm), `size[i]` (pt), `rgb[i]` (R, G, B)."""
    text: list[str]
    box: np.ndarray  # n x 4, float64
    size: np.ndarray  # n, float64
    rgb: np.ndarray  # n x 3, int64

    def __len__(self) -> int:
        return len(self.text)

    def take(self, keep: np.ndarray) -> PageText:
        """The characters `keep` (a mask or indices) holds, in order."""
        at = np.flatnonzero(keep) if keep.dtype == bool else keep
        return PageText([self.text[i] for i in at.tolist()], self.box[at], self.size[at], self.rgb[at])

    def chars(self, at: Sequence[int] | None = None) -> list[Char]:
        """The characters (those at `at`, else all) as Char tuples."""
        at = list(range(len(self)) if at is None else at)
        box, size, rgb = self.box[at].tolist(), self.size[at].tolist(), self.rgb[at].tolist()
        return [Char(self.text[i], tuple(b), s, tuple(c)) for i, b, s, c in zip(at, box, size, rgb)]

    @staticmethod
    def of(chars: Sequence[Char]) -> PageText:
        return PageText([c.text for c in chars], np.array([c.box for c in chars], dtype=np.float64).reshape(-1, 4),
                        np.array([c.size_pt for c in chars], dtype=np.float64),
                        np.array([c.rgb for c in chars], dtype=np.int64).reshape(-1, 3))


def raw_call(fn: Any, restype: Any, *argtypes: Any) -> Any:
    """pdfium's function `fn` called with plain addresses: no pointer object is made per call."""
    return ctypes.CFUNCTYPE(restype, *argtypes)(ctypes.cast(fn, ctypes.c_void_p).value or 0)


def read_page_text(page: pdfium.PdfPage, h_mm: float, w_mm: float | None = None) -> PageText:
    """Every non-blank character pdfium finds on the page with its box, size and fill colour. One
    pdfium call set per character for its box and its text object; the colour and size, which are
    the text object's, are asked once per object (a character with no object keeps the colour read
    last, as pdfium leaves its outputs unset for it). Given the page's width `w_mm`, only the
    characters whose box's centre lies on the page (those pdfread.runs_seen can count): a tiled
    map's sheet holds the whole map's text, most of it off the paper, and asking each character its
    object and style was most of the read."""
    import pypdfium2.raw as raw

    tp = page.get_textpage()
    try:
        whole = _page_text(tp.raw, tp.count_chars())
        at = _not_blank(whole)
        V, I = ctypes.c_void_p, ctypes.c_int
        charbox, text_object = raw_call(raw.FPDFText_GetCharBox, I, V, I, V, V, V, V), raw_call(raw.FPDFText_GetTextObject, V, V, I)
        handle = ctypes.cast(tp.raw, V).value
        m = len(at)
        lrbt = np.zeros((m, 4), dtype=np.float64)  # pdfium writes each box into its row: yes, l r b t
        a = lrbt.ctypes.data
        got = list(map(charbox, repeat(handle, m), at, *(range(a + 8 * c, a + 32 * m, 32) for c in range(4))))
        x0, x1, y0, y1 = lrbt.T
        pt = MM_PER_PT
        box = np.stack([x0 * pt, h_mm - y1 * pt, x1 * pt, h_mm - y0 * pt], axis=1)
        ok = np.array(got, dtype=bool) & (x1 > x0) & (y1 > y0)
        kept = np.flatnonzero(ok if w_mm is None else ok & _centred_on(box, w_mm, h_mm))
        where = [at[k] for k in kept.tolist()]
        styles = _styles(tp.raw, where, list(map(text_object, repeat(handle, len(where)), where)), w_mm is None)
        if styles is None:  # a character without a colour of its own: it takes the one before it on the whole page
            every = np.flatnonzero(ok)
            allof = [at[k] for k in every.tolist()]
            styles = _styles(tp.raw, allof, list(map(text_object, repeat(handle, len(allof)), allof)), True)
            assert styles is not None
            picked = np.searchsorted(every, kept)
            styles = styles[0][picked], styles[1][picked]
    finally:
        tp.close()
    return PageText([whole[at[i]] for i in kept.tolist()], box[kept], *styles)


def _centred_on(box: np.ndarray, w_mm: float, h_mm: float) -> np.ndarray:
    """Per box, whether its centre lies on the page (edges included): the test by which
    pdfread.runs_seen counts a character on paper, made on the same numbers."""
    cx, cy = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2
    return (cx >= 0) & (cx <= w_mm) & (cy >= 0) & (cy <= h_mm)


def _styles(text: Any, at: list[int], objects: list[int | None], fill_in: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """Font size and fill colour of the characters at `at` (their text objects `objects`), asked
    once per text object; a character whose colour pdfium does not give keeps the one before it
    (`fill_in`), else None: the characters before it may not all be among these."""
    import pypdfium2.raw as raw

    n = len(at)
    obj = np.array([o or 0 for o in objects], dtype=np.uint64)  # 0: no text object, asked one by one
    _, firsts, same = np.unique(obj, return_index=True, return_inverse=True)
    first = np.where(obj == 0, np.arange(n), firsts[same.reshape(-1)])  # the character asked for each
    asked = firsts.tolist() + np.flatnonzero(obj == 0).tolist()
    V, I = ctypes.c_void_p, ctypes.c_int
    fill, font_size = raw_call(raw.FPDFText_GetFillColor, I, V, I, V, V, V, V), raw_call(raw.FPDFText_GetFontSize, ctypes.c_double, V, I)
    handle = ctypes.cast(text, V).value
    rgba = np.zeros((n, 4), dtype=np.uint32)  # pdfium writes each colour asked into its row
    base, size, ok = rgba.ctypes.data, np.zeros(n), np.zeros(n, dtype=bool)
    chars, rows = [at[k] for k in asked], [base + 16 * k for k in asked]
    ok[asked] = list(map(fill, repeat(handle), chars, *([r + 4 * c for r in rows] for c in range(4))))
    rgb, ok = rgba[first, :3].astype(np.int64), ok[first]
    if not (fill_in or ok.all()):
        return None
    size[asked] = list(map(font_size, repeat(handle), chars))
    size = size[first]
    # the colour read last stands for a character without one: (0, 0, 0) before any
    last = np.maximum.accumulate(np.where(ok, np.arange(n), -1)) if n else np.zeros(0, dtype=np.int64)
    return size, np.vstack([rgb, np.zeros((1, 3), dtype=np.int64)])[last]  # -1: the row of zeros


@lru_cache(maxsize=1)
def _blank_below() -> np.ndarray:
    """Per code point up to U+3000 (the highest blank one: tests/test_preflight_pagetext.py checks),
    whether Python counts it blank (`str.isspace`)."""
    return np.array([chr(c).isspace() for c in range(BLANK_MAX + 1)] + [False])


def _not_blank(whole: str | list[str]) -> list[int]:
    """The indices of the characters of `whole` that are not blank (`str.isspace`)."""
    if not isinstance(whole, str):
        return [j for j, ch in enumerate(whole) if not ch.isspace()]
    codes = np.frombuffer(whole.encode("utf-32-le"), dtype="<u4")
    return np.flatnonzero(~_blank_below()[np.minimum(codes, BLANK_MAX + 1)]).tolist()


def _page_text(text: Any, n: int) -> str | list[str]:
    """The page's characters, one per character index: in one call, as UTF-16 (pdfium gives its mark
    of a hyphen at a line's end, U+0002, as U+FFFE there), else one call a character (a character
    beyond U+FFFF takes two UTF-16 units, and the indices would no longer match)."""
    import pypdfium2.raw as raw

    buf = ctypes.create_string_buffer(2 * (n + 1))
    got = raw.FPDFText_GetText(text, 0, n, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)))
    whole = buf.raw[:2 * max(0, got - 1)].decode("utf-16-le", "surrogatepass").replace("\ufffe", "\x02")
    if len(whole) == n and not _SURROGATE.search(whole):
        return whole
    return [chr(raw.FPDFText_GetUnicode(text, j)) for j in range(n)]


# --------------------------------------------------------------------------- runs

def run_spans(t: PageText) -> tuple[np.ndarray, np.ndarray]:
    """Consecutive characters (in the file's order) of one colour and size, on one baseline and
    less than an em apart, as runs: [starts[i], ends[i]) for each. Contrast is judged per run, on
    the paper round it."""
    n = len(t)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    box, size = t.box, t.size
    em = size[1:] * MM_PER_PT
    gap = box[1:, 0] - box[:-1, 2]
    joined = ((t.rgb[1:] == t.rgb[:-1]).all(axis=1) & (np.abs(size[1:] - size[:-1]) < 0.01)
              & (np.abs(box[1:, 3] - box[:-1, 3]) < em) & (-0.2 * em < gap) & (gap < em))
    starts = np.flatnonzero(np.r_[True, ~joined])
    return starts, np.r_[starts[1:], n]


def span_boxes(t: PageText, starts: np.ndarray) -> np.ndarray:
    """The box of each run (starting at `starts`): the smallest holding its characters' boxes."""
    if not len(starts):
        return np.zeros((0, 4), dtype=np.float64)
    return np.stack([np.minimum.reduceat(t.box[:, 0], starts), np.minimum.reduceat(t.box[:, 1], starts),
                     np.maximum.reduceat(t.box[:, 2], starts), np.maximum.reduceat(t.box[:, 3], starts)], axis=1)


@dataclass(frozen=True)
class Run:
    """Characters of one colour and size side by side on one line: a word or a label."""
    chars: tuple[Char, ...]

    @property
    def text(self) -> str:
        return "".join(c.text for c in self.chars)

    @property
    def rgb(self) -> tuple[int, int, int]:
        return self.chars[0].rgb

    @property
    def size_pt(self) -> float:
        return self.chars[0].size_pt

    @cached_property  # read by every check of the run
    def box(self) -> Rect:
        x0, y0, x1, y1 = zip(*(c.box for c in self.chars))
        return min(x0), min(y0), max(x1), max(y1)


def text_runs(chars: Sequence[Char]) -> list[Run]:
    """The runs (`run_spans`) of a list of characters."""
    starts, ends = run_spans(PageText.of(chars))
    return [Run(tuple(chars[a:e])) for a, e in zip(starts.tolist(), ends.tolist())]
