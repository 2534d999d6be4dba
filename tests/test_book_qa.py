"""A book and pieces with nothing a reader trips on (issues 28 and 36).

- A piece cites a clause with `{ref:clause-id}`: the card prints the clause's number and heading in
  its own language, read back from the built card sheet (pdfplumber), and a reference that names no
  clause is a located checker error.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

from generator.context import BuildContext
from generator.incremental import build
from solver.game.loader import load_game
from solver.rules.qa import check_rules

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _columns(page) -> list[str]:
    """The text of each column of cards on a sheet: characters grouped where the page has a gap of
    more than 4 mm with no character (the cards' text boxes are 7 mm apart)."""
    chars = sorted((c for c in page.chars if c["text"].strip()), key=lambda c: c["x0"])
    groups: list[list[dict]] = []
    for c in chars:
        if groups and c["x0"] < max(g["x1"] for g in groups[-1]) + 4 * 72 / 25.4:
            groups[-1].append(c)
        else:
            groups.append([c])
    return [page.crop((min(c["x0"] for c in g), 0, max(c["x1"] for c in g) + 0.1, page.height))
            .extract_text() or "" for g in groups]


@pytest.fixture(scope="module")
def riddle_cards(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("riddle-cards")
    build(["riddle-of-the-ring"], BuildContext(out_root=root, formats=("pdf",), preflight=False), only={"cards"})
    return root / "riddle-of-the-ring"


@pytest.mark.parametrize("lang, cited", [
    ("en", ["Optionalrule7.8“VictorybytheElvenRings”:", "Optionalrule7.15“Shelob’sfeast”:",
            "Optionalrule7.16“BilborefusesGollum”:"]),
    ("ja", ["選択ルール7.8「エルフの指輪による勝利」:", "選択ルール7.15「シェロブの狂宴」:",
            "選択ルール7.16「ゴクリを拒否するビルボ」:"]),
])
def test_cards_cite_optional_rules_by_the_books_number_and_heading(riddle_cards, lang, cited):
    """The Elven Ring, Shelob and Bilbo cite optional rules the book numbers 7.8, 7.15 and 7.16 (the
    post's (7), (14), (15)); each card prints the number and the heading of the clause in its language."""
    with pdfplumber.open(riddle_cards / f"cards-play-cards-{lang}.pdf") as doc:
        text = "|".join(_flat(column) for p in doc.pages for column in _columns(p))
    for phrase in cited:
        assert phrase in text, phrase
    assert "{ref:" not in text and "(14)" not in text and "(15)" not in text


def test_a_piece_citing_no_clause_is_a_located_error(tmp_path):
    folder = tmp_path / "riddle-of-the-ring"
    shutil.copytree(GAMES / "riddle-of-the-ring", folder)
    csv = folder / "play-cards.csv"
    lines = csv.read_text(encoding="utf-8").splitlines(keepends=True)
    row = next(i for i, ln in enumerate(lines) if ln.startswith("shelob,"))
    lines[row] = lines[row].replace("{ref:opt-shelob-feast}", "{ref:opt-no-such-rule}", 1)
    csv.write_text("".join(lines), encoding="utf-8")
    found = [f for f in check_rules(load_game(folder)).findings
             if f.code == "cross-reference-dangling" and "opt-no-such-rule" in f.message]
    assert found and found[0].severity == "error"
    assert found[0].source.endswith(f"play-cards.csv:{row + 1}")
