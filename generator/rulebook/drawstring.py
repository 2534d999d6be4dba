"""Drawing a line of book text on a reportlab canvas, run by run in the faces `fonts.runs` chooses:
`draw_string` prints the bytes `canvas.drawString` prints for each run, without its text object per
run, remembering each string's operators per canvas (the rulebook draws the same words many times);
`draw_on` places a flowable with the bytes and state reportlab's Flowable.drawOn gives."""
from __future__ import annotations

import itertools
import re
from functools import lru_cache
from itertools import islice, repeat
from typing import Any, Optional, Sequence

from reportlab.lib.colors import Color, gray
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas

from .. import fonts

# per canvas: (font, size, string) -> its runs as (font, operators after the origin or None for a
# run reportlab draws itself, text, advance in font units, and its pieces: its text cut where its
# font subset changes, one text object each in the file, or None for one);
# tuples, which the garbage collector stops tracking (a book remembers tens of thousands)
_Pieces = Optional[tuple[str, ...]]
_Runs = tuple[tuple[str, Optional[str], str, float, _Pieces], ...]


def draw_string(canvas: Any, x: float, y: float, s: str, font: str, size_pt: float, decoration: bool = False) -> float:
    """Draw `s` on a reportlab canvas from (x, y) run by run (see `runs`); returns the end x.
    A TrueType run prints the bytes `canvas.drawString` prints, without its text object: the
    operators after the origin are remembered per canvas (once its document has given a character
    a code, the same text in the same font and size prints the same operators), with the run's
    advance (stringWidth's own sum, in font units). `decoration`: preflight's record says so
    (drawn.note's flag: never judged for contrast)."""
    if not decoration:
        return draw_words(canvas, x, y, (s,), 0.0, font, size_pt)
    drawn = canvas.__dict__.get("_pnp_drawn")
    before = 0 if drawn is None else len(drawn)
    end = draw_words(canvas, x, y, (s,), 0.0, font, size_pt)
    if drawn is not None:
        drawn[before:] = [(*d[:9], True, d[10]) for d in drawn[before:]]
    return end


def draw_words(canvas: Any, x: float, y: float, words: Sequence[str], gap: float, font: str, size_pt: float,
               sums: Sequence[float] | None = None, start: int = 0) -> float:
    """`draw_string` of each of `words` in turn, the next `gap` pt after where the one before ends
    (a justified line's words); returns the end x. The same bytes, the same strings noted for
    preflight and the same canvas state after as those calls give (see `draw_lines`).
    `sums`: the words are a text's from `start` on, one space apart, and these are that text's
    running sums of advances in `font` (fonts.advances: exact, every character in the font): a
    word new to the canvas is measured from them, to the bit its sum over its characters."""
    return draw_lines(canvas, ((x, y, words, gap, start if sums is not None else -1),), font, size_pt, sums)[0]


# a line of `draw_lines`: x (None: where the line before ends), y, its words, the gap between
# them, where its words start in the text's running sums (-1: not the text's own, measured alone)
Line = tuple[Optional[float], float, Sequence[str], float, int]


def draw_lines(canvas: Any, lines: Sequence[Line], font: str, size_pt: float, sums: Sequence[float] | None = None,
               colour: Color | None = None) -> list[float]:
    """`draw_words` of each of `lines` in turn (a paragraph's), each after `set_fill(canvas,
    colour)` when a colour is given; returns where each ends. The canvas's tables, the fill's
    operator, preflight's state and the document's codes are looked up once a call, the font set
    on the canvas once at the end (setFont writes nothing for a TrueType font: nothing reads its
    name and size in between); a one-run word new to the canvas whose characters all have codes
    takes its operators straight from the codes (what `_runs` would give)."""
    d = canvas.__dict__
    shown = _shown(canvas, font, size_pt)  # string -> its runs, in this font and size
    fill_op = None if colour is None else _set_fill(canvas, colour)
    drawn = d.get("_pnp_drawn")  # for preflight, when the canvas records (drawn.note)
    if drawn is not None:
        page, matrix, fill, ground = _record_state(canvas)
    given = d.get("_pnp_codes", {}).get(font)  # the document's codes of `font` (_text_operators's)
    fast = sums is not None and canvas.bottomup
    code, scale, last = canvas._code, 0.001 * size_pt, None
    ends: list[float] = []
    for x_at, y, words, gap, start in lines:
        x = ends[-1] if x_at is None else x_at
        if ends and colour is not None and fill_op is not None:
            code.append(fill_op)  # set_fill's operator for an opaque colour it remembers
        elif ends and colour is not None:
            set_fill(canvas, colour)
        at = f" {_FIGURES.get(y) or _figures(y)} Tm "
        at_start = True
        for k, s in enumerate(words):
            if k:
                x += gap
            known: _Runs | None = shown.get(s)
            if known is None:
                ops = given.operators(s, size_pt) if fast and start >= 0 and given is not None and s else None
                if ops is not None:  # `_runs`'s answer for one run in `font`, without its steps
                    known = shown[s] = ((font, ops[0], s, sums[start + len(s)] - sums[start], ops[1]),)  # type: ignore[index]
                else:
                    known = shown[s] = _runs(canvas, s, font, size_pt, None if sums is None or start < 0 else sums[start + len(s)] - sums[start])
                    given = given or (d.get("_pnp_codes", {}).get(font) if fast else None)
            if start >= 0:
                start += len(s) + 1
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
                # a line's first run starts where many do; the others' figures are new as often as not
                code.append(f"BT 1 0 0 1 {(_FIGURES.get(x) or _figures(x)) if at_start else fp_str(x)}{at}{operators} T* ET")
                at_start = False
                x += scale * advance
        ends.append(x)
    if last is not None:  # what canvas.setFont(last, size_pt) leaves for a TrueType font
        canvas._fontname, canvas._fontsize, canvas._leading = last, size_pt, size_pt * 1.2
    return ends


