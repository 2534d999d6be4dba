"""Latin-script body text justified as a publisher sets it, without rivers.

Lines, hyphenated, come from the one line breaker (`generator.text.wrap_spans` with the
paragraph's language); this module only decides how much to widen each word space so that a
line fills its width: at most `MAX_STRETCH` times the font's own space, so that no river of
white runs down the page, or narrow it by at most `MAX_SHRINK` of it for a line the breaker set
a little tight (generator/text/breaking.py's total fit); a line that would need more stays ragged. The last line of a
paragraph is always ragged (the caller does not ask for it).
"""
from __future__ import annotations

from functools import lru_cache

from generator import fonts
from generator.text.breaking import HYPHEN, MAX_SHRINK, MAX_STRETCH

# pt over a whole line that still counts as within a limit: the breaker's own (generator/text/
# breaking.py sets a line whose natural width is up to this much past its shrink limit), so that
# every line it sets to be narrowed is narrowed, not left ragged and wider than its column
FIT = 1e-6


def word_space(line_text: str, hyphen: bool, font: str, size: float, width: float,
               natural: float | None = None) -> float:
    """Extra room (pt) to add at each space of a line to fill `width` (negative: the spaces
    narrow); 0 for a line without spaces or one that would need more than MAX_STRETCH or
    MAX_SHRINK (it stays ragged). `natural`: the line's width as set, when the caller has it
    (the string_width of the line and its hyphen, to the bit)."""
    gaps = line_text.count(" ")
    if not gaps:
        return 0.0
    if natural is None:
        natural = fonts.string_width(line_text + (HYPHEN if hyphen else ""), font, size)
    space = space_width(font, size)
    if not -gaps * MAX_SHRINK * space - FIT <= width - natural <= gaps * MAX_STRETCH * space + FIT:
        return 0.0
    return (width - natural) / gaps


@lru_cache(maxsize=256)
def space_width(font: str, size: float) -> float:
    """A word space's width in a style (fonts.string_width's): once a style, not once a line (a
    build's books justify some 23 thousand lines in a few dozen styles)."""
    return fonts.string_width(" ", font, size)
