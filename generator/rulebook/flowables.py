"""reportlab flowables that set text with our kinsoku line breaking.

`KPara` draws a paragraph whose lines come from `generator.text.wrap_spans`, with a hanging marker
(clause number, bullet, ※), coloured cross-reference links, a named destination and an outline
entry (SideBySide and Indented, in columns.py, are imported from here too).
Every line drawn is reported to the `Recorder`, so tests check the rendered lines themselves.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from reportlab.lib.colors import Color, HexColor
from reportlab.platypus import Flowable, Table

from generator import fonts
from generator.text import Span, balanced_width, wrap_spans
from generator.text.wrap import advance_sums

from .blocks import Text
from .drawstring import Line, draw_lines, draw_on, draw_string, draw_words, set_fill
from .justify import space_width, word_space
from .columns import Indented, SideBySide  # noqa: F401  (theirs to import from here, as before)

LINK_COLOUR = HexColor("#1f4e9a")
ACCENT = HexColor("#7a2e1d")  # headings, rules and table headers
_PARAGRAPHS = itertools.count(1)  # ids for DrawnLine.para
_SPACES = re.compile(" *")  # where a line's text goes on after its spaces


@dataclass
class Recorder:
    """What the typesetter did: destinations with their pages, lines drawn (page, text)."""
    anchors: dict[str, int] = field(default_factory=dict)
    lines: list["DrawnLine"] = field(default_factory=list)
    links: list[tuple[int, str]] = field(default_factory=list)  # (page, destination)
    layout_only: bool = False  # a pass that only finds where things land: record anchors, draw no text
    # every line drawn, in `lines` (what the tests read of a book); a build, which reads none of
    # them, leaves them out
    keep_lines: bool = True
    drawn: list = field(default_factory=list)  # every string drawn, for preflight (drawn.py)


@dataclass(frozen=True)
class DrawnLine:
    page: int
    lang: str
    text: str
    continues: bool  # a line break inside the paragraph comes before this line
    continued: bool  # ... and after it
    role: str = "text"  # text | heading | cell (as the typesetter placed the paragraph)
    x0: float = 0.0  # where the text starts and ends on the page, pt from its left edge
    x1: float = 0.0
    limit: float = 0.0  # the right edge of the room it was given (column, table cell), pt
    y: float = 0.0  # baseline, pt from the bottom edge of the page
    para: int = 0  # which paragraph (the parts of a paragraph split over pages share it)
    hyphen: bool = False  # the line ends inside a word, with a hyphen drawn after `text`
    word_space: float = 0.0  # pt added at each space to justify the line (0: set ragged)


@dataclass(frozen=True)
class Style:
    font: str
    size: float
    leading: float
    colour: Color = HexColor("#000000")
    space_before: float = 0.0
    space_after: float = 0.0
    indent: float = 0.0  # left indent of the whole paragraph
    justify: bool = False  # Latin body text: hyphenated and justified (rulebook/justify.py)
    ground: tuple[int, int, int] | None = None  # the fill the text stands on (a table header's), else the paper


class KPara(Flowable):
    def __init__(self, text: Text, style: Style, recorder: Recorder, *, lang: str = "", marker: str = "",
                 marker_width: float | None = None, anchor: str = "", outline: tuple[str, int] | None = None,
                 rule: bool = False, spans: list[Span] | None = None, first: bool = True, role: str = "text",
                 para: int | None = None, phrases: bool = False, balance: bool = False,
                 marker_tab: float = 0.0):
        super().__init__()
        self.phrases = phrases  # titles: break at spaces when that works (see wrap_spans)
        self.balance = balance  # headings and titles: lines of even length (see balanced_width)
        self.role = role
        self.para = para if para is not None else next(_PARAGRAPHS)
        self.text, self.style, self.rec, self.lang = text, style, recorder, lang
        self.marker, self.anchor, self.outline, self.rule = marker, anchor, outline, rule
        # a marker "1.1\t•" prints what follows the tab at this offset, so the bullet of a list's
        # numbered first item stands where its unnumbered siblings put theirs
        self.marker_tab = marker_tab
        self.marker_width = marker_width if marker_width is not None else (
            fonts.string_width(marker + " ", style.font, style.size) if marker else 0.0)
        self._spans = spans
        self._by_width: dict[float, list[Span]] = {}
        self.first = first  # False for the continuation after a page break
        self._width = 0.0

    # -- geometry
    @property
    def text_x(self) -> float:
        return self.style.indent + self.marker_width

    def _lines(self, avail_w: float) -> list[Span]:
        """The paragraph's lines in a column of `avail_w` (remembered per width: platypus wraps a
        flowable several times, for its frame, for keepWithNext, for a split, and draws it)."""
        if self._spans is not None:
            return self._spans
        lines = self._by_width.get(avail_w)
        if lines is None:
            lines = self._by_width[avail_w] = self._wrapped(avail_w)
        return lines

    def _wrapped(self, avail_w: float) -> list[Span]:
        if not self.text.text:
            return [Span(0, 0)] if self.marker else []
        width = max(avail_w - self.text_x, self.style.size)
        if self.balance:
            width = balanced_width(self.text.text, self.style.font, self.style.size, width, phrases=self.phrases)
        # headings and titles are balanced, never hyphenated; running text is, in its language
        return wrap_spans(self.text.text, self.style.font, self.style.size, width, phrases=self.phrases,
                          lang=None if self.balance else self.lang, justified=self.style.justify and not self.balance)

    def _before(self) -> float:
        return self.style.space_before if self.first else 0.0

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        self._width = avail_w
        lines = self._lines(avail_w)
        self.height = self._before() + len(lines) * self.style.leading + self.style.space_after
        self.width = avail_w
        return avail_w, self.height

    MIN_LINES = 2  # no widows or orphans: a split leaves at least this many lines on each page

    def split(self, avail_w: float, avail_h: float) -> list[Flowable]:
        lines = self._lines(avail_w)
        fit = int((avail_h - self._before() - self.style.space_after) // self.style.leading)
        if fit >= len(lines):
            return [self]
        keep = min(fit, len(lines) - self.MIN_LINES)
        # no word hyphenated across the page turn (TeX's \brokenpenalty, here infinite): the page
        # ends a line earlier, or the whole paragraph moves on
        while keep >= self.MIN_LINES and self._broken(lines[keep - 1]):
            keep -= 1
        if keep < self.MIN_LINES:
            return []  # the whole paragraph goes to the next page
        head = KPara(self.text, self.style, self.rec, lang=self.lang, marker=self.marker,
                     marker_width=self.marker_width, anchor=self.anchor, outline=self.outline,
                     rule=self.rule, spans=lines[:keep], first=self.first, role=self.role, para=self.para,
                     marker_tab=self.marker_tab)
        tail = KPara(self.text, self.style, self.rec, lang=self.lang, marker="", marker_width=self.marker_width,
                     spans=lines[keep:], first=False, role=self.role, para=self.para)
        return [head, tail]

    def _broken(self, span: Span) -> bool:
        """The line ends inside a word: at a hyphenation point, or after the word's own hyphen (team-|mates)."""
        text = self.text.text
        return span.hyphen or (span.start < span.end < len(text) and text[span.end - 1] in "-\u2010"
                               and not text[span.end].isspace())

    # -- drawing
    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        if self.rec.layout_only:
            # a layout pass records destinations' pages only: its canvas is never saved, so neither
            # its state nor a translation for `draw` (4692 anchors over the example books)
            if self.anchor:
                self.rec.anchors.setdefault(self.anchor, canvas.getPageNumber())
            return
        draw_on(self, canvas, x, y, _sW)  # Flowable.drawOn's bytes and state

    def draw(self) -> None:
        c, st = self.canv, self.style
        page = c.getPageNumber()
        top = self.height - self._before()
        if self.anchor:
            self.rec.anchors.setdefault(self.anchor, page)
            if not self.rec.layout_only:  # a layout pass's canvas is never saved: no destination
                c.bookmarkHorizontal(self.anchor, 0, top + st.leading * 0.2)
                if self.outline:
                    title, level = self.outline
                    c.addOutlineEntry(title, self.anchor, level=level, closed=level > 0)
        if self.rec.layout_only:
            return
        c.setFont(st.font, st.size)
        c._pnp_ground = st.ground  # what preflight's record says the text stands on (drawn.note)
        # the baseline sits the face's own ascent below the top of the em box (IPAex 0.88, Source
        # Serif 0.73), so Latin text is centred in its line as Japanese is
        baseline0 = top - (st.leading - st.size) / 2 - st.size * fonts.font_info(st.font).ascent
        if self.marker and self.first:
            set_fill(c, st.colour)
            head, _, tail = self.marker.partition("\t")
            draw_string(c, st.indent, baseline0, head, st.font, st.size)
            if tail:
                draw_string(c, st.indent + self.marker_tab, baseline0, tail, st.font, st.size)
        spans = self._lines(self._width)
        # the running sums of the text's advances, as the line breaker asked fonts.advances for them
        # (text + hyphen: remembered there): a string new to the canvas takes its advance from them
        # rather than a sum over its characters (None: a character drawn in another face)
        self._sums = advance_sums(self.text.text, st.font)
        if self.text.links:
            for i, span in enumerate(spans):
                y = baseline0 - i * st.leading
                self._space = self._word_space(span)
                end = self._draw_line(span, y)
                if self.rec.keep_lines:
                    self._record(page, spans, i, y, end)
        else:
            self._draw_lines(page, spans, baseline0)
        self._space, self._sums = 0.0, None
        if self.rule:
            c.setStrokeColor(st.colour)
            c.setLineWidth(0.6)
            c.line(st.indent, top - len(self._lines(self._width)) * st.leading - 1, self._width, top - len(self._lines(self._width)) * st.leading - 1)
        c._pnp_ground = None

    def _record(self, page: int, spans: list[Span], i: int, y: float, end: float) -> None:
        """Tell the recorder about line `i` of `spans`, just drawn at baseline y up to x `end`."""
        c, span = self.canv, spans[i]
        whole = self._spans is None or (self.first and spans and spans[-1].end == len(self.text.text.rstrip()))
        (x0, ay), (x1, _) = c.absolutePosition(self.text_x, y), c.absolutePosition(end, y)
        self.rec.lines.append(DrawnLine(page, self.lang, self.text.text[span.start:span.end] + ("-" if span.hyphen else ""),
                                        continues=i > 0 or not self.first,
                                        continued=i < len(spans) - 1 or not whole,
                                        role=self.role, x0=x0, x1=x1, limit=c.absolutePosition(self._width, 0)[0],
                                        y=ay, para=self.para, hyphen=span.hyphen, word_space=self._space))

    _space = 0.0  # pt added at each space of the line being drawn (justification)
    _sums: Sequence[float] | None = None  # the text's running sums of advances while it is drawn (fonts.advances)

    def _word_space(self, span: Span) -> float:
        """Justification of one line: none for ragged styles and for the last line of a paragraph."""
        text = self.text.text
        if not self.style.justify:
            return 0.0
        if not span.hyphen:  # the last line of a paragraph stays ragged: nothing after it but spaces, or a break
            rest = _SPACES.match(text, span.end).end()  # type: ignore[union-attr]
            if rest == len(text) or text[rest] == "\n":
                return 0.0
        width = max(self._width - self.text_x, self.style.size)
        sums, natural = self._sums, None
        if sums is not None:  # fonts.string_width's figure from the paragraph's exact sums (its last: the hyphen)
            natural = 0.001 * self.style.size * (sums[span.end] - sums[span.start] + (sums[-1] - sums[-2] if span.hyphen else 0))
        return word_space(text[span.start:span.end], span.hyphen, self.style.font, self.style.size, width, natural)

    def _draw_lines(self, page: int, spans: list[Span], baseline0: float) -> None:
        """Draw the lines of a paragraph without links in one call: drawstring.draw_lines, the same
        bytes and state as `_draw_line` line by line, with the canvas's lookups done once."""
        st, text, x0 = self.style, self.text.text, self.text_x
        lines: list[Line] = []
        lasts, spaces = [], []  # per line: the index of its last piece in `lines` (-1: none), its word space
        for i, span in enumerate(spans):
            y, space = baseline0 - i * st.leading, self._word_space(span)
            if span.start < span.end:
                words = text[span.start:span.end].split(" ") if space else (text[span.start:span.end],)
                lines.append((x0, y, words, space_width(st.font, st.size) + space if space else 0.0, span.start))
            if span.hyphen:  # from where the line's text ends (x None)
                lines.append((x0 if span.start == span.end else None, y, ("-",), 0.0, -1))
            lasts.append(len(lines) - 1 if span.start < span.end or span.hyphen else -1)
            spaces.append(space)
        ends = draw_lines(self.canv, lines, st.font, st.size, self._sums, st.colour) if lines else []
        for i in range(len(spans) if self.rec.keep_lines else 0):
            self._space = spaces[i]
            self._record(page, spans, i, baseline0 - i * st.leading, ends[lasts[i]] if lasts[i] >= 0 else x0)

    def _draw_line(self, span: Span, y: float) -> float:
        """Draw one line; returns where it ends (x in the flowable's space)."""
        c, st, text = self.canv, self.style, self.text.text
        x = self.text_x
        pos = span.start
        for link in self.text.links:
            a, b = max(link.start, span.start), min(link.end, span.end)
            if a >= b:
                continue
            x = self._segment(text[pos:a], x, y, st.colour, pos)
            x0 = x
            x = self._segment(text[a:b], x, y, LINK_COLOUR, a)
            c.linkRect("", link.anchor, (x0, y - st.size * 0.2, x, y + st.size * fonts.font_info(st.font).ascent), relative=1, thickness=0)
            self.rec.links.append((c.getPageNumber(), link.anchor))
            pos = b
        x = self._segment(text[pos:span.end], x, y, st.colour, pos)
        return self._segment("-", x, y, st.colour) if span.hyphen else x

    def _segment(self, s: str, x: float, y: float, colour: Color, start: int | None = None) -> float:
        """Draw `s` (the text's own from `start`, None: not the text's) from x (each character in
        a font that has it, word spaces widened by the line's justification); returns where it ends."""
        if not s:
            return x
        set_fill(self.canv, colour)
        st = self.style
        sums = self._sums if start is not None else None
        if not self._space:
            return draw_words(self.canv, x, y, (s,), 0.0, st.font, st.size, sums, start or 0)  # draw_string's call
        gap = space_width(st.font, st.size) + self._space
        return draw_words(self.canv, x, y, s.split(" "), gap, st.font, st.size, sums, start or 0)




