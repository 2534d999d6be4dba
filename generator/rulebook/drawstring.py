"""Drawing a line of book text on a reportlab canvas, run by run in the faces `fonts.runs` chooses:
`draw_string` prints the bytes `canvas.drawString` prints for each run, without its text object per
run, remembering each string's operators per canvas (the rulebook draws the same words many times)."""
from __future__ import annotations

import itertools
import re
from functools import lru_cache
from itertools import islice, repeat
from typing import Any, Optional, Sequence

from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

from .. import fonts

# per canvas: (font, size, string) -> its runs as (font, operators after the origin or None for a
# run reportlab draws itself, text, advance in font units, and its pieces: its text cut where its
# font subset changes, one text object each in the file, or None for one);
# tuples, which the garbage collector stops tracking (a book remembers tens of thousands)
_Pieces = Optional[tuple[str, ...]]
_Runs = tuple[tuple[str, Optional[str], str, float, _Pieces], ...]


def draw_string(canvas: Any, x: float, y: float, s: str, font: str, size_pt: float) -> float:
    """Draw `s` on a reportlab canvas from (x, y) run by run (see `runs`); returns the end x.
    A TrueType run prints the bytes `canvas.drawString` prints, without its text object: the
    operators after the origin are remembered per canvas (once its document has given a character
    a code, the same text in the same font and size prints the same operators), with the run's
    advance (stringWidth's own sum, in font units)."""
    return draw_words(canvas, x, y, (s,), 0.0, font, size_pt)


def draw_words(canvas: Any, x: float, y: float, words: Sequence[str], gap: float, font: str, size_pt: float) -> float:
    """`draw_string` of each of `words` in turn, the next `gap` pt after where the one before ends
    (a justified line's words); returns the end x. The same bytes, the same strings noted for
    preflight and the same canvas state after as those calls give, with the per-string work done
    once a call: the record's page, matrix and colours looked up once, and the font set on the
    canvas once at the end (setFont writes nothing for a TrueType font: it only keeps its name
    and size, which nothing reads in between; a run reportlab draws itself sets it first)."""
    shown = canvas.__dict__.get("_pnp_shown")
    if shown is None:
        shown = canvas._pnp_shown = {}
    drawn = canvas.__dict__.get("_pnp_drawn")  # for preflight, when the canvas records (drawn.note)
    if drawn is not None:
        # imported here: the record's module brings numpy and the PDF reading code, which a card
        # sheet drawn through render/pdf.py without preflight never needs
        from .drawn import fill_rgb

        page, matrix, fill, ground = canvas._pageNumber, canvas._currentMatrix, fill_rgb(canvas), canvas.__dict__.get("_pnp_ground")
    code, scale, last = canvas._code, 0.001 * size_pt, None
    n = len(words) - 1
    for i, s in enumerate(words):
        known: _Runs | None = shown.get(key := (font, size_pt, s))
        if known is None:
            known = shown[key] = _runs(canvas, s, font, size_pt)
        for f, operators, text, advance, pieces in known:
            if drawn is not None:
                if pieces is None:
                    drawn.append((page, x, y, matrix, f, size_pt, fill, text, ground, False, False))
                else:  # each piece goes on from where the one before ends (drawn.page_text)
                    drawn += [(page, x, y, matrix, f, size_pt, fill, piece, ground, False, j > 0) for j, piece in enumerate(pieces)]
            if operators is None:
                canvas.setFont(f, size_pt)
                canvas.drawString(x, y, text)
                x += stringWidth(text, f, size_pt)
                last = None
                continue
            last = f
            code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {operators} T* ET")
            x += scale * advance
        if i < n:
            x += gap
    if last is not None:  # what canvas.setFont(last, size_pt) leaves for a TrueType font
        canvas._fontname, canvas._fontsize, canvas._leading = last, size_pt, size_pt * 1.2
    return x


def set_fill(canvas: Any, colour: Any) -> None:
    """`canvas.setFillColor(colour)`: the same operator and state, remembered per canvas for an
    opaque RGB colour (the text's colours, set before every run of a line): reportlab works the
    operator out and re-checks the opacity each time, the same every time while the fill's
    opacity stays 1 (then it writes no graphics state)."""
    fills = canvas.__dict__.get("_pnp_fills")
    if fills is None:
        fills = canvas._pnp_fills = {}
    opaque = canvas._extgstate._d.get("ca", 1) == 1
    known = fills.get(id(colour))
    if known is not None and opaque:
        canvas._code.append(known[1])
        canvas._fillColorObj = colour
        return
    canvas.setFillColor(colour)
    if opaque and type(colour) is Color and colour.alpha == 1 and canvas._enforceColorSpace is None:
        fills[id(colour)] = (colour, canvas._code[-1])  # the colour kept with it, so that its id stays its own


def _runs(canvas: Any, s: str, font: str, size_pt: float) -> _Runs:
    """The runs of `s` with their operators, worked out (and the characters given codes in the
    document's subsets) in the order they are drawn."""
    out: list[tuple[str, str | None, str, float, Any]] = []
    for text, f, advance in _measured(s, font):
        if advance is None or not canvas.bottomup:
            out.append((f, None, text, 0.0, None))
            continue
        canvas.setFont(f, size_pt)
        operators, lengths = _text_operators(canvas, f, text)
        out.append((f, operators, text, advance, _pieces(text, lengths) if len(lengths) > 1 else None))
    return tuple(out)


