"""The SVG backend writes each page itself instead of building svgwrite's element tree (issue 26):
every page must be, character for character, what ElementTree writes from svgwrite's own tree
(`ElementTree.tostring(dwg.get_xml())`, the XML Events namespace left out), for every kind of
element the backend draws, and must parse as XML."""
from __future__ import annotations

import io
from pathlib import Path
from xml.etree import ElementTree

from PIL import Image

from generator import fonts
from generator.geometry import Box
from generator.render.base import ImageSource
from generator.render.svg import SvgSurface, _page_xml


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


def test_each_page_is_what_elementtree_writes_from_svgwrites_tree():
    s = SvgSurface(title="A deck & its <backs>")
    _draw(s)
    dwg = s.dwg
    for name, b in (("trim-box", Box(3, 3, 57.5, 82.9)), ("bleed-box", Box(0, 0, 63.5, 88.9))):
        dwg.defs.add(dwg.rect(insert=(b.x, b.y), size=(b.w, b.h), id=name, fill="none"))
    root = dwg.get_xml()
    root.attrib.pop("xmlns:ev", None)
    expected = ElementTree.tostring(root, encoding="unicode")
    written = _page_xml(dwg)
    assert written == expected
    parsed = ElementTree.fromstring(written)
    ns = "{http://www.w3.org/2000/svg}"
    assert parsed.tag == f"{ns}svg" and parsed.get("baseProfile") == "full"
    assert "xmlns:ev" not in written
    titles = [t.text for t in parsed.iter(f"{ns}title")]
    assert 'Tom & "Jerry" <3 > 2' in titles and "A deck & its <backs>" in titles
    assert len(list(parsed.iter(f"{ns}use"))) > 10  # the glyphs, the symbol twice, the image
    # the mixed line: its group holds a group per run, the fallback's in the project font
    mixed = [g for g in parsed.iter(f"{ns}g") if g.findtext(f"{ns}title") == "Ring 指輪 of power"]
    assert len(mixed) == 2 and all(len(g.findall(f"{ns}g")) == 3 for g in mixed)
    assert sum(g.get("font-weight") == "normal" for m in mixed for g in m.findall(f"{ns}g")) == 2


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
