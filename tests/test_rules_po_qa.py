"""PO files and translation QA: validity, msgmerge-like updates, and one crafted failure per check."""
from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import polib
import pytest

from solver.game.loader import load_game
from solver.rules.po import po_path, read_po, update_catalog
from solver.rules.qa import check_rules, check_translation, numbers_of

ROOT = Path(__file__).resolve().parent.parent
PO_FILES = sorted((ROOT / "data" / "games").glob("*/rules/*.po"))
TRANSLATED = ["saboteur-the-lost-mines", "dont-drop-the-ring"]


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_po_files_parse_and_pass_msgfmt_check(path):
    po = read_po(path)
    assert all(e.msgctxt for e in po if not e.obsolete), "every entry is keyed by its clause id"
    if shutil.which("msgfmt"):
        run = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("game_id", TRANSLATED)
def test_complete_translations_have_no_findings(game_id):
    game = load_game(game_id)
    findings = check_translation(game, "en")
    assert [f for f in findings if f.severity in ("error", "warning")] == []
    po = read_po(po_path(game.folder, "en"))
    assert len([e for e in po if not e.obsolete]) == len(game.extras["rules"].units())


@pytest.mark.parametrize("game_id", TRANSLATED)
def test_po_update_is_a_fixed_point_on_a_complete_translation(game_id):
    game = load_game(game_id)
    path = po_path(game.folder, "en")
    po = update_catalog(game.extras["rules"], read_po(path), lang="en", game_id=game.id,
                        title=game.meta.title["en"])
    assert str(po) == path.read_text(encoding="utf-8")


def _game_with_po(game_copy, edit) -> tuple:
    folder = game_copy("dont-drop-the-ring")
    path = folder / "rules" / "en.po"
    po = polib.pofile(str(path), wrapwidth=0)
    edit(po, {e.msgctxt: e for e in po})
    po.save(str(path))
    return load_game(folder), path


def _codes(game):
    return {(f.code, f.message.split(":")[0]) for f in check_translation(game, "en")}


def test_missing_translation_is_an_error_naming_the_clause(game_copy):
    game, _ = _game_with_po(game_copy, lambda po, by: setattr(by["play-roll"], "msgstr", ""))
    assert ("translation-missing", "clause 4.1 (play-roll)") in _codes(game)


def test_fuzzy_translation_is_a_warning(game_copy):
    game, _ = _game_with_po(game_copy, lambda po, by: by["play-roll"].flags.append("fuzzy"))
    assert ("translation-fuzzy", "clause 4.1 (play-roll)") in _codes(game)


def test_changed_source_makes_the_entry_stale(game_copy):
    folder = game_copy("dont-drop-the-ring")
    clauses = folder / "rules" / "clauses.yaml"
    clauses.write_text(clauses.read_text(encoding="utf-8").replace(
        "ラウンドの親はテーブル中央のダイスを全て振ります。", "ラウンドの親はテーブル中央のダイスを全て2回振ります。"), encoding="utf-8")
    game = load_game(folder)
    assert ("translation-stale", "clause 4.1 (play-roll)") in _codes(game)
    # after `pnp rules po`, the entry is fuzzy with the old msgid kept: still stale, not silently fine
    path = po_path(folder, "en")
    update_catalog(game.extras["rules"], read_po(path), lang="en", game_id=game.id, title="x").save(str(path))
    entry = next(e for e in read_po(path) if e.msgctxt == "play-roll")
    assert "fuzzy" in entry.flags and entry.previous_msgid == "ラウンドの親はテーブル中央のダイスを全て振ります。"
    assert ("translation-stale", "clause 4.1 (play-roll)") in _codes(load_game(folder))


def test_numbers_differing_from_the_source_are_flagged(game_copy):
    game, _ = _game_with_po(game_copy, lambda po, by: setattr(
        by["setup-deal-gems"], "msgstr", by["setup-deal-gems"].msgstr.replace("deal 6", "deal 7")))
    found = [f for f in check_translation(game, "en") if f.code == "translation-numbers"]
    assert len(found) == 1 and "missing 6" in found[0].message and "extra 7" in found[0].message
    assert found[0].message.startswith("clause 2.5 (setup-deal-gems)")


