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
