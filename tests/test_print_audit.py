"""What a print shop's audit checks, read back from the files with independent tools (pypdf,
pdfplumber, pypdfium2, an XML parser): backs behind fronts on landscape sheets after a printer's
shift, page boxes, counter bleed, the calibration rulers, the map tiles' margins and cut lines,
SVG 1.1, and embedded fonts in every PDF a build writes."""
from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from generator.incremental import build
from generator.cards.calibration import write_calibration
from generator.cards.deck import build_cards
from generator.pieces.grid import plan_sheet
from generator.context import BuildContext
from generator.counters import build_counters
from pdf_units import MM_PER_PT
from generator.hexmap.stage import build_maps
from solver.game.components import size_mm
from solver.game.loader import load_game

from pdf_fonts import fonts_of

A4 = (210.0, 297.0)


# --------------------------------------------------------------------------- a simulated printer

def page_to_paper(x: float, y: float, page: tuple[float, float]) -> tuple[float, float]:
    """Where a point of a page lands on portrait A4 paper (mm, y down). A landscape page is printed
    turned a quarter turn counter-clockwise: its top edge along the paper's left edge."""
    w, h = page
    if w > h:
        return (y, A4[1] - x)
    return (x, y)


def behind(x: float, y: float, flip: str) -> tuple[float, float]:
    """The point of the front side (its own axes) behind point (x, y) of the back side."""
    return (A4[0] - x, y) if flip == "long" else (x, A4[1] - y)


def printed_back(x: float, y: float, page, flip: str, shift: tuple[float, float]) -> tuple[float, float]:
    """Front-side paper position of a back page's point, printed by a printer that shifts the
    back side by `shift` mm (in the back side's paper axes)."""
    px, py = page_to_paper(x, y, page)
    return behind(px + shift[0], py + shift[1], flip)


# A landscape sheet (poker cards on A4: 4 x 2) and a portrait one (90 x 60 mm tiles: 2 x 4).
GRIDS = {"landscape": plan_sheet(A4, (63.0, 88.0), 3.0), "portrait": plan_sheet(A4, (90.0, 60.0), 3.0)}


@pytest.mark.parametrize("orientation,flip,shift", [
    (o, f, s) for o in GRIDS for f in ("long", "short") for s in ((1.5, -0.8), (-0.6, 2.2))])
def test_measured_offset_puts_every_back_behind_its_front(orientation, flip, shift):
    grid = GRIDS[orientation]
    assert grid.landscape == (orientation == "landscape")
    page = (grid.page_w, grid.page_h)
    # The calibration page tells the user to correct by the opposite of the printer's shift,
    # in the paper's axes (the calibration page is portrait).
    correction = (-shift[0], -shift[1])
    for i in range(grid.per_page):
        front = grid.slot(i).center
        back = grid.back_slot(i, flip, correction).center
        got = printed_back(*back, page, flip, shift)
        want = page_to_paper(*front, page)
        assert got == pytest.approx(want, abs=1e-6), (i, got, want)
        # Without the correction the back would be as far out as the printer shifts it.
        raw = printed_back(*grid.back_slot(i, flip).center, page, flip, shift)
        assert abs(raw[0] - want[0]) + abs(raw[1] - want[1]) == pytest.approx(abs(shift[0]) + abs(shift[1]))


def test_calibration_offset_is_the_opposite_of_the_shift(tmp_path):
    # The back ruler's zero, printed by a shifting printer, lands on the front cross once the
    # offset is the opposite of the shift: so the offset the page measures is the one used above.
    shift = (1.5, -0.8)
    ctx = BuildContext(out_root=tmp_path, back_offset_mm=(-1.5, 0.8))
    (pdf_path,) = write_calibration(tmp_path, ctx)
    with pdfplumber.open(pdf_path) as pdf:
        def centre(page):
            longest = sorted(page.lines, key=lambda ln: -max(ln["width"], ln["height"]))[:2]
            v = next(ln for ln in longest if ln["width"] < 0.01)
            h = next(ln for ln in longest if ln["height"] < 0.01)
            return v["x0"] * MM_PER_PT, h["top"] * MM_PER_PT
        cross, ruler = centre(pdf.pages[0]), centre(pdf.pages[1])
    assert printed_back(*ruler, A4, "long", shift) == pytest.approx(page_to_paper(*cross, A4), abs=0.01)


