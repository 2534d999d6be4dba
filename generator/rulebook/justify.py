"""Latin-script body text justified as a publisher sets it, without rivers.

Lines, hyphenated, come from the one line breaker (`generator.text.wrap_spans` with the
paragraph's language); this module only decides how much to widen each word space so that a
line fills its width: at most `MAX_STRETCH` times the font's own space, so that no river of
white runs down the page; a line that would need more stays ragged. The last line of a
paragraph is always ragged (the caller does not ask for it).
"""
from __future__ import annotations

from generator import fonts
from generator.text.breaking import HYPHEN

MAX_STRETCH = 1.0  # a word space may grow by at most this many of its own width (to 2x)


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
