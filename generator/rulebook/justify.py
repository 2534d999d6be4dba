"""Latin-script body text set as a publisher sets it: hyphenated and justified, without rivers.

Lines come from the one line breaker (`generator.text.wrap_spans`); this module only adds what a
Latin paragraph needs on top of it:

- hyphenation: when a line is loose, the first word of the next line is broken at a hyphen point
  (`generator.text.hyphenate`) and its head pulled up, if it fits with its hyphen. No more than
  `MAX_HYPHENS_IN_A_ROW` hyphenated lines in a row (no ladders), never the paragraph's last word.
- justification (`word_space`): the room left on a line is shared among its word spaces, up to
  `MAX_STRETCH` times the font's own space; a line that would need more stays ragged rather than
  open a river. The last line of a paragraph is ragged.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator import fonts
from generator.text import Span, wrap_spans
from generator.text.hyphenate import hyphen_points

HYPHEN = "-"
MAX_HYPHENS_IN_A_ROW = 2
LOOSE = 0.94  # a line filled less than this share of its width tries to hyphenate the next word
MAX_STRETCH = 1.0  # a word space may grow by at most this many of its own width (to 2x)


@dataclass(frozen=True)
class Line(Span):
    hyphen: bool = False  # the line ends inside a word: draw a hyphen after it


def hyphenated_spans(text: str, font: str, size: float, width: float, lang: str) -> list[Line]:
    """Line spans of `text` (indexes into it, newlines are hard breaks) with hyphenation."""
    out: list[Line] = []
    offset = 0
    for para in text.split("\n"):
        out += [Line(s.start + offset, s.end + offset, s.hyphen) for s in _paragraph(para, font, size, width, lang)]
        offset += len(para) + 1
    return out


def _paragraph(text: str, font: str, size: float, width: float, lang: str) -> list[Line]:
    lines: list[Line] = []
    pos = 0
    in_a_row = 0
    while True:
        rest = text[pos:]
        spans = wrap_spans(rest, font, size, width)
        if not spans or not rest.strip():
            return lines or [Line(0, 0)]
        first = spans[0]
        line = Line(pos + first.start, pos + first.end)
        if len(spans) > 1 and in_a_row < MAX_HYPHENS_IN_A_ROW:
            line = _pull_up(text, line, font, size, width, lang) or line
        lines.append(line)
        in_a_row = in_a_row + 1 if line.hyphen else 0
        if len(spans) == 1 and not line.hyphen:
            return lines
        pos = line.end
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos >= len(text):
            return lines


def _pull_up(text: str, line: Line, font: str, size: float, width: float, lang: str) -> Line | None:
    """The line with the head of the next word added and hyphenated, if the line is loose, that
    word is not the paragraph's last, and a head fits."""
    if fonts.string_width(text[line.start:line.end], font, size) >= LOOSE * width:
        return None
    start = line.end
    while start < len(text) and text[start] == " ":
        start += 1
    if start == line.end:  # the line ends inside a run (a CJK break): no word to split
        return None
    end = text.find(" ", start)
    if end < 0:
        return None  # the paragraph's last word stays whole
    word = text[start:end]
    for p in reversed(hyphen_points(word, lang)):
        if fonts.string_width(text[line.start:start + p] + HYPHEN, font, size) <= width:
            return Line(line.start, start + p, hyphen=True)
    return None


def word_space(line_text: str, hyphen: bool, font: str, size: float, width: float) -> float:
    """Extra room (pt) to add at each space of a line to fill `width`; 0 for a line without
    spaces or one that would need more than MAX_STRETCH (it stays ragged)."""
    gaps = line_text.count(" ")
    if not gaps:
        return 0.0
    natural = fonts.string_width(line_text + (HYPHEN if hyphen else ""), font, size)
    extra = (width - natural) / gaps
    if extra <= 0 or extra > MAX_STRETCH * fonts.string_width(" ", font, size):
        return 0.0
    return extra