def rect_centres(page, size: tuple[float, float]) -> list[tuple[float, float]]:
    """Centres (mm, y down) of the rectangles of `size` mm on a pdfplumber page."""
    return [((r["x0"] + r["x1"]) / 2 * MM_PER_PT, (r["top"] + r["bottom"]) / 2 * MM_PER_PT)
            for r in page.rects
            if abs(r["width"] * MM_PER_PT - size[0]) < 0.01 and abs(r["height"] * MM_PER_PT - size[1]) < 0.01]


@pytest.mark.parametrize("flip", ["long", "short"])
def test_landscape_card_sheet_backs_land_behind_fronts_after_a_shift(tmp_path, flip):
    shift = (1.5, -0.8)
    ctx = BuildContext(out_root=tmp_path, formats=("pdf",), flip=flip, back_offset_mm=(-shift[0], -shift[1]))
    files = build_cards(load_game("dont-drop-the-ring"), ctx)
    with pdfplumber.open(next(f for f in files if f.name == "cards-gem-cards-ja.pdf")) as pdf:
        front_page, back_page = pdf.pages[0], pdf.pages[1]
        size = (float(front_page.width) * MM_PER_PT, float(front_page.height) * MM_PER_PT)
        assert size[0] > size[1]  # the gem cards print on landscape sheets
        poker = size_mm("poker")
        bled = (poker[0] + 6, poker[1] + 6)  # the card background covers trim + 3 mm bleed
        fronts = sorted(page_to_paper(x, y, size) for x, y in rect_centres(front_page, bled))
        backs = sorted(printed_back(x, y, size, flip, shift) for x, y in rect_centres(back_page, bled))
    assert len(fronts) == len(backs) == 8
    for f, b in zip(fronts, backs):
        assert b == pytest.approx(f, abs=0.01)


# --------------------------------------------------------------------------- page boxes

def test_single_piece_pages_carry_trim_and_bleed_boxes(game_copy, tmp_path):
    folder = game_copy()
    comps = folder / "components.yaml"
    text = comps.read_text(encoding="utf-8")
    start = text.index("  - id: start-player-card")
    end = text.index("size: poker", start)
    comps.write_text(text[:end] + "size: {width_mm: 180, height_mm: 260}" + text[end + len("size: poker"):],
                     encoding="utf-8")
    files = build_cards(load_game(folder), BuildContext(out_root=tmp_path / "out", formats=("pdf",)))
    pdf = pypdf.PdfReader(next(f for f in files if f.name == "cards-start-player-card-ja.pdf"))
    assert len(pdf.pages) == 2
    for page in pdf.pages:
        trim, bleed = page.trimbox, page.bleedbox
        assert "/TrimBox" in page.keys() and "/BleedBox" in page.keys()
        assert float(trim.width) * MM_PER_PT == pytest.approx(180.0, abs=0.01)
        assert float(trim.height) * MM_PER_PT == pytest.approx(260.0, abs=0.01)
        assert (float(trim.left) - float(bleed.left)) * MM_PER_PT == pytest.approx(3.0, abs=0.01)
        assert (float(bleed.top) - float(trim.top)) * MM_PER_PT == pytest.approx(3.0, abs=0.01)
        # centred on A4 portrait
        assert (float(trim.left) + float(trim.right)) / 2 * MM_PER_PT == pytest.approx(105.0, abs=0.01)


# --------------------------------------------------------------------------- counters

