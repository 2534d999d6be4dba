"""Justified English rulebook text is evenly spaced: read back from the PDF with pdfplumber, the
word spaces of the justified lines are measured against the Latin face's own space (from the
font file, with fontTools).

Filling line by line left about one justified line in eight of the long English books with its
spaces opened past 1.5 times their width; the total-fit breaker (generator/text/breaking.py)
chooses the breaks over the whole paragraph and may narrow a space a little, so such loose lines
are now rare (bench/bench_justify.py measures it for every game).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from fontTools.ttLib import TTFont

from generator.context import BuildContext
from generator.rulebook.build import rulebook_files
from solver.game.loader import load_game


@pytest.fixture(scope="module")
def space_em() -> float:
    import font_source_serif_pro

    path = Path(font_source_serif_pro.font_directory) / "SourceSerifPro-Regular.ttf"
    with TTFont(str(path), lazy=True) as f:
        return f["hmtx"][f.getBestCmap()[ord(" ")]][0] / f["head"].unitsPerEm


def _justified_lines(pdf: Path) -> list[list[dict]]:
    """The body-size lines of the body pages whose last character ends at the text block's right
    edge (justified lines; a paragraph's last line is ragged), as characters left to right."""
    lines: list[list[dict]] = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[2:]:
            rows: dict[float, list[dict]] = {}
            for ch in page.chars:
                rows.setdefault(round(ch["bottom"], 1), []).append(ch)
            lines += [sorted(chars, key=lambda c: c["x0"]) for chars in rows.values()]
    size = Counter(round(c["size"], 2) for chars in lines for c in chars).most_common(1)[0][0]
    body = [chars for chars in lines if all(round(c["size"], 2) == size and "Regular" in c["fontname"]
                                            for c in chars if not c["text"].isspace())]
    right = max(chars[-1]["x1"] for chars in body)
    return [chars for chars in body if abs(chars[-1]["x1"] - right) < 0.5 and "...." not in "".join(c["text"] for c in chars)]


def _space_ratios(chars: list[dict], space_em: float) -> list[float]:
    """Each word space of a line (a gap between inked characters wider than 0.15 em) as a multiple
    of the font's space. The first gap is left out: after a clause number it is the hanging indent."""
    ink = [c for c in chars if not c["text"].isspace()]
    gaps = [b["x0"] - a["x1"] for a, b in zip(ink, ink[1:]) if b["x0"] - a["x1"] > 0.15 * a["size"]]
    return [g / (space_em * chars[0]["size"]) for g in gaps[1:]]


@pytest.mark.parametrize("game_id", ["war-of-the-ring-campaign", "riddle-of-the-ring"])
def test_justified_lines_are_seldom_loose(tmp_path, space_em, game_id):
    pdf = rulebook_files(load_game(game_id), BuildContext(out_root=tmp_path, formats=("pdf",)), "en")[0]
    lines = [r for r in (_space_ratios(chars, space_em) for chars in _justified_lines(pdf)) if r]
    assert len(lines) > 100
    mean = [sum(r) / len(r) for r in lines]
    loose = [m for m in mean if m > 1.5]
    # 7 %: the breaker takes a few loose lines rather than end a paragraph on a broken word's tail
    # alone ("dark-" / "ness."); bench/bench_justify.py: 25 -> 28 loose lines of 555, 5 -> 0 tails
    assert len(loose) <= 0.07 * len(lines), f"{len(loose)} of {len(lines)} lines loose"
    assert max(mean) <= 2.0 + 0.05  # the justifier never opens a space past 2x: such a line stays ragged
    assert min(mean) >= 0.8 - 0.05  # nor narrows one past 0.8x
    assert sum(1 for m in mean if m < 0.99) > 0  # the breaker did take tight lines where they read better
