"""Map layout (pure geometry), tiling coverage and the rendered files of the "maps" build stage."""
from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings, strategies as st

from generator import fonts
from generator.context import BuildContext
from pdf_units import PT_PER_MM
from generator.hexmap.geometry import paper_grid
from generator.geometry import Box
from generator.hexmap.layout import map_page
from generator.hexmap.stage import build_maps
from generator.hexmap.tiles import alignment_marks
from generator.hexmap.tiling import tile_plan, tiles_paper
from solver.errors import DataError
from solver.game.loader import load_game

# the figures the layout promises, written out here rather than read from its modules
MARGIN_MM = 10.0        # the full-size map's page margin (generator/hexmap/layout.py)
SHEET_MARGIN_MM = 8.0   # a tile sheet's paper edge to its window, header and footer inside it
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # ISO 216 A4; US Letter 8.5 x 11 in


def _check_cover(extent, plan, overlap):
    xs = sorted({t.window.x for t in plan.tiles})
    ys = sorted({t.window.y for t in plan.tiles})
    ws = {t.window.x: t.window.right for t in plan.tiles}
    hs = {t.window.y: t.window.bottom for t in plan.tiles}
    assert xs[0] == pytest.approx(extent.x) and ys[0] == pytest.approx(extent.y)
    assert ws[xs[-1]] == pytest.approx(extent.right) and hs[ys[-1]] == pytest.approx(extent.bottom)
    for a, b in zip(xs, xs[1:]):
        assert ws[a] - b == pytest.approx(overlap)   # neighbours overlap by exactly the stated width
    for a, b in zip(ys, ys[1:]):
        assert hs[a] - b == pytest.approx(overlap)
    printable = plan.printable
    for t in plan.tiles:
        assert t.window.w <= printable.w + 1e-6 and t.window.h <= printable.h + 1e-6


def _fewest_by_brute_force(w, h, paper, overlap, margin=SHEET_MARGIN_MM):
    """The fewest sheets of `paper` (either way round) whose windows, overlapping by `overlap`,
    reach across w x h: counted by trying 1, 2, 3... per direction (not the planner's formula)."""
    best = None
    for pw, ph in (paper, paper[::-1]):
        def per(total, window):
            n = 1
            while n * window - (n - 1) * overlap < total - 1e-6:
                n += 1
            return n
        n = per(w, pw - 2 * margin) * per(h, ph - 2 * margin)
        best = n if best is None else min(best, n)
    return best


@given(st.floats(100, 1200), st.floats(100, 1200), st.sampled_from(["a4", "letter"]), st.floats(0, 30))
@settings(max_examples=80, deadline=None)
def test_tiles_cover_the_page_with_the_stated_overlap_on_the_fewest_sheets(w, h, paper, overlap):
    extent = Box(5, 7, w, h)
    plan = tile_plan(extent, PAPER_MM[paper], overlap=overlap)
    _check_cover(extent, plan, overlap)
    assert len(plan.tiles) == plan.rows * plan.cols == _fewest_by_brute_force(w, h, PAPER_MM[paper], overlap)
    assert [t.number for t in plan.tiles] == list(range(1, len(plan.tiles) + 1))


def test_an_a2_map_on_a4_needs_six_sheets_not_eight_each_a_tenth_map_or_more():
    """War of the Ring's A2 page (420 x 594 mm) was cut into 8 A4 sheets, two of them nearly empty:
    only the drawn part is tiled now, evenly."""
    page = map_page(load_game("war-of-the-ring-campaign").extras["map"].resolve())
    plan = tile_plan(page.extent, PAPER_MM["a4"], content=page.content, overlap=10)
    assert len(plan.tiles) == 6
    _check_cover(page.extent, plan, 10)
    sheet = plan.paper[0] * plan.paper[1]
    for t in plan.tiles:  # the share of map measured here from the page's boxes, not the planner's figure
        inside = sum(max(0, min(t.window.right, b.right) - max(t.window.x, b.x))
                     * max(0, min(t.window.bottom, b.bottom) - max(t.window.y, b.y)) for b in page.content)
        assert inside / sheet >= 0.10


