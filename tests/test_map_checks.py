"""map.yaml validation and the map checks: rule assertions, roads, rivers, crossings, citations."""
from __future__ import annotations

from pathlib import Path

import pytest

from solver.errors import DataError
from solver.game.loader import load_game
from solver.hexmap.mapcheck import check_map, cited_hex_ids

GAME_YAML = """id: tiny-map
title: {en: Tiny map}
players: {min: 2, max: 2}
source_language: en
"""
COMPONENTS = """components:
  - {id: board, kind: map, name: {en: Board}, count: 1}
"""
# A 6 x 5 flat-top even-q map, letter-number labels. In even-q, C3's neighbours are C2, C4, B3, B4, D3, D4.
MAP = """id: tiny
name: {en: Tiny}
component: board
reconstruction: true
paper: a4
grid: {orientation: flat, offset: even, hex_mm: 20, columns: 6, rows: 5}
labels: {style: letter-number}
terrain:
  default: clear
  kinds:
    clear: {name: {en: Clear}, fill: "#eeeecc"}
    wood: {name: {en: Wood}, fill: "#88bb66", move_cost: 2}
  areas:
    - {terrain: wood, hexes: [C3, C2, C4, B3, B4, D3, D4]}
rivers:
  - id: brook
    kind: minor
    hexsides: [[A1, B1], [A1, B2], [A2, B2]]
roads:
  - {id: lane, path: [A1, A2, A3]}
crossings:
  - {kind: ford, hexside: [A2, B2], river: brook}
regions:
  - {id: wood-region, name: {en: Wood}, hexes: [C3, C2, C4, B3, B4, D3, D4]}
assertions:
  - {exists: [A1, F5], source: "rule 1"}
  - {adjacent: [A1, A2], source: "rule 2"}
  - {surround: {centre: C3, terrain: wood}, source: "rule 3"}
  - {across: [A2, B2], river: brook, source: "rule 4"}
  - {not_across: [A2, A3], river: brook, source: "rule 5"}
  - {crossing: [A2, B2], source: "rule 6"}
  - {direction: {from: C3, to: C4, is: S}, source: "rule 7"}
  - {touch: [A1, B2], river: brook, source: "rule 8"}
  - {region: wood-region, hexes: [C2, C3, C4, B3, B4, D3, D4], source: "rule 9"}
legend: {title: {en: Tiny}, note: {en: A reconstruction.}}
"""


def make_game(tmp_path: Path, map_text: str = MAP, rules: str | None = None) -> Path:
    folder = tmp_path / "tiny-map"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME_YAML)
    (folder / "components.yaml").write_text(COMPONENTS)
    (folder / "map.yaml").write_text(map_text)
    if rules is not None:
        (folder / "rules").mkdir()
        (folder / "rules" / "notes.txt").write_text(rules)
    return folder


def findings(folder: Path):
    return check_map(load_game(folder)).findings


def test_all_assertions_hold_on_the_hand_made_map(tmp_path):
    fs = findings(make_game(tmp_path))
    holds = [f for f in fs if f.code == "map-assertion-holds"]
    assert len(holds) == 9
    assert not [f for f in fs if f.severity == "error"]
    assert {f.source for f in holds} == {f"rule {i}" for i in range(1, 10)}


@pytest.mark.parametrize("line,needle", [
    ("{adjacent: [A1, A3], source: bad}", "A1 and A3 are 2 hexes apart"),
    ("{exists: [G1], source: bad}", "hex G1 is not on the 6x5 map"),
    ("{across: [A2, A3], river: brook, source: bad}", "A2|A3 hexside is not on the brook"),
    ("{not_across: [A2, B2], river: brook, source: bad}", "A2|B2 hexside is on the brook"),
    ("{crossing: [A1, B1], source: bad}", "no crossing on the A1|B1 hexside"),
    ("{direction: {from: C3, to: C4, is: N}, source: bad}", "C4 lies S of C3"),
    ("{surround: {centre: A1, terrain: wood}, source: bad}", "A1 has only"),
    ("{surround: {centre: D3, terrain: wood}, source: bad}", "are not wood"),
    ("{touch: [E5], river: brook, source: bad}", "E5 have no hexside on the brook"),
    ("{region: wood-region, hexes: [C3], source: bad}", "region wood-region is"),
])
def test_refuted_assertion_is_an_error_at_its_line(tmp_path, line, needle):
    text = MAP.replace("legend:", f"  - {line}\nlegend:")
    fs = [f for f in findings(make_game(tmp_path, text)) if f.code == "map-assertion-fails"]
    assert len(fs) == 1
    assert needle in fs[0].message
    line_no = text.splitlines().index(f"  - {line}") + 1
    assert fs[0].source.endswith(f"map.yaml:{line_no}")


def test_broken_road_river_and_stray_crossing_are_errors(tmp_path):
    text = (MAP.replace("path: [A1, A2, A3]", "path: [A1, A2, A4]")
               .replace("hexsides: [[A1, B1], [A1, B2], [A2, B2]]", "hexsides: [[A1, B1], [A4, B4]]")
               .replace("{kind: ford, hexside: [A2, B2], river: brook}", "{kind: ford, hexside: [E1, E2], river: brook}"))
    codes = {f.code for f in findings(make_game(tmp_path, text)) if f.severity == "error"}
    assert {"map-road-broken", "map-river-broken", "map-crossing-off-river"} <= codes


