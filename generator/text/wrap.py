"""Line breaking for mixed Japanese and Latin text, measured with reportlab's font metrics.

`wrap(text, font, size_pt, width_pt)` is what the rulebook and the maps call (cards fill their
boxes in generator/cards/textfit.py from the same groups). The text is cut into groups by
breaking.py (where a line may break, kinsoku applied), and groups fill lines greedily; a
paragraph in a Latin-script language (`lang` given, no CJK in it) takes the breaks breaking.py's
total fit chooses over the whole paragraph instead, so its justified lines are evenly set. A group
is moved whole to the next line (oidashi) rather than letting a closing mark hang into the
margin, so no line is wider than `width_pt` unless one group alone is (then it is cut by
characters, the only case where a rule can give way).
"""
from __future__ import annotations

from dataclasses import dataclass
import re
from functools import lru_cache
from typing import Sequence

from .breaking import HYPHEN, _groups, hyphen_cut, latin_paragraph, total_fit
from .kinsoku import NOT_AT_LINE_END
from .memo import unit_memo
from .typography import NBSP


@dataclass(frozen=True)
class Span:
    start: int  # index into the text of the first character of the line
    end: int  # index one past the last character drawn (trailing spaces excluded)
    hyphen: bool = False  # the line ends inside a word: draw "-" after it


def wrap_spans(text: str, font: str, size_pt: float, width_pt: float, *, phrases: bool = False,
               lang: str | None = None, justified: bool = False) -> list[Span]:
    """Line spans of `text` (indexes into it). Newlines are hard breaks.

    `phrases`: break only at spaces when every space-separated phrase fits on a line (for titles:
    "ロード・オブ・ザ・リング / 拡張「サウロン」" rather than "…拡張「サ / ウロン」"); otherwise as usual.
    `lang`: a Latin word that does not fit may break at a hyphen point of that language.
    `justified`: the lines will be justified, so a Latin line's spaces may shrink a little
    (breaking.MAX_SHRINK) to take one more syllable."""
    return list(_wrap_spans(text, font, size_pt, width_pt, phrases, lang, justified))


@lru_cache(maxsize=32768)
def _wrap_spans(text: str, font: str, size_pt: float, width_pt: float, phrases: bool,
                lang: str | None = None, justified: bool = False) -> tuple[Span, ...]:
    # cached: a typesetter asks for the same paragraph at the same width many times (wrap, split,
    # draw, and once more in the second pass that fills in the contents' page numbers)
    measure = _measurer(font, size_pt)
    spans: list[Span] = []
    offset = 0
    for para in text.split("\n"):
        lines = _wrap_paragraph(para, measure, width_pt, phrases, lang, justified, (font, size_pt))
        spans += [Span(s.start + offset, s.end + offset, s.hyphen) for s in lines] if offset else lines
        offset += len(para) + 1
    return tuple(spans)


def balanced_width(text: str, font: str, size_pt: float, width_pt: float, *, phrases: bool = False) -> float:
    """The narrowest width (within 0.5 pt) at which `text` takes no more lines than at `width_pt`.

    Wrapping a heading or a title at this width gives lines of even length instead of a full line
    and a runt ("サイコロを振る代わりにサウロンが活動す" / "る"); the height stays the same."""
    target = len(_wrap_spans(text, font, size_pt, width_pt, phrases))
    if target <= 1 or "\n" in text:
        return width_pt
    lo, hi = width_pt / target, width_pt  # lo: too narrow (or exactly enough), hi: wide enough
    while hi - lo > 0.5:
        mid = (lo + hi) / 2
        if len(_wrap_spans(text, font, size_pt, mid, phrases)) <= target:
            hi = mid
        else:
            lo = mid
    return hi


def wrap(text: str, font: str, size_pt: float, width_pt: float, lang: str | None = None) -> list[str]:
    """The lines of `text` as drawn in `font` at `size_pt` within `width_pt`, kinsoku applied
    (and hyphenation in `lang`, the hyphen included in the line)."""
    return [text[s.start:s.end] + (HYPHEN if s.hyphen else "") for s in wrap_spans(text, font, size_pt, width_pt, lang=lang)]


def _wrap_paragraph(text: str, measure, width: float, phrases: bool = False, lang: str | None = None,
                    justified: bool = False, face: tuple[str, float] | None = None) -> list[Span]:
    if not text.strip():
        return [Span(0, 0)]
    summed = _summed(text, *face) if face else None
    exact = _span_width(*summed) if summed else None
    span_width = exact or (lambda s, e, hy: measure(text[s:e] + HYPHEN if hy else text[s:e]))
    if phrases:
        words = [(m.start(), m.end(), False) for m in re.finditer(r"\S+", text)]
        if len(words) > 1 and all(measure(text[a:b]) <= width for a, b, _ in words):
            return _fill(text, words, span_width, width, lang)
    first, last = _trimmed(text)
    if span_width(first, last, False) <= width:
        # the whole paragraph on one line: what filling and total fit both give (widths only grow
        # with the text, and more lines only add demerits), without either's work
        return [Span(first, last)]
    if lang and latin_paragraph(text, lang):
        fitted = total_fit(text, measure, width, lang, justified, exact, summed)
        if fitted is not None:
            return [Span(*line) for line in fitted]
    return _fill(text, _groups(text), span_width, width, lang, summed)