def test_a_thin_strip_never_gets_a_sheet_of_almost_nothing():
    """A 200 x 285 mm board just over A4's printable area: packed sheets would leave one holding a
    4 mm sliver; the chosen tiling spreads the board evenly and every sheet holds >= 10 % of it."""
    plan = tile_plan(Box(0, 0, 200, 285), PAPER_MM["a4"], overlap=10)
    assert len(plan.tiles) == 2
    widths = {round(t.window.w, 6) for t in plan.tiles} | {round(t.window.h, 6) for t in plan.tiles}
    assert min(min(t.window.w, t.window.h) for t in plan.tiles) > 100  # no sliver
    assert min(plan.shares) >= 0.10 and len(widths) <= 2


def test_pages_no_larger_than_the_paper_are_not_tiled():
    assert tiles_paper((297, 210), "a4") is None and tiles_paper((210, 297), "a4") is None
    assert tiles_paper((297.8, 210.5), "a4") is None                   # within the 1 mm tolerance
    assert tiles_paper((420, 594), "a4") == "a4" and tiles_paper((420, 594), "letter") == "letter"
    assert tiles_paper((420, 594), "a2") is None and tiles_paper((594, 841), "a2") == "a4"


def test_guide_lines_sit_only_where_a_neighbour_covers_them():
    plan = tile_plan(Box(0, 0, 420, 594), PAPER_MM["a4"], overlap=10)
    marks = alignment_marks(plan)
    by = {(t.row, t.col): t for t in plan.tiles}
    for t in plan.tiles:
        covered = [n.window for n in (by.get((t.row, t.col + 1)), by.get((t.row + 1, t.col))) if n]
        assert bool(marks[t.number]) == bool(covered)
        for x1, y1, x2, y2 in marks[t.number]:
            for x, y in ((x1, y1), (x2, y2)):  # both ends inside the sheet and under a neighbour laid on it
                assert t.window.x <= x <= t.window.right and t.window.y <= y <= t.window.bottom
                assert any(c.x < x <= c.right and c.y <= y <= c.bottom for c in covered) or \
                    any(c.x <= x <= c.right and c.y < y <= c.bottom for c in covered)


def test_overlap_that_cannot_fit_is_unusable_input():
    with pytest.raises(DataError, match="overlap"):
        tile_plan(Box(0, 0, 420, 594), PAPER_MM["a4"], overlap=150)


@pytest.mark.parametrize("game_id,paper", [("war-of-the-ring-campaign", (420, 594)), ("riddle-of-the-ring", (594, 420))])
def test_page_layout_keeps_everything_inside_the_margins(game_id, paper):
    hm = load_game(game_id).extras["map"].resolve()
    page = map_page(hm)
    assert (page.width, page.height) == paper
    inner = (MARGIN_MM, MARGIN_MM, paper[0] - MARGIN_MM, paper[1] - MARGIN_MM)
    boxes = [page.grid, page.legend] + [i.box for i in page.items]
    for b in boxes:
        assert b.x >= inner[0] - 1e-6 and b.y >= inner[1] - 1e-6 and b.right <= inner[2] + 1e-6 and b.bottom <= inner[3] + 1e-6
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a.right <= b.x or b.right <= a.x or a.bottom <= b.y or b.bottom <= a.y, (a, b)
    # a hex centre in page mm is the grid origin plus the hex's centre in the grid, worked by hand:
    # the grid sits below the 10 mm margin and the 12 mm title band (y 22), centred across.
    if game_id.startswith("riddle"):
        # pointy hexes 20 mm across the flats, odd rows pushed right: 24 * 20 + 10 = 490 mm wide,
        # x = 10 + (574 - 490) / 2 = 52; 0101's centre is half a hex in (10) and a radius down
        # (20 / sqrt 3 = 11.547)
        h, grid_x, centre = hm.hex("0101"), 52.0, (10.0, 20 / math.sqrt(3))
    else:
        # flat hexes 17.5 mm across the flats (radius r = 17.5 / sqrt 3), 26 columns: 1.5 r * 25 + 2 r
        # = 39.5 r = 399.09 mm wide, x = 10 + (400 - 39.5 r) / 2; A1 is an even column, pushed half a
        # hex down: its centre is (r, 8.75 + 8.75)
        r = 17.5 / math.sqrt(3)
        h, grid_x, centre = hm.hex("A1"), 10 + (400 - 39.5 * r) / 2, (r, 17.5)
    assert (page.grid.x, page.grid.y) == (pytest.approx(grid_x), pytest.approx(22.0))
    assert page.hex_centre(hm, h) == (pytest.approx(grid_x + centre[0]), pytest.approx(22.0 + centre[1]))


