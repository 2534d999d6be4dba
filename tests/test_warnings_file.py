"""output/build-warnings.txt says what the last build warned about: a build that warns writes it, and
a later build with nothing to say removes it, so a reader never takes old warnings for new ones."""
from __future__ import annotations

from pathlib import Path

from generator.cli import main

GAME = """\
id: lamp-post
title: {en: Lamp Post}
designer: [A Newcomer]
year: 2026
players: {min: 2, max: 4}
source_language: en
languages: [en]
"""
COMPONENTS = """\
components:
  - id: lamp-cards
    kind: deck
    name: {en: Lamp cards}
    items_file: lamps.csv
"""
LAYOUTS = """\
layouts:
  - id: lamp-front
    size: poker
    fields:
      - {name: title, kind: text, box: [5, 5, 50, 10], text: "{name}"}
      - {name: corner, kind: text, box: [5, 70, 10, 10], text: "{rank}"}
components:
  lamp-cards: {front: lamp-front}
"""


def _game(folder: Path, column: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    (folder / "layouts.yaml").write_text(LAYOUTS, encoding="utf-8")
    (folder / "lamps.csv").write_text(f"id,name,{column},count\noil,Oil lamp,1,2\ngas,Gas lamp,2,2\n", encoding="utf-8")


def test_a_clean_build_removes_the_last_builds_warnings(tmp_path):
    game, out = tmp_path / "lamp-post", tmp_path / "out"
    _game(game, "rnak")  # the layout prints {rank}: no card has it
    assert main(["build", str(game), "--out", str(out), "--no-preflight", "--only", "cards", "--only", "check"]) == 0
    warnings = (out / "build-warnings.txt").read_text(encoding="utf-8")
    assert "rank" in warnings and "lamps.csv:1:" in warnings

    _game(game, "rank")  # fixed: nothing to say
    assert main(["build", str(game), "--out", str(out), "--no-preflight", "--only", "cards", "--only", "check"]) == 0
    assert not (out / "build-warnings.txt").exists()