def test_numbers_compare_after_nfkc():
    # each side against the numbers a reader sees, so a reader that found nothing anywhere fails
    ten_ten, one, five = Counter({"10.10": 1}), Counter({"1": 1}), Counter({"5": 1})
    assert numbers_of("（１０．１０）を参照", "ja") == ten_ten == numbers_of("see (10.10)", "en")  # full-width digits
    assert numbers_of("①", "ja") == one == numbers_of("1", "en")                                # circled one
    assert numbers_of("10.10", "en") == ten_ten != numbers_of("10.1", "en") == Counter({"10.1": 1})
    assert numbers_of("five players", "en") == five == numbers_of("5人", "ja")                  # a number word
    assert numbers_of("deal 6, then 6 more", "en") == Counter({"6": 2})


def test_a_reference_that_points_nowhere_is_an_error(game_copy):
    game, _ = _game_with_po(game_copy, lambda po, by: setattr(
        by["play-discard"], "msgstr", by["play-discard"].msgstr.replace("[[play-take-dice]]", "[[play-take-dices]]")))
    codes = {(c, m) for c, m in _codes(game)}
    assert ("cross-reference-dangling", "clause 4.3 (play-discard)") in codes


def test_native_numbered_references_are_checked_as_int_tuples(game_copy):
    folder = game_copy("dont-drop-the-ring")
    (folder / "rules" / "en.po").unlink()
    (folder / "rules" / "clauses.yaml").write_text("""language: ja
numbering: native
sections:
  - id: "10"
    title: 移動
    clauses:
      - {id: "10.1", text: 離脱は(１０．１０)による。}
      - {id: "10.10", text: 仲間の離脱は11.5を見よ。}
""", encoding="utf-8")
    findings = check_rules(load_game(folder)).findings
    # the clauses' references (the glossary's defined_in ids name clauses this copy no longer has)
    dangling = [f for f in findings if f.code == "cross-reference-dangling" and f.message.startswith("clause")]
    # (10.10) exists (full-width, NFKC), 11.5 does not; 10.10 is never confused with 10.1
    assert len(dangling) == 1 and "11.5" in dangling[0].message and dangling[0].message.startswith("clause 10.10")


def test_glossary_term_without_its_agreed_translation_is_flagged(game_copy):
    game, _ = _game_with_po(game_copy, lambda po, by: setattr(
        by["setup-ring-start"], "msgstr", "Put your band on top of your palm so it sits on mark 9."))
    found = [f for f in check_translation(game, "en") if f.code == "glossary-term"]
    assert any("指輪カード" in f.message and "'ring card'" in f.message for f in found)
    assert any("貴方の手カード" in f.message and "'hand card'" in f.message for f in found)
    assert all(f.message.startswith("clause 2.3 (setup-ring-start)") for f in found)


def test_glossary_matches_japanese_by_substring(game_copy):
    folder = game_copy("dont-drop-the-ring")
    (folder / "rules" / "glossary.yaml").write_text("include: [middle-earth]\nterms: []\n", encoding="utf-8")
    clauses = folder / "rules" / "clauses.yaml"
    clauses.write_text(clauses.read_text(encoding="utf-8").replace(
        "適当な方法でラウンドの親を決めます。", "ホビット庄から来た者がラウンドの親を決めます。"), encoding="utf-8")
    path = folder / "rules" / "en.po"
    po = polib.pofile(str(path), wrapwidth=0)
    for e in po:
        if e.msgctxt == "setup-lead":
            e.msgid = "ホビット庄から来た者がラウンドの親を決めます。"
            e.msgstr = "A hobbit chooses the round leader."
    po.save(str(path))
    found = [f for f in check_translation(load_game(folder), "en") if f.code == "glossary-term"]
    assert len(found) == 1 and "the Shire" in found[0].message


def test_obsolete_entry_is_reported(game_copy):
    def add(po, by):
        po.append(polib.POEntry(msgctxt="gone-clause", msgid="消えた条項", msgstr="A clause that was removed"))
    game, _ = _game_with_po(game_copy, add)
    assert ("translation-obsolete", "gone-clause") in _codes(game)


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="gettext's msgfmt is not installed")
def test_msgfmt_rejects_a_format_mismatch(game_copy):
    def bad(po, by):
        e = by["play-roll"]
        e.msgid = e.msgid  # unchanged source
        e.flags.append("c-format")
        e.msgstr = "The round leader rolls %d dice."
    game, _ = _game_with_po(game_copy, bad)
    assert any(f.code == "po-invalid" for f in check_translation(game, "en"))


def test_check_rules_is_registered_and_quiet_on_the_translated_games():
    from solver.checks import CHECKS

    assert check_rules in CHECKS
    for game_id in TRANSLATED:
        result = check_rules(load_game(game_id))
        assert [f for f in result.findings if f.severity in ("error", "warning")] == []
