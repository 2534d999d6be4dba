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


HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
# entries that polib's checked parse takes, or refuses as a duplicate (the oracle: polib itself)
CASES = {
    "clean": HEADER + 'msgctxt "a"\nmsgid "x"\nmsgstr "X"\n\nmsgctxt "b"\nmsgid "x"\nmsgstr "Y"\n',
    "same msgid and context": HEADER + 'msgctxt "a"\nmsgid "x"\nmsgstr "X"\n\nmsgctxt "a"\nmsgid "x"\nmsgstr "Y"\n',
    "no context twice": HEADER + 'msgid "x"\nmsgstr "X"\n\nmsgid "x"\nmsgstr "Y"\n',
    "one context, one none": HEADER + 'msgid "x"\nmsgstr "X"\n\nmsgctxt "a"\nmsgid "x"\nmsgstr "Y"\n',
    "obsolete first": HEADER + '#~ msgctxt "a"\n#~ msgid "x"\n#~ msgstr "X"\n\nmsgctxt "a"\nmsgid "x"\nmsgstr "Y"\n',
    "obsolete after": HEADER + 'msgctxt "a"\nmsgid "x"\nmsgstr "X"\n\n#~ msgctxt "a"\n#~ msgid "x"\n#~ msgstr "Y"\n',
    "two headers": HEADER + HEADER + 'msgid "x"\nmsgstr "X"\n',
    "duplicate, then broken": HEADER + 'msgid "x"\nmsgstr "X"\n\nmsgid "x"\nmsgstr "Y"\n\nmsgid "y\nmsgstr "\n',
    "broken": HEADER + 'msgid "x"\nmsgstr "X"\nmsgid\n',
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_po_file_is_taken_or_refused_as_polibs_checked_parse_takes_or_refuses_it(case, tmp_path):
    """Entries parsed unchecked and checked for duplicates after: the same entries as polib's checked
    parse, or the same first error (its message, in the problem's text), case by case."""
    text, path = CASES[case], tmp_path / "rules" / "en.po"
    try:
        expected = polib.pofile(text, encoding="utf-8", check_for_duplicates=True, wrapwidth=0)
    except (OSError, ValueError) as e:
        with pytest.raises(DataError) as got:
            po._parse_po(text, path)
        assert str(e) in got.value.problems[0].what
        return
    parsed = po._parse_po(text, path)
    assert [(e.msgctxt, e.msgid, e.msgstr, e.obsolete) for e in parsed] == \
        [(e.msgctxt, e.msgid, e.msgstr, e.obsolete) for e in expected]
    assert parsed.metadata == expected.metadata and parsed.check_for_duplicates


def test_a_po_files_entries_are_not_each_compared_with_all_before_them(tmp_path, monkeypatch):
    """polib's checked parse asks, for each entry, whether any entry before it is the same (a walk of
    the list each: quadratic); the parse asks no entry that, and still finds a duplicate."""
    asked: list[str] = []
    real = polib.POFile.__contains__
    monkeypatch.setattr(polib.POFile, "__contains__", lambda self, entry: (asked.append(entry.msgid), real(self, entry))[1])
    entries = "".join(f'msgctxt "c{i}"\nmsgid "x"\nmsgstr "X"\n\n' for i in range(50))
    assert len(po._parse_po(HEADER + entries, tmp_path / "en.po")) == 50
    assert asked == []
    with pytest.raises(DataError):
        po._parse_po(HEADER + entries + 'msgctxt "c7"\nmsgid "x"\nmsgstr "Y"\n', tmp_path / "en.po")
