"""A PO file's repeated entries (solver/rules/po.py `_parse_po`): found by a set, not by polib's own
quadratic check, with the same outcome as polib's `check_for_duplicates`, which is the oracle here:
the same entries, or the same located error."""
from __future__ import annotations

from pathlib import Path

import polib
import pytest

from solver.errors import DataError
from solver.rules.po import _parse_po

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
ONE = 'msgctxt "a"\nmsgid "Draw a card."\nmsgstr "Tirez une carte."\n\n'
CASES = {
    "none": HEADER + ONE + 'msgctxt "b"\nmsgid "Draw a card."\nmsgstr "x"\n',
    "same context": HEADER + ONE + 'msgctxt "a"\nmsgid "Draw a card."\nmsgstr "y"\n',
    "no context twice": HEADER + 'msgid "Pass."\nmsgstr "x"\n\nmsgid "Pass."\nmsgstr "y"\n',
    "context and none": HEADER + ONE + 'msgid "Draw a card."\nmsgstr "y"\n',
    "obsolete after live": HEADER + ONE + '#~ msgctxt "a"\n#~ msgid "Draw a card."\n#~ msgstr "old"\n',
    "live after obsolete": HEADER + '#~ msgctxt "a"\n#~ msgid "Draw a card."\n#~ msgstr "old"\n\n' + ONE,
    "two obsolete": HEADER + ('#~ msgctxt "a"\n#~ msgid "Draw a card."\n#~ msgstr "old"\n\n' * 2),
    "header twice": HEADER + HEADER + ONE,
    "no header": ONE + 'msgctxt "c"\nmsgid "Pass."\nmsgstr "x"\n',
}


def _outcome(parse):  # type: ignore[no-untyped-def]
    try:
        po = parse()
    except (DataError, ValueError, OSError) as e:
        return ("error", e.problems[0].what if isinstance(e, DataError) else f"not a valid PO file: {e}")
    return ("ok", [(e.msgctxt, e.msgid, e.msgstr, e.obsolete, e.linenum) for e in po], dict(po.metadata))


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_outcome_is_polibs_own_check(case: str, tmp_path: Path) -> None:
    text = CASES[case]
    ours = _outcome(lambda: _parse_po(text, tmp_path / "fr.po"))
    theirs = _outcome(lambda: polib.pofile(text, encoding="utf-8", check_for_duplicates=True, wrapwidth=0))
    assert ours == theirs


def test_an_entry_added_later_is_still_checked(tmp_path: Path) -> None:
    po = _parse_po(CASES["none"], tmp_path / "fr.po")
    with pytest.raises(ValueError):
        po.append(polib.POEntry(msgctxt="a", msgid="Draw a card.", msgstr="z"))
