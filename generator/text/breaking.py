"""Where a line may break: the one rule set shared by cards, counters, maps and rulebooks.

`groups(text)` cuts a paragraph (no newlines) into the pieces a line-filler may place: runs of
Latin letters and digits with their punctuation (`10.10`, `(2d6)`, `don't`) stay whole, each CJK
character is its own piece, and pieces that kinsoku (generator/text/kinsoku.py, JLREQ) forbids
separating are glued into one group. Spaces are groups of their own: a break opportunity that is
not drawn at a line's end. A Latin word that does not fit may also break at a hyphen point of its
language (`hyphen_cut`, pyphen's patterns via generator/text/hyphenate.py); Japanese never does. Measuring and filling are the callers' business (wrap.py for text
measured in points, generator/cards/textfit.py for card boxes with inline symbols).

Which of the allowed breaks a Latin paragraph takes can be chosen over the whole paragraph
(`total_fit`, Knuth and Plass's total fit with stretchable word spaces only): the breaks whose
lines need the least widening of their spaces, a hyphen costing a little and two in a row more,
so that justified text has fewer loose lines than filling line by line gives.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, NamedTuple, Sequence

from .hyphenate import LEFT_MIN, RIGHT_MIN, hyphen_points
# MAX_SHRINK and MAX_STRETCH are the justifier's too (rulebook/justify.py takes them from here)
from .knuthplass import MAX_SHRINK, MAX_STRETCH, Paragraph, best_breaks, best_breaks_summed  # noqa: F401
from .kinsoku import CJK_CLASS, INSEPARABLE_PAIRS, NOT_AT_LINE_END, NOT_AT_LINE_START, is_cjk
from .memo import unit_memo
from .typography import NBSP

HYPHEN = "-"

class Group(NamedTuple):
    start: int  # index of the group's first character
    end: int  # index one past its last character
    space: bool  # a run of one whitespace character: a break opportunity, dropped at line ends


def atoms(text: str) -> list[tuple[int, int]]:
    """(start, end) of each atom of a paragraph: one CJK character, one space, or a Latin run."""
    return [m.span() for m in _ATOM.finditer(text)]


# an atom: a space a line may break at (any but the no-break space, `_breaks_at`), a CJK character
# (kinsoku.is_cjk), or a run of neither; `\s` is str.isspace's set
_CJK = re.compile(f"[{CJK_CLASS}]")  # a character is_cjk says is CJK
_ATOM = re.compile(f"([^\\S\u00a0])|[{CJK_CLASS}]|(?:[^\\s{CJK_CLASS}]|\u00a0)+")


def _breaks_at(ch: str) -> bool:
    """A space a line may break at: any but the no-break space (French « », typography.py)."""
    return ch.isspace() and ch != NBSP


def groups(text: str) -> list[Group]:
    """The paragraph's atoms with those kinsoku forbids separating merged (see module doc)."""
    return list(_groups(text))


@unit_memo(most=8192)
def _groups(text: str) -> tuple[Group, ...]:
    # remembered per paragraph: a book sets each paragraph at several widths (its column, the
    # side-by-side book's, the booklet's), and the breaks do not depend on the width
    if _CJK.search(text) is None:
        # without CJK no two atoms but spaces touch (a Latin run goes on to the next space), so
        # none merge: the atoms are the groups
        return tuple([_group((*m.span(), m.lastindex == 1)) for m in _ATOM.finditer(text)])
    merged: list[Group] = []
    start, end, space = -1, -1, True  # the group being made; a space: the next atom may not join it
    for m in _ATOM.finditer(text):
        s, e = m.span()
        if m.lastindex == 1:  # the first alternative: a space
            if start >= 0:
                merged.append(_group((start, end, space)))
            start, end, space = s, e, True
            continue
        left, right = text[s - 1], text[s]
        if not space and (right in NOT_AT_LINE_START or left in NOT_AT_LINE_END
                          or left == right and left in INSEPARABLE_PAIRS):  # kinsoku.may_break_between
            end = e
            continue
        if start >= 0:
            merged.append(_group((start, end, space)))
        start, end, space = s, e, False
    if start >= 0:
        merged.append(_group((start, end, space)))
    return tuple(merged)


def _group(fields: tuple[int, int, bool]) -> Group:
    return tuple.__new__(Group, fields)  # Group(*fields) without NamedTuple's __new__ in Python


def hyphen_cut(word: str, fits: Callable[[int], bool], lang: str | None, after: int = 0) -> int | None:
    """The longest head of `word` to end a line with a hyphen: the offset of the latest hyphen
    point beyond `after` for which `fits(offset)` (the line up to it plus "-" fits), else None.
    Never for text holding CJK, nor without a language."""
    if not lang or any(is_cjk(ch) for ch in word):
        return None
    for i in reversed(hyphen_points(word, lang)):
        if i > after and fits(i):
            return i
    return None


