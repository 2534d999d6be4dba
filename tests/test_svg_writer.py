"""The SVG backend writes each page itself, without svgwrite (issue 26): every page must be,
character for character, what ElementTree writes from the svgwrite element tree of the same
drawing (`ElementTree.tostring(dwg.get_xml())`, the XML Events namespace left out), for every kind
of element the backend draws; its text must be each glyph's outline as fontTools draws it, placed at
the font's advances; and the page must parse as XML."""
from __future__ import annotations

import io
from pathlib import Path
from xml.etree import ElementTree

import pytest
from PIL import Image

from generator import fonts
from generator.geometry import MM_PER_PT, Box
from generator.render.base import ImageSource
from generator.render.svg import SvgSurface

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def _png() -> ImageSource:
    buf = io.BytesIO()
    Image.new("RGB", (4, 3), (200, 10, 10)).save(buf, format="PNG")
    return ImageSource(Path("red.png"), "raster", (4, 3), buf.getvalue())


def _draw(s: SvgSurface) -> None:
    s.begin_page(63.5, 88.9, trim=Box(3, 3, 57.5, 82.9), bleed=Box(0, 0, 63.5, 88.9))
    s.rect(Box(0, 0, 63.5, 88.9), fill="#f6f0e0")
    s.rect(Box(3, 3, 57.5, 82.9), stroke="#553322", width=0.5, radius=3)
    s.line(1, 2, 30.123456, 2, stroke="#000000", width=0.2, dash=(1, 0.5))
    s.polyline([(1, 1), (5, 9), (9, 1)], stroke="#102030", width=0.3)
    s.polygon([(10, 10), (20, 10), (15, 18)], fill="#00ff00", stroke="#0000ff")
    s.circle(30, 40, 5, fill="#abcdef")
    # text with the characters XML escapes, in its <title> too, twice (its glyphs defined once)
    s.text(5, 50, 'Tom & "Jerry" <3 > 2', size_pt=9, colour="#1a1a1a")
    s.text(5, 60, "Tom & Jerry", size_pt=7, align="center")
    s.text(5, 70, "指輪 and ring", size_pt=8, align="right")  # kanji and Latin: in the project font
    # a Latin face with characters it lacks: a run (a group) per face, the fallback's says its face;
    # then the same string again at another size (its glyphs shaped once, placed again)
    for size in (7, 9):
        s.text(5, 78, "Ring 指輪 of power", size_pt=size, font=fonts.text_font("en"), align="center")
    s.define_symbol("dot@#ff0000", 4, 4, lambda sub: sub.circle(2, 2, 2, fill="#ff0000"))
    s.use_symbol("dot@#ff0000", 40, 60, scale=1.5)
    s.use_symbol("dot@#ff0000", 45, 60)
    s.image(Box(40, 70, 10, 10), _png(), fit="crop")
    with s.group(dx=2, dy=3):
        s.rect(Box(0, 0, 2, 2), fill="#123456")


def _shapes(s: SvgSurface) -> None:
    s.begin_page(63.5, 88.9, trim=Box(3, 3, 57.5, 82.9), bleed=Box(0, 0, 63.5, 88.9))
    s.rect(Box(0, 0, 63.5, 88.9), fill="#f6f0e0")
    s.rect(Box(3, 3, 57.5, 82.9), stroke="#553322", width=0.5, radius=3)
    s.line(1, 2, 30.123456, 2, stroke="#000000", width=0.2, dash=(1, 0.5))
    s.line(0, -0.0001, 5, 5)
    s.rect(Box(1, 1, 2, 2), stroke="#00f")
    s.polyline([(1, 1), (5, 9), (9, 1)], stroke="#102030", width=0.3, dash=(2,))
    s.polygon([(10, 10), (20, 10), (15, 18)], fill="#00ff00", stroke="#0000ff")
    s.circle(30, 40, 5, fill="#abcdef")
    s.define_symbol("dot@#ff0000", 4, 4, lambda sub: sub.circle(2, 2, 2, fill="#ff0000", stroke="#000"))
    s.use_symbol("dot@#ff0000", 40, 60, scale=1.5)
    s.use_symbol("dot@#ff0000", 45, 60)
    s.image(Box(40, 70, 10, 10), _png(), fit="crop")
    with s.group(dx=2, dy=3):
        s.rect(Box(0, 0, 2, 2), fill="#123456")
        with s.group(clip=Box(1, 1, 5, 5)):
            s.circle(2, 2, 3, stroke="#ff0000", width=0.1)