class RowTable(Table):
    """A table that breaks across pages only between rows and leaves at least two body rows on
    each side (a header with one row under it at the foot of a page reads as a mistake)."""

    MIN_ROWS = 2

    def _calc(self, availWidth: float, availHeight: float) -> None:  # once a width (2.6 times a table-width a book)
        if availWidth != getattr(self, "_measured_at", None) or self._spanCmds:  # no row spans: nothing else counts
            super()._calc(availWidth, availHeight)
            self._measured_at = availWidth

    def _listCellGeom(self, V: Any, w: float, s: Any, W: list | None = None, H: list | None = None,
                      aH: float = 72000) -> tuple[float, float]:
        """reportlab's cell geometry (its width and height) for a cell of one KPara, without the
        calls it makes for any flowable (wrapOn, spaceBefore/After: a KPara has neither), to the
        bit the same: a table is measured at every wrap and split of every pass (about five
        times each cell of a book); other cells go to reportlab's own."""
        if len(V) != 1 or type(V[0]) is not KPara:
            return super()._listCellGeom(V, w, s, W, H, aH)
        aW = w - s.leftPadding - s.rightPadding
        if aW < 0:
            return super()._listCellGeom(V, w, s, W, H, aH)
        vw, vh = V[0].wrap(aW, aH - s.topPadding - s.bottomPadding)
        if W is not None:
            W.append(vw)
        if H is not None:
            H.append(vh)
        return max(0, vw), vh

    def split(self, avail_w: float, avail_h: float) -> list[Flowable]:
        parts = super().split(avail_w, avail_h)
        if len(parts) != 2:
            return parts
        header = self.repeatRows if isinstance(self.repeatRows, int) else len(self.repeatRows)
        head_rows = len(parts[0]._cellvalues) - header
        tail_rows = len(parts[1]._cellvalues) - header
        if head_rows < self.MIN_ROWS:
            return []  # all of it on the next page
        if tail_rows >= self.MIN_ROWS:
            return parts
        # take rows along to the next page: split again with less room
        n = len(parts[0]._cellvalues)
        return self.split(avail_w, avail_h - sum(self._rowHeights[n - (self.MIN_ROWS - tail_rows):n]))
