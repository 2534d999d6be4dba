"""Ink modes (issue 25 item 3): `pnp build --ink saver` prints the same pieces with at most half the
ink of the normal print, `--ink mono` in greys, each into a folder of its own. Ink is read back from
the PDFs as a printer would meet them: every page rasterised by pdfium, its mean coverage measured
with Pillow (a naive RGB -> CMY conversion: 0 for blank paper, 1 for solid black)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from generator.cli import main
from generator.geometry import Box
from generator.render import open_surface
from generator.render.ink import ink_mode

DPI = 72  # not much less: a rasteriser draws a hairline a pixel wide, which overstates thin lines' ink at low resolution


def pages(pdf: Path, dpi: int = DPI) -> list[Image.Image]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [doc[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def coverage(img: Image.Image) -> float:
    mean = ImageStat.Stat(img.convert("CMYK")).mean
    return sum(mean[:3]) / (3 * 255)


def mean_coverage(pdfs: list[Path]) -> float:
    cov = [coverage(p) for pdf in pdfs for p in pages(pdf)]
    assert cov, "no page to measure"
    return sum(cov) / len(cov)


def build(tmp_path: Path, game: str, ink: str, stages: list[str], lang: str) -> Path:
    only = [a for s in stages for a in ("--only", s)]
    assert main(["build", game, "--out", str(tmp_path), "--lang", lang, "--ink", ink, "--no-preflight", *only]) == 0
    return tmp_path / game if ink == "normal" else tmp_path / game / f"ink-{ink}"


def printed(folder: Path, prefixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in folder.glob("*.pdf") if p.name.startswith(prefixes))


def digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "ink-" not in p.relative_to(folder).as_posix()}


@pytest.mark.parametrize("game, stages, prefixes", [
    ("dont-drop-the-ring", ["cards"], ("cards-",)),                          # a card game
    ("riddle-of-the-ring", ["maps", "counters"], ("map-", "counters-")),     # a map and counters
])
def test_saver_prints_the_same_pages_with_at_most_half_the_ink(tmp_path, game, stages, prefixes):
    normal_dir = build(tmp_path, game, "normal", stages, "ja")
    before = digests(normal_dir)
    saver_dir = build(tmp_path, game, "saver", stages, "ja")
    normal, saver = printed(normal_dir, prefixes), printed(saver_dir, prefixes)
    assert [p.name for p in saver] == [p.name for p in normal] and normal
    for a, b in zip(normal, saver):  # the same pages at the same sizes
        assert [p.size for p in pages(a)] == [p.size for p in pages(b)], a.name
    n, s = mean_coverage(normal), mean_coverage(saver)
    assert s <= 0.5 * n, f"saver {s:.3f} against normal {n:.3f}"
    # its own folder: the normal print is left as it was
    assert saver_dir == normal_dir / "ink-saver" and digests(normal_dir) == before


def test_mono_prints_greys_only(tmp_path):
    folder = build(tmp_path, "dont-drop-the-ring", "mono", ["cards"], "ja")
    assert not (tmp_path / "dont-drop-the-ring" / "cards-gem-cards-ja.pdf").exists()
    sheets = printed(folder, ("cards-",))
    assert sheets
    for pdf in sheets:
        for page in pages(pdf, 30):  # (colour, not ink, is read here: low resolution will do)
            r, g, b = page.split()
            # every pixel (edges blended by the rasteriser included) has equal channels, within rounding
            assert max(ImageChops.difference(r, g).getextrema()[1], ImageChops.difference(g, b).getextrema()[1]) <= 2


def test_mono_keeps_each_colours_lightness(tmp_path):
    # a red and a green of about the same lightness print as about the same grey, a dark blue darker:
    # what a greyscale printer keeps of a colour is its luminance
    surf = draw_swatches("mono")
    red, green, blue = (surf.getpixel((x, 20)) for x in (10, 50, 90))
    assert all(c[0] == c[1] == c[2] for c in (red, green, blue))
    assert abs(red[0] - green[0]) <= 12 and blue[0] < red[0] - 40


def draw_swatches(mode: str) -> Image.Image:
    with ink_mode(mode):
        s = open_surface("png", dpi=254)  # 10 px per mm
        s.begin_page(12, 4)
        for x, colour in ((0, "#e0403a"), (4, "#3a9a3a"), (8, "#1a2a7a")):
            s.rect(Box(x, 0, 4, 4), fill=colour)
        s.end_page()
        return s.pages[0]


def test_saver_turns_a_large_fill_pale_and_keeps_its_text_dark(tmp_path):
    # white type on a red card face: the face becomes a pale tint outlined in red, the type near-black
    with ink_mode("saver"):
        s = open_surface("png", dpi=254)
        s.begin_page(60, 60)
        s.rect(Box(5, 5, 50, 50), fill="#c0392b")
        s.text(10, 35, "MMMM", size_pt=40, colour="#ffffff")
        s.circle(45, 15, 2, fill="#c0392b")  # a small pip keeps its colour
        s.end_page()
        img = s.pages[0]
    inside = img.getpixel((500, 150))
    assert min(inside) >= 200 and inside[0] > inside[2]  # pale, still reddish
    edge = img.getpixel((51, 300))
    assert edge[0] > 150 and edge[1] < 120  # the outline in the fill's own red
    assert img.getpixel((450, 150))[1] < 120  # the pip, red
    text = img.crop((100, 200, 400, 350)).convert("L").getextrema()[0]
    assert text < 60, "the white text became dark on the pale face"
