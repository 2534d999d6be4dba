"""Where a Latin-script word may be broken with a hyphen, from a kept library (pyphen's
LibreOffice hyphenation patterns), so English is hyphenated as a publisher would.

The one line breaker (generator/text/wrap.py) calls `hyphen_points` for Latin words that do not
fit; this module only answers "where may this word break", never lays out a line.
"""
from __future__ import annotations

from functools import lru_cache

# Publishers' usual minimums: keep at least two letters before the hyphen and three after it,
# so that no line ends in "a-" and none begins with "ly".
LEFT_MIN = 2
RIGHT_MIN = 3


@lru_cache(maxsize=None)
def dictionary(lang: str):
    """The pyphen dictionary for `lang` ('en' → en_US etc.), or None for a language without
    patterns (Japanese, Chinese: they break between characters, not at hyphens)."""
    import pyphen

    for candidate in (lang, lang.replace("-", "_")):
        if candidate in pyphen.LANGUAGES:
            return pyphen.Pyphen(lang=candidate, left=LEFT_MIN, right=RIGHT_MIN)
    base = lang.split("-")[0].split("_")[0]
    fallback = pyphen.language_fallback(base)
    if fallback is None:
        return None
    return pyphen.Pyphen(lang=fallback, left=LEFT_MIN, right=RIGHT_MIN)


@lru_cache(maxsize=4096)
def _points(word: str, lang: str) -> tuple[int, ...]:
    dic = dictionary(lang)
    if dic is None:
        return ()
    return tuple(dic.positions(word))


def hyphen_points(word: str, lang: str) -> list[int]:
    """Offsets into `word` where a hyphen may be inserted: word[:i] + "-" / word[i:].

    Empty for a word too short to break, a word that already holds a hyphen or a digit
    (compounds, numbers and ids break only at their own hyphen or not at all), a capitalised
    word (a name, an acronym: publishers keep them whole), and a language without patterns.
    Punctuation around the word is kept off the break: "rules," gives the points of "rules".
    """
    if len(word) < LEFT_MIN + RIGHT_MIN or any(ch.isdigit() for ch in word):
        return []  # a digit anywhere, even in the punctuation round the word: an id or a number
    start = 0
    end = len(word)
    while start < end and not word[start].isalpha():
        start += 1
    while end > start and not word[end - 1].isalpha():
        end -= 1
    core = word[start:end]
    if len(core) < LEFT_MIN + RIGHT_MIN or not core.isalpha() or core[0].isupper():
        return []  # names (Fellowship, Mordor) and acronyms stay whole
    if not all(ord(ch) < 0x2E80 for ch in core):  # CJK: no hyphenation
        return []
    return [start + i for i in _points(core, lang)]


def hyphenate(word: str, lang: str) -> list[str]:
    """The pieces of `word` between its hyphen points (without the hyphens)."""
    cuts = [0, *hyphen_points(word, lang), len(word)]
    return [word[a:b] for a, b in zip(cuts, cuts[1:])]
