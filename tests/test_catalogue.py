"""The program's own printed words as a gettext domain (issue 28, item 1): generator/locale/pnp.pot
made from the code, one PO file per language read at run time, the words the code asks for all in
the catalogue, a translator's PO file in PNP_LOCALE adding a language without code, and
`pnp rules check` reporting what a language lacks."""
from __future__ import annotations

import ast
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import polib
import pytest

from generator import catalogue

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "generator" / "locale"
KEY = re.compile(r"^(rulebook|missing|calibration|tiles|map|left_out|language|pieces)\.[a-z_.0-9]+$")


def _pnp(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_the_pot_file_is_the_catalogue_of_the_code(tmp_path):
    """`pnp catalogue pot` regenerates the template; the one in the repository is what it writes,
    and read back with polib it holds every key with its English, in the code's order."""
    shipped = (LOCALE / "pnp.pot").read_bytes()
    pot = polib.pofile(str(LOCALE / "pnp.pot"))
    assert [(e.msgctxt, e.msgid) for e in pot] == list(catalogue.MESSAGES.items())
    assert all(e.msgstr == "" for e in pot)
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "generator", copy / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "solver", copy / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "generator" / "locale" / "pnp.pot").unlink()
    r = _pnp("catalogue", "pot", cwd=copy)
    assert r.returncode == 0, r.stderr
    assert (copy / "generator" / "locale" / "pnp.pot").read_bytes() == shipped, \
        "generator/locale/pnp.pot is out of date: run `pnp catalogue pot` and commit it"


def _literal_strings() -> tuple[set[str], set[str], set[str]]:
    """(string constants, f-string prefixes, label names) in generator/'s code, outside the catalogue."""
    consts, prefixes, labels = set(), set(), set()
    for path in (ROOT / "generator").rglob("*.py"):
        if path.name == "catalogue.py" and path.parent.name == "generator":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                consts.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                prefixes.add(str(node.values[0].value))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("label", "_labels"):
                labels |= {a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return consts, prefixes, labels


def test_every_word_the_code_asks_for_is_in_the_catalogue_and_every_entry_is_used():
    consts, prefixes, labels = _literal_strings()
    files = ("yaml", "yml", "json", "csv", "pdf", "txt", "png", "svg")  # map.yaml is a file, not a word
    asked = {c for c in consts if KEY.match(c) and not c.endswith(".") and c.rsplit(".", 1)[1] not in files}
    assert asked - set(catalogue.MESSAGES) == set(), "keys the code uses that the catalogue lacks"
    unused = [k for k in catalogue.MESSAGES
              if k not in asked and not any(k.startswith(p) and p.endswith(".") and KEY.match(p + "x") for p in prefixes)
              and not (k.startswith("rulebook.") and k.split(".", 1)[1] in consts | labels)]
    assert unused == [], "catalogue entries no code prints: remove them (and run `pnp catalogue pot`)"


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_each_shipped_language_is_complete_and_valid(lang):
    path = LOCALE / f"{lang}.po"
    po = polib.pofile(str(path))
    assert {e.msgctxt: e.msgid for e in po} == catalogue.MESSAGES
    assert catalogue.findings(lang) == [] and catalogue.missing(lang) == []
    if shutil.which("msgfmt"):
        assert subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)]).returncode == 0


def test_the_words_come_from_the_po_files():
    """A word in Japanese or French is the PO file's msgstr, with the language's punctuation."""
    for lang in ("ja", "fr"):
        po = {e.msgctxt: e.msgstr for e in polib.pofile(str(LOCALE / f"{lang}.po"))}
        assert catalogue.text("rulebook.contents", lang) == po["rulebook.contents"]
    assert catalogue.text("rulebook.contents", "fr") == "Sommaire"
    assert catalogue.text("rulebook.note_mark", "fr") == "Remarque\u00a0:"
    assert catalogue.text("rulebook.players", "fr", lo=3, hi=5) == "3 à 5 joueurs"
    assert catalogue.text("rulebook.note_mark", "ja") == "※"


