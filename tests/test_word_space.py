"""generator/rulebook/justify.py's word_space, line by line, against widths from reportlab's
stringWidth worked out here: the extra room at each space fills the line exactly, the drawn
hyphen counts, and a line whose spaces would have to grow past twice the font's space or shrink
below 0.8 of it stays ragged (0), the limits themselves allowed."""
from __future__ import annotations

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator import fonts
from generator.rulebook.justify import word_space

SIZE = 9.5
FONT = fonts.text_font("en")
SPACE = stringWidth(" ", FONT, SIZE)


def natural(s: str) -> float:
    return stringWidth(s, FONT, SIZE)


@pytest.mark.parametrize("line,hyphen,gaps", [("Frodo and Sam", False, 2), ("Frodo walks to Mor", True, 3),
                                              ("Sam", False, 0)])
@pytest.mark.parametrize("share", [-0.2, -0.1, 0.0, 0.5, 0.99])
def test_the_spaces_take_up_what_the_line_lacks(line, hyphen, gaps, share):
    drawn = line + ("-" if hyphen else "")
    width = natural(drawn) + gaps * share * SPACE
    extra = word_space(line, hyphen, FONT, SIZE, width)
    if not gaps:
        assert extra == 0.0  # nothing to widen: set as it is
    else:
        assert extra == pytest.approx(share * SPACE, abs=1e-9)
        assert natural(drawn) + gaps * extra == pytest.approx(width, abs=1e-9)  # flush with the edge


@pytest.mark.parametrize("share", [1.01, 1.5, -0.21, -0.5])
def test_a_line_that_would_need_more_stays_ragged(share):
    line = "Frodo and Sam"
    assert word_space(line, False, FONT, SIZE, natural(line) + 2 * share * SPACE) == 0.0


def test_a_hair_past_the_shrink_limit_is_ragged_and_the_limit_itself_is_not():
    line = "Frodo and Sam"
    limit = natural(line) - 2 * 0.2 * SPACE
    assert word_space(line, False, FONT, SIZE, limit) == pytest.approx(-0.2 * SPACE)
    assert word_space(line, False, FONT, SIZE, limit - 0.01) == 0.0
    assert word_space(line, False, FONT, SIZE, natural(line) + 2 * SPACE) == pytest.approx(SPACE)  # the stretch limit
    assert word_space(line, False, FONT, SIZE, natural(line) + 2 * SPACE + 0.01) == 0.0


def test_a_natural_width_given_is_the_one_the_spaces_fill_up_to():
    """A caller that has the line's width as set (KPara: from its paragraph's running sums of
    advances) gives it; the spaces then fill what that width lacks, not what a width measured
    again would."""
    line = "Frodo and Sam"
    width = natural(line) + SPACE
    assert word_space(line, False, FONT, SIZE, width, natural(line)) == word_space(line, False, FONT, SIZE, width)
    assert word_space(line, False, FONT, SIZE, width, natural(line) + SPACE) == pytest.approx(0.0, abs=1e-9)
    assert word_space(line, False, FONT, SIZE, width, natural(line) - SPACE) == pytest.approx(SPACE)


def test_the_hyphen_is_part_of_the_line():
    line = "Frodo walks to Mor"
    width = natural(line + "-")  # exactly full with its hyphen: no extra room
    assert word_space(line, True, FONT, SIZE, width) == pytest.approx(0.0, abs=1e-9)
    assert word_space(line, False, FONT, SIZE, width) == pytest.approx(natural("-") / 3)


@pytest.mark.parametrize("past", [5e-7, 1e-6])
def test_a_line_the_breaker_lets_in_at_a_limit_is_justified_not_ragged(past):
    """The total-fit breaker sets a line whose natural width is up to 1e-6 pt past its shrink
    limit (generator/text/breaking.py): such a line is narrowed to the column, not left ragged and
    wider than it by a fifth of a space at each space. The stretch limit has the same tolerance."""
    line = "Frodo and Sam"
    tight = natural(line) - 2 * 0.2 * SPACE - past
    assert natural(line) + 2 * word_space(line, False, FONT, SIZE, tight) == pytest.approx(tight, abs=1e-9)
    loose = natural(line) + 2 * SPACE + past
    assert natural(line) + 2 * word_space(line, False, FONT, SIZE, loose) == pytest.approx(loose, abs=1e-9)
    assert word_space(line, False, FONT, SIZE, tight - 2e-6) == 0.0
    assert word_space(line, False, FONT, SIZE, loose + 2e-6) == 0.0