def test_bad_hex_ids_and_non_neighbour_hexsides_are_unusable_input(tmp_path):
    text = MAP.replace("[A1, B2], [A2, B2]]", "[A1, B2], [A2, D2]]").replace("path: [A1, A2, A3]", "path: [A1, A2, Z9]")
    with pytest.raises(DataError) as e:
        load_game(make_game(tmp_path, text))
    msg = str(e.value)
    assert "A2 and D2 are not neighbours" in msg and "'Z9' is not a hex of this 6x5 map" in msg
    assert "map.yaml:" in msg and "Traceback" not in msg


def test_unknown_component_terrain_and_unit(tmp_path):
    text = MAP.replace("component: board", "component: no-such-board").replace("terrain: wood, hexes", "terrain: swamp, hexes")
    with pytest.raises(DataError) as e:
        load_game(make_game(tmp_path, text))
    assert "unknown component 'no-such-board'" in str(e.value) and "unknown terrain 'swamp'" in str(e.value)


def test_hex_ids_cited_in_rule_texts_must_exist(tmp_path):
    rules = "1.1 The fort is hex C3 (see also (F5)); the ford is at hexes A2 and G9.\n"
    fs = findings(make_game(tmp_path, rules=rules))
    missing = [f for f in fs if f.code == "map-cited-hex-missing"]
    assert [f.message.split()[4].rstrip(",") for f in missing] == ["G9"]
    assert {f.message.split()[1] for f in fs if f.code == "map-cited-hex"} == {"C3", "F5", "A2"}


def test_cited_hex_id_extraction():
    assert cited_hex_ids("ヘックスM17、N18を指す", "letter-number") == ["M17", "N18"]
    assert cited_hex_ids("ヘックスN15→N16→N17と移動", "letter-number") == ["N15", "N16", "N17"]
    assert cited_hex_ids("ドルアダンの森(O21)に", "letter-number") == ["O21"]
    assert cited_hex_ids("2D を振る、S-01 シート", "letter-number") == []
    assert cited_hex_ids("hex 0412 and 0513", "xxyy") == ["0412", "0513"]


def test_wargame_map_proves_the_rule_cited_hexes_and_adjacencies():
    game = load_game("war-of-the-ring-campaign")
    result = check_map(game)
    errors = [f for f in result.findings if f.severity == "error"]
    assert not errors, errors
    proved = {f.source for f in result.findings if f.code == "map-assertion-holds"}
    for clause in ("seed 004, 2.5.5", "seed 004, 2.5.6", "seed 004, 16.22.1", "seed 004, 16.22.2"):
        assert clause in proved
    hm = game.extras["map"].resolve()
    assert hm.hex("M17").distance(hm.hex("N18")) == 1
    assert all(hm.terrain[h] == "deep-forest" for h in hm.hex("I13").spiral(1))
    shadow = {p.id for p in game.extras["map"].places if p.allegiance == "shadow"}
    assert shadow == {"barad-dur", "morannon", "minas-morgul", "dol-guldur", "isengard"}


def test_riddle_map_has_every_feature_the_rules_name():
    game = load_game("riddle-of-the-ring")
    m = game.extras["map"]
    assert not [f for f in check_map(game).findings if f.severity == "error"]
    kinds = {p.kind for p in m.places}
    assert {"start", "victory", "city", "gollum", "seeing", "secret", "return"} <= kinds
    assert {p.allegiance for p in m.places if p.kind == "city"} == {"good", "evil", "neutral"}
    assert {c.kind for c in m.crossings} == {"bridge", "ford"}
    assert all(r.dots for r in m.rivers)
    assert {k for k, v in m.terrain.kinds.items() if v.water} == {"sea", "lake", "marsh"}
    assert "halls-of-mandos" in {b.id for b in m.boxes}
    assert m.reconstruction and "Reconstructed" in m.legend.note["en"]


def test_map_without_components_still_reports_bad_hexes_as_data_errors(tmp_path):
    folder = make_game(tmp_path, MAP.replace("component: board\n", "").replace("path: [A1, A2, A3]", "path: [A1, Q9]"))
    (folder / "components.yaml").write_text("components: []\n")
    game = load_game(folder)  # the loader only cross-checks maps when there are components
    with pytest.raises(DataError, match="'Q9' is not a hex"):
        check_map(game)


def test_give_on_a_misspelt_map_place_is_an_error_at_its_line(game_copy):
    """Every reference is resolved on load (solver/game/references.py): a misspelt place is unusable
    input, located, with the nearest existing id suggested."""
    folder = game_copy("riddle-of-the-ring")
    setup = folder / "setup.yaml"
    lines = setup.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(lines) if t.strip() == "on: shire")
    lines[line] = lines[line].replace("shire", "shirre")
    setup.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_game(folder)
    (problem,) = [p for p in e.value.problems if "shirre" in str(p)]
    assert str(problem).startswith(f"{setup}:{line + 1}:") or f"setup.yaml:{line + 1}:" in str(problem)
    assert "did you mean 'shire'" in str(problem)
