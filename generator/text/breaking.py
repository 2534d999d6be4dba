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
from itertools import accumulate
from typing import Callable, NamedTuple

from .hyphenate import hyphen_points
from .kinsoku import CJK_CLASS, is_cjk, may_break_between
from .typography import NBSP

HYPHEN = "-"
# A justified line's word space may grow by at most this many of its own width (to 2x), and
# shrink by at most this share of it (to 0.8x, as publishers set tight lines); a line that
# would need more is set ragged. The justifier (generator/rulebook/justify.py) and the total-fit
# breaker share them.
MAX_STRETCH = 1.0
MAX_SHRINK = 0.2


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


@lru_cache(maxsize=8192)
def _groups(text: str) -> tuple[Group, ...]:
    # remembered per paragraph: a book sets each paragraph at several widths (its column, the
    # side-by-side book's, the booklet's), and the breaks do not depend on the width
    merged: list[list] = []  # [start, end, space], made Groups at the end
    glue = False  # the last group is not a space: the next atom may join it
    for m in _ATOM.finditer(text):
        s, e = m.span()
        space = m.lastindex == 1  # the first alternative: a space
        if glue and not space and not may_break_between(text[s - 1], text[s]):
            merged[-1][1] = e
        else:
            merged.append([s, e, space])
        glue = not space
    return tuple(Group(s, e, space) for s, e, space in merged)


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


# Total fit: Knuth and Plass's demerits (line penalty, badness 100 r^3 with r the stretch a line
# needs over what its spaces may give, penalties for a hyphen, for two hyphens in a row and for a
# last line that is only the tail of a broken word).
LINE_PENALTY = 10
HYPHEN_PENALTY = 10  # low: the columns are narrow, and a hyphen reads better than a loose line
DOUBLE_HYPHEN = 3000
FINAL_HYPHEN = 1500  # after TeX's \finalhyphendemerits, for a word's tail alone on a paragraph's last line
_RAGGED = 10_000  # the badness cap: a line stretched past MAX_STRETCH is set ragged


class Break(NamedTuple):
    end: int  # the line ends here (exclusive)
    resume: int  # the next line starts here
    hyphen: bool  # "-" is drawn after the line (a break at a hyphen point)
    hyphenated: bool  # the line ends inside a word (at a hyphen point or after its own "-")


def _breaks(text: str, lang: str) -> list[Break]:
    """Every allowed break of a Latin paragraph, in order, the paragraph's end last."""
    words = [g for g in groups(text) if not g.space]
    out: list[Break] = []
    for k, (gs, ge, _) in enumerate(words):
        out += [Break(gs + i, gs + i, hyphen, True) for i, hyphen in _inside(text[gs:ge], lang)]
        out.append(Break(ge, words[k + 1].start if k + 1 < len(words) else ge, False, False))
    return out


@lru_cache(maxsize=8192)  # per word: a book's paragraphs share most of theirs
def _inside(word: str, lang: str) -> tuple[tuple[int, bool], ...]:
    """Where a line may end inside `word`, in order, and whether a hyphen is drawn there: at its
    hyphen points, and after a compound's own hyphen ("Ring-/bearer"), none added."""
    inside = {i: True for i in hyphen_points(word, lang)}
    inside.update({i + 1: False for i, ch in enumerate(word[:-1]) if ch == "-" and i > 0 and word[i - 1].isalpha()
                   and word[i + 1].isalpha()})
    return tuple(sorted(inside.items()))


def latin_paragraph(text: str, lang: str | None) -> bool:
    """True for a paragraph `total_fit` sets: in a Latin-script language, with no CJK in it."""
    from ..fonts import CJK_LANGUAGES

    return lang is not None and lang.split("-")[0] not in CJK_LANGUAGES and _CJK.search(text) is None


class Line(NamedTuple):
    start: int  # index of the line's first character
    end: int  # one past its last (trailing spaces excluded)
    hyphen: bool  # "-" is drawn after it