def _trimmed(text: str) -> tuple[int, int]:
    """Where the paragraph's first word starts and its last ends (spaces a line may break at are
    dropped at a line's ends; a no-break space belongs to its word)."""
    first, last = 0, len(text)
    while text[first].isspace() and text[first] != NBSP:
        first += 1
    while text[last - 1].isspace() and text[last - 1] != NBSP:
        last -= 1
    return first, last


def _fill(text: str, groups, width_of, width: float, lang: str | None = None,
          summed: tuple[Sequence[float], float] | None = None) -> list[Span]:
    """Greedy filling: as many groups on a line as fit; a word that does not fit is hyphenated
    when its language allows, so that the line is filled. `width_of(start, end, hyphen)` measures
    `text[start:end]` (with "-" after it); `summed`, when given, is `_summed`'s, from which
    width_of's `_span_width` measures: a line without a hyphen is measured from it here, not by a
    call (a Japanese paragraph is filled a character at a time)."""
    lines: list[Span] = []
    start: int | None = None  # first character of the current line
    end = 0  # end of the last group on the current line (trailing spaces are dropped)
    sums, scale = summed if summed is not None else ((), 0.0)
    for gs, ge, space in groups:
        if space:
            continue  # a space is drawn only between two groups on the same line
        if start is None:
            start, end = gs, ge
        elif (scale * (sums[ge] - sums[start]) if sums else width_of(start, ge, False)) <= width:
            end = ge
            continue  # the line, just measured, fits: neither check below can apply
        else:
            line_start = start
            cut = hyphen_cut(text[gs:ge], lambda i: width_of(line_start, gs + i, True) <= width, lang)
            if cut is not None:
                lines.append(Span(start, gs + cut, True))
                start, end = gs + cut, ge
            else:
                lines.append(Span(start, end))
                start, end = gs, ge
        while width_of(start, end, False) > width:  # a word wider than the line: hyphenate it if it may
            line_start = start
            cut = hyphen_cut(text[gs:ge], lambda i: width_of(line_start, gs + i, True) <= width, lang,
                             after=start - gs)
            if cut is None:
                break
            lines.append(Span(start, gs + cut, True))
            start = gs + cut
        if width_of(start, end, False) > width:  # a single group wider than the line: cut by characters
            *full, (start, end) = _hard_cut(start, end, width_of, width)
            lines += [Span(s, e) for s, e in full]
    if start is not None:
        lines.append(Span(start, end))
    return lines


def _hard_cut(s: int, e: int, width_of, width: float) -> list[tuple[int, int]]:
    pieces, cur = [], s
    for i in range(s + 1, e + 1):
        if width_of(cur, i, False) > width and i - 1 > cur:
            pieces.append((cur, i - 1))
            cur = i - 1
    pieces.append((cur, e))
    return pieces


@lru_cache(maxsize=64)
def _measurer(font: str, size: float):
    from .. import fonts

    @lru_cache(maxsize=65536)
    def measure(s: str) -> float:
        # as drawn: a character the font lacks is set (and measured) in the project font
        return fonts.string_width(s, font, size)
    return measure


def _summed(text: str, font: str, size: float) -> tuple[Sequence[float], float] | None:
    """The running sums of the advances of `text + "-"` in `font` (fonts.advances: each exact)
    and the scale that makes them points at `size`; None where they are not exact."""
    sums = _sums(text, font)
    return None if sums is None else (sums, 0.001 * size)


@unit_memo(most=4096)  # per text and face: the book's size, the booklet's, and the next units' books
def _sums(text: str, font: str) -> Sequence[float] | None:
    from .. import fonts

    return fonts.advances(text + HYPHEN, font)


def advance_sums(text: str, font: str) -> Sequence[float] | None:
    """`fonts.advances(text + "-", font)` as the line breaker keeps it (`_sums`, across units): a
    paragraph is drawn from the sums it was broken with, not from a second copy made again
    (fonts.advances' own cache is emptied after each unit, and never filled by `_sums`' hits)."""
    return _sums(text, font)


def _span_width(sums: Sequence[float], scale: float):
    """`measure(text[start:end] + ("-" if hyphen else ""))` to the bit, from `_summed`'s sums."""
    hyphen_w = sums[-1] - sums[-2]

    def width(start: int, end: int, hyphen: bool) -> float:
        return scale * (sums[end] - sums[start] + hyphen_w) if hyphen else scale * (sums[end] - sums[start])
    return width


ELLIPSIS = "…"


def fit_line(text: str, font: str, size_pt: float, width_pt: float) -> str:
    """`text` if it fits on one line of `width_pt`, else its longest prefix that fits with "…" after it
    (trailing spaces and an opening bracket left dangling before the "…" are dropped)."""
    measure = _measurer(font, size_pt)
    if measure(text) <= width_pt:
        return text
    room = width_pt - measure(ELLIPSIS)
    lo, hi = 0, len(text)  # longest prefix within room: binary search, widths grow with length
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid]) <= room:
            lo = mid
        else:
            hi = mid - 1
    head = text[:lo].rstrip()
    while head and head[-1] in NOT_AT_LINE_END:
        head = head[:-1].rstrip()
    return head + ELLIPSIS if room >= 0 else ""
