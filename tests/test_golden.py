"""Golden files: a handful of rendered pages compared pixel-wise with references kept in
tests/golden/, so that a change to the drawing code shows what it changed.

Each case builds one stage of an example game into a temporary folder, rasterises one PDF page
with pdfium (an independent renderer, not ours) at GOLDEN_DPI and compares it with
tests/golden/<case>.png: the sizes must match, and the page may differ only by anti-aliasing
noise (MAX_CHANGED pixels by more than NOISE levels in some channel). On a difference the test writes the
new rendering and a difference image beside the failure message.

A drawing change that is meant: regenerate the references with

    python -m pytest tests/test_golden.py --update-golden

look at the new PNGs (git diff shows them changed), and commit them with the change.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from generator.context import BuildContext
from solver.game.loader import load_game

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_DPI = 50
NOISE = 48  # levels (of 255) a pixel may move by anti-aliasing alone
MAX_CHANGED = 6  # pixels allowed to move by more than NOISE (one 9 pt glyph at 50 dpi is ~15)

# case -> (game, stage, language built (None: the source language), PDF file in the game's output
# folder, page number from 1)
CASES = {
    "card-sheet": ("dont-drop-the-ring", "cards", None, "cards-gem-cards-ja.pdf", 1),
    "card-sheet-en": ("dont-drop-the-ring", "cards", "en", "cards-gem-cards-en.pdf", 1),
    "counter-sheet": ("war-of-the-ring-campaign", "counters", None, "counters-counters-ja.pdf", 1),
    "counter-sheet-en": ("war-of-the-ring-campaign", "counters", "en", "counters-counters-en.pdf", 1),
    "map-tile": ("war-of-the-ring-campaign", "maps", None, "map-middle-earth-tiles-a4.pdf", 2),  # page 1 is the assembly diagram
    "map-tile-en": ("war-of-the-ring-campaign", "maps", "en", "map-middle-earth-en-tiles-a4.pdf", 2),
    "rulebook-ja": ("dont-drop-the-ring", "rulebooks", None, "rulebook-ja.pdf", 3),
    "rulebook-en": ("dont-drop-the-ring", "rulebooks", None, "rulebook-en.pdf", 3),
}


def _stage(name: str):
    from generator import build

    return next(s for s in build.STAGES if s.__name__ == name)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(game, stage, language) -> output folder, each built once for the module."""
    root = tmp_path_factory.mktemp("golden")
    done: dict[tuple[str, str, str | None], Path] = {}

    def get(game_id: str, stage: str, lang: str | None = None) -> Path:
        if (game_id, stage, lang) not in done:
            ctx = BuildContext(out_root=root, formats=("pdf",), lang=lang)
            _stage(stage)(load_game(game_id), ctx)
            done[(game_id, stage, lang)] = ctx.out_dir(game_id)
        return done[(game_id, stage, lang)]
    return get


def rasterise(pdf: Path, page: int, dpi: int = GOLDEN_DPI) -> Image.Image:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[page - 1].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def compare(actual: Image.Image, expected: Image.Image) -> str | None:
    """None when the images agree within the tolerance, else what differs."""
    if actual.size != expected.size:
        return f"size {actual.size} px, the reference is {expected.size} px"
    r, g, b = ImageChops.difference(actual, expected).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)  # per pixel, the channel that moved most
    changed = sum(worst.histogram()[NOISE + 1:])
    if changed > MAX_CHANGED:
        return f"{changed} pixels differ by more than {NOISE} levels (at most {MAX_CHANGED} may)"
    return None


@pytest.mark.parametrize("case", sorted(CASES))
def test_rendering_matches_its_golden_file(case, built, request, tmp_path):
    game_id, stage, lang, filename, page = CASES[case]
    actual = rasterise(built(game_id, stage, lang) / filename, page)
    reference = GOLDEN / f"{case}.png"
    if request.config.getoption("--update-golden"):
        GOLDEN.mkdir(exist_ok=True)
        actual.save(reference, optimize=True)
        return
    assert reference.exists(), f"{reference} is missing; create it with `pytest tests/test_golden.py --update-golden`"
    problem = compare(actual, Image.open(reference).convert("RGB"))
    if problem:
        actual.save(tmp_path / f"{case}-actual.png")
        diff = ImageChops.difference(actual, Image.open(reference).convert("RGB")) if not problem.startswith("size") else None
        if diff is not None:
            ImageChops.invert(diff).save(tmp_path / f"{case}-diff.png")
        pytest.fail(f"{case} ({game_id} {filename} p{page}) no longer matches {reference.name}: {problem}. "
                    f"New rendering and difference in {tmp_path}; if the change is meant, rerun with --update-golden")


# The paper each reference shows, worked by hand: A4 at 50 dpi is 210 / 25.4 * 50 = 413.4 by
# 297 / 25.4 * 50 = 584.6 pixels, which pdfium rounds up to 414 x 585; the card sheets turn landscape.
A4_PX, A4_LANDSCAPE_PX = (414, 585), (585, 414)
PAPER_PX = {"card-sheet": A4_LANDSCAPE_PX, "card-sheet-en": A4_LANDSCAPE_PX, "counter-sheet": A4_PX,
            "counter-sheet-en": A4_PX, "map-tile": A4_PX, "map-tile-en": A4_PX, "rulebook-ja": A4_PX,
            "rulebook-en": A4_PX}


def test_each_reference_is_the_paper_its_case_prints_on():
    """The references come from the drawing code itself (--update-golden), so their sizes are held to
    the paper worked out by hand here: a reference regenerated from a wrongly sized page fails."""
    assert set(PAPER_PX) == set(CASES)
    for case, size in PAPER_PX.items():
        with Image.open(GOLDEN / f"{case}.png") as im:
            assert im.size == size, case


def test_the_comparison_sees_a_small_drawing_change():
    """The tolerance passes anti-aliasing noise yet fails a moved line or a changed colour."""
    base = Image.new("RGB", (400, 560), "white")
    from PIL import ImageDraw

    def page(dx: int = 0, colour: str = "#202020") -> Image.Image:
        img = base.copy()
        d = ImageDraw.Draw(img)
        d.rectangle((40 + dx, 40, 200 + dx, 120), outline=colour, width=2)
        d.text((50 + dx, 60), "Gem card 3", fill=colour)
        return img

    assert compare(page(), page()) is None
    assert compare(page(dx=3), page()) is not None  # a frame moved by 3 px (1.5 mm at 50 dpi)
    assert compare(page(colour="#c0272d"), page()) is not None  # ink changed colour
    assert compare(page().resize((401, 560)), page()) is not None


def test_a_real_drawing_change_fails_its_golden_file(built, tmp_path):
    """One card frame recoloured on a real sheet is seen (the oracle is the reference, not the code)."""
    from PIL import ImageDraw

    img = rasterise(built("dont-drop-the-ring", "cards") / "cards-gem-cards-ja.pdf", 1)
    changed = img.copy()
    ImageDraw.Draw(changed).text((60, 60), "7", fill="#000000")  # one extra glyph on one card
    assert compare(img, img) is None and compare(changed, img) is not None
