"""Gutterfold sheets (`--layout gutterfold`), read back with pdfplumber: fronts left of a dashed fold
line down the middle of the page, each back its mirror image on the right, nothing crossing the fold."""
from __future__ import annotations

import pdfplumber
import pytest

from generator.cards.deck import build_cards
from generator.pieces.grid import plan_gutterfold
from generator.context import BuildContext
from pdf_units import MM_PER_PT
from solver.game.components import size_mm
from solver.game.loader import load_game

W, H = size_mm("poker")
ART = (W + 6.0, H + 6.0)  # each card's art: the card and 3 mm bleed round it


def rects_mm(page, size):
    return sorted((round(r["x0"] * MM_PER_PT, 2), round(r["top"] * MM_PER_PT, 2)) for r in page.rects
                  if abs(r["width"] * MM_PER_PT - size[0]) < 0.01 and abs(r["height"] * MM_PER_PT - size[1]) < 0.01)


@pytest.fixture(scope="module")
def gutterfold(tmp_path_factory):
    ctx = BuildContext(out_root=tmp_path_factory.mktemp("gf"), formats=("pdf",), sheet_layout="gutterfold")
    return build_cards(load_game("dont-drop-the-ring"), ctx)


def test_backs_are_mirrored_about_the_dashed_fold_line(gutterfold):
    pdf_path = next(f for f in gutterfold if f.name == "cards-gem-cards-ja-gutterfold.pdf")
    assert not any(f.name == "cards-gem-cards-ja.pdf" for f in gutterfold)  # no duplex sheets beside it
    with pdfplumber.open(pdf_path) as pdf:
        assert len(pdf.pages) == -(-30 // 4)  # 30 gem cards, 4 fronts (and their 4 backs) a page
        for page in pdf.pages:
            w = float(page.width) * MM_PER_PT
            fold = w / 2
            boxes = rects_mm(page, ART)
            fronts = [b for b in boxes if b[0] + ART[0] <= fold]
            backs = [b for b in boxes if b[0] >= fold]
            assert len(fronts) + len(backs) == len(boxes)  # no card crosses the fold
            assert len(fronts) == len(backs) > 0
            assert [(pytest.approx(w - x - ART[0], abs=0.02), y) for x, y in sorted(fronts, key=lambda b: (-b[0], b[1]))] \
                == sorted(backs, key=lambda b: (b[0], b[1]))
            dashed = [ln for ln in page.lines if ln.get("dash") and ln["dash"][0]
                      and abs(ln["x0"] - ln["x1"]) < 0.01]
            assert len(dashed) == 1
            line = dashed[0]
            assert line["x0"] * MM_PER_PT == pytest.approx(fold, abs=0.01)
            top = min(y for _, y in boxes)
            bottom = max(y for _, y in boxes) + ART[1]
            assert line["top"] * MM_PER_PT == pytest.approx(top, abs=0.01)
            assert line["bottom"] * MM_PER_PT == pytest.approx(bottom, abs=0.01)
            # crop marks stay off every card's art, on both halves
            marks = [ln for ln in page.lines if not ln.get("dash") or not ln["dash"][0]]
            marks = [ln for ln in marks if max(ln["width"], ln["height"]) * MM_PER_PT <= 3.01
                     and ln["stroking_color"] in ((0, 0, 0), (0,), 0, [0, 0, 0])]
            assert len(marks) >= 8
            for ln in marks:
                x, y = (ln["x0"] + ln["x1"]) / 2 * MM_PER_PT, (ln["top"] + ln["bottom"]) / 2 * MM_PER_PT
                assert not any(bx < x < bx + ART[0] and by < y < by + ART[1] for bx, by in boxes)


def test_gutterfold_grid_keeps_the_fold_gap_and_the_printable_margin():
    g = plan_gutterfold((210.0, 297.0), (W, H), 3.0)
    f = g.fronts
    assert f.landscape and (f.cols, f.rows) == (2, 2)
    last = f.slot(f.cols - 1)
    assert g.fold_x - (last.right + f.bleed) == pytest.approx(1.0)
    assert f.slot(0).x - f.bleed >= 5.0 + 1.0 + 1.5  # printable edge, mark gap, a short mark
    b = g.back_slot(0)
    assert b.x + b.w / 2 == pytest.approx(2 * g.fold_x - f.slot(0).center[0])
