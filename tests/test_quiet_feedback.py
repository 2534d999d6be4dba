"""Issue 29 item 4: quiet, exact feedback on pictures. A newcomer's game (started with `pnp new`, not
an example) prints two small pictures, each on half of its 13 cards. The build must say one warning
per picture file, at the file, counting the pieces that use it (not one per card, per language, per
output), and a changed picture must redraw only the sheets that print it: not the map, not the
boats' tokens, not the rulebooks (read from the build record, .pnp-build.json).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from generator.cli import main

BUILD = ["--lang", "en", "--only", "cards", "--only", "maps", "--only", "pieces", "--no-preflight"]


def new_game_with_art(root: Path) -> Path:
    folder = root / "harbour"
    assert main(["new", str(folder)]) == 0
    (folder / "art").mkdir()
    Image.new("RGB", (60, 40), "#335577").save(folder / "art" / "harbour.png")
    Image.new("RGB", (60, 40), "#775533").save(folder / "art" / "night.png")
    cards = folder / "cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    rows = [rows[0] + ",art"] + [r + ("," + ("art/harbour.png" if i % 2 == 0 else "art/night.png"))
                                 for i, r in enumerate(rows[1:])]
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    layouts = folder / "layouts.yaml"
    text = layouts.read_text(encoding="utf-8")
    text = text.replace("      - {name: footer,",
                        '      - {name: art, kind: image, box: [8, 30, 47, 30], src: "{art}"}\n      - {name: footer,', 1)
    layouts.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("quiet")
    folder = new_game_with_art(root)
    out = root / "out"
    assert main(["build", str(folder), "--out", str(out), *BUILD]) == 0
    return folder, out


def test_one_warning_per_picture_file_counting_its_pieces(built):
    folder, out = built
    lines = (out / "build-warnings.txt").read_text(encoding="utf-8").splitlines()
    dpi = [w for w in lines if "dpi" in w]
    assert len(dpi) == 2, lines
    rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()[1:]
    uses = {p: sum(r.endswith("," + p) for r in rows) for p in ("art/harbour.png", "art/night.png")}
    for rel, n in uses.items():
        [w] = [w for w in dpi if w.startswith(f"harbour/{rel}:")]  # located at the file
        assert f"on {n} pieces" in w and "under 300" in w
        # 60 px across a 47 mm box: 60 / (47 / 25.4) = 32 dpi
        assert re.search(r"prints at 3\d dpi", w)


def test_a_changed_picture_redraws_only_what_prints_it(built):
    folder, out = built
    record = out / "harbour" / ".pnp-build.json"
    before = json.loads(record.read_text(encoding="utf-8"))["units"]
    Image.new("RGB", (60, 40), "#aa3333").save(folder / "art" / "night.png")
    assert main(["build", str(folder), "--out", str(out), *BUILD]) == 0
    after = json.loads(record.read_text(encoding="utf-8"))["units"]
    changed = sorted(k for k in after if before.get(k, {}).get("fingerprint") != after[k]["fingerprint"])
    assert changed == ["cards:lantern-cards:en"]
    assert any(k.startswith("maps:") for k in after) and any(k.startswith("pieces:") for k in after)
