"""A glossary file is parsed once per process for the same text (solver/rules/glossary.py
`load_glossary`, issue 26: a build asked for the example games' glossaries 46 times): a second load
gives the same terms without parsing again, an edit (even one of the same length, within the clock's
tick) of the game's file or of a shared file it includes is read at the next load, and a broken file
is still a located error every time."""
from __future__ import annotations

from pathlib import Path

import pytest

from solver.errors import DataError
from solver.rules import glossary

GAME = "include: [{include}]\nterms:\n  - {{ja: 指輪, en: {ring}}}\n"
SHARED = "terms:\n  - {{ja: 魔法使い, en: {wizard}}}\n"


@pytest.fixture
def parses(monkeypatch, tmp_path: Path) -> list[str]:
    """Every glossary text parsed from now on; shared glossaries live in tmp_path/shared."""
    glossary._FILES.clear()
    monkeypatch.setattr(glossary, "GLOSSARIES_DIR", tmp_path / "shared")
    (tmp_path / "shared").mkdir()
    seen: list[str] = []
    real = glossary.parse_yaml

    def counting(text, shown):
        seen.append(text)
        return real(text, shown)
    monkeypatch.setattr(glossary, "parse_yaml", counting)
    return seen


def write(tmp_path: Path, ring: str = "ring", wizard: str = "wizard", include: str = "lore") -> Path:
    (tmp_path / "shared" / "lore.yaml").write_text(SHARED.format(wizard=wizard), encoding="utf-8")
    path = tmp_path / "game" / "glossary.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(GAME.format(include=include, ring=ring), encoding="utf-8")
    return path


def english(path: Path) -> list[str]:
    return [e.forms["en"] for e in glossary.load_glossary(path)]


def test_the_same_files_are_parsed_once(tmp_path: Path, parses: list[str]):
    path = write(tmp_path)
    assert english(path) == ["ring", "wizard"]
    first = glossary.load_glossary(path)
    first.clear()  # a caller changing its list changes no other caller's
    assert english(path) == ["ring", "wizard"]
    assert len(parses) == 2  # the game's file and the shared one, once each
    [origin, _] = [e.origin for e in glossary.load_glossary(path)]
    assert origin.endswith("glossary.yaml:3")


def test_an_edit_of_the_same_length_is_read_at_once(tmp_path: Path, parses: list[str]):
    path = write(tmp_path)
    assert english(path) == ["ring", "wizard"]
    size = path.stat().st_size
    write(tmp_path, ring="band")  # as long, written in the same instant
    assert path.stat().st_size == size
    assert english(path) == ["band", "wizard"]
    write(tmp_path, ring="band", wizard="istar")  # an edit of the included file only
    assert english(path) == ["band", "istar"]
    assert len(parses) == 4


def test_a_broken_file_is_a_located_error_each_time(tmp_path: Path, parses: list[str]):
    path = write(tmp_path)
    english(path)
    path.write_text(path.read_text(encoding="utf-8") + "  - {ja: 指輪}\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataError) as e:
            glossary.load_glossary(path)
        [problem] = e.value.problems
        assert problem.path.endswith("glossary.yaml") and problem.line == 4
    write(tmp_path, include="nowhere")  # an include that goes away is found even with the file unchanged
    with pytest.raises(DataError) as e:
        glossary.load_glossary(path)
    assert e.value.problems[0].line == 1
