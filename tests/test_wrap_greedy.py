"""Greedy filling and the hard cut of generator/text/wrap.py against oracles written here: the widths
come from reportlab's own stringWidth over the embedded fonts (not from the wrapper's measurer), and the
expected lines are the greedy answer worked out character by character: each line takes as much as
fits, a line never breaks inside a word that fits on a line of its own, and a word wider than the line
(no language to hyphenate it in) is cut into the longest pieces that fit."""
from __future__ import annotations

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator import fonts
from generator.text import fit_line, wrap, wrap_spans

SIZE = 9.0


def longest_prefix(text: str, font: str, width: float) -> int:
    """How many characters of `text` fit in `width` (at least one: a line holds something)."""
    n = 1
    while n < len(text) and stringWidth(text[:n + 1], font, SIZE) <= width:
        n += 1
    return n


def greedy_by_characters(text: str, font: str, width: float) -> list[str]:
    lines = []
    while text:
        n = longest_prefix(text, font, width)
        lines.append(text[:n])
        text = text[n:]
    return lines


@pytest.mark.parametrize("chars_wide", [3.5, 5.2, 7.9])
def test_kanji_fill_each_line_as_far_as_it_goes(chars_wide):
    font = fonts.text_font("ja")
    text = "山川田畑森林海空雲雨" * 3  # no kinsoku characters: any break between two kanji is allowed
    width = stringWidth("山", font, SIZE) * chars_wide
    assert wrap(text, font, SIZE, width) == greedy_by_characters(text, font, width)


@pytest.mark.parametrize("width", [40.0, 55.5, 80.0])
def test_a_word_wider_than_the_line_is_cut_into_the_longest_pieces_that_fit(width):
    font = fonts.text_font("en")
    word = "Supercalifragilisticexpialidocious"
    assert stringWidth(word, font, SIZE) > width  # the case: the word cannot fit whole
    lines = wrap(word, font, SIZE, width)  # no language: no hyphenation, a cut by characters
    assert lines == greedy_by_characters(word, font, width)
    assert all(stringWidth(line, font, SIZE) <= width for line in lines)


def test_words_fill_greedily_and_a_long_word_starts_its_own_line_before_it_is_cut():
    font = fonts.text_font("en")
    width = stringWidth("Frodo and Sam walk on", font, SIZE) + 0.01  # exactly this much fits
    text = "Frodo and Sam walk on towards Mordor"
    lines = wrap(text, font, SIZE, width)  # no language given: greedy filling, word by word
    assert lines == ["Frodo and Sam walk on", "towards Mordor"]
    narrow = stringWidth("Frodo and", font, SIZE) + 0.01
    long = "Frodo and Supercalifragilisticexpialidocious"
    got = wrap(long, font, SIZE, narrow)
    assert got[0] == "Frodo and"  # the long word does not share a line it cannot fit on
    assert "".join(got[1:]) == "Supercalifragilisticexpialidocious"
    assert got[1:] == greedy_by_characters("Supercalifragilisticexpialidocious", font, narrow)


def test_several_paragraphs_keep_their_own_lines_and_an_empty_one_is_one_empty_line():
    font = fonts.text_font("en")
    width = stringWidth("Frodo and Sam", font, SIZE) + 0.01
    assert wrap("Frodo and Sam\n\nwalk on", font, SIZE, width) == ["Frodo and Sam", "", "walk on"]


def test_spaces_at_a_paragraphs_ends_are_dropped_but_a_no_break_space_belongs_to_its_word():
    font = fonts.text_font("en")
    assert wrap("  Frodo and Sam  ", font, SIZE, 200.0) == ["Frodo and Sam"]
    assert wrap("\u00a0Frodo and Sam\u00a0", font, SIZE, 200.0) == ["\u00a0Frodo and Sam\u00a0"]
    assert wrap(" \u00a0Frodo\u00a0 ", font, SIZE, 200.0) == ["\u00a0Frodo\u00a0"]