def _svgwrite_shapes(title: str) -> str:
    """The page `_shapes` draws, built with svgwrite's own elements, as ElementTree writes it."""
    import base64

    import svgwrite

    dwg = svgwrite.Drawing(size=("63.5mm", "88.9mm"), profile="full", debug=False)
    dwg.viewbox(0, 0, 63.5, 88.9)
    dwg.set_desc(title=title)
    add = dwg.add
    add(dwg.rect(insert=(0.0, 0.0), size=(63.5, 88.9), fill="#f6f0e0"))
    add(dwg.rect(insert=(3.0, 3.0), size=(57.5, 82.9), rx=3, ry=3, fill="none", stroke="#553322", stroke_width=0.5))
    add(dwg.line((1.0, 2.0), (30.123, 2.0), fill="none", stroke="#000000", stroke_width=0.2, stroke_dasharray="1,0.5"))
    add(dwg.line((0.0, 0.0), (5.0, 5.0), fill="none", stroke="#000000", stroke_width=0.25))  # -0.0001 rounds to 0.0
    add(dwg.rect(insert=(1.0, 1.0), size=(2, 2), fill="none", stroke="#00f", stroke_width=0.25))
    add(dwg.polyline([(1.0, 1.0), (5.0, 9.0), (9.0, 1.0)], fill="none", stroke="#102030", stroke_width=0.3,
                     stroke_dasharray="2"))
    add(dwg.polygon([(10.0, 10.0), (20.0, 10.0), (15.0, 18.0)], fill="#00ff00", stroke="#0000ff", stroke_width=0.25))
    add(dwg.circle(center=(30.0, 40.0), r=5, fill="#abcdef"))
    sym = dwg.g(id="sym1")
    sym.add(dwg.circle(center=(2.0, 2.0), r=2, fill="#ff0000", stroke="#000", stroke_width=0.25))
    dwg.defs.add(sym)
    add(dwg.use("#sym1", transform="translate(40.0 60.0) scale(1.5)"))
    add(dwg.use("#sym1", transform="translate(45.0 60.0)"))
    png = "data:image/png;base64," + base64.b64encode(_png().data).decode("ascii")
    dwg.defs.add(dwg.image(png, insert=(0, 0), size=(1, 1), id="img2", preserveAspectRatio="none"))
    clip = dwg.clipPath(id="clip3")
    clip.add(dwg.rect(insert=(40.0, 70.0), size=(10, 10)))
    dwg.defs.add(clip)
    g = add(dwg.g(clip_path="url(#clip3)"))
    g.add(dwg.use("#img2", transform="translate(38.333 70.0) scale(13.333 10)"))  # a 4x3 image cropped to a square
    add(dwg.rect(insert=(2.0, 3.0), size=(2, 2), fill="#123456"))
    clip = dwg.clipPath(id="clip4")
    clip.add(dwg.rect(insert=(3.0, 4.0), size=(5, 5)))
    dwg.defs.add(clip)
    g = add(dwg.g(clip_path="url(#clip4)"))
    g.add(dwg.circle(center=(4.0, 5.0), r=3, fill="none", stroke="#ff0000", stroke_width=0.1))
    dwg.defs.add(dwg.rect(insert=(3, 3), size=(57.5, 82.9), id="trim-box", fill="none"))
    dwg.defs.add(dwg.rect(insert=(0.0, 0.0), size=(63.5, 88.9), id="bleed-box", fill="none"))  # a rounded 0 is 0.0
    root = dwg.get_xml()
    root.attrib.pop("xmlns:ev", None)
    return ElementTree.tostring(root, encoding="unicode")


def test_each_page_is_what_elementtree_writes_from_svgwrites_tree(tmp_path):
    s = SvgSurface(title="A deck & its <backs>")
    _shapes(s)
    [path] = s.save(tmp_path / "page.svg")
    head, written = path.read_text(encoding="utf-8").split("\n", 1)
    assert head == '<?xml version="1.0" encoding="utf-8" ?>'
    assert written == _svgwrite_shapes("A deck & its <backs>")
    assert "xmlns:ev" not in written


def _drawn_glyphs(font: str, text: str) -> list[tuple[str, int]]:
    """fontTools' own reading of `font`: each character's glyph outline (SVG path data, font
    units) and pen position, the glyphs without an outline (a space) left out."""
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.ttLib import TTFont

    with TTFont(str(fonts.font_file(font))) as f:
        cmap, glyphs, pen_x, out = f.getBestCmap(), f.getGlyphSet(), 0, []
        for ch in text:
            name = cmap.get(ord(ch), ".notdef")
            pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:g}")
            glyphs[name].draw(pen)
            if pen.getCommands():
                out.append((pen.getCommands(), pen_x))
            pen_x += f["hmtx"][name][0]
        return out


@pytest.mark.parametrize("text, font", [('Tom & "Jerry" <3 > 2', None), ("指輪 and ring", None),
                                        ("Ring of power", "en")])
