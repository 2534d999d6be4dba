"""The one line breaker (generator/text/) against JLREQ's tables, typed out here from JLREQ
(W3C, "Requirements for Japanese Text Layout", 3.1.7 and appendix A) and not imported from the
implementation, and the same breaks on cards (textfit), maps and rulebooks (text.wrap)."""
from __future__ import annotations

import pytest

from generator import fonts
from generator.cards import textfit
from pdf_units import MM_PER_PT
from generator.render.base import text_width
from generator.text import wrap
from generator.text.kinsoku import NOT_AT_LINE_END, NOT_AT_LINE_START

# JLREQ line-start prohibition rule: characters that must not start a line.
JLREQ_NOT_AT_START = {
    "cl-02 closing brackets": "’”）〕］｝〉》」』】〙〗〟｠»",
    "cl-03 hyphens": "‐〜゠–",
    "cl-04 dividing punctuation": "？！‼⁇⁈⁉",
    "cl-05 middle dots": "・：；",
    "cl-06 full stops": "。．",
    "cl-07 commas": "、，",
    "cl-08 inseparable characters": "…‥",
    "cl-09 iteration marks": "ヽヾゝゞ々〻",
    "cl-10 prolonged sound mark": "ー",
    "cl-11 small kana": "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ",
    "cl-20 postfixed abbreviations (strict)": "％‰℃",
}
# JLREQ line-end prohibition rule: characters that must not end a line.
JLREQ_NOT_AT_END = {
    "cl-01 opening brackets": "‘“（〔［｛〈《「『【〘〖〝｟«",
}
# The issue's regression: cards let these start a line while the rulebook never did.
ISSUE_CASES = "〜…】》％々"

NOT_START = "".join(JLREQ_NOT_AT_START.values())
NOT_END = "".join(JLREQ_NOT_AT_END.values())
SIZE = 10.0
FILL = "あいうえおかきくけこさしすせそ"


def test_the_rule_tables_cover_jlreq():
    assert set(NOT_START) - NOT_AT_LINE_START == set()
    assert set(NOT_END) - NOT_AT_LINE_END == set()
    assert not set("あ漢カ") & (NOT_AT_LINE_START | NOT_AT_LINE_END)  # ordinary characters break freely


def _card_lines(text: str, width_mm: float) -> list[str]:
    return ["".join(a.text if not a.symbol else "□" for a in line) for line in textfit.wrap(text, width_mm, SIZE)]


def _shared_lines(text: str, width_mm: float) -> list[str]:
    return wrap(text, fonts.register(), SIZE, width_mm / MM_PER_PT)


BREAKERS = {"cards and counters": _card_lines, "maps and rulebooks": _shared_lines}


def _widths(text: str) -> list[float]:
    """Widths putting the break at each character position in turn (narrower ones force a cut)."""
    em = text_width("あ", SIZE)
    return [em * n + 0.01 for n in range(3, len(text))]  # a glued group is at most 3 wide


@pytest.mark.parametrize("where", sorted(BREAKERS))
@pytest.mark.parametrize("ch", NOT_START)
def test_no_line_starts_with_a_prohibited_character(where, ch):
    text = FILL[:5] + ch + FILL[5:9] + ch + ch + FILL[9:]
    for width in _widths(text):
        lines = BREAKERS[where](text, width)
        assert "".join(lines) == text
        for line in lines[1:]:
            assert line[:1] != ch, (where, width, lines)


@pytest.mark.parametrize("where", sorted(BREAKERS))
@pytest.mark.parametrize("ch", NOT_END)
def test_no_line_ends_with_a_prohibited_character(where, ch):
    text = FILL[:5] + ch + FILL[5:9] + ch + FILL[9:]
    for width in _widths(text):
        lines = BREAKERS[where](text, width)
        assert "".join(lines) == text
        for line in lines[:-1]:
            assert line[-1:] != ch, (where, width, lines)


@pytest.mark.parametrize("where", sorted(BREAKERS))
def test_the_issue_cases_never_start_a_card_line(where):
    for ch in ISSUE_CASES:
        text = "ゲーム" + ch + "カード"
        for width in _widths(text):
            assert all(line[:1] != ch for line in BREAKERS[where](text, width)[1:]), (ch, width)


@pytest.mark.parametrize("where", sorted(BREAKERS))
def test_latin_breaks_between_words_and_keeps_words_whole(where):
    text = "Roll two dice (2d6) and move 10.10 hexes, then draw a card."
    words = text.split()
    for width in (25.0, 31.0, 40.0, 57.0):
        lines = BREAKERS[where](text, width)
        assert " ".join(lines) == text  # breaks only at spaces, which are dropped at line ends
        assert all(line == line.strip() for line in lines)
        assert all(set(line.split()) <= set(words) for line in lines)
        assert all(text_width(line, SIZE) <= width + 1e-6 for line in lines)


