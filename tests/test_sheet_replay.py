"""A sheet is laid out once and the same calls made on the PDF and on the SVG surface
(pieces/render.py `write_pages`, through render/record.py `Recording(any_surface=True)`, issue 26).

The two surfaces keep symbols differently (a PDF defines one once per file, an SVG once per page),
so a recording replayed on both must give each the definitions it needs: read back with an XML
parser (every page's `<use>` finds its `<g>` in that page's `<defs>`) and with pypdf (one form
XObject, placed on every page)."""
from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from pypdf import PdfReader

from generator.cards.symbols import SymbolDrawing
from generator.geometry import Box
from generator.render import open_surface
from generator.render.record import Recording

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
STAR = SymbolDrawing(shapes=(("polygon", ((0.0, 0.0), (4.0, 0.0), (2.0, 4.0)), 0.0, 0.0, 0.0, None, "#aa2200", None, 0.0),),
                     colour="#aa2200")


def sheet(s, pages: int = 3) -> None:
    """Pages that each place the star twice, asking `has_symbol` first as a face drawer does."""
    for page in range(pages):
        s.begin_page(60, 40)
        s.rect(Box(2, 2, 56, 36), stroke="#553322", width=0.3)
        for x in (10, 30):
            if not s.has_symbol("star"):
                s.define_symbol("star", 4, 4, STAR)
            s.use_symbol("star", x, 10 + page, scale=1.5)
        s.text(5, 30, f"page {page + 1}", size_pt=8)
        s.end_page()


def test_every_svg_page_defines_the_symbols_it_places(tmp_path: Path):
    rec = Recording(any_surface=True)
    sheet(rec)
    s = open_surface("svg", title="replayed")
    rec.replay(s)
    paths = s.save(tmp_path / "sheet.svg")
    assert [p.name for p in paths] == ["sheet-p1.svg", "sheet-p2.svg", "sheet-p3.svg"]
    for p in paths:
        root = ElementTree.parse(p).getroot()
        defined = {el.get("id") for el in root.iter(f"{SVG}g") if el.get("id")}
        placed = [el.get(XLINK) for el in root.iter(f"{SVG}use") if el.get(XLINK, "").startswith("#sym")]
        assert len(placed) == 2, p.name  # both stars of the page, and no glyph taken for one
        assert len(defined & {h[1:] for h in placed}) == 1, p.name  # one definition, on this page
        polygons = [el for el in root.iter(f"{SVG}polygon") if el.get("fill") == "#aa2200"]
        assert len(polygons) == 1, p.name


def test_a_replayed_pdf_defines_the_symbol_once_and_places_it_on_every_page(tmp_path: Path):
    rec = Recording(any_surface=True)
    sheet(rec)
    s = open_surface("pdf", title="replayed")
    rec.replay(s)
    [path] = s.save(tmp_path / "sheet.pdf")
    reader = PdfReader(path)
    assert len(reader.pages) == 3
    forms = []
    for page in reader.pages:
        xobjects = page["/Resources"]["/XObject"]
        names = [n for n in xobjects if "sym" in n]
        assert len(names) == 1
        forms.append(xobjects.raw_get(names[0]).idnum)
        assert page.get_contents().get_data().count(f"{names[0]} Do".encode()) == 2
    assert len(set(forms)) == 1  # the same form object on every page


def test_replayed_files_equal_the_files_drawn_directly(tmp_path: Path):
    """The bytes drawing straight on each surface gives, for both formats."""
    for kind in ("pdf", "svg"):
        rec = Recording(any_surface=True)
        sheet(rec)
        replayed, direct = open_surface(kind, title="t"), open_surface(kind, title="t")
        rec.replay(replayed)
        sheet(direct)
        got = replayed.save(tmp_path / "replayed" / f"sheet.{kind}")
        want = direct.save(tmp_path / "direct" / f"sheet.{kind}")
        assert [p.read_bytes() for p in got] == [p.read_bytes() for p in want], kind
