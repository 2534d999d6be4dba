"""Japanese line breaking: JLREQ / JIS X 4051 line-start and line-end rules on real rule texts."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator import fonts
from generator.text import wrap
from generator.text.kinsoku import NOT_AT_LINE_END, NOT_AT_LINE_START
from solver.game.folders import game_ids
from solver.game.loader import load_game
from solver.rules.model import REF_MARKUP

FONT = fonts.register()
SIZE = 9.5


def _texts() -> list[str]:
    """Every Japanese clause text of every game that has rules as clauses, as printed: a [[clause-id]]
    reference is the clause's number."""
    out = []
    for game in game_ids():
        rules = load_game(game).extras.get("rules")
        if rules is not None and rules.language == "ja":
            numbers = rules.numbers()
            out += [REF_MARKUP.sub(lambda m: numbers.get(m.group(1), m.group(1)), t) for _, t in rules.units()]
    return out


TEXTS = _texts()
WIDTHS = [SIZE * n for n in (9, 12, 17, 23, 31)]  # narrower, a glued run like 「Amethyst(紫・ is wider than the line


def _check_lines(text: str, lines: list[str], width: float) -> None:
    assert "".join(lines).replace(" ", "") == text.replace(" ", "").replace("\n", "")
    for i, line in enumerate(lines):
        assert stringWidth(line, FONT, SIZE) <= width + 1e-6, line
        if i > 0:
            assert line[0] not in NOT_AT_LINE_START, (lines[i - 1], line)
        if i < len(lines) - 1:
            assert line[-1] not in NOT_AT_LINE_END, (line, lines[i + 1])
            nxt = lines[i + 1]
            for pair in ("……", "――", "‥‥"):
                assert not (line.endswith(pair[0]) and nxt.startswith(pair[0])), (line, nxt)


@pytest.mark.parametrize("width", WIDTHS)
def test_rule_texts_break_by_kinsoku_at_many_widths(width):
    for text in TEXTS:
        _check_lines(text, wrap(text, FONT, SIZE, width), width)


def test_closing_runs_move_together_instead_of_splitting():
    text = "ああああ「トリック」。いいい"
    width = stringWidth("ああああ「トリック", FONT, SIZE) + 1  # 」。 would not fit: the run moves, not one mark
    lines = wrap(text, FONT, SIZE, width)
    assert all(ln[0] not in "」。" for ln in lines)
    assert any("」。" in ln for ln in lines)


@pytest.mark.parametrize("text,whole", [
    ("あいうえおかきくけこさしすせそ……たちつてと", "……"),
    ("あいうえおかきくけこさしすせそ――たちつてと", "――"),
    ("あいうえおかきくけこさしすせ(10.10)による", "(10.10)"),
    ("あいうえおかきくけこさしすせ１０．１０による", None),
    ("Move the Fellowship per rule 10.10 before the end", "10.10"),
])
def test_inseparable_runs_and_numbers_are_never_split(text, whole):
    for n in range(5, 16):
        lines = wrap(text, FONT, SIZE, SIZE * n)
        if whole:
            assert any(whole in ln for ln in lines), (n, lines)
        for a, b in zip(lines, lines[1:]):
            assert b[0] not in NOT_AT_LINE_START and a[-1] not in NOT_AT_LINE_END


def test_reportlab_cjk_wrap_would_break_these_rules_but_ours_does_not():
    """The cases of the issue: ，．！？：〉》…‥〜 never start a line; （「『【〈《［ never end one."""
    starts = "，．！？：〉》…‥〜"
    ends = "（「『【〈《［"
    for ch in starts:
        text = "あ" * 9 + ch + "い" * 9
        lines = wrap(text, FONT, SIZE, SIZE * 9.2)
        assert all(ln[0] != ch for ln in lines[1:]), (ch, lines)
    for ch in ends:
        text = "あ" * 8 + ch + "い" * 9
        lines = wrap(text, FONT, SIZE, SIZE * 9.2)
        assert all(ln[-1] != ch for ln in lines[:-1]), (ch, lines)


def test_latin_text_breaks_at_spaces_only():
    text = "Shuffle the 4 mine cards and place them at random, face down, on the mine spaces of the board."
    lines = wrap(text, FONT, SIZE, 120)
    assert " ".join(lines) == text
    assert all(not ln.startswith(" ") and not ln.endswith(" ") for ln in lines)


def test_newlines_are_hard_breaks():
    assert wrap("あいう\nえお", FONT, SIZE, 500) == ["あいう", "えお"]


ALPHABET = "あいうかきくアイウ漢字、。」「（）……―ー・ッャ？！ 0123456789.ab"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=ALPHABET, min_size=1, max_size=80))
def test_wrap_keeps_every_character_and_the_width(text):
    width = SIZE * 8
    lines = wrap(text, FONT, SIZE, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    # a single unbreakable group wider than the line is the only way to exceed it: never with width 8 em
    # unless a run of glued characters is longer than that
    for ln in lines:
        assert stringWidth(ln, FONT, SIZE) <= width + 1e-6
