"""Issue 29 item 3: inline icons from the designer's own PNG and SVG files, and **bold** / *italic*
words in card text, in PDF, SVG and PNG. A newcomer's game (started with `pnp new`, not an example)
gets two icons (icons/lamp.png, icons/key.svg) under layouts.yaml `symbols:` and one card whose text
uses both and the markup; the outputs are read back with pdfplumber, an XML parser and Pillow.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image, ImageDraw

from generator.cards.textfit import BOLD, ITALIC, styled_segments
from generator.cli import main

MM = 25.4 / 72
LAMP = (242, 193, 78)  # the lamp's yellow, found in no other part of the cards
KEY_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
           '<circle cx="7" cy="12" r="5" fill="#2e6da4"/><rect x="11" y="10" width="12" height="4" fill="#2e6da4"/></svg>')
TEXT = "Play it **only** on a red lantern: take :lamp: and :key:, then *rest*."


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("icons")
    folder = root / "harbour"
    assert main(["new", str(folder)]) == 0
    (folder / "icons").mkdir()
    im = Image.new("RGBA", (128, 128), (0, 0, 0, 0))
    ImageDraw.Draw(im).ellipse((24, 8, 104, 88), fill=LAMP + (255,))
    im.save(folder / "icons" / "lamp.png")
    (folder / "icons" / "key.svg").write_text(KEY_SVG, encoding="utf-8")
    cards = folder / "cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    rows = [r.replace("Play it only on a red lantern.", f'"{TEXT}"') if r.startswith("red-4,") else r for r in rows]
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    layouts = folder / "layouts.yaml"
    layouts.write_text(layouts.read_text(encoding="utf-8")
                       + "symbols:\n  - {id: lamp, src: icons/lamp.png}\n  - {id: key, src: icons/key.svg}\n",
                       encoding="utf-8")
    out = root / "out"
    assert main(["build", str(folder), "--out", str(out), "--lang", "en", "--only", "cards", "--no-preflight"]) == 0
    return out / "harbour"


def test_markup_segments():
    assert styled_segments("a **b** *c* d") == [("a ", 0), ("b", BOLD), (" ", 0), ("c", ITALIC), (" d", 0)]
    assert styled_segments("**x *y* z**") == [("x ", BOLD), ("y", BOLD | ITALIC), (" z", BOLD)]
    assert styled_segments("2 * 3 * 4") == [("2 * 3 * 4", 0)]  # a lone star with spaces is a star
    assert styled_segments("5*") == [("5*", 0)]


def test_pdf_sets_the_marked_words_in_bold_and_italic_and_draws_the_icons(built):
    [pdf] = sorted(built.glob("cards-*-en.pdf"))
    with pdfplumber.open(pdf) as doc:
        page = next(p for p in doc.pages if "lantern: take" in (p.extract_text() or ""))
        every = page.extract_words(extra_attrs=["fontname"], keep_blank_chars=False)
        images = page.images
    take = next(w for w in every if w["text"] == "take")  # the red 4's text, two lines from its first word
    words = [w for w in every if take["top"] - 2 < w["top"] < take["bottom"] + 20
             and take["x0"] - 160 < w["x0"] < take["x1"] + 5]
    font = {w["text"]: w["fontname"].split("+")[-1] for w in words}
    assert font["only"].endswith("-Bold")
    assert next(f for t, f in font.items() if t.startswith("rest")).endswith("-It")
    assert font["Play"].endswith("-Regular") and font["lantern:"].endswith("-Regular")
    # one raster picture (the PNG lamp) placed one em square on the line of "and"; the SVG key is vectors
    [lamp] = images
    line = next(w for w in words if w["text"] == "and")
    em = line["bottom"] - line["top"]
    assert abs((lamp["x1"] - lamp["x0"]) - (lamp["bottom"] - lamp["top"])) < 0.05
    assert 0.6 * em < lamp["x1"] - lamp["x0"] < 1.6 * em
    assert lamp["top"] < line["bottom"] and lamp["bottom"] > line["top"]  # on the same line
    assert lamp["x1"] <= line["x0"] + 0.5  # before "and"


def test_svg_marks_the_weights_and_embeds_both_pictures(built):
    svg = sorted(built.glob("cards-*-en-p1.svg"))[0]
    root = ET.parse(svg).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    by_title = {}
    for g in root.iter(f"{ns}g"):
        title = g.find(f"{ns}title")
        if title is not None:
            by_title[title.text] = g
    assert by_title["only"].get("font-weight") == "bold"
    assert by_title["rest"].get("font-style") == "italic"
    assert by_title["Play it "].get("font-weight") != "bold"
    hrefs = [im.get("{http://www.w3.org/1999/xlink}href", "") for im in root.iter(f"{ns}image")]
    assert any(h.startswith("data:image/png") for h in hrefs) and any(h.startswith("data:image/svg+xml") for h in hrefs)


def test_png_of_the_card_shows_the_icons(built):
    def count(path: Path, rgb: tuple[int, int, int]) -> int:
        import numpy as np

        with Image.open(path) as im:
            px = np.asarray(im.convert("RGB")).astype(int)
        return int((np.abs(px - np.array(rgb)).max(axis=2) < 12).sum())

    card, plain = built / "png" / "lantern-cards" / "red-4.png", built / "png" / "lantern-cards" / "red-3.png"
    assert count(card, LAMP) > 50 and count(plain, LAMP) == 0
    assert count(card, (0x2E, 0x6D, 0xA4)) > 50 and count(plain, (0x2E, 0x6D, 0xA4)) == 0  # the SVG key's blue


def test_a_symbol_needs_shapes_or_a_file(tmp_path, capsys):
    folder = tmp_path / "harbour"
    assert main(["new", str(folder)]) == 0
    layouts = folder / "layouts.yaml"
    layouts.write_text(layouts.read_text(encoding="utf-8") + "symbols:\n  - {id: lamp}\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "layouts.yaml:" in err and "either `shapes` or `src`" in err
