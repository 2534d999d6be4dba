"""The print guide speaks of the paper the build printed on: a newcomer's game (`pnp new` in a temp
folder) built with `--paper a3` writes calibration-a3-long.pdf, and its guide names that file, the
sheets' A3 and the book's own A4 (a rulebook is A4 or Letter). Read back with pdfplumber."""
from __future__ import annotations

import re

import pdfplumber

from generator.cli import main


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)  # the guide's justified lines extract without their spaces


def test_an_a3_build_guide_names_its_own_calibration_page_and_papers(tmp_path):
    game, out = tmp_path / "harbour", tmp_path / "out"
    assert main(["new", str(game)]) == 0
    assert main(["build", str(game), "--paper", "a3", "--only", "cards", "--only", "rulebooks", "--lang", "en",
                 "--out", str(out), "--no-preflight"]) == 0
    built = out / "harbour"
    calibrations = sorted(p.name for p in built.glob("calibration-*.pdf"))
    assert calibrations == ["calibration-a3-long.pdf"]
    with pdfplumber.open(built / "print-guide-en.pdf") as pdf:
        guide = squeezed(" ".join(page.extract_text() for page in pdf.pages))
    assert "calibration-a3-long.pdf" in guide and "calibration-a4" not in guide
    assert squeezed("the sheets on A3 paper") in guide
    assert squeezed("rulebook-en.pdf is for A4 paper") in guide


def test_a_maps_tiling_is_worked_out_once_for_its_maps_and_its_books(tmp_path, monkeypatch):
    """Riddle of the Ring's map (A2) is tiled onto A4: the tiling is worked out once for the map's
    files in two languages and each book's print guide (it was again for each), and the tiles PDF
    holds what it says: an assembly page and one page a sheet (read back with pypdf)."""
    from pypdf import PdfReader

    from generator.context import BuildContext
    from generator.hexmap import stage
    from generator.rulebook.guide import Printing, guide_lines
    from solver.game.folders import resolve_game_dir
    from solver.game.loader import load_game

    planned: list[tuple[float, float]] = []
    real = stage.tile_plan

    def counting(extent, paper, **kw):
        planned.append(paper)
        return real(extent, paper, **kw)

    monkeypatch.setattr(stage, "tile_plan", counting)
    game = load_game(resolve_game_dir("riddle-of-the-ring"))
    written = []
    for lang in ("ja", "en"):
        ctx = BuildContext(out_root=tmp_path, lang=lang, formats=("pdf",))
        written += stage.build_maps(game, ctx)
        for _ in range(2):  # the book and its booklet
            assert any("tiles" in line for line in guide_lines(game, lang, Printing.of(ctx)))
    assert planned == [(210.0, 297.0)]
    tiles = [p for p in written if "-tiles-a4" in p.name]
    assert len(tiles) == 2 and all(len(PdfReader(p).pages) == 1 + 6 for p in tiles)