def test_counters_have_a_gutter_and_bleed_by_default(tmp_path):
    files = build_counters(load_game("war-of-the-ring-campaign"),
                           BuildContext(out_root=tmp_path, formats=("pdf",)))
    with pdfplumber.open(next(f for f in files if f.suffix == ".pdf")) as pdf:
        page = pdf.pages[0]
        # Each half-inch counter's art covers 12.7 mm + 1.5 mm bleed on each side ...
        boxes = [(r["x0"] * MM_PER_PT, r["top"] * MM_PER_PT) for r in page.rects
                 if abs(r["width"] * MM_PER_PT - 15.7) < 0.01 and abs(r["height"] * MM_PER_PT - 15.7) < 0.01]
        assert len(boxes) > 50
        # ... and neighbours sit 15.7 mm apart: their bleeds touch, their trims are 3 mm apart.
        xs = sorted({round(x, 2) for x, _ in boxes})
        steps = {round(b - a, 2) for a, b in zip(xs, xs[1:])}
        assert steps == {15.7}
        # crop marks (short black lines) stay outside every counter's bleed
        for ln in page.lines:
            x, y = ln["x0"] * MM_PER_PT, ln["top"] * MM_PER_PT
            assert not any(bx < x < bx + 15.7 and by < y < by + 15.7 for bx, by in boxes)


def test_abutting_counters_stay_an_option(tmp_path):
    from generator.counters import counter_grid
    touching = counter_grid(BuildContext(), (12.7, 12.7), 0.0)
    assert touching.bleed == 0.0 and touching.slot(1).x == pytest.approx(touching.slot(0).right)
    default = counter_grid(BuildContext(), (12.7, 12.7), None)
    assert default.bleed == 1.5 and default.slot(1).x - default.slot(0).right == pytest.approx(3.0)


# --------------------------------------------------------------------------- calibration

def overlapping(boxes):
    return [(a, b) for a, b in itertools.combinations(boxes, 2)
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]


def test_calibration_ruler_labels_do_not_overlap(tmp_path):
    (path,) = write_calibration(tmp_path, BuildContext(out_root=tmp_path))
    with pdfplumber.open(path) as pdf:
        words = pdf.pages[1].extract_words(keep_blank_chars=False)
    labels = [w for w in words if w["text"] in {"+5", "-5", "+10", "-10"}]
    assert sorted(w["text"] for w in labels) == sorted(["+5", "-5", "+10", "-10"] * 2)
    assert overlapping([(w["x0"], w["top"], w["x1"], w["bottom"]) for w in words]) == []


# --------------------------------------------------------------------------- map tiles

@pytest.fixture(scope="module")
def war_maps(tmp_path_factory):
    out = tmp_path_factory.mktemp("maps")
    ctx = BuildContext(out_root=out)
    return ctx, build_maps(load_game("war-of-the-ring-campaign"), ctx)


def test_tile_sheets_leave_the_5mm_paper_edge_blank(war_maps):
    import pypdfium2 as pdfium

    _, files = war_maps
    tiles = next(f for f in files if f.name.endswith("-tiles-a4.pdf"))
    doc = pdfium.PdfDocument(str(tiles))
    dpi = 72
    band = int(5 / 25.4 * dpi)  # 5 mm in pixels, rounded down
    for i in range(len(doc)):
        img = doc[i].render(scale=dpi / 72).to_pil().convert("L")
        w, h = img.size
        for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
            assert img.crop(box).getextrema()[0] >= 250, (i, box)  # nothing printed there
    doc.close()


