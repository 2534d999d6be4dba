"""Text in a box: filling lines, inline symbols, and shrinking to fit.

Where a line may break is not decided here: generator/text/breaking.py (kinsoku per JLREQ, Latin
by words) cuts each run of text into groups, the same rule set the rulebook and the maps use, and
a Latin paragraph without inline symbols takes the breaks its total fit chooses, as there.
This module adds what only card boxes need: inline symbols (`:name:`, one em wide), bold and italic
words from a light markup (`**bold**`, `*italic*`, each atom drawn in that weight), widths in mm,
and the largest size at which the text fits. Widths are measured in the font the face draws with
(`font`, a name from generator/fonts.py; the project font when None), as the backends draw it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from solver.game.layouts import INLINE_SYMBOL

from ..geometry import MM_PER_PT
from .. import fonts
from ..render.base import text_width
from ..text import groups
from ..text.breaking import HYPHEN, hyphen_cut, latin_paragraph, total_fit
from ..text.kinsoku import NOT_AT_LINE_END, NOT_AT_LINE_START

SYMBOL_EM = 1.0  # an inline symbol is one em wide


# light markup in card text: **bold**, *italic* (no space just inside the marks; `*` alone stays)
MARKUP = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|\*(?=[^\s*])(.+?)(?<=[^\s*])\*")
BOLD, ITALIC = 1, 2


@dataclass(frozen=True)
class Atom:
    """An unbreakable piece of a line: a group of text (breaking.groups), a space, a symbol.

    `glued`: no line may break before this atom (kinsoku across a symbol: ":coin:。").
    `style`: BOLD and/or ITALIC from the text's markup, drawn in that weight of the field's face."""
    text: str
    symbol: str | None = None
    space: bool = False
    glued: bool = False
    style: int = 0

    def width(self, size_pt: float, font: str | None = None) -> float:
        if self.symbol:
            return SYMBOL_EM * size_pt * MM_PER_PT
        return _width(self.text, size_pt, self.font(font))

    def font(self, font: str | None) -> str | None:
        """The font this atom is drawn in: the field's, in the atom's style."""
        if not self.style or font is None:
            return font
        return fonts.styled(font, bool(self.style & BOLD), bool(self.style & ITALIC))


def styled_segments(para: str, style: int = 0) -> list[tuple[str, int]]:
    """`para` cut at its markup into (text, style) segments, the marks left out."""
    out: list[tuple[str, int]] = []
    pos = 0
    for m in MARKUP.finditer(para):
        if m.start() > pos:
            out.append((para[pos:m.start()], style))
        if m.group(1) is not None:
            out += styled_segments(m.group(1), style | BOLD)  # *italic* inside **bold**
        else:
            out.append((m.group(2), style | ITALIC))
        pos = m.end()
    if pos < len(para) or not out:
        out.append((para[pos:], style))
    return out


def unmarked(text: str) -> str:
    """The text as printed, without its markup (for glyph checks and messages)."""
    return "".join(t for t, _ in styled_segments(text))


@lru_cache(maxsize=65536)
def _width(s: str, size_pt: float, font: str | None = None) -> float:
    return text_width(s, size_pt, font)


def atoms(text: str, symbols: frozenset[str] | None = None) -> list[Atom]:
    """One paragraph as atoms: the breaker's groups for the text, one atom per inline symbol,
    each in the style its markup gives (a word set partly in bold stays one unbreakable unit).
    With `symbols`, a `:name:` not among them is text (printed as typed)."""
    out: list[Atom] = []
    for segment, style in styled_segments(text):
        first = len(out)
        _segment_atoms(segment, style, out, symbols)
        if first and first < len(out) and not out[first].space and not out[first - 1].space:
            out[first] = replace(out[first], glued=True)  # `**bold**,`: no break at the mark
    return out


def _segment_atoms(text: str, style: int, out: list[Atom], symbols: frozenset[str] | None) -> None:
    pos = 0
    found = [m for m in INLINE_SYMBOL.finditer(text) if symbols is None or m.group(1) in symbols]
    for m in [*found, None]:
        end = m.start() if m else len(text)
        piece = text[pos:end]
        for g in groups(piece):
            t = piece[g.start:g.end]
            # A symbol stands for a word: text after it that may not start a line stays with it,
            # and a symbol after an opening bracket stays with the bracket.
            glued = bool(out) and not g.space and not out[-1].space and (
                out[-1].symbol is not None and t[:1] in NOT_AT_LINE_START)
            out.append(Atom(t, space=g.space, glued=glued, style=style))
        if m:
            prev = out[-1] if out else None
            glued = prev is not None and not prev.space and not prev.symbol and prev.text[-1:] in NOT_AT_LINE_END
            out.append(Atom(m.group(0), symbol=m.group(1), glued=glued))
            pos = m.end()


def _units(line_atoms: list[Atom]) -> list[list[Atom]]:
    """Atoms joined into the units a line is filled with (a glued atom joins the one before)."""
    units: list[list[Atom]] = []
    for a in line_atoms:
        if a.glued and units:
            units[-1].append(a)
        else:
            units.append([a])
    return units


def wrap(text: str, width_mm: float, size_pt: float, wrap_lines: bool = True,
         lang: str | None = None, font: str | None = None, symbols: frozenset[str] | None = None) -> list[list[Atom]]:
    """Lines of atoms no wider than `width_mm` where possible: a word that does not fit is
    hyphenated in `lang` when it may be, and one wider than the box is cut by characters."""
    lines: list[list[Atom]] = []
    for para in text.split("\n"):
        if wrap_lines and latin_paragraph(para, lang) and para.strip() and not INLINE_SYMBOL.search(para) \
                and not MARKUP.search(para):
            fitted = total_fit(para, lambda s: _width(s, size_pt, font), width_mm, lang or "")
            if fitted is not None:
                lines += [[Atom(para[ln.start:ln.end] + (HYPHEN if ln.hyphen else ""))] for ln in fitted]
                continue
        line: list[Atom] = []
        w = 0.0
        for unit in _units(atoms(para, symbols)):
            uw = line_width(unit, size_pt, font)
            space = unit[0].space
            if not wrap_lines or w + uw <= width_mm + 1e-9:
                if space and not line:
                    continue  # no leading spaces
                line += unit
                w += uw
                continue
            if space:
                lines.append(_trim(line))
                line, w = [], 0.0
                continue
            word = unit[0].text if len(unit) == 1 and not unit[0].symbol else None
            st, ufont = unit[0].style, unit[0].font(font)  # a **bold** word is cut in bold
            while word is not None:  # end the line with as much of the word as fits, hyphenated
                room, head = width_mm - w, word
                cut = hyphen_cut(head, lambda i: _width(head[:i] + HYPHEN, size_pt, ufont) <= room + 1e-9, lang)
                if cut is None:
                    if line and lang and _width(word, size_pt, ufont) > width_mm:
                        lines.append(_trim(line))  # too wide for any line: hyphenate it from a fresh one
                        line, w = [], 0.0
                        continue
                    break
                lines.append(line + [Atom(word[:cut] + HYPHEN, style=st)])
                line, w, word = [], 0.0, word[cut:]
                unit, uw = [Atom(word, style=st)], _width(word, size_pt, ufont)
                if uw <= width_mm + 1e-9:
                    break
            if line:
                lines.append(_trim(line))
            line, w = [], 0.0
            if uw > width_mm and len(unit) == 1 and not unit[0].symbol and len(unit[0].text) > 1:
                # A word wider than the box: split it by characters.
                for piece in _split_word(unit[0].text, width_mm, size_pt, ufont):
                    if line:
                        lines.append(line)
                    line, w = [Atom(piece, style=st)], _width(piece, size_pt, ufont)
                continue
            line, w = list(unit), uw
        lines.append(_trim(line))
    return lines


def _trim(line: list[Atom]) -> list[Atom]:
    while line and line[-1].space:
        line = line[:-1]
    return line


def _split_word(word: str, width_mm: float, size_pt: float, font: str | None) -> list[str]:
    pieces, cur = [], ""
    for ch in word:
        if cur and _width(cur + ch, size_pt, font) > width_mm:
            pieces.append(cur)
            cur = ch
        else:
            cur += ch
    if cur:
        pieces.append(cur)
    return pieces


def line_width(line: list[Atom], size_pt: float, font: str | None = None) -> float:
    return sum(a.width(size_pt, font) for a in line)


def block_height(n_lines: int, size_pt: float, line_height: float, font: str | None = None) -> float:
    """Height in mm from the top of the first line's ascent to the bottom of the last descent."""
    em = size_pt * MM_PER_PT
    info = fonts.font_info(font or fonts.register())
    return (n_lines - 1) * em * line_height + em * (info.ascent + info.descent) if n_lines else 0.0