class _Paragraph(NamedTuple):
    """What total fit needs of a paragraph whatever the width: its breaks, where each line would
    start (node 0: the first word; node j: after break j), the spaces before each index, and
    whether the line before node i ended inside a word."""
    breaks: tuple[Break, ...]
    start_at: tuple[int, ...]
    gaps_before: tuple[int, ...]
    after_hyphen: tuple[bool, ...]


@lru_cache(maxsize=4096)
def _paragraph(text: str, lang: str) -> _Paragraph | None:
    # remembered per paragraph, as groups are: the same text is set at several widths
    breaks = tuple(_breaks(text, lang))
    if not breaks:
        return None
    first = next(g.start for g in _groups(text) if not g.space)
    return _Paragraph(breaks, (first,) + tuple(b.resume for b in breaks),
                      tuple(accumulate((ch == " " for ch in text), initial=0)),
                      (False,) + tuple(b.hyphenated for b in breaks))


def total_fit(text: str, measure: Callable[[str], float], width: float, lang: str,
              justified: bool = False, span_width: Callable[[int, int, bool], float] | None = None) -> list[Line] | None:
    """The breaks of a Latin paragraph (no newline) that minimise the total demerits of its
    lines, each line no wider than `width` (as `measure` gives it, the drawn hyphen included);
    `justified`: a line but the last may be wider by what shrinking its spaces to
    (1 - MAX_SHRINK) gives back (the justifier sets it to the width). None when no set of breaks
    keeps every line within it (a word wider than the line). `span_width(start, end, hyphen)`,
    when given, is `measure(text[start:end] + ("-" if hyphen else ""))` to the bit, only faster."""
    para = _paragraph(text, lang)
    if para is None:
        return None
    if span_width is None:
        span_width = lambda s, e, hy: measure(text[s:e] + (HYPHEN if hy else ""))  # noqa: E731
    space = measure(" ")
    prev = _best_breaks(para, span_width, width, space, MAX_SHRINK * space if justified else 0.0)
    if prev is None:
        return None
    lines: list[Line] = []
    j = len(para.breaks)
    while j > 0:
        i = prev[j]
        lines.append(Line(para.start_at[i], para.breaks[j - 1].end, para.breaks[j - 1].hyphen))
        j = i
    return lines[::-1]


# A line into a break from so near it that its spaces would have to stretch to more than this many
# times what they may (a hair over the cap's (10000 / 100)^(1/3), so that rounding cannot matter)
# has the capped badness: it costs (LINE_PENALTY + _RAGGED)^2 and more, whichever node it starts
# from. Two thirds of the lines total fit looks at in a book are such lines (908 of 1338 thousand).
_SURELY_RAGGED = 1.001 * (_RAGGED / 100) ** (1 / 3)
_RAGGED_DEMERITS = (LINE_PENALTY + _RAGGED) ** 2


