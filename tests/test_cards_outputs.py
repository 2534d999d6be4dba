"""Cards from a spreadsheet, PNG determinism, the calibration page, --lang."""
from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest

from generator.cards.calibration import calibration_points, write_calibration
from generator.cards.deck import build_cards
from generator.context import BuildContext
from solver.game.loader import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "cards-with-images"


def test_a_deck_kept_in_an_xlsx_sheet_prints_every_copy(tmp_path):
    from openpyxl import Workbook

    dest = tmp_path / "g"
    shutil.copytree(FIXTURE, dest)
    (dest / "proposed.yaml").unlink()  # it proposes a count for the inline list this test replaces
    wb = Workbook()
    ws = wb.active
    ws.title = "art-cards"
    ws.append(["id", "count", "name_en", "name_ja", "text_en", "art", "kind"])
    ws.append(["keep", 3, "Keep", "砦", "Hold fast.", "art/castle.png", "place"])
    ws.append(["sword", 2, "Sword", "剣", "Strike once.", "art/shield.svg", "item"])
    wb.save(dest / "deck.xlsx")
    text = (dest / "components.yaml").read_text()
    start, end = text.index("    items:\n      - id: castle"), text.index("  - id: unit-counters")
    (dest / "components.yaml").write_text(text[:start] + "    items_file: deck.xlsx\n" + text[end:])
    ctx = BuildContext(out_root=tmp_path / "out", formats=("pdf", "png"))
    files = build_cards(load_game(dest), ctx)
    pdf = pypdf.PdfReader(next(f for f in files if f.name == "cards-art-cards-en.pdf"))
    assert len(pdf.pages) == 2  # 5 cards fit one sheet: fronts, then backs
    fronts = pdf.pages[0].extract_text()
    assert fronts.count("Keep") == 3 and fronts.count("Sword") == 2
    assert {f.name for f in files if f.suffix == ".png"} == {"keep.png", "sword.png", "back.png"}


def test_png_and_svg_are_byte_identical_across_builds(tmp_path):
    def run(out):
        return build_cards(load_game(FIXTURE), BuildContext(out_root=out, formats=("svg", "png")))
    first, second = run(tmp_path / "a"), run(tmp_path / "b")
    assert [p.name for p in first] == [p.name for p in second]
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_language_option_picks_the_text(tmp_path):
    ctx = BuildContext(out_root=tmp_path, formats=("pdf",), lang="ja")
    files = build_cards(load_game(FIXTURE), ctx)
    pdf = next(f for f in files if f.name == "cards-art-cards-ja.pdf")
    assert "城" in pypdf.PdfReader(pdf).pages[0].extract_text()


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.2, -0.8)])
def test_calibration_rulers_sit_behind_the_cross_shifted_by_the_offset(tmp_path, offset):
    ctx = BuildContext(out_root=tmp_path, back_offset_mm=offset)
    (fx, fy), (bx, by) = calibration_points(ctx)
    assert (fx, fy) == (105.0, 148.5)
    assert (bx - fx, by - fy) == pytest.approx(offset)
    pdf = pypdf.PdfReader(write_calibration(tmp_path, ctx)[0])
    assert len(pdf.pages) == 2
    words = pdf.pages[0].extract_text()
    # a player with only the PDFs: the printer's own settings, no command line (issue 36)
    assert "100%" in words and "printer" in words and "--" not in words
