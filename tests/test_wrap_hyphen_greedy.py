"""Greedy hyphenation in generator/text/wrap.py: a paragraph that holds Japanese as well as a
Latin language is filled line by line (total fit is for Latin-only paragraphs), and a Latin word
that does not fit is broken at the latest hyphen point that still fits, again and again while its
tail is wider than the line, and cut by characters only when no hyphen point is left.

The oracle is a filler written here from that description: words in order, widths from
reportlab's stringWidth (kanji, which the Latin face lacks, in the project's Japanese face, as
drawn), hyphen points from pyphen's patterns with the publishers' minimums (two letters before,
three after) read directly, not through generator/text/hyphenate.py."""
from __future__ import annotations

import pyphen
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator import fonts
from generator.text import wrap

SIZE = 9.0
POINTS = pyphen.Pyphen(lang="en", left=2, right=3)
JA = fonts.text_font("ja")  # the project's Japanese face, where a face lacks a kanji (registered here)


def width_of(s: str, font: str) -> float:
    return sum(stringWidth(ch, JA if ord(ch) >= 0x2E80 else font, SIZE) for ch in s)


def greedy(tokens: list[str], font: str, width: float) -> list[str]:
    """Lines of `" ".join(tokens)`, filled greedily with hyphenation (see the module doc)."""
    fits = lambda s: width_of(s, font) <= width  # noqa: E731
    lines: list[str] = []
    cur: str | None = None
    for tok in tokens:
        points = [] if ord(tok[0]) >= 0x2E80 else POINTS.positions(tok)
        done = 0  # how much of tok is on lines already ended
        if cur is None:
            cur = tok
        elif fits(cur + " " + tok):
            cur += " " + tok
        else:
            head = [p for p in points if fits(cur + " " + tok[:p] + "-")]
            if head:
                lines.append(cur + " " + tok[:head[-1]] + "-")
                done = head[-1]
            else:
                lines.append(cur)
            cur = tok[done:]
        while not fits(cur):  # only tok's tail is on this line
            head = [p for p in points if p > done and fits(tok[done:p] + "-")]
            if not head:
                break
            lines.append(tok[done:head[-1]] + "-")
            done = head[-1]
            cur = tok[done:]
        while not fits(cur) and len(cur) > 1:  # no hyphen point left: the longest pieces that fit
            n = max(1, max((k for k in range(1, len(cur) + 1) if fits(cur[:k])), default=1))
            lines.append(cur[:n])
            cur = cur[n:]
    assert cur is not None
    return lines + [cur]


TEXTS = [
    ["指輪", "the", "fellowship", "is", "travelling", "through", "extraordinary", "mountains", "together"],
    ["旅", "incomprehensibilities", "of", "characteristically", "unbelievable", "hobbits"],
]


@pytest.mark.parametrize("tokens", TEXTS)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_mixed_paragraph_is_filled_greedily_and_its_latin_words_hyphenated(tokens, lang):
    font = fonts.text_font(lang)  # "en": kanji fall back to the Japanese face; "ja": one face for all
    text = " ".join(tokens)
    hyphenated = 0
    for tenth in range(300, 1300, 37):
        width = tenth / 10
        assert width > width_of(tokens[0], font)  # the kanji word fits: its inner break never matters
        want = greedy(tokens, font, width)
        assert wrap(text, font, SIZE, width, lang="en") == want, width
        hyphenated += sum(line.endswith("-") for line in want)
    assert hyphenated > 20  # the case: words are broken at hyphen points, not only between words


def test_a_word_wider_than_the_line_takes_as_many_hyphens_as_it_needs():
    font = fonts.text_font("en")
    word = "incomprehensibilities"  # in-com-pre-hens-ib-il-it-ies
    width = width_of("prehens-", font) + 0.01
    # each line ends at the latest point that fits: the next point would not
    for fits, too_wide in [("旅 in-", "旅 incom-"), ("compre-", "comprehens-"), ("hensibil-", "hensibilit-")]:
        assert width_of(fits, font) <= width < width_of(too_wide, font)
    lines = wrap("旅 " + word, font, SIZE, width, lang="en")
    assert lines == ["旅 in-", "compre-", "hensibil-", "ities"]
    assert all(width_of(line, font) <= width for line in lines)


def test_a_syllable_that_fits_only_without_its_hyphen_goes_to_the_next_line():
    font = fonts.text_font("en")
    # "山山山山 moun" fits but "山山山山 moun-" does not: no hyphen there, the word moves down whole
    width = width_of("山山山山 moun", font) + 0.01
    assert width_of("山山山山 moun-", font) > width >= width_of("mountains", font)
    assert wrap("山山山山 mountains", font, SIZE, width, lang="en") == ["山山山山", "mountains"]
    roomy = width_of("山山山山 moun-", font) + 0.01
    assert wrap("山山山山 mountains", font, SIZE, roomy, lang="en") == ["山山山山 moun-", "tains"]
