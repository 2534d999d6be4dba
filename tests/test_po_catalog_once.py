"""A game's rules translation is parsed once per process for the same text (solver/rules/po.py
`load_catalog`, issue 26: a build asked for the same 7 PO files some 90 times): a second load of
the same file gives the translations without parsing it again, an edit (even one of the same length,
within the clock's tick) is read at the next load, and a broken file is still a located error."""
from __future__ import annotations

from pathlib import Path

import polib
import pytest

from solver.errors import DataError
from solver.rules import po

ENTRY = 'msgctxt "intro#title"\nmsgid "はじめに"\nmsgstr "{}"\n'


def write(folder: Path, title: str) -> Path:
    path = folder / "rules" / "en.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' + ENTRY.format(title),
                    encoding="utf-8")
    return path


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """Every PO text polib parses from now on."""
    po._CATALOGS.clear()
    seen: list[str] = []
    real = polib.pofile

    def counting(text, **kw):
        seen.append(text)
        return real(text, **kw)
    monkeypatch.setattr(polib, "pofile", counting)
    return seen


def test_the_same_file_is_parsed_once(tmp_path: Path, parses: list[str]):
    write(tmp_path, "Introduction")
    first = po.load_catalog(tmp_path, "en")
    second = po.load_catalog(tmp_path, "en")
    assert len(parses) == 1
    assert first.get("intro#title", "はじめに").text == second.get("intro#title", "はじめに").text == "Introduction"
    assert po.load_catalog(tmp_path, "fr").po is None  # no file: an empty catalog, nothing parsed
    assert len(parses) == 1


def test_an_edit_of_the_same_length_is_read_at_once(tmp_path: Path, parses: list[str]):
    path = write(tmp_path, "Overture")
    assert po.load_catalog(tmp_path, "en").get("intro#title", "はじめに").text == "Overture"
    size = path.stat().st_size
    write(tmp_path, "Prologue")  # as long, written in the same instant
    assert path.stat().st_size == size
    assert po.load_catalog(tmp_path, "en").get("intro#title", "はじめに").text == "Prologue"
    assert len(parses) == 2
    # another game's file with the same text is its own catalog, named by its own path
    other = tmp_path / "other"
    write(other, "Prologue")
    assert po.load_catalog(other, "en").path == po.po_path(other, "en")


def test_a_broken_file_is_a_located_error_each_time(tmp_path: Path, parses: list[str]):
    path = write(tmp_path, "Introduction")
    po.load_catalog(tmp_path, "en")
    path.write_text(path.read_text(encoding="utf-8") + "this is not a PO line\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataError) as e:
            po.load_catalog(tmp_path, "en")
        [problem] = e.value.problems
        assert problem.path.endswith("en.po") and problem.line > 0