def test_tile_trim_lines_are_dashed_and_tile_names_hide_under_the_neighbours(war_maps):
    _, files = war_maps
    tiles = next(f for f in files if f.name.endswith("-tiles-a4.pdf"))
    with pdfplumber.open(tiles) as pdf:
        promise = pdf.pages[0].extract_text()
        assert "dashed line" in promise or "点線" in promise  # what the assembly page says
        names_seen = 0
        for page in pdf.pages[1:]:
            ph = float(page.height)
            dashed = [o for o in page.lines + page.curves + page.rects
                      if o.get("dash") and o["dash"][0] and o["top"] < ph and o["x0"] >= 0
                      and abs(o["stroking_color"][0] - 0x7d / 255) < 0.01]
            assert dashed, "the trim line is drawn dashed"
            x0, x1 = min(o["x0"] for o in dashed) * MM_PER_PT, max(o["x1"] for o in dashed) * MM_PER_PT
            y0, y1 = min(o["top"] for o in dashed) * MM_PER_PT, max(o["bottom"] for o in dashed) * MM_PER_PT
            assert x0 == pytest.approx(8.0, abs=0.3) and y0 == pytest.approx(8.0, abs=0.3)
            header = [w["text"] for w in page.extract_words(extra_attrs=["size"])
                      if abs(w["size"] - 7) < 0.01 and 0 < w["top"] and w["bottom"] * MM_PER_PT < 8]
            # "シート 2/6(1行目・2列目)" / "Sheet 2 of 6 (row 1, column 2)": the number hides in the strips
            name = re.search(r"(?:シート|Sheet) (\d+)(?:/| of )\d+", " ".join(header))[1]
            grey = [c for c in page.chars if c["non_stroking_color"] == (0.462745, 0.462745, 0.462745)
                    or c["non_stroking_color"] == [0.462745, 0.462745, 0.462745]]
            for c in grey:
                cx, cy = (c["x0"] + c["x1"]) / 2 * MM_PER_PT, (c["top"] + c["bottom"]) / 2 * MM_PER_PT
                # inside the 10 mm strip along the right or bottom trim line, which the next sheet covers
                in_right = x1 - 10 <= cx <= x1 and y0 <= cy <= y1
                in_bottom = y1 - 10 <= cy <= y1 and x0 <= cx <= x1
                assert in_right or in_bottom, (name, c["text"], cx, cy)
            text = "".join(c["text"] for c in grey)
            assert text in ("", name, name * 2), (name, text)
            names_seen += len(text) // len(name)
        assert names_seen > 0


def _tile_sheets(pdf_path):
    """Per tile sheet (pages after the assembly page): its trim window in mm (the dashed grey
    rectangle), its overlap and which neighbours lie on it, read from its header, and its page."""
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages[1:]:
            dashed = [o for o in page.lines + page.curves + page.rects if o.get("dash") and o["dash"][0]
                      and abs(o["stroking_color"][0] - 0x7d / 255) < 0.01]
            window = tuple(v * MM_PER_PT for v in (min(o["x0"] for o in dashed), min(o["top"] for o in dashed),
                                                  max(o["x1"] for o in dashed), max(o["bottom"] for o in dashed)))
            head = " ".join(w["text"] for w in page.extract_words(extra_attrs=["size"])  # the 7 pt header
                            if abs(w["size"] - 7) < 0.01 and 0 < w["top"] and w["bottom"] * MM_PER_PT < 8)
            overlap = float(re.search(r"(?:重ね幅|overlap) (\d+(?:\.\d+)?) mm", head)[1])
            yield window, overlap, "→" in head, "↓" in head, page


def test_war_of_the_ring_tiles_take_six_sheets_each_a_tenth_map_or_more(war_maps):
    """Issue 25: 8 A4 sheets, two nearly empty, became 6; every sheet's printed map (its non-white
    pixels, rendered by pdfium) covers at least 10 % of the paper."""
    import pypdfium2 as pdfium
    from PIL import ImageChops

    _, files = war_maps
    for tiles in (f for f in files if f.name.endswith("-tiles-a4.pdf")):
        doc = pdfium.PdfDocument(str(tiles))
        assert len(doc) == 1 + 6
        for i in range(1, len(doc)):
            img = doc[i].render(scale=40 / 72).to_pil().convert("RGB")
            w, h = img.size
            band = int(8 / 25.4 * 40) + 1  # leave out the margin with the header and footer
            r, g, b = img.crop((band, band, w - band, h - band)).split()
            darkest = ImageChops.darker(ImageChops.darker(r, g), b).histogram()  # each pixel's lowest channel
            inked = sum(darkest[:250])
            assert inked / (w * h) >= 0.10, (tiles.name, i, inked / (w * h))
        doc.close()


