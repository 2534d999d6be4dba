"""Issue 29 item 1 (no silent mistake): a newcomer's own game, written by hand in a temp folder,
with a misspelt column (`rnak` for `rank`), `twelve` among whole numbers and a folder named
differently from its id. `pnp check --json` must report each as a warning at its file:line:column
(with "did you mean" where a near name exists); the example games must report none of them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cli import main
from solver.game.folders import game_ids
from solver.game.loader import load_game
from solver.game.usage import usage_warnings

GAME = """\
id: moth-market
title: {en: Moth Market}
designer: [A Newcomer]
year: 2026
players: {min: 2, max: 4}
source_language: en
languages: [en]
"""
COMPONENTS = """\
components:
  - id: moth-cards
    kind: deck
    name: {en: Moth cards}
    items_file: moths.csv
"""
# The designer typed `rnak` for `rank` and `twelve` for 12; `wings` is printed by nothing.
MOTHS = """\
id,name,rnak,suit,wings,count
dusk-1,Dusk moth,1,dusk,2,2
dusk-2,Dusk moth,2,dusk,2,2
dawn-1,Dawn moth,3,dawn,4,2
dawn-2,Dawn moth,twelve,dawn,4,1
"""
LAYOUTS = """\
palettes:
  suits: {dusk: "#30304a", dawn: "#f0c060"}
layouts:
  - id: moth-front
    size: poker
    background: {by: suit, palette: suits}
    fields:
      - {name: title, kind: text, box: [5, 5, 50, 10], text: "{name}", colour: contrast}
      - {name: corner, kind: text, box: [5, 70, 10, 10], text: "{rank}", colour: contrast}
      - {name: star, kind: circle, box: [45, 70, 8, 8], fill: "#ffffff", where: {sute: dawn}}
components:
  moth-cards: {front: moth-front}
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("newcomer") / "my-first-game"  # not the id: moth-market
    folder.mkdir()
    for name, text in {"game.yaml": GAME, "components.yaml": COMPONENTS, "moths.csv": MOTHS,
                       "layouts.yaml": LAYOUTS}.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _findings(folder: Path, capsys) -> list[dict]:
    assert main(["check", str(folder), "--json"]) == 0
    return json.loads(capsys.readouterr().out)["findings"]


def _at(text: str, needle: str) -> str:
    """`line:column` (1-based) where `needle` first stands in `text`, counted here by hand."""
    line = next(i for i, row in enumerate(text.splitlines(), 1) if needle in row)
    return f"{line}:{text.splitlines()[line - 1].index(needle) + 1}"


def _one(findings: list[dict], code: str, source_end: str) -> dict:
    hits = [f for f in findings if f["code"] == code and f["source"].endswith(source_end)]
    assert len(hits) == 1, (code, source_end, [(f["code"], f["source"]) for f in findings])
    assert hits[0]["severity"] == "warning"
    return hits[0]


def test_a_layout_naming_an_attribute_no_item_has_is_located_with_a_near_name(report, capsys):
    findings = _findings(report, capsys)
    rank = _one(findings, "unknown-attribute", "layouts.yaml:" + _at(LAYOUTS, '"{rank}"'))
    assert "'rank'" in rank["message"] and "did you mean 'rnak'?" in rank["message"]
    where = _one(findings, "unknown-attribute", "layouts.yaml:" + _at(LAYOUTS, "sute"))  # the key of `where:`
    assert "did you mean 'suite'?" not in where["message"] and "did you mean 'suit'?" in where["message"]


def test_a_column_nothing_reads_is_located_at_its_header_cell(report, capsys):
    findings = _findings(report, capsys)
    rnak = _one(findings, "unused-column", "moths.csv:1:3")
    assert "did you mean 'rank'?" in rnak["message"]
    # `wings` has no near name a layout reads: kept as data, an info and not a warning.
    wings = [f for f in findings if f["code"] == "unused-column" and f["source"].endswith("moths.csv:1:5")]
    assert [f["severity"] for f in wings] == ["info"]


