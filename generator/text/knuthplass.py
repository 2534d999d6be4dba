"""Knuth and Plass's walk over a paragraph's breaks (total fit): the demerits of a line and the
least total over the paragraph, for generator/text/breaking.py's `total_fit`, which finds the
breaks (`Paragraph`) and lays out the lines. Two walks make the same choices: `best_breaks`
measures a line by a call, `best_breaks_summed` from running sums of the characters' advances
(the rulebooks' text, whose sums are exact: no call per line, the build's hot loop).
"""
from __future__ import annotations

import math
import sys
from typing import Callable, NamedTuple

# A justified line's word space may grow by at most this many of its own width (to 2x), and
# shrink by at most this share of it (to 0.8x, as publishers set tight lines); a line that
# would need more is set ragged. The justifier (generator/rulebook/justify.py) and the total-fit
# breaker share them.
MAX_STRETCH = 1.0
MAX_SHRINK = 0.2

# Total fit: Knuth and Plass's demerits (line penalty, badness 100 r^3 with r the stretch a line
# needs over what its spaces may give, penalties for a hyphen, for two hyphens in a row and for a
# last line that is only the tail of a broken word).
LINE_PENALTY = 10
HYPHEN_PENALTY = 10  # low: the columns are narrow, and a hyphen reads better than a loose line
DOUBLE_HYPHEN = 3000
FINAL_HYPHEN = 1500  # after TeX's \finalhyphendemerits, for a word's tail alone on a paragraph's last line
_RAGGED = 10_000  # the badness cap: a line stretched past MAX_STRETCH is set ragged


class Paragraph(NamedTuple):
    """What total fit needs of a paragraph whatever the width. Break j (1 to the last, the
    paragraph's end) ends a line at ends[j - 1], with "-" drawn after it when hyphens[j - 1],
    inside a word when inside[j - 1]; node i (0: the first word, j: after break j) starts one at
    start_at[i]; gaps_at[i] and gaps_end[j - 1] count the spaces (" ") before those, so a line's
    spaces are their difference; after_hyphen[i]: the line before node i ended inside a word."""
    ends: tuple[int, ...]
    hyphens: tuple[bool, ...]
    inside: tuple[bool, ...]
    start_at: tuple[int, ...]
    gaps_at: tuple[int, ...]
    gaps_end: tuple[int, ...]
    after_hyphen: tuple[bool, ...]


# A line into a break from so near it that its spaces would have to stretch to more than this many
# times what they may (a hair over the cap's (10000 / 100)^(1/3), so that rounding cannot matter)
# has the capped badness: it costs (LINE_PENALTY + _RAGGED)^2 and more, whichever node it starts
# from. Two thirds of the lines total fit looks at in a book are such lines (908 of 1338 thousand).
_SURELY_RAGGED = 1.001 * (_RAGGED / 100) ** (1 / 3)
_RAGGED_DEMERITS = (LINE_PENALTY + _RAGGED) ** 2


def best_breaks(para: Paragraph, span_width: Callable[[int, int, bool], float], width: float, space: float,
                 shrink: float) -> list[int] | None:
    """Knuth and Plass over the paragraph's breaks: for each node, the node before it on the way
    there of least total demerits, or None when no way reaches the paragraph's end; of equal
    totals the first found (the latest start) stays. A line is measured by a call; its demerits
    are `_badness` and `_demerits` (best_breaks_summed inlines the same), and surely ragged lines
    are not measured (`_ragged_from`)."""
    ends, hyphens, inside, start_at, gaps_at, gaps_ends, after_hyphen = para
    inf, last = float("inf"), len(ends)
    cost, prev = [0.0] + [inf] * last, [-1] * (last + 1)
    unit = space * MAX_STRETCH * _SURELY_RAGGED  # a line's room over this for each of its spaces: surely ragged
    zone = 0  # the first node of the surely ragged lines into the last break
    for j in range(1, last + 1):
        end, hyphen, hyphenated, gaps_end, final = ends[j - 1], hyphens[j - 1], inside[j - 1], gaps_ends[j - 1], j == last
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
            if final and natural > width + 1e-6:
                continue  # the last line is set at its natural spacing
            # (the last line's badness is 0; its demerits count the broken word's tail alone)
            total += _demerits(0.0 if final else _badness(natural, gaps, width, space, shrink),
                               hyphenated, after, not gaps, final)
            if total < best:
                best, best_i = total, i
        # a surely ragged line costs its node's cost plus _RAGGED_DEMERITS or more (sums round
        # monotonically), and wins a tie (it comes first): none can win when the least is over best
        if top < j - 1 and min(cost[top + 1:j]) + _RAGGED_DEMERITS <= best:
            best, best_i = _ragged_best(top + 1, j, end, hyphenated, cost, start_at, gaps_at, gaps_end, after_hyphen,
                                        best, best_i)
        cost[j], prev[j] = best, best_i
    return prev if cost[last] < inf else None


