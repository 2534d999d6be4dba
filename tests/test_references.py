"""Every id the data names resolves, or the file gets a located error suggesting the nearest id."""
from __future__ import annotations

import re

import pytest

from solver.errors import DataError
from solver.game.loader import load_game


def _load_problems(folder) -> list[str]:
    with pytest.raises(DataError) as e:
        load_game(folder)
    return [str(p) for p in e.value.problems]


def _replace(path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_misspelt_map_place_in_setup_is_rejected_with_the_nearest_id(game_copy):
    folder = game_copy("war-of-the-ring-campaign")
    _replace(folder / "setup.yaml", "on: bree", "on: brie")
    [line] = _load_problems(folder)
    m = re.match(r"(.+setup\.yaml):(\d+):(\d+): unknown place 'brie'; did you mean 'bree'\?", line)
    assert m, line
    lines = (folder / "setup.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[int(m.group(2)) - 1][int(m.group(3)) - 1:] == "brie"


def test_unknown_layout_of_a_component_is_rejected(game_copy):
    folder = game_copy("saboteur-the-lost-mines")
    text = (folder / "components.yaml").read_text(encoding="utf-8")
    first = re.search(r"^  - id: (\S+)\n", text, re.M)
    (folder / "components.yaml").write_text(text[:first.end()] + "    layout: no-such-layout\n" + text[first.end():],
                                            encoding="utf-8")
    [line] = _load_problems(folder)
    assert re.match(r".+components\.yaml:\d+:\d+: unknown layout 'no-such-layout'; .+", line), line


def test_unknown_item_of_a_place_step_is_rejected(game_copy):
    folder = game_copy("war-of-the-ring-campaign")
    _replace(folder / "setup.yaml", "items: [elrond, glorfindel]", "items: [elrnd, glorfindel]")
    [line] = _load_problems(folder)
    assert re.search(r"setup\.yaml:\d+:\d+: unknown item 'elrnd' of 'counters'; did you mean 'elrond'\?", line), line


def test_declared_locations_resolve_and_an_undeclared_one_does_not(game_copy):
    folder = game_copy("lotr-sauron")
    load_game(folder)  # every `on:` names a declared location
    _replace(folder / "setup.yaml", "  - {id: activity-lines,", "  - {id: activity-line,")
    [line] = _load_problems(folder)
    assert "unknown place 'activity-lines'; did you mean 'activity-line'?" in line, line


def test_proposal_naming_an_unknown_component_is_rejected(game_copy):
    # campaign failure: a misspelt component in proposed.yaml passed load and check
    folder = game_copy("riddle-of-the-ring")
    _replace(folder / "proposed.yaml", "- component: play-cards", "- component: play-carqs")
    [line] = _load_problems(folder)
    assert re.match(r".+proposed\.yaml:\d+:\d+: unknown component 'play-carqs'; did you mean 'play-cards'\?", line), line
