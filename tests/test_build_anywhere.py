"""The same bytes from any working folder (issue 30): a build prints no path of the builder's
machine into a file. One game built from the repository root and from another folder gives the
same files, byte for byte (the build record aside), and its check report names its data files
relative to the game folder."""
from __future__ import annotations

import json
from pathlib import Path

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAME = "dont-drop-the-ring"
RECORD = ".pnp-build.json"


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != RECORD}


def test_a_game_built_from_two_working_folders_gives_the_same_bytes(tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    outs = []
    for i, cwd in enumerate((ROOT, elsewhere)):
        monkeypatch.chdir(cwd)
        out = tmp_path / f"out{i}"
        assert main(["build", GAME, "--no-preflight", "-j", "1", "--lang", "ja", "--out", str(out)]) == 0
        outs.append(files(out))
    assert outs[0].keys() == outs[1].keys()
    assert [name for name in outs[0] if outs[0][name] != outs[1][name]] == []
    report = json.loads(outs[1][f"{GAME}/check-report.json"])
    sources = [f["source"] for f in report["findings"] if ".yaml" in f["source"]]
    assert sources and all(s.split(":")[0] in {"setup.yaml", "components.yaml", "game.yaml", "rules/clauses.yaml"} for s in sources)
    for text in (outs[1][f"{GAME}/check-report.json"], outs[1]["index.html"]):
        assert str(ROOT).encode() not in text and str(tmp_path).encode() not in text