def _ragged_from(zone: int, j: int, end: int, hyphen: bool, start_at: tuple[int, ...], gaps_at: tuple[int, ...],
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
                 gaps_at: tuple[int, ...], gaps_end: int, after_hyphen: tuple[bool, ...], best: float,
                 best_i: int) -> tuple[float, int]:
    """The least total into break j and its node, given the least of the lines best_breaks
    measured (`best`, from `best_i`) and the surely ragged lines from nodes `first` to j - 1,
    whose demerits are those of the capped badness. Of equal totals the latest node stays, as
    in best_breaks, which looks at the latest first: these nodes are all later than `best_i`."""
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


def best_breaks_summed(para: Paragraph, starts_at: list[float], ends_at: list[float], scale: float, width: float,
                        space: float, shrink: float) -> list[int] | None:
    """best_breaks with a line's natural width scale * (ends_at[j - 1] - starts_at[i]) (the
    running sums at its ends, total_fit), worked out in the loop rather than by a call: the
    rulebook's hot loop (1.3 million lines over the example games' books), the same choices.
    Bounded by a set of breaks found first (`_bound`): a line or a node costing more than all
    of its lines is not weighed, nor are the lines its room makes surely costlier."""
    ends, _, inside, start_at, gaps_at, gaps_ends, after_hyphen = para
    inf, last = float("inf"), len(ends)
    cost, prev = [0.0] + [inf] * last, [-1] * (last + 1)
    line_penalty, hyphen_penalty, double, final_hyphen = LINE_PENALTY, HYPHEN_PENALTY ** 2, DOUBLE_HYPHEN, FINAL_HYPHEN
    ragged, stretch = _RAGGED, MAX_STRETCH
    bound, unit = _bound(para, starts_at, ends_at, scale, width, space, shrink)
    capped = bound >= _RAGGED_DEMERITS  # a line at the badness cap may still be on the way
    zone = 0
    for j in range(1, last + 1):
        end, at, hyphenated, gaps_end, final = ends[j - 1], ends_at[j - 1], inside[j - 1], gaps_ends[j - 1], j == last
        if not final and space > 0:
            zone = _ragged_from_summed(zone, j, at, starts_at, gaps_at, gaps_end, scale, width, unit)
        top = zone - 1 if not final and space > 0 else j - 1
        best, best_i = inf, -1
        # (no node up to j - 1 starts at or after the break's end, as best_breaks allows: nodes
        # start in order, at a break inside a word or at the next word, which break j ends after)
        for i in range(top, -1, -1):
            natural = scale * (at - starts_at[i])
            gaps = gaps_end - gaps_at[i]
            squeeze = gaps * shrink
            if natural > width + squeeze + 1e-6:
                break
            total = cost[i]
            if total > bound:  # no way on from here is cheaper than the bound (nor from no way here: inf)
                continue
            after = after_hyphen[i]
            if hyphenated and after and not gaps:
                continue
            if final:
                if natural > width + 1e-6:
                    continue
                badness = 0.0
            elif natural > width and squeeze > 0:
                badness = 100 * ((natural - width) / squeeze) ** 3
            else:
                badness = min(ragged, 100 * ((width - natural) / ((gaps or 1) * space * stretch)) ** 3)
            demerits = (line_penalty + badness) ** 2
            if hyphenated:
                demerits += hyphen_penalty
                if after:
                    demerits += double
            if final and after and not gaps:
                demerits += final_hyphen
            total += demerits
            if total < best:
                best, best_i = total, i
        # (min(cost) + _RAGGED_DEMERITS is at least _RAGGED_DEMERITS: not over a best under it)
        if capped and top < j - 1 and best >= _RAGGED_DEMERITS and min(cost[top + 1:j]) + _RAGGED_DEMERITS <= best:
            best, best_i = _ragged_best(top + 1, j, end, hyphenated, cost, start_at, gaps_at, gaps_end, after_hyphen,
                                        best, best_i)
        cost[j], prev[j] = best, best_i
    return prev if cost[last] < inf else None