def _shown(canvas: Any, font: str, size_pt: float) -> dict[str, _Runs]:
    """The canvas's runs of the strings it has drawn in `font` at `size_pt`."""
    by_style = canvas.__dict__.get("_pnp_shown")
    if by_style is None:
        by_style = canvas._pnp_shown = {}
    shown = by_style.get(style := (font, size_pt))
    if shown is None:
        shown = by_style[style] = {}
    return shown


def _record_state(canvas: Any) -> tuple[int, Any, Any, Any]:
    """Preflight's page, matrix, fill and ground for what is drawn now; the fill's 0-255 figures are
    drawn.fill_rgb's, kept with the fill colour they are of (a paragraph's lines are drawn in one)."""
    d = canvas.__dict__
    last_fill = d.get("_pnp_last_fill")
    if last_fill is None or last_fill[0] is not canvas._fillColorObj:
        last_fill = canvas._pnp_last_fill = (canvas._fillColorObj, _fill_rgb()(canvas))
    return canvas._pageNumber, canvas._currentMatrix, last_fill[1], d.get("_pnp_ground")


# fp_str's figures of the numbers drawn at: a line's baseline and where its first word starts come
# again and again (a book's 57 thousand calls have some 900 of each), and fp_str is as slow as a dict
# is fast; emptied when full
_FIGURES: dict[float, str] = {}
_FIGURES_MAX = 1 << 15


def _figures(v: float) -> str:
    if len(_FIGURES) >= _FIGURES_MAX:
        _FIGURES.clear()
    out = _FIGURES[v] = fp_str(v)
    return out


@lru_cache(maxsize=1)
def _fill_rgb() -> Any:
    """drawn.fill_rgb, imported on first use (an import statement in draw_words costs as much as
    a string drawn): the record's module brings numpy and the PDF reading code, which a card
    sheet drawn through render/pdf.py without preflight never needs."""
    from .drawn import fill_rgb

    return fill_rgb


