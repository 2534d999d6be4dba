"""Map knowledge as data: place kinds and allegiances are declared in map.yaml (names per language,
icon, colour), so a new game's map needs no Python; undeclared ones are unusable input at their line."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pdfplumber
import pytest

from generator.context import BuildContext
from generator.hexmap.stage import build_maps
from solver.errors import DataError
from solver.game.loader import load_game

from test_map_checks import MAP, make_game

KINDS = """place_kinds:
  well: {name: {en: Well of Echoes}, icon: cairn}
  keep: {name: {en: Keep}, icon: square, icon_by_allegiance: {river-folk: star}}
allegiances:
  river-folk: {name: {en: River Folk}, colour: "#13a4c5"}
places:
  - {id: echo, hex: B2, kind: well, name: {en: Echo}}
  - {id: ford-keep, hex: E4, kind: keep, allegiance: river-folk, name: {en: Ford Keep}}
"""


def test_a_new_place_kind_and_allegiance_print_without_python(tmp_path):
    folder = make_game(tmp_path, MAP.replace("regions:\n", KINDS + "regions:\n"))
    game = load_game(folder)
    written = build_maps(game, BuildContext(out_root=tmp_path / "out", formats=("pdf", "svg")))
    pdf = next(p for p in written if p.suffix == ".pdf" and "tile" not in p.name)
    with pdfplumber.open(pdf) as doc:
        text = doc.pages[0].extract_text()
    assert "Well of Echoes" in text and "Keep (River Folk)" in text  # the legend names them from the data
    svg = next(p for p in written if p.suffix == ".svg" and "tile" not in p.name)
    fills = {el.get("fill", "").lower() for el in ET.parse(svg).iter()}
    assert "#13a4c5" in fills  # the allegiance's colour fills its place's icon


@pytest.mark.parametrize("old, new, needle", [
    ("kind: well", "kind: spring", "unknown place kind 'spring'; declare it under place_kinds"),
    ("allegiance: river-folk, name", "allegiance: hill-folk, name", "unknown allegiance 'hill-folk'"),
    ("{river-folk: star}", "{hill-folk: star}", "unknown allegiance 'hill-folk'"),
    ("icon: cairn", "icon: gollum", "icon"),
])
def test_undeclared_kinds_and_allegiances_are_unusable_input_at_their_line(tmp_path, old, new, needle):
    text = MAP.replace("regions:\n", KINDS.replace(old, new) + "regions:\n")
    with pytest.raises(DataError) as e:
        load_game(make_game(tmp_path, text))
    msg = str(e.value)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if new in ln)
    assert needle in msg and re.search(rf"map\.yaml:{line}:\d+: ", msg), msg
