"""A language as a translation draft (issue 28, item 3): listed under `drafts:` in game.yaml or
given with `--draft`, a partial translation is built, `pnp check` reports what it lacks as
warnings, and its books say on the cover and at the foot of every page that they are drafts;
untranslated text keeps its own language's punctuation (read back from the PDF's glyphs)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _pnp(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=cwd, capture_output=True, text=True)


def _pages(pdf: Path) -> list[str]:
    with pdfplumber.open(pdf) as doc:
        return [page.extract_text() or "" for page in doc.pages]


def _glyphs(pdf: Path) -> list[str]:
    """Each page's characters in drawing order (an imposed booklet sheet's pages turned upside down too)."""
    with pdfplumber.open(pdf) as doc:
        return ["".join(c["text"] for c in page.chars) for page in doc.pages]


def _partial_french(game_copy) -> Path:
    """Don't Drop the Ring with 5 units of its French rules untranslated."""
    folder = game_copy("dont-drop-the-ring")
    po_file = folder / "rules" / "fr.po"
    po = polib.pofile(str(po_file))
    for e in [e for e in po if e.msgstr][10:15]:
        e.msgstr = ""
    po.save(str(po_file))
    return folder


def test_a_partial_translation_is_an_error_unless_it_is_a_draft(game_copy):
    folder = _partial_french(game_copy)
    r = _pnp("check", str(folder), "--json")
    missing = [f for f in json.loads(r.stdout)["findings"] if f["code"] == "translation-missing"]
    assert r.returncode == 1 and len(missing) == 5 and {f["severity"] for f in missing} == {"error"}
    r = _pnp("check", str(folder), "--json", "--draft", "fr")
    missing = [f for f in json.loads(r.stdout)["findings"] if f["code"] == "translation-missing"]
    assert r.returncode == 0 and len(missing) == 5 and {f["severity"] for f in missing} == {"warning"}
    assert all("fr is a draft" in f["message"] for f in missing)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "languages: [ja, en, fr]\n", "languages: [ja, en, fr]\ndrafts: [fr]\n"), encoding="utf-8")
    assert _pnp("check", str(folder), "--json").returncode == 0


def test_a_draft_that_is_not_a_language_of_the_game_is_a_located_error(game_copy):
    folder = game_copy("dont-drop-the-ring")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("languages: [ja, en, fr]\n", "languages: [ja, en, fr]\ndrafts: [de]\n"),
                         encoding="utf-8")
    r = _pnp("check", str(folder))
    line = 1 + text[:text.index("languages: [ja, en, fr]")].count("\n") + 1
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert re.search(rf"game\.yaml:{line}:\d+: .*de is not one of `languages:`", r.stderr), r.stderr


def test_the_draft_is_built_and_marked_and_a_complete_book_is_not(game_copy, tmp_path):
    folder = _partial_french(game_copy)
    out = tmp_path / "out"
    r = _pnp("build", str(folder), "--lang", "ja,fr", "--out", str(out), "--no-preflight",
             "--only", "rulebooks", "--only", "cards")
    assert r.returncode == 0 and "not built in fr" in r.stderr and "--draft fr" in r.stderr
    assert not (out / "dont-drop-the-ring" / "rulebook-fr.pdf").exists()
    r = _pnp("build", str(folder), "--lang", "ja,fr", "--out", str(out), "--no-preflight", "--draft", "fr",
             "--only", "rulebooks", "--only", "cards")
    assert r.returncode == 0 and "built in fr as a draft" in r.stderr, r.stderr
    game = out / "dont-drop-the-ring"
    assert (game / "cards-gem-cards-fr.pdf").is_file()
    for name in ("rulebook-fr.pdf", "booklet-fr.pdf", "rulebook-ja+fr.pdf"):
        assert "Brouillon de traduction" in " ".join(_pages(game / name)[0].split()), name
        # every page after the cover and contents; on a booklet, every sheet but the covers'
        body = _glyphs(game / name)[2:] if name.startswith("rulebook") else _glyphs(game / name)[1:]
        assert body and all("BROUILLON" in p for p in body), name
    assert not any("BROUILLON" in p or "Brouillon" in p for p in _pages(game / "rulebook-ja.pdf"))


def _gap_before(pdf: Path, word: str, mark: str) -> float:
    """The space between the end of `word` and the `mark` after it, read from the glyphs."""
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            chars = page.chars
            text = "".join(c["text"] for c in chars)
            i = text.find(word + mark)
            if i < 0:
                i = text.find(word + "\u00a0" + mark)
                if i < 0:
                    i = text.find(word + " " + mark)
                    if i < 0:
                        continue
            end = chars[i + len(word) - 1]
            after = next(c for c in chars[i + len(word):] if c["text"] == mark)
            return after["x0"] - end["x1"]
    raise AssertionError(f"{word}{mark} not in {pdf.name}")


def test_untranslated_text_keeps_its_own_punctuation(tmp_path):
    """A newcomer's English game with a French draft made by `--draft fr` alone: the untranslated
    English sentence keeps its tight ; and : while the translated French one sets its colon apart."""
    folder = tmp_path / "harbour"
    assert _pnp("new", str(folder)).returncode == 0
    clauses = folder / "rules" / "clauses.yaml"
    text = clauses.read_text(encoding="utf-8")
    old = "text: Shuffle the lantern cards and deal 3 to each player."
    assert old in text
    clauses.write_text(text.replace(old, 'text: "Shuffle the lantern cards; deal 3 to each player: face down."'),
                       encoding="utf-8")
    assert _pnp("rules", "po", str(folder), "--lang", "fr").returncode == 0
    po = polib.pofile(str(folder / "rules" / "fr.po"))
    for e in po:
        if e.msgctxt == "goal-text":
            e.msgstr = "Menez votre bateau au phare : le premier arrivé gagne."
    po.save(str(folder / "rules" / "fr.po"))
    out = tmp_path / "out"
    r = _pnp("build", str(folder), "--draft", "fr", "--lang", "en,fr", "--out", str(out), "--no-preflight",
             "--only", "rulebooks")
    assert r.returncode == 0, r.stderr
    book = out / "harbour" / "rulebook-fr.pdf"
    assert _gap_before(book, "cards", ";") < 0.5 and _gap_before(book, "player", ":") < 0.5
    assert _gap_before(book, "phare", ":") > 1.5
    pages = _pages(book)
    assert "Brouillon de traduction" in " ".join(pages[0].split())