@pytest.mark.parametrize("lang", ["en", "ja", "fr"])
def test_every_word_fills_in_in_every_language(lang):
    """Each word formats with its {names} in each language: French punctuation never reaches inside
    a placeholder ({overlap:g} keeps its colon) and the values are set as given."""
    import string

    for key, msg in catalogue.MESSAGES.items():
        names = {f for _, f, _, _ in string.Formatter().parse(msg) if f}
        out = catalogue.text(key, lang, **{n: 7 for n in names})
        assert "{" not in out and ("7" in out or not names), (key, out)
    assert catalogue.text("tiles.head", "fr", n=2, total=6, row=1, col=2, overlap=12.5).endswith("12.5 mm")


def test_the_wheel_ships_the_locale_files():
    """pyproject's package-data globs match every file of generator/locale/ (CI installs the wheel)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = data["tool"]["setuptools"]["package-data"]["generator"]
    files = [p.relative_to(ROOT / "generator").as_posix() for p in LOCALE.iterdir()]
    assert {"locale/pnp.pot", "locale/ja.po", "locale/fr.po"} <= set(files)
    assert all(any(fnmatch.fnmatch(f, g) for g in globs) for f in files)


def test_a_translator_adds_a_language_in_pnp_locale_without_code(tmp_path):
    """`pnp catalogue po --lang de --to DIR` writes a German file to translate; once in the folder
    PNP_LOCALE names, its words print, the rest falls back to English set as English, and
    `pnp rules check --lang de` names each missing entry at its line; a {name} mistyped is an error,
    never a crash."""
    r = _pnp("catalogue", "po", "--lang", "de", "--to", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = tmp_path / "de.po"
    po = polib.pofile(str(path))
    assert len(po) == len(catalogue.MESSAGES) and all(not e.msgstr for e in po)
    for e in po:
        if e.msgctxt == "rulebook.contents":
            e.msgstr = "Inhalt"
        if e.msgctxt == "rulebook.players":
            e.msgstr = "{lo}-{hoch} Personen"
    po.save(str(path))
    env = {"PNP_LOCALE": str(tmp_path)}
    code = ("from generator import catalogue as c; print(c.text('rulebook.contents','de')); "
            "print(c.text('rulebook.players','de',lo=2,hi=4)); print(len(c.missing('de')))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={**os.environ, **env})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:3] == ["Inhalt", "2–4 players", str(len(catalogue.MESSAGES) - 1)]
    r = _pnp("rules", "check", "dont-drop-the-ring", "--lang", "de", "--json", env=env)

    found = json.loads(r.stdout)["findings"]
    mine = [f for f in found if f["code"].startswith("catalogue-")]
    assert len([f for f in mine if f["code"] == "catalogue-missing"]) == len(catalogue.MESSAGES) - 2
    bad = [f for f in mine if f["code"] == "catalogue-placeholders"]
    assert len(bad) == 1 and "{hi}" in bad[0]["message"] and "{lo}" in bad[0]["message"]
    line = int(bad[0]["source"].rsplit(":", 1)[1])
    assert "rulebook.players\"" in "".join(path.read_text(encoding="utf-8").splitlines()[line - 1:line + 2])
    assert r.returncode == 1


def test_pnp_catalogue_po_keeps_translations_and_marks_changed_english_fuzzy(tmp_path):
    """Like msgmerge: an entry whose English changed keeps its old translation, fuzzy, with the old
    English as #| msgid; `pnp rules check` then calls it stale."""
    shutil.copy(LOCALE / "fr.po", tmp_path / "fr.po")
    text = (tmp_path / "fr.po").read_text(encoding="utf-8")
    (tmp_path / "fr.po").write_text(text.replace('msgid "Contents"', 'msgid "Table of contents"'), encoding="utf-8")
    r = _pnp("catalogue", "po", "--lang", "fr", "--to", str(tmp_path))
    assert r.returncode == 0, r.stderr
    entry = next(e for e in polib.pofile(str(tmp_path / "fr.po")) if e.msgctxt == "rulebook.contents")
    assert entry.msgid == "Contents" and entry.msgstr == "Sommaire" and "fuzzy" in entry.flags
    assert entry.previous_msgid == "Table of contents"
    r = _pnp("rules", "check", "dont-drop-the-ring", "--lang", "fr", "--json", env={"PNP_LOCALE": str(tmp_path)})

    codes = [f["code"] for f in json.loads(r.stdout)["findings"] if f["code"].startswith("catalogue-")]
    assert codes == ["catalogue-stale"]
