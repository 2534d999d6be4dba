"""One-line fitting with an ellipsis (running footers, contents lines) and phrase-wise title breaking."""
from __future__ import annotations

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator import fonts
from generator.text import balanced_width, fit_line, wrap_spans
from generator.text.kinsoku import NOT_AT_LINE_END

FONT = fonts.register()
SIZE = 8.0
TITLE = "ロード・オブ・ザ・リング 拡張「サウロン」 / The Lord of the Rings: Sauron (expansion)"


@pytest.mark.parametrize("width", [12, 40, 90, 150, 233.3, 300])
def test_cut_title_fits_and_ends_with_an_ellipsis(width):
    line = fit_line(TITLE, FONT, SIZE, width)
    assert stringWidth(line, FONT, SIZE) <= width + 1e-6
    assert line.endswith("…")
    head = line[:-1]
    assert TITLE.startswith(head)
    assert not head.endswith(" ") and (not head or head[-1] not in NOT_AT_LINE_END)
    # the longest such prefix: one more character would not fit
    nxt = TITLE[:len(head) + 1].rstrip()
    if nxt != head and nxt[-1] not in NOT_AT_LINE_END:
        assert stringWidth(nxt + "…", FONT, SIZE) > width


def test_short_text_is_left_alone_and_no_room_gives_nothing():
    assert fit_line("指輪", FONT, SIZE, 100) == "指輪"
    assert fit_line(TITLE, FONT, SIZE, 1) == ""


def _lines(text: str, width: float, phrases: bool) -> list[str]:
    return [text[s.start:s.end] for s in wrap_spans(text, FONT, 30, width, phrases=phrases)]


def test_titles_break_between_phrases_when_each_phrase_fits():
    title = "ロード・オブ・ザ・リング 拡張「サウロン」"
    width = stringWidth("ロード・オブ・ザ・リング 拡張「サ", FONT, 30) + 1
    assert _lines(title, width, phrases=False)[0].endswith("「サ")  # what a body paragraph does
    assert _lines(title, width, phrases=True) == ["ロード・オブ・ザ・リング", "拡張「サウロン」"]


def test_a_phrase_wider_than_the_line_falls_back_to_kinsoku_breaking():
    title = "ロード・オブ・ザ・リング 拡張"
    width = stringWidth("ロード・オブ・ザ", FONT, 30) + 1
    assert _lines(title, width, phrases=True) == _lines(title, width, phrases=False)


@pytest.mark.parametrize("text,width", [
    ("サイコロを振る代わりにサウロンが活動する", 19.6 * SIZE),  # greedy: 19 characters and then "る"
    ("The Lord of the Rings: Sauron (expansion)", 150),
    ("他のプレイヤーからカードを取る為のカード", 18.5 * SIZE),
])
def test_balanced_headings_keep_their_line_count_and_lose_the_runt(text, width):
    greedy = [text[s.start:s.end] for s in wrap_spans(text, FONT, SIZE, width)]
    even = balanced_width(text, FONT, SIZE, width)
    lines = [text[s.start:s.end] for s in wrap_spans(text, FONT, SIZE, even)]
    assert len(greedy) == len(lines) == 2  # the same height on the page
    widths = [stringWidth(ln, FONT, SIZE) for ln in lines]
    assert max(widths) <= width and min(widths) > 0.6 * max(widths)  # even lines, not a full line and a runt
    assert min(stringWidth(ln, FONT, SIZE) for ln in greedy) < 0.3 * width  # the greedy break had a runt
    assert balanced_width("短い見出し", FONT, SIZE, width) == width
