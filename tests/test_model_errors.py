"""Every kind of malformed game file gets one line per problem at the right line, exit status 2."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.cli import main
from solver.errors import DataError
from solver.game.loader import load_game


def _replace_line(path: Path, old: str, new: str) -> int:
    """Replace the first line containing `old`; return its 1-based line number."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        if old in line:
            lines[i] = line.replace(old, new)
            path.write_text("".join(lines), encoding="utf-8")
            return i + 1
    raise AssertionError(f"{old!r} not in {path}")


def _errors(folder: Path) -> list[str]:
    with pytest.raises(DataError) as e:
        load_game(folder)
    return [str(p) for p in e.value.problems]


LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<what>[^;]+); (?P<todo>.+)$")


def _one(errors: list[str], file: str, line: int, needle: str) -> re.Match:
    assert len(errors) >= 1
    for e in errors:
        m = LINE.match(e)
        assert m, f"not a one-line located error: {e!r}"
        if m["path"].endswith(file) and int(m["line"]) == line and needle in m["what"]:
            return m
    raise AssertionError(f"no error at {file}:{line} about {needle!r}; got {errors}")


def test_bad_yaml_syntax(game_copy):
    g = game_copy()
    line = _replace_line(g / "setup.yaml", "  - shuffle: gem-cards", "  - shuffle: [gem-cards")
    errs = _errors(g)
    assert len(errs) == 1
    m = LINE.match(errs[0])
    assert m and m["path"].endswith("setup.yaml") and "YAML syntax error" in m["what"]
    assert line <= int(m["line"]) <= line + 2


def test_unknown_key(game_copy):
    g = game_copy()
    line = _replace_line(g / "components.yaml", "    kind: dice", "    kind: dice\n    colour: red")
    _one(_errors(g), "components.yaml", line + 1, "unknown key 'colour'")


def test_wrong_type(game_copy):
    g = game_copy()
    line = _replace_line(g / "game.yaml", "year: 2023", "year: twenty")
    m = _one(_errors(g), "game.yaml", line, "year")
    assert int(m["col"]) == 7


def test_unknown_component_in_setup(game_copy):
    g = game_copy()
    line = _replace_line(g / "setup.yaml", "  - shuffle: gem-cards", "  - shuffle: gem-card")
    m = _one(_errors(g), "setup.yaml", line, "unknown component id 'gem-card'")
    assert "did you mean 'gem-cards'" in m["todo"]


def test_negative_count(game_copy):
    g = game_copy()
    line = _replace_line(g / "components.yaml", "    count: 6", "    count: -6")
    _one(_errors(g), "components.yaml", line, "count")


def test_duplicate_id(game_copy):
    g = game_copy()
    line = _replace_line(g / "components.yaml", "  - id: ring-cards", "  - id: hand-cards")
    m = _one(_errors(g), "components.yaml", line, "duplicate id 'hand-cards'")
    assert "first used at" in m["what"] and "components.yaml:" in m["what"]


def test_duplicate_item_in_csv_points_at_the_csv_row(game_copy):
    g = game_copy()
    line = _replace_line(g / "gem-cards.csv", "ruby-3,", "ruby-2,")
    _one(_errors(g), "gem-cards.csv", line, "duplicate id 'ruby-2'")


def test_bad_expression(game_copy):
    g = game_copy()
    line = _replace_line(g / "setup.yaml", "count: players + 1", "count: players +")
    _one(_errors(g), "setup.yaml", line, "bad expression")


def test_every_problem_of_a_file_at_once(game_copy):
    g = game_copy()
    _replace_line(g / "game.yaml", "year: 2023", "year: twenty")
    _replace_line(g / "game.yaml", "age_min: 10", "age_minimum: 10")
    errs = _errors(g)
    assert any("year" in e for e in errs) and any("unknown key 'age_minimum'" in e for e in errs)


def test_cli_exit_status_2_and_no_traceback(game_copy, capsys):
    g = game_copy()
    _replace_line(g / "setup.yaml", "  - shuffle: gem-cards", "  - shufle: gem-cards")
    assert main(["show", str(g)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and all(LINE.match(e) for e in err), err
    assert "Traceback" not in "\n".join(err)


def test_unknown_game_is_one_line(capsys):
    assert main(["show", "no-such-game"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such game" in err[0] and "dont-drop-the-ring" in err[0]


def test_game_outside_the_project(game_copy, capsys):
    g = game_copy()
    assert main(["show", str(g), "--json"]) == 0
    assert '"gem-cards"' in capsys.readouterr().out


def test_a_setup_steps_note_in_an_unknown_language_is_refused_at_its_line(game_copy):
    g = game_copy()
    line = _replace_line(g / "setup.yaml", "  - shuffle: gem-cards", "  - shuffle: gem-cards\n    note: {english: mixed}")
    _one(_errors(g), "setup.yaml", line + 1, "language code 'english'")
