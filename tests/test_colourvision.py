"""Colour-vision check (issue 25 item 4): pieces told apart by colour alone whose colours look alike
under simulated protanopia, deuteranopia, tritanopia (Machado et al. 2009) or greyscale are reported
by the build's preflight step and by `pnp preflight`, naming the pieces and their colours."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.colourvision import colour_vision, delta_e, linear, simulate
from solver.game.loader import load_game

# Two counter kinds that print the same strength and differ only in their side's colour: red and
# green (the pair a deuteranope confuses), then black and white (which everybody tells apart).
COUNTERS = """
  - id: armies
    kind: counters
    name: {en: Armies, ja: 軍}
    size: half-inch
    items:
      - {id: red-army, name: {en: Red army, ja: 赤軍}, count: 2, attrs: {side: red, strength: 3}}
      - {id: green-army, name: {en: Green army, ja: 緑軍}, count: 2, attrs: {side: green, strength: 3}}
  - id: stones
    kind: counters
    name: {en: Stones, ja: 石}
    size: half-inch
    items:
      - {id: black-stone, name: {en: Black stone, ja: 黒石}, count: 2, attrs: {side: black, strength: 1}}
      - {id: white-stone, name: {en: White stone, ja: 白石}, count: 2, attrs: {side: white, strength: 1}}
"""
LAYOUTS = """
  - id: army-counter
    size: half-inch
    background: {by: side, palette: side}
    fields:
      - {kind: text, box: [1, 3, 10.7, 6.7], text: "{attrs.strength}", size_pt: 12, colour: contrast}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """A newcomer's game from `pnp new`, with the two counter components added."""
    folder = tmp_path_factory.mktemp("colours") / "two-armies"
    assert main(["new", str(folder)]) == 0
    comps = folder / "components.yaml"
    comps.write_text(comps.read_text(encoding="utf-8").rstrip() + "\n" + COUNTERS, encoding="utf-8")
    lay = folder / "layouts.yaml"
    text = lay.read_text(encoding="utf-8")
    text = text.replace("palettes:\n", 'palettes:\n  side: {red: "#d62728", green: "#2ca02c", '
                                       'black: "#000000", white: "#ffffff"}\n', 1)
    text = text.replace("layouts:\n", "layouts:\n" + LAYOUTS.lstrip("\n"), 1)
    text = text.replace("components:\n", "components:\n  armies: {front: army-counter, back: army-counter}\n"
                                         "  stones: {front: army-counter, back: army-counter}\n", 1)
    lay.write_text(text, encoding="utf-8")
    return folder


def colour_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "colour-vision" in line]


def test_machado_deuteranopia_of_pure_red_and_yellow_match_the_papers_matrix():
    # Machado 2009, deuteranopia at severity 1.0: linear RGB times the matrix; pure red is its first
    # column, yellow the sum of the first two, each clipped to 0..1 (values from the paper's table).
    assert simulate(linear("#ff0000"), "deuteranopia") == pytest.approx((0.367322, 0.280085, 0.0), abs=1e-6)
    assert simulate(linear("#ffff00"), "deuteranopia") == pytest.approx((1.0, 0.952586, 0.031120), abs=1e-6)
    # greyscale keeps the BT.709 luminance: pure green is 0.7152 on every channel
    assert simulate(linear("#00ff00"), "greyscale") == pytest.approx((0.7152,) * 3, abs=1e-6)
    # black to white is the whole L* range, 100, under every vision
    assert delta_e("#000000", "#ffffff", "tritanopia") == pytest.approx(100.0, abs=0.01)