@pytest.mark.parametrize("where", sorted(BREAKERS))
def test_mixed_text_breaks_the_same_everywhere(where):
    """Cards and rulebooks agree line for line: one rule set, one greedy filling."""
    text = "サウロンの手番（2回）：カードを1枚引き、「指輪」の効果を解決する。Then roll 2d6."
    for width in (14.0, 23.0, 31.0, 44.0):
        assert _card_lines(text, width) == _shared_lines(text, width)


def test_a_symbol_keeps_the_closing_mark_after_it():
    em = text_width("あ", SIZE)
    text = "あいう:coin:。えお"
    for n in range(2, 7):
        lines = textfit.wrap(text, em * n + 0.01, SIZE)
        for line in lines[1:]:
            assert line[0].text[:1] != "。", (n, lines)


# Dictionary syllables (Merriam-Webster), typed here: where a hyphen may fall in these words.
SYLLABLES = {"hyphenation": ("hy", "phen", "a", "tion"), "tournament": ("tour", "na", "ment"),
             "constitution": ("con", "sti", "tu", "tion")}
HEADS = {w: {"".join(s[:i]) for i in range(1, len(s))} for w, s in SYLLABLES.items()}
LATIN = "We read hyphenation rules at the tournament and the constitution of the club."


def _card_lines_lang(text: str, width_mm: float, lang: str | None) -> list[str]:
    return ["".join(a.text for a in line) for line in textfit.wrap(text, width_mm, SIZE, lang=lang)]


def _shared_lines_lang(text: str, width_mm: float, lang: str | None) -> list[str]:
    return wrap(text, fonts.register(), SIZE, width_mm / MM_PER_PT, lang)


BREAKERS_LANG = {"cards and counters": _card_lines_lang, "maps and rulebooks": _shared_lines_lang}


def _unhyphenate(lines: list[str]) -> str:
    out = ""
    for line in lines:
        out += line[:-1] if line.endswith("-") else line + " "
    return out.strip()


@pytest.mark.parametrize("where", sorted(BREAKERS_LANG))
def test_english_words_break_only_at_syllables_with_a_hyphen(where):
    seen = 0
    for tenths in range(180, 420, 7):
        width = tenths / 10
        lines = BREAKERS_LANG[where](LATIN, width, "en")
        assert _unhyphenate(lines) == LATIN, lines
        assert all(text_width(line, SIZE) <= width + 1e-6 for line in lines), (width, lines)
        for line, nxt in zip(lines, lines[1:]):
            if line.endswith("-"):
                head = line[:-1].split(" ")[-1]
                word = next(w for w in SYLLABLES if w.startswith(head) and nxt.startswith(w[len(head):]))
                assert head in HEADS[word], (head, word)
                seen += 1
    assert seen >= 3  # the widths did make words break


@pytest.mark.parametrize("where", sorted(BREAKERS_LANG))
def test_no_hyphen_without_a_language_with_patterns(where):
    widest = max(text_width(w, SIZE) for w in LATIN.split())  # narrower boxes cut such a word by characters
    for lang in (None, "ja"):
        for tenths in range(int(widest * 10) + 1, 420, 11):
            lines = BREAKERS_LANG[where](LATIN, tenths / 10, lang)
            assert " ".join(lines) == LATIN and not any(line.endswith("-") for line in lines)


def test_cards_maps_and_rulebooks_choose_the_same_breaks_for_latin_text():
    """One breaker: the total fit chooses a Latin paragraph's breaks wherever it is set."""
    for tenths in range(180, 420, 7):
        assert _card_lines_lang(LATIN, tenths / 10, "en") == _shared_lines_lang(LATIN, tenths / 10, "en"), tenths


@pytest.mark.parametrize("text, width", [
    ("The Fellowship player moves the Hobbit figure along the corruption line towards the darkness.", 45),
    ("Each player draws one card and places the marker on the space with the matching remembrance.", 41),
])
def test_a_paragraph_does_not_end_on_the_tail_of_a_broken_word(monkeypatch, text, width):
    """With one character as the unit of width, total fit would end these paragraphs "...dark-" /
    "ness." (the precondition, checked with the final-hyphen demerits switched off); with them, the
    last line but one ends at a word's end and the last line holds whole words."""
    from generator.text import breaking, knuthplass

    def lines() -> list[str]:
        got = breaking.total_fit(text, lambda s: float(len(s)), width, "en", justified=True)
        assert got is not None
        return [text[ln.start:ln.end] + ("-" if ln.hyphen else "") for ln in got]

    with monkeypatch.context() as m:
        m.setattr(knuthplass, "FINAL_HYPHEN", 0)
        assert lines()[-2].endswith("-")
    set_ = lines()
    assert not set_[-2].endswith("-") and " ".join(set_).replace("- ", "").split() == text.split()
    assert all(len(line) <= width + 0.2 * line.count(" ") for line in set_)