@unit_memo(most=8192)  # per word: a book's paragraphs share most of theirs
def _inside(word: str, lang: str) -> tuple[tuple[int, bool], ...]:
    """Where a line may end inside `word`, in order, and whether a hyphen is drawn there: at its
    hyphen points, and after a compound's own hyphen ("Ring-/bearer"), none added."""
    inside = {i: True for i in hyphen_points(word, lang)}
    inside.update({i + 1: False for i, ch in enumerate(word[:-1]) if ch == "-" and i > 0 and word[i - 1].isalpha()
                   and word[i + 1].isalpha()})
    return tuple(sorted(inside.items()))


def latin_paragraph(text: str, lang: str | None) -> bool:
    """True for a paragraph `total_fit` sets: in a Latin-script language, with no CJK in it."""
    return lang is not None and _latin_language(lang) and _CJK.search(text) is None


@lru_cache(maxsize=None)  # a few languages, asked once a paragraph
def _latin_language(lang: str) -> bool:
    from ..fonts import CJK_LANGUAGES

    return lang.split("-")[0] not in CJK_LANGUAGES


class Line(NamedTuple):
    start: int  # index of the line's first character
    end: int  # one past its last (trailing spaces excluded)
    hyphen: bool  # "-" is drawn after it


# a word of a paragraph without CJK: a run of anything but a space a line may break at (its atoms
# are the groups, `_groups`, and these its groups but the spaces)
_WORD = re.compile("(?:\\S|\u00a0)+")
_SHORT = LEFT_MIN + RIGHT_MIN  # a shorter word has no hyphen point (hyphen_points)


@unit_memo(most=4096)
def _paragraph(text: str, lang: str) -> Paragraph | None:
    # remembered per paragraph, as groups are: the same text is set at several widths
    if _CJK.search(text) is None:
        words = [m.span() for m in _WORD.finditer(text)]
    else:
        words = [(g.start, g.end) for g in _groups(text) if not g.space]
    if not words:
        return None
    count = text.count
    # gaps: the spaces (" ") before the word being added; a word holds none (a space is a group of
    # its own), so every break inside it or at its end counts the same, and so does every node
    # inside it; the node after its end (the next word's start) counts those after it too
    gaps = count(" ", 0, words[0][0])
    ends: list[int] = []
    hyphens: list[bool] = []
    inside: list[bool] = []
    start_at, gaps_at, gaps_end = [words[0][0]], [gaps], list[int]()
    last = len(words) - 1
    for k, (gs, ge) in enumerate(words):
        if ge - gs >= _SHORT or text.find("-", gs, ge) >= 0:  # else no break inside it (_inside)
            for i, hyphen in _inside(text[gs:ge], lang):
                ends.append(gs + i)
                hyphens.append(hyphen)
                inside.append(True)
                start_at.append(gs + i)
                gaps_at.append(gaps)
                gaps_end.append(gaps)
        following = words[k + 1][0] if k < last else ge
        ends.append(ge)
        hyphens.append(False)
        inside.append(False)
        start_at.append(following)
        gaps_end.append(gaps)
        gaps += count(" ", ge, following)
        gaps_at.append(gaps)
    return Paragraph(tuple(ends), tuple(hyphens), tuple(inside), tuple(start_at), tuple(gaps_at), tuple(gaps_end),
                     (False, *inside))


def total_fit(text: str, measure: Callable[[str], float], width: float, lang: str,
              justified: bool = False, span_width: Callable[[int, int, bool], float] | None = None,
              advances: tuple[Sequence[float], float] | None = None) -> list[Line] | None:
    """The breaks of a Latin paragraph (no newline) that minimise the total demerits of its
    lines, each line no wider than `width` (as `measure` gives it, the drawn hyphen included);
    `justified`: a line but the last may be wider by what shrinking its spaces to
    (1 - MAX_SHRINK) gives back (the justifier sets it to the width). None when no set of breaks
    keeps every line within it (a word wider than the line). `span_width(start, end, hyphen)`,
    when given, is `measure(text[start:end] + ("-" if hyphen else ""))` to the bit, only faster.
    `advances`, when given, is (sums, scale): the running sums of the advances of `text + "-"`,
    each sum exact (fonts.advances), and what they are multiplied by: span_width, still faster."""
    para = _paragraph(text, lang)
    if para is None:
        return None
    space = measure(" ")
    shrink = MAX_SHRINK * space if justified else 0.0
    if advances is not None:
        sums, scale = advances
        hyphen_w = sums[-1] - sums[-2]
        # a line's natural width is scale * (ends_at[j - 1] - starts_at[i]): the sums are exact, so
        # adding the hyphen before or after the difference gives the same bits
        starts_at = [sums[s] for s in para.start_at]
        ends_at = [sums[e] + hyphen_w if hy else sums[e] for e, hy in zip(para.ends, para.hyphens)]
        prev = best_breaks_summed(para, starts_at, ends_at, scale, width, space, shrink)
    else:
        if span_width is None:
            span_width = lambda s, e, hy: measure(text[s:e] + (HYPHEN if hy else ""))  # noqa: E731
        prev = best_breaks(para, span_width, width, space, shrink)
    if prev is None:
        return None
    lines: list[Line] = []
    j = len(para.ends)
    while j > 0:
        i = prev[j]
        lines.append(Line(para.start_at[i], para.ends[j - 1], para.hyphens[j - 1]))
        j = i
    return lines[::-1]
