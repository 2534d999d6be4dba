"""Issue 29 item 5/6: `pnp map GAME neighbours HEX` on a newcomer's map with no `movement:` section.
A 3 x 3 flat-top map with `offset: odd` (its hand-drawn picture: column 02 sits half a hex lower
than 01 and 03) and a river on one hexside. The expected neighbours are written out by hand from
that picture, not computed: 0202's are 0201 above, 0203 below, and 01/03 of rows 02 and 03 beside.
"""
from __future__ import annotations

import json
from pathlib import Path

from generator.cli import main

GAME = """\
id: three-by-three
title: {en: Three by three}
players: {min: 2, max: 2}
source_language: en
languages: [en]
"""
COMPONENTS = """\
components:
  - {id: board, kind: board, name: {en: Board}, count: 1}
"""
MAP = """\
id: tiny
name: {en: Tiny}
component: board
reconstruction: false
grid: {orientation: flat, offset: odd, hex_mm: 20, columns: 3, rows: 3}
terrain:
  default: grass
  kinds:
    grass: {name: {en: Grass}, fill: "#cfe3b0"}
    pond: {name: {en: Pond}, fill: "#a9cbe6", water: true}
  areas:
    - {terrain: pond, hexes: ["0303"]}
rivers:
  - {id: brook, name: {en: Brook}, kind: minor, hexsides: [["0202", "0102"]]}
place_kinds:
  town: {name: {en: town}, icon: house}
places:
  - {id: mill, hex: "0201", name: {en: Mill}, kind: town}
legend:
  title: {en: Tiny}
  note: {en: A map of nine hexes.}
"""


def write(folder: Path) -> Path:
    folder.mkdir()
    for name, text in {"game.yaml": GAME, "components.yaml": COMPONENTS, "map.yaml": MAP}.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_neighbours_of_the_middle_hex_need_no_movement_section(tmp_path, capsys):
    folder = write(tmp_path / "three-by-three")
    capsys.readouterr()
    assert main(["map", str(folder), "neighbours", "0202", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    # offset odd: the second column (label 02, index 1) is shoved down half a hex
    assert [(r["direction"], r["hex"]) for r in rows] == [
        ("N", "0201"), ("NE", "0302"), ("SE", "0303"), ("S", "0203"), ("SW", "0103"), ("NW", "0102")]
    by_hex = {r["hex"]: r for r in rows}
    assert by_hex["0201"]["place"] == "mill" and by_hex["0303"]["terrain"] == "pond"
    assert by_hex["0102"]["between"] == "river brook" and by_hex["0302"]["between"] == ""


def test_a_corner_hex_has_the_neighbours_on_the_map(tmp_path, capsys):
    folder = write(tmp_path / "three-by-three")
    capsys.readouterr()
    assert main(["map", str(folder), "neighbours", "0101", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["direction"], r["hex"]) for r in rows] == [("SE", "0201"), ("S", "0102")]


def test_a_hex_off_the_map_is_one_line(tmp_path, capsys):
    folder = write(tmp_path / "three-by-three")
    capsys.readouterr()
    assert main(["map", str(folder), "neighbours", "0404"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'0404' is not a hex of this map" in err[0]


def test_a_broken_river_names_the_two_hexsides_of_its_gap(tmp_path, capsys):
    folder = write(tmp_path / "three-by-three")
    mapfile = folder / "map.yaml"
    mapfile.write_text(mapfile.read_text(encoding="utf-8").replace(
        'hexsides: [["0202", "0102"]]', 'hexsides: [["0201", "0101"], ["0303", "0203"]]'), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(folder), "--json"]) == 1
    [f] = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["code"] == "map-river-broken"]
    assert "between 0201 and 0101 does not touch the next, between 0303 and 0203" in f["message"]
    line = next(i for i, ln in enumerate(mapfile.read_text(encoding="utf-8").splitlines(), 1) if "brook" in ln)
    assert f["source"].endswith(f"map.yaml:{line}")
