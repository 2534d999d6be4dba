"""Japanese line-breaking rules (kinsoku shori) after JLREQ and JIS X 4051: the one rule set of
the line breaker (generator/text/breaking.py) for cards, counters, maps and rulebooks.

Character classes (JLREQ appendix A numbering):
- cl-01 opening brackets may not END a line;
- cl-02 closing brackets, cl-03 hyphens (and the wave dash 〜), cl-04 dividing punctuation (？！),
  cl-05 middle dots (・：；), cl-06 full stops, cl-07 commas, cl-08 the inseparable marks …‥,
  cl-09 iteration marks (々), cl-10 the prolonged sound mark, cl-11 small kana, and cl-20 postfixed
  abbreviations (％ ℃) may not START a line (the strict set: reportlab's CJK wrap, and the cards
  before this module served them, let 〜 … 】 》 ％ 々 start a line);
- closing runs like 」。 stay together (the whole run moves, not only one mark);
- cl-08 doubled marks ……, ‥‥ and ―― are never split; neither is a run of Latin letters and
  digits, so numbers like 10.10 or (10.10) stay whole.
"""
from __future__ import annotations

from functools import lru_cache

# cl-01 opening brackets (+ JIS prefixed abbreviations that should not be orphaned at a line end)
NOT_AT_LINE_END = frozenset("（〔［｛〈《「『【〘〖〝‘“｟«([{" + "＄￥￡＃")

# cl-02 closing brackets
_CLOSING = "）〕］｝〉》」』】〙〗〟’”｠»)]}"
# cl-03 hyphens, cl-04 dividing punctuation, cl-05 middle dots, cl-06 full stops, cl-07 commas
_PUNCT = "‐゠–〜～" + "？！‼⁇⁈⁉?!" + "・：；:;" + "。．." + "、，,"
# cl-09 iteration marks, cl-10 prolonged sound mark, cl-11 small kana
_SMALL = "ヽヾゝゞ々〻" + "ー" + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
# cl-08 inseparable marks, and cl-20 postfixed abbreviations (units that read wrong at a line start)
_OTHER = "…‥" + "%％‰℃°′″¢"
NOT_AT_LINE_START = frozenset(_CLOSING + _PUNCT + _SMALL + _OTHER)

# Doubled marks written as pairs: never break between two of the same.
INSEPARABLE_PAIRS = frozenset("…‥―—")


@lru_cache(maxsize=None)  # one entry a character: a few thousand in a whole build
def is_cjk(ch: str) -> bool:
    """Characters set solid (one atom each, a break possible on either side in principle).
    Remembered per character: the line breaker asks for every character of every paragraph."""
    o = ord(ch)
    return (0x3000 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF
            or 0xF900 <= o <= 0xFAFF or 0xFF01 <= o <= 0xFF60 and not _is_fullwidth_alnum(ch)
            or 0xFF61 <= o <= 0xFF9F or 0x31F0 <= o <= 0x31FF or 0x2E80 <= o <= 0x2FDF
            or ch in "…‥―—※○●◆◇■□△▲▽▼☆★→←↑↓" or 0x2460 <= o <= 0x24FF)


# is_cjk's characters as a regular-expression class (without brackets), for finding atoms at C
# speed (breaking.atoms); tests check the two agree on every character of the BMP.
CJK_CLASS = ("\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
             "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60"  # full width, but its letters and digits
             "\uff61-\uff9f\u31f0-\u31ff\u2e80-\u2fdf\u2460-\u24ff"
             "…‥―—※○●◆◇■□△▲▽▼☆★→←↑↓")


def _is_fullwidth_alnum(ch: str) -> bool:
    return "０" <= ch <= "９" or "Ａ" <= ch <= "Ｚ" or "ａ" <= ch <= "ｚ"


def may_break_between(left: str, right: str) -> bool:
    """May a line end after the character `left` and the next begin with `right`?
    (Only for neighbouring atoms; a space between them is always a break opportunity.)"""
    if right in NOT_AT_LINE_START or left in NOT_AT_LINE_END:
        return False
    if left == right and left in INSEPARABLE_PAIRS:
        return False
    return True