def test_text_is_each_glyphs_outline_at_its_advance_defined_once_a_page(text, font):
    face = fonts.text_font(font) if font else fonts.register()
    s = SvgSurface()
    s.begin_page(100, 100)
    for size in (9, 7, 9):  # the same string again, and at another size: its glyphs defined once
        s.text(5, 50, text, size_pt=size, colour="#1a1a1a", font=face)
    s.end_page()
    page = ElementTree.fromstring(s.pages[0][1].decode("utf-8").split("\n", 1)[1])
    defs = {p.get("id"): p.get("d") for p in page.find(f"{NS}defs") or []}
    expected = _drawn_glyphs(face, text)
    lines = [g for g in page.findall(f"{NS}g")]
    assert [g.findtext(f"{NS}title") for g in lines] == [text] * 3
    for g, size in zip(lines, (9, 7, 9)):
        placed = [(defs[u.get(XLINK)[1:]], int(u.get("x", "0"))) for u in g.findall(f"{NS}use")]
        assert placed == expected
        scale = float(g.get("transform").split("scale(")[1].split()[0])
        from fontTools.ttLib import TTFont

        with TTFont(str(fonts.font_file(face))) as f:
            assert scale == pytest.approx(size * MM_PER_PT / f["head"].unitsPerEm, rel=1e-5)
        assert g.get("fill") == "#1a1a1a" and g.get("font-family")
    assert len(defs) == len({d for d, _ in expected})  # each outline once


def test_a_line_of_text_in_two_faces_is_a_group_per_run():
    s = SvgSurface()
    s.begin_page(100, 100)
    s.text(5, 78, "Ring 指輪 of power", size_pt=9, font=fonts.text_font("en"), align="center")
    s.end_page()
    page = ElementTree.fromstring(s.pages[0][1].decode("utf-8").split("\n", 1)[1])
    [line] = page.findall(f"{NS}g")
    runs = line.findall(f"{NS}g")
    assert line.findtext(f"{NS}title") == "Ring 指輪 of power" and len(runs) == 3
    assert [r.get("font-weight") for r in runs] == [None, "normal", None]  # the fallback's says its face
    assert runs[1].get("font-family") != line.get("font-family")


def test_drawing_without_an_open_page_is_refused():
    s = SvgSurface()
    with pytest.raises(RuntimeError):
        s.rect(Box(0, 0, 1, 1), fill="#000000")
    s.begin_page(10, 10)
    s.end_page()
    with pytest.raises(RuntimeError):
        s.text(1, 1, "a", size_pt=9)


def test_a_saved_page_is_the_written_one(tmp_path):
    s = SvgSurface(title="t")
    _draw(s)
    s.end_page()
    _draw(s)
    [p1, p2] = s.save(tmp_path / "page.svg")
    assert p1.name == "page-p1.svg" and p2.name == "page-p2.svg"
    text = p1.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="utf-8" ?>\n<svg ')
    assert text == p2.read_text(encoding="utf-8")
    assert ElementTree.fromstring(text.split("\n", 1)[1]).get("width") == "63.5mm"


def test_pages_past_the_raw_budget_are_kept_compressed_and_saved_the_same(tmp_path, monkeypatch):
    """A surface keeps its pages as written up to RAW_BUDGET bytes and compresses the ones after
    (a deck of thousands of pages): the files saved are the same either way."""
    import generator.render.svg as svg

    def three_pages(s: SvgSurface) -> None:
        for n in range(3):
            _draw(s)
            s.text(5, 85, f"page {n}", size_pt=6)
            s.end_page()

    kept = SvgSurface(title="t")
    three_pages(kept)
    monkeypatch.setattr(svg, "RAW_BUDGET", 1)  # every page past the first byte: compressed
    packed = SvgSurface(title="t")
    three_pages(packed)
    assert [compressed for compressed, _ in kept.pages] == [False] * 3
    assert [compressed for compressed, _ in packed.pages] == [True] * 3
    assert sum(len(data) for _, data in packed.pages) < sum(len(data) for _, data in kept.pages) / 2
    a = kept.save(tmp_path / "a" / "page.svg")
    b = packed.save(tmp_path / "b" / "page.svg")
    texts = [p.read_text(encoding="utf-8") for p in a]
    assert texts == [p.read_text(encoding="utf-8") for p in b]
    # each page its own: its text's <title> parsed back from the file
    ns = "{http://www.w3.org/2000/svg}"
    for n, text in enumerate(texts):
        titles = [t.text for t in ElementTree.fromstring(text.split("\n", 1)[1]).iter(f"{ns}title")]
        assert f"page {n}" in titles
