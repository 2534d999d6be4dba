"""pyphen's hyphenation dictionaries read faster: the same patterns, parsed a pattern at a time
rather than a character at a time.

pyphen's `HyphDict` turns every pattern line ("1ba", "a2n1i") into its letters and its digits
through a regular expression's pairs, an `int` per letter and two loops that trim zeros: the
British English dictionary (14 thousand patterns) costs 0.06 CPU-s, once in every process that
hyphenates (a build's workers each set books). `load` makes the same `patterns` (letters ->
offset of the first non-zero digit, the digits from there to the last non-zero one) from each
line's digits alone and hands pyphen a `HyphDict` holding them, through pyphen's own per-file
store (`pyphen.hdcache`), so `pyphen.Pyphen` finds it there.

That reaches into pyphen's internals (`hdcache`, a HyphDict's attributes), so `_agrees` first
has pyphen's own `HyphDict` read a small dictionary that holds every kind of line this parser
takes (comments, options, zeros, duplicates, a digit at either end, non-ASCII letters) and
compares the whole object with ours; on any difference, and for a file with a line this parser
leaves to pyphen (a `^^hh` character, a `/` alternative, two digits in a row), pyphen reads the
file itself, as before.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

_TWO_DIGITS = re.compile(rb"[0-9][0-9]")  # a line pyphen reads in its own way
_NO_DIGITS = str.maketrans("", "", "0123456789")
# a byte of a letter -> "x", digits and line ends kept (a letter beyond ASCII is one "?" byte then)
_MARK = bytes(b if b in b"0123456789\n" else ord("x") for b in range(256))


def _read(path: Any) -> str:
    """The file's text as pyphen's HyphDict reads it: its first line names the encoding."""
    with path.open("rb") as fd:
        encoding = fd.readline().decode()
    if encoding.lower() == "microsoft-cp1251":
        encoding = "cp1251"
    return path.read_text(encoding)


def patterns(text: str, ignored: tuple[str, ...]) -> dict[str, tuple[int, tuple[int, ...]]] | None:
    """HyphDict's `patterns` of a dictionary's text, or None when a line is one for pyphen to read
    (see the module's docstring). The work is on the whole text at once, at C speed: each letter
    one "x", one more at each line's end, a digit and the "x" after it made the digit, the other
    "x"s zeros: each line's digits place by place ("a2n1i": "x2x1xx", "0210"). A line of zeros
    only is skipped, as pyphen skips it (so an earlier pattern with the same letters stays)."""
    lines = [line.strip() for line in text.split("\n")[1:]]
    body = "\n".join([line for line in lines if line and not line.startswith(ignored)])
    if "^^" in body or "/" in body or any(ch.isdecimal() for ch in set(body) if not ch.isascii()):
        return None  # pyphen's hex characters and alternatives; a digit beyond ASCII (\d in its pattern)
    flat = (body.encode("ascii", "replace").translate(_MARK).replace(b"\n", b"x\n") + b"x")
    if _TWO_DIGITS.search(flat):
        return None
    for d in b"0123456789":
        flat = flat.replace(bytes((d, 120)), bytes((d,)))
    out: dict[str, tuple[int, tuple[int, ...]]] = {}
    digits: dict[bytes, tuple[int, ...]] = {}  # b"21" -> (2, 1): few distinct runs of digits
    for key, places in zip(body.translate(_NO_DIGITS).split("\n"), flat.replace(b"x", b"0").split(b"\n")):
        core = places.strip(b"0")
        if core:
            values = digits.get(core)
            if values is None:
                values = digits[core] = tuple(core[i] - 48 for i in range(len(core)))
            out[key] = len(places) - len(places.lstrip(b"0")), values
    return out


def _made(pyphen: Any, path: Any) -> Any | None:
    """A HyphDict of `path` built from `patterns`, or None (pyphen then reads it itself)."""
    found = patterns(_read(path), pyphen.ignored)
    if not found:
        return None
    hd = pyphen.HyphDict.__new__(pyphen.HyphDict)
    hd.patterns, hd.cache, hd.maxlen = found, {}, max(len(key) for key in found)
    return hd


class _Text:
    """A dictionary file in memory, as much of a Path as HyphDict reads (open('rb'), read_text)."""

    def __init__(self, text: str):
        self.text = text

    def open(self, mode: str) -> Any:
        import io

        return io.BytesIO(self.text.encode("utf-8"))

    def read_text(self, encoding: str) -> str:
        return self.text.encode("utf-8").decode(encoding.strip())


# every kind of line `patterns` reads: an option, comments, an empty line, a digit first and last,
# explicit zeros, a pattern of zeros only after the same letters with digits (pyphen keeps the
# first), the same letters twice (the later wins), non-ASCII letters, spaces round a line
_PROBE = ("UTF-8\nLEFTHYPHENMIN 2\n% a comment\n#another\n\n1ba\nab1\n.a2n1i\n0a0b0\nx1y\nx0y\n"
          "a3bc0d\nab2\nab4\né1ç\n  3ño  \nq1r2s3t\n")


@lru_cache(maxsize=1)
def _agrees() -> bool:
    """Does pyphen's own HyphDict make of _PROBE what `_made` makes (every attribute)?"""
    try:
        import pyphen

        theirs, ours = pyphen.HyphDict(_Text(_PROBE)), _made(pyphen, _Text(_PROBE))
        return ours is not None and isinstance(pyphen.hdcache, dict) and vars(theirs) == vars(ours) \
            and theirs.positions("abab") == ours.positions("abab")
    except Exception:  # any change in pyphen's insides: leave the reading to pyphen
        return False


def load(path: Path) -> None:
    """Put `path`'s HyphDict in pyphen's per-file store, unless it is there already, pyphen's
    internals are not the ones `_agrees` checked, or the file is one for pyphen to read."""
    import pyphen

    if path in getattr(pyphen, "hdcache", {}) or not _agrees():
        return
    hd = _made(pyphen, path)
    if hd is not None:
        pyphen.hdcache[path] = hd