def test_a_balanced_width_is_within_half_a_point_of_the_narrowest_that_keeps_the_line_count():
    from generator.text import balanced_width

    font = fonts.text_font("ja")
    # the last one has spaces: balanced as body text, not phrase by phrase (that is phrases=True)
    for text in ("サイコロを振る代わりにサウロンが活動する", "指輪を持つホビットは滅びの山を目指して東へ進みます", "山川田畑森林海空雲雨山川",
                 "山川田 畑森林 海空雲"):
        width = stringWidth(text, font, SIZE) * 0.6  # two lines, the second shorter
        target = len(wrap(text, font, SIZE, width))
        got = balanced_width(text, font, SIZE, width)
        assert len(wrap(text, font, SIZE, got)) == target and got <= width
        assert len(wrap(text, font, SIZE, got - 0.5)) > target  # half a point narrower takes a line more


def test_a_text_on_one_line_or_of_several_paragraphs_keeps_its_width():
    from generator.text import balanced_width

    font = fonts.text_font("ja")
    assert balanced_width("山川田畑", font, SIZE, 100.0) == 100.0  # one line already: nothing to balance
    two = "山川田畑森林海空雲雨" * 2
    width = stringWidth(two, font, SIZE) * 0.6
    assert balanced_width(two + "\n山", font, SIZE, width) == width  # paragraphs are not balanced


def test_a_line_narrower_than_one_character_takes_one_character():
    font = fonts.text_font("en")
    assert stringWidth("M", font, SIZE) > 3.0
    assert wrap("MMMM", font, SIZE, 3.0) == ["M", "M", "M", "M"]  # never an empty line, never two M


def test_the_last_piece_of_a_cut_word_is_not_followed_by_an_empty_line():
    font = fonts.text_font("en")
    width = stringWidth("MMM", font, SIZE) + 0.01  # "MMM" just fits, "MMM-" and "MMM " do not
    assert stringWidth("MMM-", font, SIZE) > width and stringWidth("MMM ", font, SIZE) > width
    assert wrap("MMMMMMMMM", font, SIZE, width) == ["MMM", "MMM", "MMM"]
    assert wrap("MMMMMMMMM Mo", font, SIZE, width) == ["MMM", "MMM", "MMM", "Mo"]


def test_spans_index_the_text_and_an_empty_paragraph_is_an_empty_span_at_its_place():
    font = fonts.text_font("en")
    Span = type(wrap_spans("a", font, SIZE, 100.0)[0])
    spans = wrap_spans("Frodo\n\nSam", font, SIZE, 100.0)
    assert spans == [Span(0, 5), Span(6, 6), Span(7, 10)]  # "Frodo" 0-5, "" at 6, "Sam" 7-10
    with pytest.raises(AttributeError):  # a span is immutable: the same spans are cached for every caller
        spans[0].start = 1  # type: ignore[misc]


def test_an_ellipsis_alone_when_it_is_all_that_fits():
    font = fonts.text_font("ja")
    dots = stringWidth("…", font, SIZE)
    assert stringWidth("山", font, SIZE) > 0.5  # not even one character fits beside the "…"
    assert fit_line("山川田畑", font, SIZE, dots + 0.5) == "…"
    assert fit_line("山川田畑", font, SIZE, dots) == "…"
    assert fit_line("山川田畑", font, SIZE, dots - 0.5) == ""  # not even the "…" fits


@pytest.mark.parametrize("text,kept,head", [("山川田「畑森林", "山川田「", "山川田"), ("山川「「畑森林", "山川「「", "山川")])
def test_opening_brackets_left_before_the_ellipsis_are_dropped(text, kept, head):
    font = fonts.text_font("ja")
    width = stringWidth(kept + "…", font, SIZE) + 0.01  # room for `kept` and no more
    assert stringWidth(text[:len(kept) + 1] + "…", font, SIZE) > width
    assert fit_line(text, font, SIZE, width) == head + "…"