def test_a_non_number_in_a_column_of_whole_numbers_is_located_at_its_cell(report, capsys):
    findings = _findings(report, capsys)
    twelve = _one(findings, "not-a-number", "moths.csv:5:3")
    assert "'twelve'" in twelve["message"]
    assert not [f for f in findings if f["code"] == "not-a-number" and "moths.csv:5:3" not in f["source"]]


def test_a_folder_named_differently_from_its_id_is_located_at_the_id(report, capsys):
    findings = _findings(report, capsys)
    named = _one(findings, "folder-name", "game.yaml:1:5")
    assert "'moth-market'" in named["message"] and "'my-first-game'" in named["message"]


def test_the_fixed_game_has_none_of_these_warnings(report, tmp_path):
    folder = tmp_path / "moth-market"
    folder.mkdir()
    for p in report.iterdir():
        text = p.read_text(encoding="utf-8").replace("rnak", "rank").replace("twelve", "12").replace("sute", "suit")
        (folder / p.name).write_text(text, encoding="utf-8")
    assert [(code, sev) for code, sev, _ in usage_warnings(load_game(folder))] == [("unused-column", "info")]


@pytest.mark.parametrize("gid", game_ids())
def test_the_example_games_have_no_such_warning(gid):
    assert [str(p) for _, sev, p in usage_warnings(load_game(gid)) if sev == "warning"] == []


def test_unknown_keys_get_the_near_key_of_their_own_place(report, tmp_path, capsys):
    """A misspelt key is an error (exit 2) that names the key the model allows there."""
    folder = tmp_path / "moth-market"
    folder.mkdir()
    for p in report.iterdir():
        (folder / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "game.yaml").write_text(GAME + "play_tme_minutes: {min: 10, max: 20}\n", encoding="utf-8")
    setup = "steps:\n  - use: moth-cards\n  - deal: moth-cards\n    eahc: 3\n"
    (folder / "setup.yaml").write_text(setup, encoding="utf-8")
    (folder / "layouts.yaml").write_text(LAYOUTS.replace("    size: poker\n", "    size: poker\n    dorp: [title]\n"),
                                         encoding="utf-8")
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"game.yaml:{GAME.count(chr(10)) + 1}:1: unknown key 'play_tme_minutes'; did you mean 'play_time_minutes'?" in err
    assert "setup.yaml:4:5: unknown key 'eahc'; did you mean 'each'?" in err
    assert "layouts.yaml:6:5: unknown key 'dorp'; did you mean 'drop'?" in err
    # Nothing near: the usual advice, no guess.
    (folder / "layouts.yaml").write_text(LAYOUTS.replace("    size: poker\n", "    size: poker\n    zzz: 1\n"),
                                         encoding="utf-8")
    (folder / "setup.yaml").unlink()
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    zzz = [line for line in err.splitlines() if "unknown key 'zzz'" in line]
    assert len(zzz) == 1 and "layouts.yaml:6:5:" in zzz[0] and "did you mean" not in zzz[0]


def test_the_build_says_them_too(report, tmp_path, capsys):
    """`pnp build` lists the same warnings in build-warnings.txt (and on the terminal), each located."""
    out = tmp_path / "out"
    assert main(["build", str(report), "--out", str(out), "--only", "check", "--jobs", "1"]) == 0
    lines = (out / "build-warnings.txt").read_text(encoding="utf-8").splitlines()
    located = sorted(line.split(": ", 1)[0].rsplit("/", 1)[-1] for line in lines)
    assert located == sorted(["game.yaml:1:5", "moths.csv:1:3", "moths.csv:5:3",
                              "layouts.yaml:" + _at(LAYOUTS, '"{rank}"'), "layouts.yaml:" + _at(LAYOUTS, "sute")])