def draw_on(flowable: Any, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
    """reportlab's Flowable.drawOn (hAlign, saveState, translate, draw, restoreState), the same bytes
    and canvas state, without its calls per step (45 thousand flowables a build's books: each
    saveState copies the canvas's 22 state attributes one by one): the state is copied at once,
    the translation's operator written with the figures remembered (a frame's x, a cell's padding)
    and its matrix worked out as Canvas.transform works it out."""
    x = flowable._hAlignAdjust(x, _sW)
    code, d = canvas._code, canvas.__dict__
    code.append("q")  # saveState
    canvas.state_stack.append({name: d[name] for name in _STATE})
    canvas._extgstate = canvas._extgstate.pushCopy()
    a0, b0, c0, d0, e0, f0 = canvas._currentMatrix  # translate(x, y): transform(1, 0, 0, 1, x, y)
    canvas._currentMatrix = (a0 * 1 + c0 * 0, b0 * 1 + d0 * 0, a0 * 0 + c0 * 1, b0 * 0 + d0 * 1,
                             a0 * x + c0 * y + e0, b0 * x + d0 * y + f0)
    code.append(f"1 0 0 1 {_FIGURES.get(x) or _figures(x)} {_FIGURES.get(y) or _figures(y)} cm")  # after "q": never merged
    flowable.canv = canvas
    flowable.draw()
    del flowable.canv
    if getattr(flowable, "_showBoundary", None):
        canvas.setStrokeColor(gray)
        canvas.rect(0, 0, flowable.width, flowable.height)
    code.append("Q")  # restoreState
    d.update(canvas.state_stack.pop())


_STATE = tuple(Canvas.STATE_ATTRIBUTES)


def set_fill(canvas: Any, colour: Any) -> None:
    """`canvas.setFillColor(colour)`: the same operator and state, remembered per canvas for an
    opaque RGB colour (the text's colours, set before every run of a line): reportlab works the
    operator out and re-checks the opacity each time, the same every time while the fill's
    opacity stays 1 (then it writes no graphics state)."""
    _remembered(canvas, colour, "_pnp_fills", "ca", canvas.setFillColor, "_fillColorObj")


def set_stroke(canvas: Any, colour: Any) -> None:
    """`canvas.setStrokeColor(colour)`, remembered as `set_fill` remembers a fill (the rule between
    side-by-side columns, 2712 over the example books, columns.py)."""
    _remembered(canvas, colour, "_pnp_strokes", "CA", canvas.setStrokeColor, "_strokeColorObj")


def _remembered(canvas: Any, colour: Any, memo: str, alpha: str, setter: Any, state: str) -> None:
    """`setter(colour)` (setFillColor, setStrokeColor), its operator kept in the canvas's `memo` for
    an opaque RGB colour and appended from there while `alpha` stays 1, `state` set as it sets it."""
    known_ops = canvas.__dict__.get(memo)
    if known_ops is None:
        known_ops = canvas.__dict__[memo] = {}
    opaque = canvas._extgstate._d.get(alpha, 1) == 1
    known = known_ops.get(id(colour))
    if known is not None and opaque:
        canvas._code.append(known[1])
        setattr(canvas, state, colour)
        return
    setter(colour)
    if opaque and type(colour) is Color and colour.alpha == 1 and canvas._enforceColorSpace is None:
        known_ops[id(colour)] = (colour, canvas._code[-1])  # the colour kept with it, so that its id stays its own


def _set_fill(canvas: Any, colour: Any) -> str | None:
    """`set_fill(canvas, colour)`; returns the operator it appends from its memo while the fill stays
    opaque, or None when it has none (reportlab's setFillColor writes it each time)."""
    set_fill(canvas, colour)
    known = canvas._pnp_fills.get(id(colour))
    return known[1] if known is not None and canvas._extgstate._d.get("ca", 1) == 1 else None


def _runs(canvas: Any, s: str, font: str, size_pt: float, advance: float | None = None) -> _Runs:
    """The runs of `s` with their operators, worked out (and the characters given codes in the
    document's subsets) in the order they are drawn, at `size_pt` and reportlab's leading for it
    (what setFont(f, size_pt) leaves on the canvas: the canvas itself is set by draw_words).
    `advance`: `s`'s, known to be one run in `font` (draw_words's sums), else it is measured."""
    out: list[tuple[str, str | None, str, float, Any]] = []
    for text, f, advance in (((s, font, advance),) if advance is not None and s else _measured(s, font)):
        if advance is None or not canvas.bottomup:
            out.append((f, None, text, 0.0, None))
            continue
        operators, pieces = _text_operators(canvas, f, text, size_pt)
        out.append((f, operators, text, advance, pieces))
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


def _text_operators(canvas: Any, font: str, text: str, size_pt: float) -> tuple[str, _Pieces]:
    """What reportlab's PDFTextObject._formatText writes for `text` in an unshaped TrueType font
    after setFont(font, size_pt): each glyph subset's font and size, then its string; and the
    text cut where its subset changes (None for one subset)."""
    codes = canvas.__dict__.get("_pnp_codes")
    if codes is None:
        codes = canvas._pnp_codes = {}
    given = codes.get(font)
    if given is not None:  # the usual case: every character has its code (no getFont call either)
        known = given.operators(text, size_pt)
        if known is not None:
            return known
        face = given.face
    else:
        face = getFont(font)
        if (state := face.state.get(canvas._doc)) is not None:
            given = codes[font] = _Codes(state, face, canvas)
            known = given.operators(text, size_pt)
            if known is not None:
                return known
    if given is not None:
        # the characters without a code, each once, in the order splitString meets them in `text`:
        # it gives them the codes it would give them there (reportlab's loop is per character, and
        # a line of Japanese has a new kanji or two among dozens that have codes)
        assignments = given.assignments
        face.splitString("".join([ch for ch in dict.fromkeys(text) if ord(ch) not in assignments]), canvas._doc)
        known = given.operators(text, size_pt)
        if known is not None:
            return known
    parts = []  # a character the face lacks (code 0, never given), or the face's first string here
    chunks = face.splitString(text, canvas._doc)  # gives the new characters their codes
    for subset, chunk in chunks:
        parts.append(_subset_operators(canvas, face, subset, size_pt))
        parts.append(f"({canvas._escape(chunk)}) Tj")
    return " ".join(parts), _pieces(text, [len(chunk) for _, chunk in chunks]) if len(chunks) > 1 else None


_SAME = re.compile(r"(.)\1*", re.S)  # a run of one character (of one subset's mark)
_NONE = "\x00"  # what the tables give a character without a code: no subset's mark, no escaped code


class _Table(dict[int, str]):
    """A str.translate table that turns a character it lacks into _NONE (one search of the
    result then tells whether every character had a code)."""

    def __missing__(self, key: int) -> str:
        return _NONE


class _Codes:
    """The codes one document has given characters of one TrueType face (reportlab's
    TTFont.State.assignments: subset * 256 + code) as two str.translate tables, each character to
    its subset's mark (chr(subset + 1)) and to its code as the PDF string shows it (escaped as
    canvas._escape escapes it: byte by byte): `operators(...)` is what _text_operators makes of
    face.splitString(text, doc), at C speed but for one step per subset run, when every
    character has its code. While every code is in the first subset (a Latin face) the marks
    are not needed: one table does."""

    def __init__(self, state: Any, face: Any, canvas: Any):
        self.face, self.canvas = face, canvas
        self.assignments: dict[int, int] = state.assignments  # grows as splitString gives codes
        self.seen = 0  # how many of them are in the tables
        self.subset, self.shown = _Table(), _Table()
        self.single = True  # every code so far in subset 0
        self.selects: dict[float, dict[str, str]] = {}  # size -> subset mark -> its selection

    def operators(self, text: str, size_pt: float) -> tuple[str, _Pieces] | None:
        """_text_operators's answer, or None when a character of `text` has no code yet."""
        if len(self.assignments) != self.seen:
            self._update()
        if not text:
            return None
        # each subset's selection at this size, by its mark (_subset_operators's, looked up once a run)
        selects = self.selects.get(size_pt)
        if selects is None:
            selects = self.selects[size_pt] = {}
        if self.single:
            shown = text.translate(self.shown)
            if _NONE in shown:
                return None
            select = selects.get("\x01") or selects.setdefault("\x01", self._select(0, size_pt))
            return f"{select} ({shown}) Tj", None
        marks = text.translate(self.subset)
        if _NONE in marks:
            return None
        if marks.count(marks[0]) == len(marks):  # one subset
            select = selects.get(marks[0]) or selects.setdefault(marks[0], self._select(ord(marks[0]) - 1, size_pt))
            return f"{select} ({text.translate(self.shown)}) Tj", None
        parts, pieces = [], []
        for run in _SAME.finditer(marks):
            a, e = run.span()
            mark, piece = marks[a], text[a:e]
            select = selects.get(mark) or selects.setdefault(mark, self._select(ord(mark) - 1, size_pt))
            parts.append(f"{select} ({piece.translate(self.shown)}) Tj")
            pieces.append(piece)
        return " ".join(parts), tuple(pieces)

    def _select(self, subset: int, size_pt: float) -> str:
        return _subset_operators(self.canvas, self.face, subset, size_pt)

    def _update(self) -> None:
        # codes once given never change and the dict keeps their order: the new ones are its last,
        # read from its end (islice from `seen` on walked every code given before, each time)
        subset, shown = self.subset, self.shown
        for code, n in islice(reversed(self.assignments.items()), len(self.assignments) - self.seen):
            subset[code], shown[code] = chr((n >> 8) + 1), escapePDF(bytes((n & 0xFF,)))
            self.single = self.single and n < 256
        self.seen = len(self.assignments)
        if 32 in self.subset:  # splitString sets a no-break space as the space
            self.subset[0xA0], self.shown[0xA0] = self.subset[32], self.shown[32]


def _subset_operators(canvas: Any, face: Any, subset: int, size_pt: float) -> str:
    """Select `subset` of `face` at `size_pt` and reportlab's leading for it (setFont's 1.2 em),
    remembered per canvas (reportlab's getSubsetInternalName names the font in the document the
    first time)."""
    cache = canvas.__dict__.get("_pnp_subsets")
    if cache is None:
        cache = canvas._pnp_subsets = {}
    key = (face.fontName, subset, size_pt)
    out = cache.get(key)
    if out is None:
        name = face.getSubsetInternalName(subset, canvas._doc)
        out = cache[key] = f"{name} {fp_str(size_pt)} Tf {fp_str(size_pt * 1.2)} TL"
    return out
