"""`pnp rules check|po` and `pnp rulebook`: exit codes and files."""
from __future__ import annotations

import polib

from generator.cli import main


def test_rules_check_passes_on_a_complete_translation(capsys):
    assert main(["rules", "check", "saboteur-the-lost-mines", "--lang", "en"]) == 0
    assert "0 error(s)" in capsys.readouterr().out


def test_rules_check_fails_and_names_the_clause(game_copy, capsys):
    folder = game_copy("dont-drop-the-ring")
    path = folder / "rules" / "en.po"
    po = polib.pofile(str(path), wrapwidth=0)
    next(e for e in po if e.msgctxt == "goal-summary").msgstr = ""
    po.save(str(path))
    assert main(["rules", "check", str(folder), "--lang", "en"]) == 1
    assert "clause 1.1 (goal-summary): not translated" in capsys.readouterr().out


def test_rules_po_creates_a_catalog_for_a_new_language(game_copy, capsys):
    folder = game_copy("dont-drop-the-ring")
    (folder / "rules" / "en.po").unlink()
    assert main(["rules", "po", str(folder), "--lang", "en"]) == 0
    po = polib.pofile(str(folder / "rules" / "en.po"))
    assert len(po) == 88 and not any(e.msgstr for e in po)  # 78 rules units + 5 clarifications × 2


def test_rulebook_unknown_language_is_unusable_input(capsys):
    assert main(["rulebook", "dont-drop-the-ring", "--lang", "de"]) == 2
    assert "'de' is not a language of dont-drop-the-ring" in capsys.readouterr().err


def test_rulebook_letter_pages(tmp_path, capsys):
    assert main(["rulebook", "dont-drop-the-ring", "--lang", "en", "--paper", "letter", "--out", str(tmp_path)]) == 0
    from pypdf import PdfReader
    page = PdfReader(str(tmp_path / "dont-drop-the-ring" / "rulebook-en.pdf")).pages[0]
    assert round(float(page.mediabox.width)) == 612 and round(float(page.mediabox.height)) == 792