def _bound(para: Paragraph, starts_at: list[float], ends_at: list[float], scale: float, width: float,
           space: float, shrink: float) -> tuple[float, float]:
    """(bound, unit) for best_breaks_summed: the total demerits of the breaks greedy filling
    takes (each line ends at the latest break it may), summed as the walk sums them, so that no
    total the walk finds into a break of its best way exceeds it (float addition is monotonic);
    and the room per space (as _ragged_from_summed counts it) from which a line's demerits alone
    exceed the bound. The float max and the surely ragged lines' unit when filling finds no
    way, or a way through a line at the badness cap (the walk then weighs such lines)."""
    ends, _, inside, _, gaps_at, gaps_ends, after_hyphen = para
    last, i, total = len(ends), 0, 0.0
    surely = space * MAX_STRETCH * _SURELY_RAGGED
    if space <= 0:
        return sys.float_info.max, surely  # no stretch: the walk weighs every line
    while True:
        if scale * (ends_at[last - 1] - starts_at[i]) <= width + 1e-6 and not (
                inside[last - 1] and after_hyphen[i] and gaps_ends[last - 1] == gaps_at[i]):
            total += _demerits(0.0, inside[last - 1], after_hyphen[i], gaps_ends[last - 1] == gaps_at[i], True)
            break
        j, found = i + 1, 0
        while j < last:
            natural, gaps = scale * (ends_at[j - 1] - starts_at[i]), gaps_ends[j - 1] - gaps_at[i]
            if natural > width + gaps * shrink + 1e-6:
                break
            if not (inside[j - 1] and after_hyphen[i] and not gaps):
                found = j
            j += 1
        if not found:
            return sys.float_info.max, surely
        natural, gaps = scale * (ends_at[found - 1] - starts_at[i]), gaps_ends[found - 1] - gaps_at[i]
        total += _demerits(_badness(natural, gaps, width, space, shrink), inside[found - 1], after_hyphen[i], False)
        i = found
    if total >= _RAGGED_DEMERITS:
        return sys.float_info.max, surely
    # a line whose room is r spaces' stretch has badness 100 r^3 (or the cap): over the bound's
    # (sqrt(bound) - LINE_PENALTY) from r over this (a thousandth more, against rounding)
    over = (math.sqrt(total) - LINE_PENALTY) / 100
    if over <= 0:
        return total, surely  # every line costs the bound or more: no room tells more
    return total, space * MAX_STRETCH * 1.001 * over ** (1 / 3)


def _badness(natural: float, gaps: int, width: float, space: float, shrink: float) -> float:
    """A line's badness (not the last line's: 0), as best_breaks weighs it and best_breaks_summed
    works it out inline."""
    squeeze = gaps * shrink
    if natural > width and squeeze > 0:
        return 100 * ((natural - width) / squeeze) ** 3
    return min(_RAGGED, 100 * ((width - natural) / ((gaps or 1) * space * MAX_STRETCH)) ** 3)


def _demerits(badness: float, hyphenated: bool, after: bool, no_gaps: bool, final: bool = False) -> float:
    """A line's demerits, as best_breaks weighs them and best_breaks_summed adds them up inline."""
    demerits = (LINE_PENALTY + badness) ** 2
    if hyphenated:
        demerits += HYPHEN_PENALTY ** 2
        if after:
            demerits += DOUBLE_HYPHEN
    if final and after and no_gaps:
        demerits += FINAL_HYPHEN
    return demerits


def _ragged_from_summed(zone: int, j: int, at: float, starts_at: list[float], gaps_at: tuple[int, ...],
                        gaps_end: int, scale: float, width: float, unit: float) -> int:
    """_ragged_from with the line's width from the running sums (see best_breaks_summed); a
    line's spaces are never fewer than none, so `or 1` is max(spaces, 1) without the call."""
    if width - scale * (at - starts_at[zone]) >= ((gaps_end - gaps_at[zone]) or 1) * unit:
        while zone > 0 and width - scale * (at - starts_at[zone - 1]) >= ((gaps_end - gaps_at[zone - 1]) or 1) * unit:
            zone -= 1
        return zone
    zone += 1
    while zone < j and width - scale * (at - starts_at[zone]) < ((gaps_end - gaps_at[zone]) or 1) * unit:
        zone += 1
    return zone