def _best_breaks(para: _Paragraph, span_width: Callable[[int, int, bool], float], width: float, space: float,
                 shrink: float) -> list[int] | None:
    """Knuth and Plass over the paragraph's breaks: for each node, the node before it on the way
    there of least total demerits, or None when no way reaches the paragraph's end; of equal
    totals the first found (the latest start) stays. The rulebook's hot loop: a line's demerits
    are worked out inside it, and surely ragged lines are not measured (`_ragged_from`)."""
    breaks, start_at, gaps_before, after_hyphen = para
    inf, last = float("inf"), len(breaks)
    cost, prev = [0.0] + [inf] * last, [-1] * (last + 1)
    gaps_at = [gaps_before[s] for s in start_at]
    line_penalty, hyphen_penalty, double, final_hyphen = LINE_PENALTY, HYPHEN_PENALTY ** 2, DOUBLE_HYPHEN, FINAL_HYPHEN
    ragged, stretch = _RAGGED, MAX_STRETCH
    unit = space * stretch * _SURELY_RAGGED  # a line's room over this for each of its spaces: surely ragged
    zone = 0  # the first node of the surely ragged lines into the last break
    for j in range(1, last + 1):
        end, _, hyphen, hyphenated = breaks[j - 1]
        final, gaps_end = j == last, gaps_before[end]
        if not final and space > 0:  # the last line is never ragged; a space of 0 has no stretch
            zone = _ragged_from(zone, j, end, hyphen, start_at, gaps_at, gaps_end, span_width, width, unit)
        top = zone - 1 if not final and space > 0 else j - 1  # the latest node a line is measured from
        best, best_i = inf, -1
        for i in range(top, -1, -1):
            s = start_at[i]
            if s >= end:
                continue
            natural = span_width(s, end, hyphen)
            gaps = gaps_end - gaps_at[i]
            if natural > width + gaps * shrink + 1e-6:
                break  # an earlier start only makes the line longer
            total = cost[i]
            if total == inf:
                continue
            after = after_hyphen[i]
            if hyphenated and after and not gaps:
                continue  # a line of one syllable: a word broken twice over
            if final:
                if natural > width + 1e-6:
                    continue  # the last line is set at its natural spacing
                badness = 0.0
            elif natural > width and gaps * shrink > 0:  # within the tolerance with nothing to squeeze: it fits
                badness = 100 * ((natural - width) / (gaps * shrink)) ** 3
            else:
                badness = min(ragged, 100 * ((width - natural) / ((gaps or 1) * space * stretch)) ** 3)
            demerits = (line_penalty + badness) ** 2
            if hyphenated:
                demerits += hyphen_penalty
                if after:
                    demerits += double
            if final and after and not gaps:
                demerits += final_hyphen  # the last line would be the broken word's tail alone
            total += demerits
            if total < best:
                best, best_i = total, i
        # a surely ragged line costs its node's cost plus _RAGGED_DEMERITS or more (sums round
        # monotonically), and wins a tie (it comes first): none can win when the least is over best
        if top < j - 1 and min(cost[top + 1:j]) + _RAGGED_DEMERITS <= best:
            best, best_i = _ragged_best(top + 1, j, end, hyphenated, cost, start_at, gaps_at, gaps_end, after_hyphen,
                                        best, best_i)
        cost[j], prev[j] = best, best_i
    return prev if cost[last] < inf else None


def _ragged_from(zone: int, j: int, end: int, hyphen: bool, start_at: tuple[int, ...], gaps_at: list[int],
                 gaps_end: int, span_width: Callable[[int, int, bool], float], width: float, unit: float) -> int:
    """The first node whose line into break j (ending at `end`) is surely ragged: its room, width
    less the line, is at least `unit` for each of its spaces (or one); j when there is none. A
    line from an earlier node is longer with as many spaces or more, so the surely ragged ones
    are those from that node to j - 1. Walked to from `zone`, the last break's (< j: it moves little)."""
    if width - span_width(start_at[zone], end, hyphen) >= max(gaps_end - gaps_at[zone], 1) * unit:
        while zone > 0 and width - span_width(start_at[zone - 1], end, hyphen) >= max(gaps_end - gaps_at[zone - 1], 1) * unit:
            zone -= 1
        return zone
    zone += 1
    while zone < j and width - span_width(start_at[zone], end, hyphen) < max(gaps_end - gaps_at[zone], 1) * unit:
        zone += 1
    return zone


def _ragged_best(first: int, j: int, end: int, hyphenated: bool, cost: list[float], start_at: tuple[int, ...],
                 gaps_at: list[int], gaps_end: int, after_hyphen: tuple[bool, ...], best: float,
                 best_i: int) -> tuple[float, int]:
    """The least total into break j and its node, given the least of the lines _best_breaks
    measured (`best`, from `best_i`) and the surely ragged lines from nodes `first` to j - 1,
    whose demerits are those of the capped badness. Of equal totals the latest node stays, as
    in _best_breaks, which looks at the latest first: these nodes are all later than `best_i`."""
    for i in range(first, j):
        total = cost[i]
        if start_at[i] >= end or total == float("inf"):
            continue
        after = after_hyphen[i]
        if hyphenated and after and gaps_at[i] == gaps_end:
            continue  # a line of one syllable: a word broken twice over
        demerits = _RAGGED_DEMERITS
        if hyphenated:
            demerits += HYPHEN_PENALTY ** 2
            if after:
                demerits += DOUBLE_HYPHEN
        total += demerits
        if total <= best:
            best, best_i = total, i
    return best, best_i
