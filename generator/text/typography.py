"""Typographic punctuation for Latin-script text, set as a publisher sets it.

Translators and designers type plain text: straight quotes ("Down the Great River", 'return'),
a hyphen in a range (Turns 1-3), `--` or a spaced hyphen for a dash, `...`, and a hyphen for a
minus (-1). `typeset(text, lang)` turns these into the characters a printed page uses: the
language's own quotation marks (table QUOTES: en “ ” ‘ ’, de „ “ ‚ ‘, fr « » with no-break spaces
inside, and a no-break space before ; : ! ?), the apostrophe ’ (Gondor’s, don’t), an en dash between the numbers of a range (1–3), an em
dash for `--` between words or a hyphen standing alone between spaces, an ellipsis …, and the
minus sign − before a number that stands alone (a modifier: -1, +1/-1).

It runs once, where Latin text enters layout (the rulebook's content, a card or counter face's
text field, a map's names and legend via `printed`), never on the data or the PO files. A language not in QUOTES (Japanese, whose own
brackets 「」 are already right) is returned unchanged. `keep` spans (the rulebook's cross-reference
numbers, a card's inline `:symbol:`) are copied untouched; `typeset_spans` also says where each
character of the input landed, so links into the text can follow it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple, Sequence

from solver.game.base import pick


class Quotes(NamedTuple):
    open2: str
    close2: str
    open1: str
    close1: str
    inner_space: str = ""  # set between a mark and the words it encloses (French: no-break space)
    spaced: str = ""  # punctuation set after a no-break space (French ; : ! ?), instead of a space or none


NBSP = "\u00a0"  # no-break space (no face we ship has the narrow one, U+202F)
APOSTROPHE = "’"
EN_DASH, EM_DASH, ELLIPSIS, MINUS = "–", "—", "…", "−"

# The quotation marks of each Latin-script language we set; a language not here is left as typed.
QUOTES: dict[str, Quotes] = {
    "en": Quotes("“", "”", "‘", "’"),
    "nl": Quotes("“", "”", "‘", "’"),
    "pt": Quotes("“", "”", "‘", "’"),
    "es": Quotes("«", "»", "“", "”"),
    "it": Quotes("«", "»", "“", "”"),
    "de": Quotes("„", "“", "‚", "‘"),
    "fr": Quotes("«", "»", "‹", "›", NBSP, ";:!?"),
}

# After one of these (or at the start) a quote opens; after anything else it closes.
_OPENS_AFTER = set(" \t\n\u00a0([{/–—") | {"“", "‘", "„", "‚", "«", "‹"}
_ELLIPSIS = re.compile(r"\.\.\.")
# A range is two numbers (1-3, 10.1-10.4, a table's die roll "1-2"): not a chain of three (a
# counter's factors 2-1-6), nor a number glued to a word (d6-1, A1-3).
_RANGE = re.compile(r"(?<![\w.\-−–])\d+(?:\.\d+)*(-)\d+(?:\.\d+)*(?![\w\-])")
_WORD_DASH = re.compile(r"(?<=\w)--(?=\w)|(?<= )--?(?= )")
_NUMBERS_ALONE = re.compile(r"[\d\s.+\-]+")
_MINUS = re.compile(r"(?:(?<=^)|(?<=[\s(\[/]))-(?=\d)")


def quotes_of(lang: str | None) -> Quotes | None:
    """The quotation marks of `lang` (or of its base language, `en` for `en-GB`), None if not set."""
    if not lang:
        return None
    return QUOTES.get(lang) or QUOTES.get(lang.split("-")[0])


def typeset(text: str, lang: str | None, keep: Sequence[tuple[int, int]] = (), *, factors: bool = False) -> str:
    """`text` with publisher's punctuation in `lang` (see module doc); unchanged if lang is not set.
    `factors`: a text of numbers alone is a piece's factor line (a counter's 4-3), not a range."""
    return typeset_spans(text, lang, keep, factors=factors)[0]


def typeset_spans(text: str, lang: str | None, keep: Sequence[tuple[int, int]] = (), *,
                  factors: bool = False) -> tuple[str, list[int]]:
    """(new text, where: where[i] is the index in the new text of input character i, and
    where[len(text)] the new length). `keep`: (start, end) spans of the input copied as they are."""
    out, where = _typeset_spans(text, quotes_of(lang), tuple((a, b) for a, b in keep), factors)
    return out, list(where)


@lru_cache(maxsize=16384)  # a book sets the same words in each of its layouts and languages
def _typeset_spans(text: str, q: Quotes | None, keep: tuple[tuple[int, int], ...],
                   factors: bool) -> tuple[str, tuple[int, ...]]:
    if q is None or not text:
        return text, tuple(range(len(text) + 1))
    kept = [False] * len(text)
    for start, end in keep:
        kept[start:end] = [True] * (end - start)
    subs: dict[int, tuple[int, str]] = {}  # input offset -> (characters replaced, replacement)
    factor_line = factors and _NUMBERS_ALONE.fullmatch(text) is not None
    for pattern, rep, needs in ((_ELLIPSIS, ELLIPSIS, "..."), (_WORD_DASH, EM_DASH, "-"), (_RANGE, EN_DASH, "-"),
                                (_MINUS, MINUS, "-")):
        if factor_line and pattern is _RANGE or needs not in text:
            continue  # (every match of the pattern holds `needs`: a search for it is far cheaper than the pattern's)
        for m in pattern.finditer(text):
            a, b = m.span(pattern.groups)  # the group, or the whole match for a pattern without one
            if not any(kept[a:b]) and not any(s <= a < s + n for s, (n, _) in subs.items()):
                subs[a] = (b - a, rep)
    # only a substitution, a quote or a mark set after a space can print as anything but itself:
    # the characters between them are copied as typed, one piece each
    stops = sorted(set(subs).union(m.start() for m in _marks(q).finditer(text)))
    if not stops:  # most of a book's texts: nothing to set, every character where it was
        return text, tuple(range(len(text) + 1))
    pieces: list[str] = []  # one per input character: what it prints as ("" when merged into the one before)
    is_open = {'"': False, "'": False}  # a quote of that kind is open
    i = 0
    for stop in stops:
        if stop >= i:
            pieces += text[i:stop]
            i = _set_at(text, stop, pieces, kept, subs, q, is_open)
    pieces += text[i:]
    return "".join(pieces), (0, *accumulate(map(len, pieces)))


@lru_cache(maxsize=None)
def _marks(q: Quotes) -> re.Pattern[str]:
    """The characters `_set_at` may print otherwise: straight quotes and `q.spaced`."""
    return re.compile(f"[{re.escape(chr(34) + chr(39) + q.spaced)}]")


def _set_at(text: str, i: int, pieces: list[str], kept: list[bool], subs: dict[int, tuple[int, str]],
            q: Quotes, is_open: dict[str, bool]) -> int:
    """Append what the character at `i` (a substitution's start, a quote or a mark of `q.spaced`)
    prints as to `pieces`; returns the index of the next character to set."""
    ch = text[i]
    if i in subs:
        n, rep = subs[i]
        pieces += [rep] + [""] * (n - 1)
        return i + n
    prev = next((p[-1] for p in reversed(pieces) if p), "")
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if not kept[i] and ch in q.spaced and prev and (ch != ":" or not (prev.isdigit() and nxt.isdigit()) and nxt != "/"):
        _space_before(pieces, ch, q.spaced)  # « Vraiment ? », not 10:30, http:// nor ?! twice
        return i + 1
    if kept[i] or ch not in "\"'":
        pieces.append(ch)
        return i + 1
    mark = _quote(ch, prev, nxt, text[i + 2:i + 3], q, is_open)
    if q.inner_space and nxt == " " and mark in (q.open1, q.open2):  # « typed with a space: a no-break one
        pieces += [mark, q.inner_space]
        return i + 2
    if q.inner_space and pieces and pieces[-1] == " " and mark in (q.close1, q.close2):
        pieces[-1] = q.inner_space
    pieces.append(mark)
    return i + 1


def _quote(ch: str, prev: str, nxt: str, after: str, q: Quotes, is_open: dict[str, bool]) -> str:
    """What a straight quote `ch` prints as. It opens at the start or after a space, an opening
    bracket or a dash (a single one only before a letter, or in French before a space and a
    letter: ' oui '), else it closes; after a space it closes an open double quote that no word
    follows (French typed with spaces, " Bien "); a single quote that neither opens nor closes is
    an apostrophe. `after` is the character after `nxt`."""
    opens = prev == "" or prev in _OPENS_AFTER
    if ch == '"':
        if opens and not (is_open[ch] and prev.isspace() and not nxt.isalnum()):
            is_open[ch] = True
            return q.open2 + (q.inner_space if nxt != " " else "")
        is_open[ch] = False
        return (q.inner_space if not prev.isspace() else "") + q.close2
    if opens and nxt.isalpha():
        is_open[ch] = True
        return q.open1 + q.inner_space
    if opens and q.inner_space and not is_open[ch] and nxt == " " and after.isalpha():
        is_open[ch] = True
        return q.open1
    if is_open[ch] and not nxt.isalpha():
        is_open[ch] = False
        return (q.inner_space if prev != " " else "") + q.close1
    return APOSTROPHE


def _space_before(pieces: list[str], mark: str, marks: str) -> None:
    """Append `mark` with a no-break space before it: the typed space becomes one, or one is added;
    none after a mark of the same kind (?!) or an opening bracket."""
    last = next((k for k in range(len(pieces) - 1, -1, -1) if pieces[k]), None)
    if last is not None and pieces[last] in (" ", NBSP):
        pieces[last] = NBSP
        pieces.append(mark)
    elif last is not None and (pieces[last][-1] in marks or pieces[last][-1] in "([{"):
        pieces.append(mark)
    else:
        pieces.append(NBSP + mark)


def printed(text: dict[str, str] | None, lang: str) -> str:
    """A per-language text of the data ({ja: ..., en: ...}) as a face prints it in `lang`: picked
    (solver.game.base.pick) and set with that language's punctuation (Helm’s Deep)."""
    return typeset(pick(text, lang), lang)

