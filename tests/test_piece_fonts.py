"""Cards, counters, maps, map tiles and calibration pages are set in the face of their language,
read back from what the build wrote.

One build of the five example games' card, counter and map stages (PDF and SVG, preflight on)
is read with pdfplumber, pypdf (tests/pdf_fonts.py) and an XML parser:
- an English PDF's text is set in Source Serif, and a character is set in IPAex Gothic only
  where Source Serif has no glyph for it (looked up in the font file with fontTools);
- a Japanese PDF holds IPAex Gothic only; every font of every page is embedded;
- an SVG's text groups name the face their outlines come from (`font-family`);
- the build warns of no text that does not fit its box, and the preflight finds nothing (text in
  the safe zone and clear of the paper edge, contrast, symbols apart).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from fontTools.ttLib import TTFont

from generator.context import BuildContext
from generator.incremental import build
from solver.game.folders import game_ids

from pdf_fonts import fonts_of

SVG = "{http://www.w3.org/2000/svg}"
LATIN, LATIN_BOLD, JAPANESE = "SourceSerifPro-Regular", "SourceSerifPro-Bold", "IPAexGothic"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("piece-fonts")
    ctx = BuildContext(out_root=root, formats=("pdf", "svg"))
    build(game_ids(), ctx, only={"cards", "counters", "maps"})
    return root, ctx.warnings


@pytest.fixture(scope="module")
def serif_cmap() -> frozenset[int]:
    import font_source_serif_pro

    path = Path(font_source_serif_pro.font_directory) / "SourceSerifPro-Regular.ttf"
    with TTFont(str(path), lazy=True) as f:
        return frozenset(f.getBestCmap())


def _pdfs(folder: Path, lang: str) -> list[Path]:
    """The piece and map PDFs of one language (the source language's maps carry no mark)."""
    out = []
    for pdf in sorted(folder.glob("*.pdf")):
        marked = re.search(r"-(ja|en|fr)(?:-|$)", pdf.stem)
        if (marked.group(1) if marked else "ja") == lang:
            out.append(pdf)
    return out


def _chars(pdf: Path) -> list[tuple[str, str]]:
    """(character, font without its subset tag) of every visible character of the first two pages
    (a sheet's fronts and backs; a tiled map's assembly page and first tile: the later tiles
    place the same drawing)."""
    with pdfplumber.open(pdf) as doc:
        return [(c["text"], c["fontname"].split("+")[-1]) for page in doc.pages[:2] for c in page.chars
                if not c["text"].isspace()]


@pytest.mark.parametrize("game_id", game_ids())
def test_english_pieces_and_maps_are_set_in_the_latin_face(built, serif_cmap, game_id):
    root, _ = built
    pdfs = _pdfs(root / game_id, "en")
    assert any(p.name.startswith(("cards-", "counters-")) for p in pdfs)
    for pdf in pdfs:
        chars = _chars(pdf)
        assert chars, pdf.name
        body = Counter(font for _, font in chars).most_common(1)[0][0]
        assert body in (LATIN, LATIN_BOLD), f"{pdf.name}: most text in {body}"
        fallback = {ch for ch, font in chars if font == JAPANESE}
        assert not {ch for ch in fallback if ord(ch) in serif_cmap}, \
            f"{pdf.name}: set in IPAex though Source Serif has them: {sorted(fallback)}"
        assert {font for _, font in chars} <= {LATIN, LATIN_BOLD, JAPANESE}, pdf.name
        fonts = fonts_of(pdf)
        assert all(fonts.values()), f"{pdf.name}: not embedded: {fonts}"


@pytest.mark.parametrize("game_id", game_ids())
def test_japanese_pieces_and_maps_keep_ipaex(built, game_id):
    root, _ = built
    for pdf in _pdfs(root / game_id, "ja"):
        assert {font for _, font in _chars(pdf)} == {JAPANESE}, pdf.name
        assert fonts_of(pdf) == {JAPANESE: True}, pdf.name


def test_map_titles_are_bold_in_english(built):
    root, _ = built
    pdf = root / "war-of-the-ring-campaign" / "map-middle-earth-en.pdf"
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        bold = "".join(c["text"] for c in page.chars if c["fontname"].endswith("SourceSerifPro-Bold"))
    assert "Middle-earth" in bold and "Legend" in bold


def _text_groups(svg: Path) -> list[ET.Element]:
    """The groups that draw a string: they hold its words in a <title>."""
    return [g for g in ET.parse(svg).getroot().iter(f"{SVG}g") if g.find(f"{SVG}title") is not None]


@pytest.mark.parametrize("lang, family", [("en", "'Source Serif Pro', 'IPAexGothic'"), ("ja", "'IPAexGothic'")])
def test_svg_text_names_the_face_of_its_language(built, lang, family):
    root, _ = built
    for game_id in game_ids():
        svgs = [p for p in sorted((root / game_id).glob("*.svg"))
                if (m := re.search(r"-(ja|en|fr)(?:-|$)", p.stem)) and m.group(1) == lang or (lang == "ja" and not m)]
        assert svgs, game_id
        for svg in svgs[:3]:
            groups = _text_groups(svg)
            assert groups, svg.name
            assert {g.get("font-family") for g in groups} == {family}, svg.name


def test_english_svg_glyphs_are_source_serif_outlines(built):
    """The glyphs of an English card's SVG are placed at Source Serif's advances (of the weight
    the group names), not IPAex's: each glyph starts one advance, in font units, after the one
    before it."""
    import font_source_serif_pro

    def advances(weight: str) -> dict[str, int]:
        name = "SourceSerifPro-Bold.ttf" if weight == "bold" else "SourceSerifPro-Regular.ttf"
        with TTFont(str(Path(font_source_serif_pro.font_directory) / name), lazy=True) as f:
            cmap, hmtx = f.getBestCmap(), f["hmtx"]
            return {chr(c): hmtx[g][0] for c, g in cmap.items()}

    root, _ = built
    svg = root / "dont-drop-the-ring" / "cards-gem-cards-en-p1.svg"
    checked = set()
    for g in _text_groups(svg):
        text = g.find(f"{SVG}title").text or ""
        weight = g.get("font-weight", "regular")
        adv = advances(weight)
        if not all(ch in adv for ch in text):
            continue  # a fallback run (a character Source Serif lacks) has groups of its own
        # a space is advanced over, not drawn: the glyphs are the other characters
        expected = [sum(adv[c] for c in text[:i]) for i, ch in enumerate(text) if not ch.isspace()]
        xs = [float(u.get("x", 0)) for u in g.findall(f"{SVG}use")]
        assert xs == pytest.approx(expected), text
        checked.add(weight)
    assert checked == {"regular", "bold"}  # the footers ("Gem cards") and the gem names ("Amethyst 1")


def test_no_text_overflows_or_leaves_the_safe_zone(built):
    _, warnings = built
    bad = [w for w in warnings if "does not fit" in w or "preflight" in w]
    assert not bad, "\n".join(bad)


def test_png_text_is_drawn_from_the_latin_face_file():
    """The PNG backend draws English in Source Serif: the same pixels as Pillow drawing the
    string with the font file from the font package, and not those of IPAex Gothic."""
    import font_source_serif_pro
    from PIL import Image, ImageChops, ImageDraw, ImageFont

    from generator import fonts
    from pdf_units import MM_PER_INCH, PT_PER_MM
    from generator.render.png import PngSurface

    s = PngSurface(dpi=150)
    s.begin_page(60, 15)
    s.text(2, 10, "Amethyst", size_pt=20, font=fonts.faces("en").regular)
    s.end_page()
    px_per_mm = 150 / MM_PER_INCH
    size_px = round(20 / PT_PER_MM * px_per_mm)

    def by_hand(path: Path) -> Image.Image:
        img = Image.new("RGB", s.pages[0].size, "white")
        ImageDraw.Draw(img).text((2 * px_per_mm, 10 * px_per_mm), "Amethyst", fill="#000000", anchor="ls",
                                 font=ImageFont.truetype(str(path), size_px))
        return img

    serif = by_hand(Path(font_source_serif_pro.font_directory) / "SourceSerifPro-Regular.ttf")
    gothic = by_hand(fonts.font_path())
    assert ImageChops.difference(s.pages[0], serif).getbbox() is None
    assert ImageChops.difference(s.pages[0], gothic).getbbox() is not None


def test_game_yaml_fonts_choose_the_face_of_the_pieces_and_maps(game_copy, tmp_path):
    """`fonts: {en: ipaex-gothic}` in game.yaml sets the English cards and map in IPAex Gothic:
    the face is data, read by every stage that prints words."""
    from generator.build import STAGES
    from solver.game.loader import load_game

    folder = game_copy("riddle-of-the-ring")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "\nlanguages: [ja, en]\n" in text
    game_yaml.write_text(text.replace("\nlanguages: [ja, en]\n", "\nlanguages: [ja, en]\nfonts: {en: ipaex-gothic}\n"),
                         encoding="utf-8")
    game = load_game(folder)
    ctx = BuildContext(out_root=tmp_path / "out", formats=("pdf",), lang="en")
    for stage in STAGES:
        if stage.__name__ in ("cards", "maps"):
            stage(game, ctx)
    out = ctx.out_dir(game.id)
    for name in ("cards-play-cards-en.pdf", "map-middle-earth-en.pdf"):
        assert {font for _, font in _chars(out / name)} == {JAPANESE}, name


def test_a_character_only_the_latin_face_has_prints_on_english_cards(game_copy, tmp_path):
    """"ŵ" (Welsh) is in Source Serif but not in IPAex Gothic: an English card prints it in the
    Latin face; a Japanese card, set in IPAex alone, stops the build naming it."""
    from generator.build import STAGES
    from solver.errors import DataError
    from solver.game.loader import load_game

    folder = game_copy("dont-drop-the-ring")
    comps = folder / "components.yaml"
    text = comps.read_text(encoding="utf-8")
    assert "en: Pedestal, fr: Socle}" in text
    comps.write_text(text.replace("en: Pedestal, fr: Socle}", "en: Pedestal of Gŵyn, fr: Socle}"), encoding="utf-8")
    cards = next(s for s in STAGES if s.__name__ == "cards")
    ctx = BuildContext(out_root=tmp_path / "out", formats=("pdf",), lang="en")
    cards(load_game(folder), ctx)
    chars = _chars(ctx.out_dir("dont-drop-the-ring") / "cards-pedestal-cards-en.pdf")
    assert ("ŵ", LATIN_BOLD) in chars or ("ŵ", LATIN) in chars

    comps.write_text(text.replace("ja: 台座,", "ja: 台座ŵ,"), encoding="utf-8")
    with pytest.raises(DataError) as e:
        cards(load_game(folder), BuildContext(out_root=tmp_path / "ja", formats=("pdf",), lang="ja"))
    assert "U+0175" in e.value.problems[0].what


@pytest.mark.parametrize("game_id", game_ids())
def test_no_type_on_a_piece_is_under_six_points(built, game_id):
    """The smallest glyph of every card and counter sheet, every page, as pdfplumber reads its size."""
    root, _ = built
    pdfs = sorted(p for p in (root / game_id).glob("*.pdf") if p.name.startswith(("cards-", "counters-")))
    assert pdfs
    for pdf in pdfs:
        with pdfplumber.open(pdf) as doc:
            sizes = [(round(c["size"], 2), c["text"], i + 1) for i, page in enumerate(doc.pages) for c in page.chars
                     if not c["text"].isspace()]
        if sizes:
            assert min(sizes)[0] >= 6 - 0.01, f"{pdf.name}: {min(sizes)}"