def test_build_reports_red_and_green_armies_under_deuteranopia_but_not_black_and_white(game, tmp_path, capsys):
    capsys.readouterr()
    assert main(["build", str(game), "--out", str(tmp_path / "out")]) == 0
    lines = colour_lines(capsys.readouterr().err)
    assert len(lines) == 1, lines
    line = lines[0]
    for part in ("armies", "'green'", "#2ca02c", "Green army", "'red'", "#d62728", "Red army", "deuteranopia"):
        assert part in line
    assert "stones" not in line and "#000000" not in line
    # the same from `pnp preflight` on that build
    assert main(["preflight", str(game), "--out", str(tmp_path / "out")]) == 0
    assert colour_lines(capsys.readouterr().out) == [f"warning: {line.split('preflight warning: ', 1)[1]}"]


def test_a_letter_from_the_side_is_a_second_cue(game, tmp_path):
    folder = tmp_path / "lettered"
    shutil.copytree(game, folder)
    lay = folder / "layouts.yaml"
    assert colour_vision(load_game(folder)), "the red and green armies are reported before the letter"
    letter = '      - {kind: text, box: [1, 0.5, 10.7, 2.5], text: "{side}", size_pt: 6, colour: contrast}\n'
    lay.write_text(lay.read_text(encoding="utf-8").replace('colour: contrast}\n', 'colour: contrast}\n' + letter, 1),
                   encoding="utf-8")
    assert colour_vision(load_game(folder)) == []


@pytest.mark.parametrize("game_id", ["riddle-of-the-ring", "saboteur-the-lost-mines", "dont-drop-the-ring",
                                     "lotr-sauron", "war-of-the-ring-campaign"])
def test_the_example_games_tell_no_pieces_apart_by_colour_alone(game_id):
    # (War of the Ring's leader backs, rules 2.2.4, carry the leader's name besides the nation colour)
    assert colour_vision(load_game(game_id)) == []


def _new_game(tmp_path: Path) -> Path:
    folder = tmp_path / "harbour"
    assert main(["new", str(folder)]) == 0
    return folder


def test_map_terrain_told_apart_by_colour_alone_is_reported_at_its_line_until_it_has_a_mark(tmp_path):
    # a newcomer adds shallows to the starter map: a second blue with the sea's waves
    folder = _new_game(tmp_path)
    mapfile = folder / "map.yaml"
    text = mapfile.read_text(encoding="utf-8")
    sea = next(line for line in text.splitlines() if line.strip().startswith("sea: {"))
    shallows = '    shallows: {name: {en: Shallows, ja: 浅瀬}, fill: "#b3d4ee", mark: waves, water: true}'
    mapfile.write_text(text.replace(sea, sea + "\n" + shallows), encoding="utf-8")
    line_no = mapfile.read_text(encoding="utf-8").splitlines().index(shallows) + 1
    lines = [line for line in colour_vision(load_game(folder)) if "terrain" in line]
    assert len(lines) == 1, lines
    line = lines[0]
    path, at_line = line.split(":")[:2]
    assert Path(path).name == "map.yaml" and int(at_line) == line_no, line
    for part in ("'sea'", "#a9cbe6", "'shallows'", "#b3d4ee", "waves", "greyscale", "protanopia"):
        assert part in line, part
    # the land (no mark) and the rocks (peaks) are not in it: they carry their own cue or differ enough
    assert "'land'" not in line and "'rocks'" not in line
    # a mark of its own is the second cue
    mapfile.write_text(mapfile.read_text(encoding="utf-8").replace('"#b3d4ee", mark: waves', '"#b3d4ee", mark: ripples'),
                       encoding="utf-8")
    assert [line for line in colour_vision(load_game(folder)) if "terrain" in line] == []


def test_terrain_with_the_same_mark_but_colours_far_apart_is_not_reported(tmp_path):
    folder = _new_game(tmp_path)
    mapfile = folder / "map.yaml"
    text = mapfile.read_text(encoding="utf-8")
    # black rock and the pale land: no mark on either, yet nobody confuses them, in grey or any vision
    text = text.replace('    rocks:', '    tar: {name: {en: Tar pit, ja: タール}, fill: "#202020"}\n    rocks:')
    mapfile.write_text(text, encoding="utf-8")
    assert [line for line in colour_vision(load_game(folder)) if "terrain" in line] == []
