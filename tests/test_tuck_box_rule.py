"""Which decks get a tuck box, read back from what a build writes: a box too thin to fold (under
3 mm deep: 8 cards or fewer of 0.3 mm) is not printed, the manifest says why, and components.yaml's
`tuck_box:` decides otherwise either way. A game written as a newcomer would: `pnp new`'s scaffold."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cli import main

DECK = "lantern-cards"


def _game(tmp_path: Path, rows: int | None = None, tuck_box: str | None = None) -> Path:
    folder = tmp_path / "lanterns"
    assert main(["new", str(folder)]) == 0
    if rows is not None:  # keep the header and the first `rows` cards
        csv = folder / "cards.csv"
        csv.write_text("\n".join(csv.read_text(encoding="utf-8").splitlines()[:rows + 1]) + "\n", encoding="utf-8")
    if tuck_box is not None:
        comps = folder / "components.yaml"
        comps.write_text(comps.read_text(encoding="utf-8").replace(
            "    items_file: cards.csv\n", f"    items_file: cards.csv\n    tuck_box: {tuck_box}\n"), encoding="utf-8")
    return folder


def _build(folder: Path, out: Path) -> tuple[dict, str, set[str]]:
    assert main(["build", str(folder), "--out", str(out), "--only", "cards", "--only", "manifest",
                 "--no-preflight", "--lang", "en"]) == 0
    game = out / folder.name
    entry = next(c for c in json.loads((game / "manifest.json").read_text(encoding="utf-8"))["components"] if c["id"] == DECK)
    text = (game / "manifest-en.txt").read_text(encoding="utf-8")
    return entry, text, {p.name for p in game.glob("tuckbox-*")}


def test_a_full_deck_gets_its_box(tmp_path):
    entry, text, boxes = _build(_game(tmp_path), tmp_path / "out")
    assert f"tuckbox-{DECK}-en.pdf" in boxes and f"tuckbox-{DECK}-en.pdf" in entry["printed_in"]
    assert "tuck_box" not in entry and "no tuck box" not in text


def test_a_deck_of_four_gets_none_and_the_manifest_says_why(tmp_path):
    entry, text, boxes = _build(_game(tmp_path, rows=4), tmp_path / "out")
    assert not boxes  # 4 x 0.3 + 0.5 = 1.7 mm: sides nobody can fold
    assert entry["tuck_box"] is False and not any(f.startswith("tuckbox-") for f in entry["printed_in"])
    assert f"cards-{DECK}-en.pdf" in entry["printed_in"]
    assert "no tuck box: too few cards" in text and "tuck_box: true" in text


@pytest.mark.parametrize(("rows", "say", "boxed"), [(4, "true", True), (None, "false", False)])
def test_the_data_decides_otherwise_either_way(tmp_path, rows, say, boxed):
    entry, text, boxes = _build(_game(tmp_path, rows=rows, tuck_box=say), tmp_path / "out")
    assert bool(boxes) is boxed and (f"tuckbox-{DECK}-en.pdf" in entry["printed_in"]) is boxed
    assert ("components.yaml says tuck_box: false" in text) is (not boxed)
