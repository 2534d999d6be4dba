"""Limits on input files: what a game folder from a stranger may cost us at most.

Every limit has its own message (see README, "Limits on input files"), so a designer who hits
one knows which and what to do. They are far above what a real game needs (the largest example
file is 38 kB, nests 9 levels and holds 3,700 values) and far below what would exhaust memory,
the stack or the clock.
"""
from __future__ import annotations

MAX_FILE_BYTES = 8 * 1024 * 1024  # any data file: YAML, CSV, XLSX, PO
MAX_DEPTH = 64  # nesting of lists and mappings in a YAML file
MAX_VALUES = 100_000  # values in one YAML file after alias expansion (a billion-laughs file stops here)
MAX_ITEMS = 5_000  # rows of one CSV/XLSX items file
MAX_COLUMNS = 200  # columns of one CSV/XLSX items file
MAX_INTEGER = 10**9  # any whole number in data or in an expression
MAX_COPIES = 10_000  # copies of one item or component (its `count`), checked before anything is drawn
MAX_PIECES = 20_000  # copies of everything in one game's box together (a build prints each once)
MAX_IMAGE_BYTES = 40 * 1024 * 1024  # one image file
MAX_IMAGE_PIXELS = 60_000_000  # one image (e.g. 7750 x 7750; far beyond any card at 1200 dpi)
MAX_FONT_BYTES = 30 * 1024 * 1024  # one font file (a full CJK face is 5-20 MB)
MAX_SVG_ELEMENTS = 20_000  # elements of one SVG image with every <use> expanded, referenced SVGs included
MAX_SVG_PATH_DATA = 1_000_000  # characters of path data (`d`, `points`) of one SVG image, expanded likewise
MAX_EXPR_CHARS = 1000  # one expression
MAX_EXPR_DEPTH = 32  # nesting of brackets and operators in one expression
MAX_EXPR_VALUE = 10**12  # any value an expression computes (CP-SAT's 64-bit sums stay safe)


def size_text(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n} bytes"
