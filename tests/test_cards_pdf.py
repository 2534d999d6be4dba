"""Card sheets as files: page boxes, embedded subset fonts, same bytes twice, fronts and backs
where the geometry says (PDF read back with pypdf), and PDF and SVG agreeing on positions."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdf
import pytest

from generator.cards.deck import build_cards
from generator.context import BuildContext
from pdf_units import MM_PER_PT
from solver.game.components import size_mm
from solver.game.loader import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "cards-with-images"
RE_OP = re.compile(rb"(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re\b")


def build(tmp_path: Path, game="dont-drop-the-ring", stage=build_cards, **kw) -> tuple[BuildContext, list[Path]]:
    ctx = BuildContext(out_root=tmp_path, formats=kw.pop("formats", ("pdf", "svg")), **kw)
    return ctx, stage(load_game(game if game != "fixture" else FIXTURE), ctx)


def rects_mm(page, size: tuple[float, float]) -> list[tuple[float, float]]:
    """Top-left corners (mm, y down) of the page-level rectangles of a given size (mm)."""
    data = page.get_contents().get_data()
    h = float(page.mediabox.height)
    out = []
    for m in RE_OP.finditer(data):
        x, y, w, hh = (float(v) for v in m.groups())
        if abs(w * MM_PER_PT - size[0]) < 0.01 and abs(hh * MM_PER_PT - size[1]) < 0.01:
            out.append((round(x * MM_PER_PT, 2), round((h - y - hh) * MM_PER_PT, 2)))
    return out


@pytest.fixture(scope="module")
def default_build(tmp_path_factory):
    return build(tmp_path_factory.mktemp("cards"))[1]


def test_multi_up_sheets_carry_no_trim_box(default_build):
    # A sheet of many cards has no one finished size: only the MediaBox (the paper); the crop
    # marks show the cuts. Single-piece pages are in test_print_audit.py.
    files = default_build
    pdf = pypdf.PdfReader(next(f for f in files if f.name == "cards-gem-cards-ja.pdf"))
    for page in pdf.pages:
        assert "/TrimBox" not in page.keys() and "/BleedBox" not in page.keys()
        assert float(page.mediabox.width) * MM_PER_PT == pytest.approx(297.0, abs=0.01)


def test_fonts_are_embedded_subset_truetype_and_no_helvetica(default_build):
    files = default_build
    for f in files:
        if f.suffix != ".pdf":
            continue
        raw = f.read_bytes()
        assert b"Helvetica" not in raw, f
        pdf = pypdf.PdfReader(f)
        for page in pdf.pages:
            fonts = page["/Resources"].get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                assert re.match(r"^/[A-Z]{6}\+", font["/BaseFont"]), font["/BaseFont"]
                descriptor = font["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor


def test_second_build_gives_identical_bytes(tmp_path, default_build):
    first = default_build
    _, second = build(tmp_path)
    assert [p.name for p in first] == [p.name for p in second]
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a.name


# Worked by hand for poker cards (63.5 x 88.9 mm, 3 mm bleed: 69.5 x 94.9 mm drawn) on A4, with the
# printer's margin 5 mm + mark gap 1 mm + mark 3 mm = 9 mm kept clear on every side:
#   portrait 210 x 297: (210 - 18) // 69.5 = 2 across, (297 - 18) // 94.9 = 2 down  -> 4 a sheet
#   landscape 297 x 210: (297 - 18) // 69.5 = 4 across, (210 - 18) // 94.9 = 2 down -> 8: landscape
#   centred: x0 = (297 - 4 * 69.5) / 2 = 9.5, y0 = (210 - 2 * 94.9) / 2 = 10.1
#   columns 9.5, 79.0, 148.5, 218.0 (+ 69.5 each); rows 10.1, 105.0 (+ 94.9)
# Turned over about either edge the layout is its own mirror image (x -> 297 - 69.5 - x,
# y -> 210 - 94.9 - y), so unmoved backs fill the same boxes; a back offset of (1.5, -0.75) mm in
# the paper's axes is (+0.75, +1.5) on a landscape sheet (the paper turned a quarter turn).
CARD_XS, CARD_YS = (9.5, 79.0, 148.5, 218.0), (10.1, 105.0)
CARD_BOXES = [(x, y) for y in CARD_YS for x in CARD_XS]


@pytest.mark.parametrize("flip,offset,moved", [("long", (0.0, 0.0), (0.0, 0.0)), ("short", (0.0, 0.0), (0.0, 0.0)),
                                               ("long", (1.5, -0.75), (0.75, 1.5))])
def test_fronts_and_mirrored_backs_sit_where_the_grid_says(tmp_path, flip, offset, moved):
    ctx, files = build(tmp_path, flip=flip, back_offset_mm=offset, formats=("pdf",))
    pdf = pypdf.PdfReader(next(f for f in files if f.name == "cards-gem-cards-ja.pdf"))
    assert ctx.paper_mm == (210.0, 297.0)
    bled = (63.5 + 6, 88.9 + 6)  # the card background covers trim + bleed
    fronts, backs = rects_mm(pdf.pages[0], bled), rects_mm(pdf.pages[1], bled)
    want_b = [(round(x + moved[0], 2), round(y + moved[1], 2)) for x, y in CARD_BOXES]
    assert sorted(fronts) == sorted(CARD_BOXES)
    assert sorted(backs) == sorted(want_b)


def svg_rects(path: Path, size: tuple[float, float]) -> list[tuple[float, float]]:
    root = ET.parse(path).getroot()
    out = []
    for el in root.iter("{http://www.w3.org/2000/svg}rect"):
        if abs(float(el.get("width", 0)) - size[0]) < 0.01 and abs(float(el.get("height", 0)) - size[1]) < 0.01 \
                and el.get("fill") not in (None, "none"):
            out.append((round(float(el.get("x")), 2), round(float(el.get("y")), 2)))
    return out


def test_pdf_and_svg_agree_on_positions(tmp_path):
    _, files = build(tmp_path, back_offset_mm=(0.5, 0.25))
    pdf = pypdf.PdfReader(next(f for f in files if f.name == "cards-gem-cards-ja.pdf"))
    svgs = sorted((f for f in files if f.name.startswith("cards-gem-cards-ja-p")),
                  key=lambda p: int(p.stem.rsplit("-p", 1)[1]))
    assert len(svgs) == len(pdf.pages)
    for page, svg in zip(pdf.pages, svgs):
        bled = (size_mm("poker")[0] + 6, size_mm("poker")[1] + 6)  # card backgrounds: trim + 3 mm bleed
        assert sorted(rects_mm(page, bled)) == sorted(svg_rects(svg, bled)) != []
        root = ET.parse(svg).getroot()
        assert float(root.get("width")[:-2]) == pytest.approx(float(page.mediabox.width) * MM_PER_PT, abs=0.01)


def test_svg_text_is_drawn_from_the_font_not_from_installed_fonts(default_build):
    files = default_build
    svg = next(f for f in files if f.suffix == ".svg").read_text()
    assert "<text" not in svg and "@font-face" not in svg
    assert "<title>" in svg and "xmlns:ev" not in svg  # the words stay searchable, in SVG 1.1
    # Each string is a group of glyph outlines (paths placed by <use>); its font-family only names
    # the face the outlines were taken from.
    ns = {"svg": "http://www.w3.org/2000/svg"}
    groups = [g for g in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g") if g.find("svg:title", ns) is not None]
    assert groups and all(g.get("font-family") == "'IPAexGothic'" for g in groups)
    assert all(g.find(".//svg:use", ns) is not None for g in groups if g.find("svg:title", ns).text.strip())


RE_FORM = re.compile(rb"(-?[\d.]+) 0 0 (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) cm\s+/(\S+) Do")
RE_USE = re.compile(r'<use transform="translate\((-?[\d.]+) (-?[\d.]+)\) scale\(([\d.]+)\)" xlink:href="#sym\d+"')


def test_pdf_and_svg_agree_on_symbol_placements(default_build):
    # The gem symbol (10 x 10 units) is placed once per gem card, scaled to its 40 mm box.
    files = default_build
    page = pypdf.PdfReader(next(f for f in files if f.name == "cards-gem-cards-ja.pdf")).pages[0]
    h_mm = float(page.mediabox.height) * MM_PER_PT
    pdf_places = sorted((round(float(x) * MM_PER_PT, 2), round(h_mm - float(y) * MM_PER_PT - 10 * float(s), 2))
                        for s, _, x, y, _ in RE_FORM.findall(page.get_contents().get_data()))
    svg = next(f for f in files if f.name == "cards-gem-cards-ja-p1.svg").read_text()
    svg_places = sorted((round(float(x), 2), round(float(y), 2)) for x, y, _ in RE_USE.findall(svg))
    assert len(pdf_places) == 8
    assert pdf_places == svg_places