def test_tile_guide_lines_lie_only_where_a_neighbour_covers_them(war_maps):
    """The black guide lines are printed only inside the strips the right and lower neighbours
    cover (so none shows on the glued map), and every covered strip has one."""
    _, files = war_maps
    tiles = next(f for f in files if f.name.endswith("-tiles-a4.pdf"))
    for (x0, y0, x1, y1), overlap, right, below, page in _tile_sheets(tiles):
        black = [ln for ln in page.lines if ln["stroking_color"] is not None and len(ln["stroking_color"]) >= 1
                 and all(v == 0 for v in ln["stroking_color"]) and not (ln.get("dash") and ln["dash"][0])]
        found = {"right": 0, "below": 0}
        for ln in black:
            lx0, lx1 = ln["x0"] * MM_PER_PT, ln["x1"] * MM_PER_PT
            ly0, ly1 = ln["top"] * MM_PER_PT, ln["bottom"] * MM_PER_PT
            in_right = right and x1 - overlap - 0.2 <= lx0 and lx1 <= x1 and y0 - 0.2 <= ly0 and ly1 <= y1 + 0.2
            in_below = below and y1 - overlap - 0.2 <= ly0 and ly1 <= y1 and x0 - 0.2 <= lx0 and lx1 <= x1 + 0.2
            assert in_right or in_below, (lx0, ly0, lx1, ly1)
            found["right" if in_right and lx1 - lx0 < 1 else "below"] += 1
        assert (found["right"] > 0) == right and (found["below"] > 0) == below


def test_map_png_is_a_preview_and_300_dpi_on_request(tmp_path):
    from PIL import Image

    game = load_game("war-of-the-ring-campaign")
    for dpi in (100, 300):
        files = build_maps(game, BuildContext(out_root=tmp_path / str(dpi), formats=("pdf", "png"), map_dpi=dpi))
        width_in = float(pypdf.PdfReader(next(f for f in files if f.suffix == ".pdf")).pages[0].mediabox.width) / 72
        with Image.open(next(f for f in files if f.suffix == ".png")) as im:
            assert im.size[0] == pytest.approx(width_in * dpi, abs=2)


# --------------------------------------------------------------------------- SVG 1.1 and fonts

@pytest.fixture(scope="module")
def riddle_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("riddle")
    ctx = BuildContext(out_root=out, preflight=False)
    return build(["riddle-of-the-ring"], ctx).written


SVG = "{http://www.w3.org/2000/svg}"


def test_svg_files_keep_to_svg_1_1(riddle_build):
    svgs = [f for f in riddle_build if f.suffix == ".svg"]
    assert svgs
    for f in svgs:
        root = ET.parse(f).getroot()
        assert root.get("version") == "1.1"
        assert "xmlns:ev" not in f.read_text(encoding="utf-8")[:600]
        for el in root.iter():
            assert not any(a.startswith("aria-") for a in el.attrib), (f.name, el.tag)
        # text drawn as glyphs keeps its words in a <title> of its group
        groups = [g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}use") is not None and "scale(" in g.get("transform", "")]
        assert groups and all(g.find(f"{SVG}title") is not None for g in groups), f.name


def test_every_pdf_of_a_build_embeds_every_font(riddle_build):
    pdfs = [f for f in riddle_build if f.suffix == ".pdf"]
    names = {f.name for f in pdfs}
    assert {"rulebook-ja.pdf", "booklet-ja.pdf", "calibration-a4-long.pdf"} <= names
    for f in pdfs:
        fonts = fonts_of(f)
        assert fonts, f.name
        bad = sorted(name for name, ok in fonts.items() if not ok)
        assert bad == [], (f.name, bad)
