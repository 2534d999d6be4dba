"""Counter sheets: double-sided counters with backs behind fronts, gutters, bleed into the gutter,
reduced backs showing their own values, unknown counts, skipped entries."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdf
import pytest

from generator.pieces.grid import plan_sheet
from generator.context import BuildContext
from generator.counters import build_counters, counter_grid
from pdf_units import MM_PER_PT
from solver.game.loader import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "cards-with-images"
RE_RECT = re.compile(rb"(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re\b")


def rects_mm(page, size: float) -> list[tuple[float, float]]:
    h = float(page.mediabox.height)
    out = []
    for m in RE_RECT.finditer(page.get_contents().get_data()):
        x, y, w, hh = (float(v) for v in m.groups())
        if abs(w * MM_PER_PT - size) < 0.01 and abs(hh * MM_PER_PT - size) < 0.01:
            out.append((round(x * MM_PER_PT, 2), round((h - y - hh) * MM_PER_PT, 2)))
    return out


def build(folder, tmp_path, **kw):
    ctx = BuildContext(out_root=tmp_path, formats=kw.pop("formats", ("pdf",)), **kw)
    return ctx, build_counters(load_game(folder), ctx)


# Worked by hand: half-inch counters (12.7 mm) with a 2 mm gutter in layouts.yaml, i.e. 1 mm of
# bleed each side and bleeds touching: a pitch of 14.7 mm. A4 portrait keeps 9 mm clear a side
# (margin 5 + mark gap 1 + mark 3): (210 - 18) // 14.7 = 13 across, (297 - 18) // 14.7 = 18 down
# (landscape: 18 x 13, no more, so portrait stays). Centred: x0 = (210 - 13 * 14.7) / 2 = 9.45,
# y0 = (297 - 18 * 14.7) / 2 = 16.2. The fixture's five counters fill the first row.
COUNTER_FRONTS = [(round(9.45 + 14.7 * k, 2), 16.2) for k in range(5)]       # 9.45, 24.15, ... 68.25
# turned over: about the long edge x -> 210 - 14.7 - x = 185.85 - 14.7 k; about the short edge
# y -> 297 - 14.7 - 16.2 = 266.1; the offset (-0.4, 0.9) mm moves a portrait back by just that.
COUNTER_BACKS = {
    ("long", (0.0, 0.0)): [(round(185.85 - 14.7 * k, 2), 16.2) for k in range(5)],
    ("short", (0.0, 0.0)): [(x, 266.1) for x, _ in COUNTER_FRONTS],
    ("long", (-0.4, 0.9)): [(round(185.45 - 14.7 * k, 2), 17.1) for k in range(5)],
}


@pytest.mark.parametrize("flip,offset", [("long", (0.0, 0.0)), ("short", (0.0, 0.0)), ("long", (-0.4, 0.9))])
def test_counter_backs_land_behind_their_fronts(tmp_path, flip, offset):
    ctx, files = build(FIXTURE, tmp_path, flip=flip, back_offset_mm=offset)
    pdf = pypdf.PdfReader(files[0])
    assert len(pdf.pages) == 2
    assert ctx.paper_mm == (210.0, 297.0)
    fronts, backs = rects_mm(pdf.pages[0], 14.7), rects_mm(pdf.pages[1], 14.7)
    assert len(fronts) == len(backs) == 5
    assert sorted(fronts) == sorted(COUNTER_FRONTS)
    assert sorted(backs) == sorted(COUNTER_BACKS[flip, offset])


def test_gutter_separates_trims_and_zero_gutter_has_no_bleed():
    ctx = BuildContext()
    with_gutter = counter_grid(ctx, (12.7, 12.7), 2.0)
    assert with_gutter.bleed == 1.0  # half the gutter: neighbours' bleeds meet in its middle
    assert with_gutter.slot(1).x - with_gutter.slot(0).right == pytest.approx(2.0, abs=0.01)
    touching = counter_grid(ctx, (12.7, 12.7), 0.0)
    assert touching.bleed == 0.0
    assert touching.slot(1).x == pytest.approx(touching.slot(0).right, abs=0.01)
    assert (touching.cols, touching.rows) == (15, 21)  # 315 half-inch counters per A4 sheet


def test_five_eighths_preset_grid():
    g = plan_sheet((210.0, 297.0), (15.875, 15.875), 0.0)
    assert g.per_page == 12 * 17
    assert g.slot(0).w == pytest.approx(15.875)


def test_reduced_back_shows_its_own_values_and_the_red_face_its_colour(tmp_path):
    _, files = build(FIXTURE, tmp_path, formats=("svg",))
    back_page = sorted(f for f in files if f.suffix == ".svg")[-1]
    svg = back_page.read_text()
    assert '<title>2-1-6</title>' in svg and '<title>4-3-6</title>' not in svg
    assert 'fill="#cc3333"' in svg  # the Nazgul side of the rider counters


def test_unknown_counts_print_no_copy_and_warn(tmp_path):
    dest = tmp_path / "g"
    shutil.copytree(FIXTURE, dest)
    text = (dest / "components.yaml").read_text().replace("        count: 2\n        front: {label: {en: Black Rider",
                                                           "        count: null\n        front: {label: {en: Black Rider")
    (dest / "components.yaml").write_text(text)
    ctx, files = build(dest, tmp_path / "out")
    assert ctx.warnings == ["cards-with-images/unit-counters/rider: count unknown in the data; not printed (no "
                            "proposal either: run `pnp propose GAME`, or state the count in components.yaml)"]
    assert len(rects_mm(pypdf.PdfReader(files[0]).pages[0], 14.7)) == 3  # the two riders are not guessed


def test_skip_variant_leaves_items_out_with_a_warning(tmp_path):
    dest = tmp_path / "g"
    shutil.copytree(FIXTURE, dest)
    text = (dest / "layouts.yaml").read_text().replace(
        "  unit-counters: {front: unit, back: unit, gutter_mm: 2}",
        "  unit-counters:\n    front: unit\n    back: unit\n    gutter_mm: 2\n    item_layouts: [{where: {kind: unit}, skip: true}]")
    (dest / "layouts.yaml").write_text(text)
    ctx, files = build(dest, tmp_path / "out")
    assert any("soldier: not printed" in w for w in ctx.warnings)
    assert len(rects_mm(pypdf.PdfReader(files[0]).pages[0], 14.7)) == 2


def test_every_example_game_with_counters_builds_them(tmp_path):
    for game in ("war-of-the-ring-campaign", "riddle-of-the-ring"):
        _, files = build(game, tmp_path)
        assert files and all(f.name.startswith("counters-") for f in files)
        pdf = pypdf.PdfReader(files[0])
        assert len(pdf.pages) % 2 == 0  # fronts page, backs page