def _pieces(text: str, lengths: list[int]) -> tuple[str, ...]:
    """`text` cut where its font subset changes (`lengths` characters each)."""
    ends = list(itertools.accumulate(lengths))
    return tuple(text[a:e] for a, e in zip([0] + ends, ends))


def forget_measured() -> None:
    """Let go of the strings measured for drawing (after a unit's books: rulebook/build.py)."""
    _measured.cache_clear()


@lru_cache(maxsize=65536)
def _measured(s: str, font: str) -> tuple[tuple[str, str, float | None], ...]:
    """`s`'s runs (fonts.runs) with each one's advance in font units (stringWidth's own sum; None
    for a font that is not TrueType): the same in every document, so remembered across books."""
    out: list[tuple[str, str, float | None]] = []
    for text, f in fonts.runs(s, font):
        table = fonts._advance_table(f)
        if table is None:
            out.append((text, f, None))
            continue
        widths, default, _ = table
        out.append((text, f, sum(map(widths.get, map(ord, text), repeat(default)))))
    return tuple(out)


def _text_operators(canvas: Any, font: str, text: str) -> tuple[str, list[int]]:
    """What reportlab's PDFTextObject._formatText writes for `text` in an unshaped TrueType font:
    each glyph subset's font and size, then its string; and how many characters each subset shows."""
    face, doc = getFont(font), canvas._doc
    codes = canvas.__dict__.get("_pnp_codes")
    if codes is None:
        codes = canvas._pnp_codes = {}
    given = codes.get(font)
    if given is None and (state := face.state.get(doc)) is not None:
        given = codes[font] = _Codes(state)
    known = given.operators(canvas, face, text) if given is not None else None
    if known is not None:
        return known
    parts = []
    chunks = face.splitString(text, doc)  # gives the new characters their codes
    for subset, chunk in chunks:
        parts.append(_subset_operators(canvas, face, subset))
        parts.append(f"({canvas._escape(chunk)}) Tj")
    return " ".join(parts), [len(chunk) for _, chunk in chunks]


_SAME = re.compile(r"(.)\1*", re.S)  # a run of one character (of one subset's mark)


class _Codes:
    """The codes one document has given characters of one TrueType face (reportlab's
    TTFont.State.assignments: subset * 256 + code) as two str.translate tables, each character to
    its subset (as a character) and to its code as the PDF string shows it (escaped as
    canvas._escape escapes it: byte by byte): `operators(...)` is what _text_operators makes of
    face.splitString(text, doc), at C speed but for one step per subset run, when every
    character has its code."""

    def __init__(self, state: Any):
        self.assignments: dict[int, int] = state.assignments  # grows as splitString gives codes
        self.seen = 0  # how many of them are in the tables
        self.subset: dict[int, str] = {}
        self.shown: dict[int, str] = {}
        self.chars: set[str] = set()
        self.selects: dict[tuple[float, float], dict[str, str]] = {}

    def operators(self, canvas: Any, face: Any, text: str) -> tuple[str, list[int]] | None:
        """_text_operators's answer, or None when a character of `text` has no code yet."""
        if len(self.assignments) != self.seen:
            self._update()
        if not text or not self.chars.issuperset(text):
            return None
        marks = text.translate(self.subset)
        # each subset's selection at the canvas's size, by its mark (_subset_operators's, looked up once a run)
        selects = self.selects.get(size := (canvas._fontsize, canvas._leading))
        if selects is None:
            selects = self.selects[size] = {}
        if marks.count(marks[0]) == len(marks):  # one subset (always, in a Latin face)
            select = selects.get(marks[0]) or selects.setdefault(marks[0], _subset_operators(canvas, face, ord(marks[0])))
            return f"{select} ({text.translate(self.shown)}) Tj", [len(text)]
        parts, lengths = [], []
        for run in _SAME.finditer(marks):
            a, e = run.span()
            mark = marks[a]
            select = selects.get(mark) or selects.setdefault(mark, _subset_operators(canvas, face, ord(mark)))
            parts.append(f"{select} ({text[a:e].translate(self.shown)}) Tj")
            lengths.append(e - a)
        return " ".join(parts), lengths

    def _update(self) -> None:
        for code, n in islice(self.assignments.items(), self.seen, None):  # codes once given never change
            self.subset[code], self.shown[code] = chr(n >> 8), escapePDF(bytes((n & 0xFF,)))
            self.chars.add(chr(code))
        self.seen = len(self.assignments)
        if 32 in self.subset:  # splitString sets a no-break space as the space
            self.subset[0xA0], self.shown[0xA0] = self.subset[32], self.shown[32]
            self.chars.add("\u00a0")


def _subset_operators(canvas: Any, face: Any, subset: int) -> str:
    """Select `subset` of `face` at the canvas's font size and leading, remembered per canvas
    (reportlab's getSubsetInternalName names the font in the document the first time)."""
    cache = canvas.__dict__.get("_pnp_subsets")
    if cache is None:
        cache = canvas._pnp_subsets = {}
    key = (face.fontName, subset, canvas._fontsize, canvas._leading)
    out = cache.get(key)
    if out is None:
        name = face.getSubsetInternalName(subset, canvas._doc)
        out = cache[key] = f"{name} {fp_str(canvas._fontsize)} Tf {fp_str(canvas._leading)} TL"
    return out
