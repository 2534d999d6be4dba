"""docs/design.md cannot drift: its game is written from the page's code blocks and every command on
the page runs, printing what the page shows (the page format of docs/tutorial.md, read by the same
functions). The least box the page shows is checked against a brute force over every deck."""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from test_tutorial import follow, shows

PAGE = Path(__file__).resolve().parent.parent / "docs" / "design.md"


@pytest.fixture(scope="module")
def followed(tmp_path_factory):
    return follow(PAGE, tmp_path_factory.mktemp("design-page"))


def test_every_command_prints_what_the_page_shows(followed):
    assert [a[1] for a, *_ in followed] == ["design", "check", "design"]
    for argv, shown, status, code, printed in followed:
        assert code == status, (argv, printed)
        missing = shows(printed, shown)
        assert missing is None, f"`{' '.join(argv)}` did not print {missing!r}; it printed:\n{printed}"


def test_the_page_shows_the_least_deck_by_brute_force():
    """Suits of 8-12 with at least 2 pearls each, at most 40 cards, P(a pearl among the 4·n dealt)
    >= 9/10 at 2-5 players: the least deck, then the share nearest 1/5, by enumeration."""
    best = None
    for shells, pearls in itertools.product(range(0, 11), range(2, 13)):
        suit = shells + pearls
        if not 8 <= suit <= 12 or shells < 1:
            continue
        total, pearl_total = 3 * suit, 3 * pearls  # equal suits: the least deck makes them equal
        odds = [1 - Fraction(comb(total - pearl_total, 4 * n), comb(total, 4 * n)) for n in range(2, 6)]
        if total <= 40 and min(odds) >= Fraction(9, 10):
            key = (total, abs(Fraction(pearl_total, total) - Fraction(1, 5)), -shells)
            best = min(best or (key, shells, pearls, odds), (key, shells, pearls, odds))
    (_, shells, pearls, odds) = best
    text = PAGE.read_text(encoding="utf-8")
    assert (shells, pearls) == (6, 2)
    assert f"shell-cards/sand-shell: {shells}" in text and f"shell-cards/sand-pearl: {pearls}" in text
    assert odds[0] == Fraction(411, 437) and "411/437" in text and "4806/4807" in text
