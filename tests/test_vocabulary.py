"""One word, one meaning: renamed keys are read under their old spelling for one release, with a
warning at the old key's line that names the new one (solver/game/renames.py, docs/vocabulary.md)."""
from __future__ import annotations

import re

import pytest

from solver.checks import check_functions
from solver.errors import DataError
from solver.game.loader import load_game
from solver.game.setup import RemoveStep


def _line(path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in ln)


def _warnings(game):
    return [f for check in check_functions() for f in check(game).findings if f.code == "old-spelling"]


def test_remove_count_is_read_as_each_with_a_warning_at_its_line(game_copy):
    folder = game_copy("saboteur-the-lost-mines")
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("where: {role: loyal}, each:", "where: {role: loyal}, count:"),
                     encoding="utf-8")
    game = load_game(folder)
    removes = [s.remove for s in game.setup.steps if isinstance(s, RemoveStep) and s.remove.each is not None]
    assert [str(r.each) for r in removes] == ["1", "2"]
    found = _warnings(game)
    assert len(found) == 2
    lines = sorted(int(f.source.rsplit(":", 1)[1]) for f in found)
    assert lines[0] == _line(setup, "where: {role: loyal}, count: 1")
    assert all("now spelt `each`" in f.message and f.severity == "warning" for f in found)


def test_layout_when_and_variants_are_read_as_where_and_item_layouts(game_copy):
    folder = game_copy("war-of-the-ring-campaign")
    layouts = folder / "layouts.yaml"
    text = layouts.read_text(encoding="utf-8")
    old = text.replace("where: {face.face: hidden}", "when: {face.face: hidden}").replace("    item_layouts:", "    variants:", 1)
    layouts.write_text(old, encoding="utf-8")
    game = load_game(folder)
    found = {f.message.split("`")[1]: int(f.source.rsplit(":", 1)[1]) for f in _warnings(game)}
    assert found == {"when": _line(layouts, "when: {face.face: hidden}"), "variants": _line(layouts, "    variants:")}
    hidden = [f for lay in game.extras["layouts"].layouts for f in lay.fields if f.name == "hidden"]
    assert hidden and hidden[0].where == {"face.face": "hidden"}


def test_the_new_spelling_gives_no_warning():
    for game_id in ("saboteur-the-lost-mines", "war-of-the-ring-campaign"):
        assert _warnings(load_game(game_id)) == []


def test_both_spellings_at_once_are_unusable_input(game_copy):
    folder = game_copy("saboteur-the-lost-mines")
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("where: {role: loyal}, each: 1}", "where: {role: loyal}, each: 1, count: 1}"),
                     encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_game(folder)
    assert re.search(rf"setup\.yaml:{_line(setup, 'count: 1}')}:\d+: unknown key 'count'", str(e.value))
