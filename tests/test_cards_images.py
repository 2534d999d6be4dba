"""Images on cards: PNG, JPG and SVG (as vectors); refused paths, low resolution, corrupt files."""
from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest
from PIL import Image

from generator.cards.deck import build_cards
from generator.context import BuildContext
from solver.errors import DataError
from solver.game.loader import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "cards-with-images"


@pytest.fixture
def deck(tmp_path) -> Path:
    dest = tmp_path / "cards-with-images"
    shutil.copytree(FIXTURE, dest)
    return dest


def run(folder: Path, out: Path, formats=("pdf",), stated_only: bool = False) -> BuildContext:
    ctx = BuildContext(out_root=out, formats=formats, stated_only=stated_only)
    build_cards(load_game(folder), ctx)
    return ctx


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def one_line(err: DataError) -> str:
    lines = str(err).splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_fixture_builds_without_warning_its_unknown_count_proposed(deck, tmp_path):
    ctx = run(deck, tmp_path / "out")
    assert ctx.warnings == []
    pdf = pypdf.PdfReader(tmp_path / "out" / "cards-with-images" / "cards-art-cards-en.pdf")
    assert pdf.pages[0].extract_text().count("Shield") == 1  # proposed.yaml: one copy


def test_stated_only_leaves_the_proposed_count_out_with_a_warning(deck, tmp_path):
    ctx = run(deck, tmp_path / "out", stated_only=True)
    assert ctx.warnings == ["cards-with-images/art-cards/shield: count unknown in the data; not printed "
                            "(--stated-only prints only the counts the sources state)"]
    pdf = pypdf.PdfReader(tmp_path / "out" / "cards-with-images" / "cards-art-cards-en.pdf")
    text = pdf.pages[0].extract_text()
    assert "Shield" not in text and text.count("Castle") == 2


def test_without_a_proposal_an_unknown_count_is_not_printed(deck, tmp_path):
    (deck / "proposed.yaml").unlink()
    ctx = run(deck, tmp_path / "out")
    assert ctx.warnings == ["cards-with-images/art-cards/shield: count unknown in the data; not printed (no proposal "
                            "either: run `pnp propose GAME`, or state the count in components.yaml)"]


def test_image_path_leaving_the_game_folder_is_refused(deck, tmp_path):
    (tmp_path / "outside.png").write_bytes((deck / "art" / "castle.png").read_bytes())
    edit(deck / "components.yaml", "art: art/castle.png", "art: ../outside.png")
    with pytest.raises(DataError) as e:
        run(deck, tmp_path / "out")
    line = one_line(e.value)
    assert "castle" in line and "leaves the game folder" in line


def test_tiny_image_is_a_warning_naming_the_card(deck, tmp_path):
    Image.new("RGB", (40, 56), "#335577").save(deck / "art" / "castle.png")
    ctx = run(deck, tmp_path / "out")
    low = [w for w in ctx.warnings if "dpi" in w]
    assert len(low) == 1
    assert "art-cards/castle" in low[0] and "under 300" in low[0]


def test_corrupt_image_is_a_one_line_error(deck, tmp_path):
    (deck / "art" / "forest.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    with pytest.raises(DataError) as e:
        run(deck, tmp_path / "out")
    line = one_line(e.value)
    assert "forest" in line and "corrupt" in line


def test_oversized_image_is_a_one_line_error(deck, tmp_path):
    Image.new("1", (9000, 9000)).save(deck / "art" / "castle.png")
    with pytest.raises(DataError) as e:
        run(deck, tmp_path / "out")
    assert "oversized" in one_line(e.value)


def test_malformed_svg_is_a_one_line_error(deck, tmp_path):
    (deck / "art" / "shield.svg").write_text("<svg><path d=")
    with pytest.raises(DataError) as e:
        run(deck, tmp_path / "out")
    assert "not a readable SVG" in one_line(e.value)


def test_svg_art_stays_vector_in_the_pdf(deck, tmp_path):
    run(deck, tmp_path / "out")
    pdf = pypdf.PdfReader(tmp_path / "out" / "cards-with-images" / "cards-art-cards-en.pdf")
    xobjects = pdf.pages[0]["/Resources"]["/XObject"]
    kinds = sorted(str(x.get_object()["/Subtype"]) for x in xobjects.values())
    assert kinds.count("/Image") == 2  # castle.png and forest.jpg, each stored once
    assert "/Form" in kinds  # shield.svg as vector drawing


def test_png_per_card_at_300_dpi_with_bleed(deck, tmp_path):
    run(deck, tmp_path / "out", formats=("png",))
    folder = tmp_path / "out" / "cards-with-images" / "png" / "art-cards"
    assert sorted(p.name for p in folder.iterdir()) == ["back.png", "castle.png", "forest.png", "shield.png"]
    with Image.open(folder / "castle.png") as im:
        assert im.size == (round(69.5 * 300 / 25.4), round(94.9 * 300 / 25.4))  # poker 2.5x3.5 in + 3 mm bleed
        assert round(im.info["dpi"][0]) == 300
    with Image.open(folder / "shield.png") as im:
        # The SVG shield is rasterised: its red fill shows in the art box.
        colours = {c for _, c in im.convert("RGB").getcolors(1 << 20)}
        assert any(r > 150 and g < 60 and b < 60 for r, g, b in colours)


def where(path: Path, needle: str) -> tuple[int, int]:
    """Line and column (1-based) of the first `needle` in the file."""
    lines = path.read_text().splitlines()
    at = next(i for i, t in enumerate(lines, 1) if needle in t)
    return at, lines[at - 1].index(needle) + 1


def test_missing_image_points_at_the_item_that_names_it(deck, tmp_path):
    edit(deck / "components.yaml", "art: art/castle.png", "art: art/castel.png")
    with pytest.raises(DataError) as e:
        run(deck, tmp_path / "out")
    line = one_line(e.value)
    at, col = where(deck / "components.yaml", "art/castel.png")
    assert line.startswith(f"{deck / 'components.yaml'}:{at}:{col}: image 'art/castel.png' not found"), line
    assert "art-cards/castle" in line


def test_missing_image_in_a_layout_points_at_the_layout_field(deck, tmp_path):
    edit(deck / "layouts.yaml", 'src: "{art}", fit: crop}', 'src: "art/{id}-small.png", fit: crop}')
    with pytest.raises(DataError) as e:
        run(deck, tmp_path / "out")
    line = one_line(e.value)
    at, _ = where(deck / "layouts.yaml", "-small.png")
    assert line.startswith(f"{deck / 'layouts.yaml'}:{at}:"), line
    assert "-small.png' not found" in line