def test_a_map_too_big_for_its_paper_is_unusable_input(tmp_path, capsys):
    mapfile = load_game("war-of-the-ring-campaign").extras["map"].model_copy(update={"paper": "a4"})
    with pytest.raises(DataError, match="larger paper"):
        map_page(mapfile.resolve())
    # a newcomer's map with hexes too large for its A4 page: one line at map.yaml's `paper:`, exit 2,
    # and nothing written
    from generator.cli import main

    folder = tmp_path / "harbour-game"
    assert main(["new", str(folder)]) == 0
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    (folder / "map.yaml").write_text(re.sub(r"hex_mm: \d+", "hex_mm: 60", text), encoding="utf-8")
    capsys.readouterr()
    assert main(["build", str(folder), "--out", str(tmp_path / "out"), "--only", "maps"]) == 2
    [err] = capsys.readouterr().err.strip().splitlines()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("paper:"))
    assert err.startswith(f"{folder / 'map.yaml'}:{line}:1: map harbour: ")
    assert "more than a4 landscape (297 x 210 mm)" in err and err.endswith("or a smaller grid.hex_mm")
    assert not list((tmp_path / "out").rglob("map-*"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("maps")
    game = load_game("war-of-the-ring-campaign")
    return out, build_maps(game, BuildContext(out_root=out, formats=("pdf", "svg")))


def test_stage_writes_full_size_pdf_svg_and_tiles(built):
    out, written = built
    names = sorted(p.name for p in written)
    assert names == ["map-middle-earth-tiles-a4.pdf", "map-middle-earth.pdf", "map-middle-earth.svg"]
    from pypdf import PdfReader

    full = PdfReader(out / "war-of-the-ring-campaign" / "map-middle-earth.pdf")
    assert len(full.pages) == 1
    box = full.pages[0].mediabox
    assert float(box.width) == pytest.approx(420 * PT_PER_MM, abs=0.1)   # A2 portrait
    assert float(box.height) == pytest.approx(594 * PT_PER_MM, abs=0.1)
    tiles = PdfReader(out / "war-of-the-ring-campaign" / "map-middle-earth-tiles-a4.pdf")
    assert len(tiles.pages) == 1 + 6                                      # assembly page + 6 sheets
    text = tiles.pages[0].extract_text()
    assert "組み立て図" in text and "シート1から" in text
    heads = [p.extract_text() for p in tiles.pages[1:]]
    assert all(f"シート {i}/6" in h for i, h in enumerate(heads, 1))
    svg = (out / "war-of-the-ring-campaign" / "map-middle-earth.svg").read_text()
    assert re.search(r'width="420(\.0)?mm"', svg) and re.search(r'height="594(\.0)?mm"', svg)


def test_fonts_are_embedded_and_output_is_deterministic(built, tmp_path):
    out, _ = built
    data = (out / "war-of-the-ring-campaign" / "map-middle-earth.pdf").read_bytes()
    assert b"/FontFile2" in data and b"Helvetica" not in data
    again = build_maps(load_game("war-of-the-ring-campaign"), BuildContext(out_root=tmp_path, formats=("pdf",)))
    for p in again:
        assert p.read_bytes() == (out / "war-of-the-ring-campaign" / p.name).read_bytes()


def test_printed_map_says_it_is_a_reconstruction(built):
    from pypdf import PdfReader

    out, _ = built
    text = PdfReader(out / "war-of-the-ring-campaign" / "map-middle-earth.pdf").pages[0].extract_text()
    assert "再構成" in text and "M17" in text and "ミナス・ティリス" in text


def test_labels_are_printed_inside_their_own_hexes(built):
    """Read where the PDF draws each hex label and check it falls inside that hex."""
    from pypdf import PdfReader

    out, _ = built
    hm = load_game("war-of-the-ring-campaign").extras["map"].resolve()
    page = map_page(hm)
    pdf_page = PdfReader(out / "war-of-the-ring-campaign" / "map-middle-earth.pdf").pages[0]
    seen: dict[str, tuple[float, float]] = {}

    def visit(text, cm, tm, font, size):
        t = text.strip()
        if t in ("A1", "M17", "N18", "I13", "Z26", "O21"):
            x_pt = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
            y_pt = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            seen[t] = (x_pt / PT_PER_MM, page.height - y_pt / PT_PER_MM)

    pdf_page.extract_text(visitor_text=visit)
    assert set(seen) == {"A1", "M17", "N18", "I13", "Z26", "O21"}
    for label, (x, y) in seen.items():
        cx, cy = page.hex_centre(hm, hm.hex(label))
        assert abs(x - cx) < paper_grid(hm).radius * 0.6 and cy - hm.data.grid.hex_mm / 2 < y < cy, (label, x, y, cx, cy)


def test_letter_paper_tiles(tmp_path):
    game = load_game("riddle-of-the-ring")
    written = build_maps(game, BuildContext(out_root=tmp_path, paper="letter", formats=()))
    assert [p.name for p in written] == ["map-middle-earth-tiles-letter.pdf"]
    from pypdf import PdfReader

    reader = PdfReader(written[0])
    w, h = float(reader.pages[1].mediabox.width), float(reader.pages[1].mediabox.height)
    assert sorted((round(w / PT_PER_MM, 1), round(h / PT_PER_MM, 1))) == [215.9, 279.4]


@pytest.mark.parametrize("show,expect", [("all", 30), ("none", 0), (["B2", "F5"], 2)])
def test_only_the_chosen_hexes_print_their_labels(show, expect):
    from pypdf import PdfReader
    import io

    from generator.hexmap.draw import draw_map_page
    from generator.render.pdf import PdfSurface
    from solver.game.map import MapFile

    m = MapFile.model_validate({
        "id": "t", "name": "t", "reconstruction": True, "paper": "a4",
        "grid": {"orientation": "flat", "offset": "odd", "hex_mm": 20, "columns": 6, "rows": 5},
        "labels": {"style": "letter-number", "show": show},
        "terrain": {"default": "c", "kinds": {"c": {"name": "c", "fill": "#eeeeee"}}},
        "legend": {"title": "T", "note": "reconstruction"}})
    hm = m.resolve()
    surf = PdfSurface()
    draw_map_page(surf, hm, map_page(hm), "en", fonts.faces("en"))
    text = PdfReader(io.BytesIO(surf.getvalue())).pages[0].extract_text()
    found = set(re.findall(r"\b[A-F][1-5]\b", text))
    assert len(found) == expect
    if isinstance(show, list):
        assert found == set(show)


def test_an_a4_map_is_not_cut_into_a4_tiles(tmp_path):
    """The `pnp new` template's map is an A4 page: an A4 build prints it whole (no tiles file, and
    the print guide names none); on Letter, which the A4 page does not fit, it is tiled."""
    from pypdf import PdfReader

    from generator.cli import main
    from generator.rulebook.guide import Printing, guide_lines

    folder = tmp_path / "harbour-game"
    assert main(["new", str(folder)]) == 0
    game = load_game(str(folder))
    written = build_maps(game, BuildContext(out_root=tmp_path / "out", formats=("pdf",)))
    assert [p.name for p in written] == ["map-harbour.pdf"]
    box = PdfReader(written[0]).pages[0].mediabox
    assert (round(float(box.width) / PT_PER_MM), round(float(box.height) / PT_PER_MM)) == (297, 210)
    guide = " ".join(guide_lines(game, "en", Printing.of(BuildContext())))
    assert "map-harbour.pdf" in guide and "-tiles-" not in guide and "on one A4 sheet" in guide
    letter = build_maps(game, BuildContext(out_root=tmp_path / "letter", paper="letter", formats=()))
    assert [p.name for p in letter] == ["map-harbour-tiles-letter.pdf"]
    # the drawn part (175 x 188 mm) fits one Letter sheet's window: the assembly page and that sheet
    assert len(PdfReader(letter[0]).pages) == 1 + 1


def _legend_and_grid_frames(pdf_path):
    """The legend's box (the rect filled #fffdf6) and the grid's frame (the widest stroked rect
    without fill), in mm, and the title's first glyph's left edge: read back with pdfplumber."""
    import pdfplumber

    from pdf_units import MM_PER_PT

    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        legend = next(r for r in page.rects if r["fill"] and r["non_stroking_color"] is not None
                      and [round(v * 255) for v in r["non_stroking_color"]] == [0xff, 0xfd, 0xf6])
        frame = max((r for r in page.rects if r["stroke"] and not r["fill"]), key=lambda r: r["width"])
        title = min(page.chars, key=lambda c: (c["top"], c["x0"]))
        mm = lambda r: tuple(round(r[k] * MM_PER_PT, 2) for k in ("x0", "x1", "top", "bottom"))  # noqa: E731
        return mm(legend), mm(frame), round(title["x0"] * MM_PER_PT, 2)


def test_the_legend_and_title_line_up_with_the_map(tmp_path, built):
    """Issue 29: the legend sat off to the right of the grid (the `pnp new` template's too): its
    right edge now lies under the grid frame's, the title starts at the frame's left edge."""
    from generator.cli import main

    folder = tmp_path / "harbour-game"
    assert main(["new", str(folder)]) == 0
    harbour = build_maps(load_game(str(folder)), BuildContext(out_root=tmp_path / "out", formats=("pdf",)))
    out, _ = built
    for pdf in (harbour[0], out / "war-of-the-ring-campaign" / "map-middle-earth.pdf"):
        legend, frame, title_x = _legend_and_grid_frames(pdf)
        assert legend[1] == pytest.approx(frame[1], abs=0.4), (pdf.name, legend, frame)
        assert legend[2] > frame[3]                                  # below the grid
        assert title_x == pytest.approx(frame[0], abs=1.0), (pdf.name, title_x, frame)


def test_road_dashes_stay_clear_of_hex_labels(built):
    """Every label of a hex a road runs through, as pdfplumber places it, shows no road ink when
    pdfium renders the page; the roads themselves do show (so the check can fail)."""
    import pdfplumber
    import pypdfium2 as pdfium

    from pdf_units import MM_PER_PT

    out, _ = built
    pdf_path = out / "war-of-the-ring-campaign" / "map-middle-earth.pdf"
    hm = load_game("war-of-the-ring-campaign").extras["map"].resolve()
    on_roads = {x for road in hm.data.roads for x in road.path}
    assert on_roads
    with pdfplumber.open(pdf_path) as pdf:
        words = [w for w in pdf.pages[0].extract_words(extra_attrs=["size"])
                 if w["text"] in on_roads and abs(w["size"] - hm.data.labels.size_pt) < 0.01]
    assert {w["text"] for w in words} == on_roads
    dpi = 200
    doc = pdfium.PdfDocument(str(pdf_path))
    img = doc[0].render(scale=dpi / 72).to_pil().convert("RGB")
    doc.close()
    road = (0x8a, 0x5a, 0x2b)
    def has_road(im) -> bool:
        data = im.tobytes()
        return any(all(abs(data[i + k] - road[k]) <= 24 for k in range(3)) for i in range(0, len(data), 3))

    px_per_pt = dpi / 72
    seen_road = 0
    for w in words:
        # the label's box, less the pixel its anti-aliased edge shares with what lies around it
        box = (math.ceil(w["x0"] * px_per_pt) + 1, math.ceil(w["top"] * px_per_pt) + 1,
               math.floor(w["x1"] * px_per_pt) - 1, math.floor(w["bottom"] * px_per_pt) - 1)
        crop = img.crop(box)
        assert not has_road(crop), w["text"]
        # the road is there just outside the label: look one label-height above and below
        around = img.crop((box[0], box[1] - 3 * (box[3] - box[1]), box[2], box[3] + 3 * (box[3] - box[1])))
        seen_road += has_road(around)
    assert seen_road >= len(words) // 3


def _colour_share(png_path, rgb) -> float:
    """The share of the image's pixels that are exactly `rgb` (read back with Pillow)."""
    from PIL import Image

    img = Image.open(png_path).convert("RGB")
    counts = dict((c, n) for n, c in img.getcolors(img.width * img.height))
    return counts.get(rgb, 0) / (img.width * img.height)


def test_a_second_language_s_map_png_is_the_one_it_gets_alone_and_an_edit_shows(tmp_path):
    """A newcomer's map built in two languages by one process (as `build --jobs 1` does): the
    second language's PNG (whose hex tiles the first drew, generator/hexmap/symbols.py) has the
    pixels of that language's PNG drawn by a process that drew nothing before; and after map.yaml's
    land colour is edited, the map reloaded shows the new colour, not the old one."""
    from PIL import Image, ImageChops

    from generator.cli import main

    folder = tmp_path / "harbour-game"
    assert main(["new", str(folder)]) == 0
    png = ("png",)
    game = load_game(str(folder))
    build_maps(game, BuildContext(out_root=tmp_path / "en", formats=png, lang="en"))
    [second] = build_maps(game, BuildContext(out_root=tmp_path / "ja", formats=png, lang="ja"))
    alone = tmp_path / "alone.py"
    alone.write_text("import sys\nfrom pathlib import Path\nfrom generator.context import BuildContext\n"
                     "from generator.hexmap.stage import build_maps\nfrom solver.game.loader import load_game\n"
                     "build_maps(load_game(sys.argv[1]), BuildContext(out_root=Path(sys.argv[2]), formats=('png',), lang='ja'))\n")
    import subprocess
    import sys

    subprocess.run([sys.executable, str(alone), str(folder), str(tmp_path / "alone")], check=True)
    fresh = tmp_path / "alone" / second.relative_to(tmp_path / "ja")
    a, b = Image.open(second).convert("RGB"), Image.open(fresh).convert("RGB")
    assert a.size == b.size and ImageChops.difference(a, b).getbbox() is None
    land, edited = (0xe8, 0xdf, 0xb8), (0xc0, 0x40, 0x40)
    assert _colour_share(second, land) > 0.02  # six land hexes of forty, a third of the page
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    (folder / "map.yaml").write_text(text.replace('fill: "#e8dfb8"', 'fill: "#c04040"'), encoding="utf-8")
    [redrawn] = build_maps(load_game(str(folder)), BuildContext(out_root=tmp_path / "edited", formats=png, lang="ja"))
    assert _colour_share(redrawn, land) == 0 and _colour_share(redrawn, edited) > 0.02


def test_a_map_drawn_and_let_go_is_collected(tmp_path):
    """The map's symbols are kept while its model lives (generator/hexmap/symbols.py), so their
    drawings must not hold the model: a game dropped after its map was drawn leaves nothing behind
    (`pnp serve` loads the game again at every save). Before, each terrain hex's drawing held the
    model, and the memo kept both for ever."""
    import gc
    import weakref

    from generator.cli import main

    folder = tmp_path / "harbour-game"
    assert main(["new", str(folder)]) == 0
    game = load_game(str(folder))
    model = weakref.ref(game.extras["map"])
    assert build_maps(game, BuildContext(out_root=tmp_path / "out", formats=("pdf", "png"), lang="en"))
    del game
    gc.collect()
    assert model() is None



def test_a_map_with_text_on_its_hexes_hands_preflight_no_record(tmp_path):
    """Its record cannot tell (every label stands on a hex symbol, whose fill the record's walk does
    not follow): preflight reads the page back either way, and walking the record first was for
    nothing. A map with no text on its hexes keeps its record."""
    from generator import fonts
    from generator.drawn_registry import digest, take_record
    from generator.hexmap.draw import draw_map_page
    from generator.hexmap.layout import map_page
    from generator.pieces.drawn import SheetRecord, sheet_pages
    from generator.render.record import Recording
    from solver.game.map import HexMap

    game = load_game("war-of-the-ring-campaign")
    hm = game.extras["map"].resolve(game.locators.get("map.yaml"))
    rec = Recording(any_surface=True)
    draw_map_page(rec, hm, map_page(hm), "en", fonts.faces("en", game))
    record = SheetRecord.of(rec)
    assert record is not None and sheet_pages(record) is None  # the record cannot tell
    written = build_maps(game, BuildContext(out_root=tmp_path, formats=("pdf", "svg")))
    pdf = next(p for p in written if p.name == "map-middle-earth.pdf")
    assert take_record(digest(pdf.read_bytes())) is None
    from generator.hexmap.stage import record_tells

    d = hm.data
    bare = d.model_copy(update={"labels": d.labels.model_copy(update={"show": "none"}), "places": [], "regions": []})
    assert record_tells(HexMap(bare)) and not record_tells(hm)


def test_the_tiled_print_replays_the_full_size_page_s_calls_and_is_the_file_drawn_afresh(tmp_path):
    """The tiled file's page symbol and symbols are the full-size page's recorded calls replayed
    (stage.py `record_map_page`), not the map drawn a second time: its bytes must be those of the
    map drawn straight onto the tiled file's surface, and the recording that of `draw_map_page`."""
    from generator import fonts
    from generator.hexmap.draw import draw_map_page
    from generator.hexmap.stage import record_map_page
    from generator.hexmap.tiles import draw_tiles
    from generator.pieces.draft import DraftNote
    from generator.render.record import Recording

    game = load_game("war-of-the-ring-campaign")
    hm = game.extras["map"].resolve(game.locators.get("map.yaml"))
    page = map_page(hm)
    paper, plan = "a4", tile_plan(page.extent, (210.0, 297.0), content=page.content)
    for lang in ("en", "ja"):
        faces = fonts.faces(lang, game)
        note = DraftNote("Translation draft", faces.regular) if lang == "ja" else None
        whole, symbols, content = record_map_page(hm, page, lang, faces, note)
        straight = Recording(any_surface=True)
        draw_map_page(straight, hm, page, lang, faces, note)
        assert whole.calls == straight.calls
        fresh = draw_tiles(hm, page, plan, lang, faces, tmp_path / f"fresh-{lang}.pdf", note)
        replayed = draw_tiles(hm, page, plan, lang, faces, tmp_path / f"replayed-{lang}.pdf", note,
                              recorded=(symbols, content))
        assert replayed[0].read_bytes() == fresh[0].read_bytes()
