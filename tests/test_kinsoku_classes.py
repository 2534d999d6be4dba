"""generator/text/kinsoku.py's classes at their edges: which characters are set solid as CJK
(each Unicode block's first and last code point, and its neighbours outside, named here by hand
from the Unicode charts), and which pairs a line may not break between (JLREQ's classes, one
sample each, and the doubled marks)."""
from __future__ import annotations

import unicodedata

import pytest

from generator.text.kinsoku import is_cjk, may_break_between

# (first, last) code points of each block set solid, from the Unicode charts
SOLID_BLOCKS = [
    (0x3000, 0x30FF),  # CJK symbols and punctuation, hiragana, katakana
    (0x3400, 0x4DBF),  # CJK unified ideographs extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF61, 0xFF9F),  # halfwidth katakana and its punctuation
    (0x31F0, 0x31FF),  # katakana phonetic extensions (small ㇰ…ㇿ)
    (0x2E80, 0x2FDF),  # CJK radicals supplement, Kangxi radicals
    (0x2460, 0x24FF),  # enclosed alphanumerics (①)
]
OUTSIDE = [0x2FFF, 0x3100, 0x33FF, 0x4DC0, 0x4DFF, 0xA000, 0xF8FF, 0xFB00, 0xFFA0, 0x31EF, 0x3200,
           0x2E7F, 0x2FE0, 0x245F, 0x2500, 0xFF00]


@pytest.mark.parametrize("first,last", SOLID_BLOCKS)
def test_each_solid_block_from_its_first_to_its_last_code_point(first, last):
    assert is_cjk(chr(first)) and is_cjk(chr(last)) and is_cjk(chr((first + last) // 2))


@pytest.mark.parametrize("o", OUTSIDE)
def test_the_code_points_just_outside_are_not_solid(o):
    assert not is_cjk(chr(o)), hex(o)


def test_fullwidth_forms_are_solid_but_fullwidth_letters_and_digits_are_latin():
    assert is_cjk("！") and is_cjk("｠") and is_cjk("／") and is_cjk("：") and is_cjk("＠")  # FF01, FF60, FF0F, FF1A, FF20
    assert is_cjk("［") and is_cjk("｀") and is_cjk("｛")  # FF3B, FF40, FF5B: just past Ｚ and ｚ's neighbours
    for ch in "０９ＡＺａｚＭｍ５":
        assert unicodedata.name(ch).startswith("FULLWIDTH") and not is_cjk(ch), ch


def test_latin_text_and_the_listed_symbols():
    assert not any(is_cjk(ch) for ch in "aZ09 é-.,!?()\u00a0\u2013")
    assert all(is_cjk(ch) for ch in "…‥―—※○●◆◇■□△▲▽▼☆★→←↑↓")


@pytest.mark.parametrize("mark", list("）」』】〕。、．，？！・：；ー々っャ〜％℃…‥"))
def test_a_closing_or_small_mark_never_starts_a_line(mark):
    assert may_break_between("山", mark) is False  # a bool, as annotated: False, not merely falsy
    assert may_break_between(mark, "山") or mark in "…‥"


@pytest.mark.parametrize("mark", list("（「『【〔《＄￥"))
def test_an_opening_mark_never_ends_a_line(mark):
    assert may_break_between(mark, "山") is False
    assert may_break_between("山", mark)


@pytest.mark.parametrize("pair", ["……", "‥‥", "――", "——"])
def test_a_doubled_mark_stays_together(pair):
    assert may_break_between(pair[0], pair[1]) is False


def test_different_dashes_and_plain_characters_may_part():
    assert may_break_between("―", "—") and may_break_between("—", "―")
    assert may_break_between("―", "山") and may_break_between("山", "―") and may_break_between("山", "川")
    assert may_break_between("a", "b") and may_break_between("…", "山")


def test_a_paragraphs_atoms_are_cut_where_is_cjk_and_the_breaking_spaces_say():
    # breaking.atoms finds atoms with a regular expression (kinsoku.CJK_CLASS); the rule, from
    # is_cjk and str.isspace: a CJK character or a space other than the no-break one stands alone
    # between two letters, anything else joins them into one run
    from generator.text.breaking import atoms
    from generator.text.kinsoku import is_cjk

    wrong = []
    for code in range(0x10000):
        ch = chr(code)
        alone = is_cjk(ch) or (ch.isspace() and ch != "\u00a0")
        if atoms(f"a{ch}b") != ([(0, 1), (1, 2), (2, 3)] if alone else [(0, 3)]):
            wrong.append(hex(code))
    assert not wrong
