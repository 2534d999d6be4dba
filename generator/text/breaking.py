"""Where a line may break: the one rule set shared by cards, counters, maps and rulebooks.

`groups(text)` cuts a paragraph (no newlines) into the pieces a line-filler may place: runs of
Latin letters and digits with their punctuation (`10.10`, `(2d6)`, `don't`) stay whole, each CJK
character is its own piece, and pieces that kinsoku (generator/text/kinsoku.py, JLREQ) forbids
separating are glued into one group. Spaces are groups of their own: a break opportunity that is
not drawn at a line's end. A Latin word that does not fit may also break at a hyphen point of its
language (`hyphen_cut`, pyphen's patterns via generator/text/hyphenate.py); Japanese never does. Measuring and filling are the callers' business (wrap.py for text
measured in points, generator/cards/textfit.py for card boxes with inline symbols).
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from .hyphenate import hyphen_points
from .kinsoku import is_cjk, may_break_between

HYPHEN = "-"


class Group(NamedTuple):
    start: int  # index of the group's first character
    end: int  # index one past its last character
    space: bool  # a run of one whitespace character: a break opportunity, dropped at line ends


def atoms(text: str) -> list[tuple[int, int]]:
    """(start, end) of each atom of a paragraph: one CJK character, one space, or a Latin run."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or is_cjk(ch):
            out.append((i, i + 1))
            i += 1
            continue
        j = i + 1
        while j < n and not text[j].isspace() and not is_cjk(text[j]):
            j += 1
        out.append((i, j))
        i = j
    return out


def groups(text: str) -> list[Group]:
    """The paragraph's atoms with those kinsoku forbids separating merged (see module doc)."""
    merged: list[Group] = []
    for s, e in atoms(text):
        space = text[s].isspace()
        if merged and not space and not merged[-1].space \
                and not may_break_between(text[merged[-1].end - 1], text[s]):
            merged[-1] = Group(merged[-1].start, e, False)
        else:
            merged.append(Group(s, e, space))
    return merged


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