@dataclass(frozen=True)
class Fitted:
    size_pt: float
    lines: list[list[Atom]]
    fits: bool


@lru_cache(maxsize=8192)
def fit(text: str, width_mm: float, height_mm: float, size_pt: float, min_size_pt: float,
        line_height: float, wrap_lines: bool = True, lang: str | None = None,
        font: str | None = None, symbols: frozenset[str] | None = None) -> Fitted:
    """The largest size from `size_pt` down to `min_size_pt` (0.25 pt steps) at which the text fits.

    Cached: a deck repeats the same strings (ranks, values, labels) many times. Callers must not
    modify the returned lines."""
    size = size_pt
    if "\n" not in text and ":" not in text and "*" not in text:
        # Fast path: one line that fits as it is needs no wrapping.
        w = _width(text, size, font)
        if w <= width_mm + 1e-6 and block_height(1, size, line_height, font) <= height_mm + 1e-6:
            return Fitted(size, [[Atom(text)]], True)
    while True:
        lines = wrap(text, width_mm, size, wrap_lines, lang, font, symbols)
        ok = (block_height(len(lines), size, line_height, font) <= height_mm + 1e-6
              and all(line_width(ln, size, font) <= width_mm + 1e-6 for ln in lines))
        if ok or size - 0.25 < min_size_pt - 1e-9:
            return Fitted(size, lines, ok)
        size = round(size - 0.25, 2)
