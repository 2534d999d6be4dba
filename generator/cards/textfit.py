"""Text in a box: wrapping (Latin by words, Japanese per character with simple kinsoku),
inline symbols, and shrinking to fit.

The kinsoku rule here is deliberately small (no line starts with 、。，．）」』！？ and none ends
with （「『); the rulebook's generator/text/kinsoku.py may later replace `atoms`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solver.model_layout import INLINE_SYMBOL

from ..geometry import MM_PER_PT
from ..render.base import ASCENT, DESCENT, text_width

NO_START = set("、。，．）」』！？,.)!?:;・ーぁぃぅぇぉっゃゅょァィゥェォッャュョ")
NO_END = set("（「『(")
SYMBOL_EM = 1.0  # an inline symbol is one em wide


def is_cjk(ch: str) -> bool:
    o = ord(ch)
    return o >= 0x2E80 and not (0xFF61 <= o <= 0xFF9F)  # half-width katakana behave like Latin


@dataclass(frozen=True)
class Atom:
    """An unbreakable piece of a line: a word, one CJK character (with kinsoku glue), a space, a symbol."""
    text: str
    symbol: str | None = None
    space: bool = False

    def width(self, size_pt: float) -> float:
        if self.symbol:
            return SYMBOL_EM * size_pt * MM_PER_PT
        return _width(self.text, size_pt)


@lru_cache(maxsize=65536)
def _width(s: str, size_pt: float) -> float:
    return text_width(s, size_pt)


def atoms(text: str) -> list[Atom]:
    """Split one paragraph into atoms, gluing kinsoku characters to their neighbours."""
    out: list[Atom] = []
    pos = 0
    for m in list(INLINE_SYMBOL.finditer(text)) + [None]:
        end = m.start() if m else len(text)
        out += _text_atoms(text[pos:end])
        if m:
            out.append(Atom(m.group(0), symbol=m.group(1)))
            pos = m.end()
    # Kinsoku: a no-start atom joins the previous atom; a no-end atom joins the next.
    glued: list[Atom] = []
    for a in out:
        if glued and not a.space and not a.symbol and a.text[:1] in NO_START and not glued[-1].space \
                and not glued[-1].symbol:
            glued[-1] = Atom(glued[-1].text + a.text)
        else:
            glued.append(a)
    merged: list[Atom] = []
    carry = ""
    for a in glued:
        if carry and not a.space and not a.symbol:
            a = Atom(carry + a.text)
            carry = ""
        elif carry:
            merged.append(Atom(carry))
            carry = ""
        if not a.space and not a.symbol and a.text[-1:] in NO_END:
            carry = a.text
            continue
        merged.append(a)
    if carry:
        merged.append(Atom(carry))
    return merged


def _text_atoms(s: str) -> list[Atom]:
    out: list[Atom] = []
    word = ""
    for ch in s:
        if ch.isspace():
            if word:
                out.append(Atom(word))
                word = ""
            out.append(Atom(" ", space=True))
        elif is_cjk(ch):
            if word:
                out.append(Atom(word))
                word = ""
            out.append(Atom(ch))
        else:
            word += ch
    if word:
        out.append(Atom(word))
    return out


def wrap(text: str, width_mm: float, size_pt: float, wrap_lines: bool = True) -> list[list[Atom]]:
    """Lines of atoms no wider than `width_mm` where possible (a single long word may overflow
    only when it cannot be split by characters)."""
    lines: list[list[Atom]] = []
    for para in text.split("\n"):
        line: list[Atom] = []
        w = 0.0
        for a in atoms(para):
            aw = a.width(size_pt)
            if not wrap_lines or w + aw <= width_mm + 1e-9 or (not line and a.space):
                if a.space and not line:
                    continue  # no leading spaces
                line.append(a)
                w += aw
                continue
            if a.space:
                lines.append(_trim(line))
                line, w = [], 0.0
                continue
            if line:
                lines.append(_trim(line))
            line, w = [], 0.0
            if aw > width_mm and not a.symbol and len(a.text) > 1:
                # A word wider than the box: split it by characters.
                for piece in _split_word(a.text, width_mm, size_pt):
                    if line:
                        lines.append(line)
                    line, w = [Atom(piece)], _width(piece, size_pt)
                continue
            line, w = [a], aw
        lines.append(_trim(line))
    return lines


def _trim(line: list[Atom]) -> list[Atom]:
    while line and line[-1].space:
        line = line[:-1]
    return line


def _split_word(word: str, width_mm: float, size_pt: float) -> list[str]:
    pieces, cur = [], ""
    for ch in word:
        if cur and _width(cur + ch, size_pt) > width_mm:
            pieces.append(cur)
            cur = ch
        else:
            cur += ch
    if cur:
        pieces.append(cur)
    return pieces


def line_width(line: list[Atom], size_pt: float) -> float:
    return sum(a.width(size_pt) for a in line)


def block_height(n_lines: int, size_pt: float, line_height: float) -> float:
    """Height in mm from the top of the first line's ascent to the bottom of the last descent."""
    em = size_pt * MM_PER_PT
    return (n_lines - 1) * em * line_height + em * (ASCENT + DESCENT) if n_lines else 0.0


@dataclass(frozen=True)
class Fitted:
    size_pt: float
    lines: list[list[Atom]]
    fits: bool


@lru_cache(maxsize=8192)
def fit(text: str, width_mm: float, height_mm: float, size_pt: float, min_size_pt: float,
        line_height: float, wrap_lines: bool = True) -> Fitted:
    """The largest size from `size_pt` down to `min_size_pt` (0.25 pt steps) at which the text fits.

    Cached: a deck repeats the same strings (ranks, values, labels) many times. Callers must not
    modify the returned lines."""
    size = size_pt
    if "\n" not in text and ":" not in text:
        # Fast path: one line that fits as it is needs no wrapping.
        w = _width(text, size)
        if w <= width_mm + 1e-6 and block_height(1, size, line_height) <= height_mm + 1e-6:
            return Fitted(size, [[Atom(text)]], True)
    while True:
        lines = wrap(text, width_mm, size, wrap_lines)
        ok = (block_height(len(lines), size, line_height) <= height_mm + 1e-6
              and all(line_width(ln, size) <= width_mm + 1e-6 for ln in lines))
        if ok or size - 0.25 < min_size_pt - 1e-9:
            return Fitted(size, lines, ok)
        size = round(size - 0.25, 2)
