"""A third language end to end (issue 28, item 2): Don't Drop the Ring and Saboteur: The Lost Mines
build in French (pieces, rulebook, booklet) with rules QA clean; the PDFs read back with
pdfplumber hold French words and none of the English ones, and set French punctuation: « » with
a no-break space inside, a space before ; : ! ? that never breaks from the word before it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pdfplumber
import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["dont-drop-the-ring", "saboteur-the-lost-mines"]
# words the program prints in English, and must print in French in a French book
ENGLISH_HEADINGS = ["Contents", "Components", "Setup by player count", "Glossary", "How to print", "Example:",
                    "Clarification", "What the sources do not give", "players"]
FRENCH_HEADINGS = ["Sommaire", "Matériel", "Mise en place selon le nombre de joueurs", "Glossaire",
                   "Comment imprimer", "joueurs"]
# the pieces: a French name of each game's cards
FRENCH_PIECES = {"dont-drop-the-ring": ("cards-gem-cards-fr.pdf", ["Améthyste", "Spinelle grise", "Pièce", "Cartes Gemme"]),
                 "saboteur-the-lost-mines": ("cards-dwarf-cards-fr.pdf", ["Nain loyal", "Nain égoïste", "Saboteur", "Clan bleu"])}
ENGLISH_PIECES = {"dont-drop-the-ring": ["Amethyst", "Gray Spinel", "Coin", "Gem cards"],
                  "saboteur-the-lost-mines": ["Loyal dwarf", "Selfish dwarf", "Dwarf cards", "Blue clan"]}


def _pnp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("french")
    for game in GAMES:
        r = _pnp("build", game, "--lang", "fr", "--out", str(out), "--no-preflight",
                 "--only", "rulebooks", "--only", "cards", "--only", "manifest")
        assert r.returncode == 0 and "not built in fr" not in r.stderr, r.stderr
    return out


def _text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


@pytest.mark.parametrize("game", GAMES)
def test_rules_check_in_french_is_clean(game):
    r = _pnp("rules", "check", game, "--lang", "fr", "--json")
    report = json.loads(r.stdout)
    assert r.returncode == 0 and report["ok"], r.stdout
    assert [f for f in report["findings"] if f["severity"] in ("error", "warning")] == []


@pytest.mark.parametrize("game", GAMES)
def test_the_french_book_is_french(built, game):
    folder = built / game
    for name in ("rulebook-fr.pdf", "booklet-fr.pdf", "rulebook-ja+fr.pdf", "booklet-ja+fr.pdf"):
        assert (folder / name).is_file(), name
    text = _text(folder / "rulebook-fr.pdf")
    for word in FRENCH_HEADINGS:
        assert word in text, word
    for word in ENGLISH_HEADINGS:
        assert word not in text, f"English {word!r} in the French book"
    import yaml
    notes = [t["note"] for t in yaml.safe_load((ROOT / "data/games" / game / "rules/glossary.yaml").read_text())["terms"]
             if t.get("note")]
    assert not [n for n in notes if n[:20] in " ".join(text.split())], "English glossary notes in the French book"
    # a sample of the English translation's sentences: none is printed; the French ones are
    en = [e.msgstr for e in polib.pofile(str(ROOT / "data/games" / game / "rules/en.po")) if len(e.msgstr) > 40]
    fr = {e.msgctxt: e.msgstr for e in polib.pofile(str(ROOT / "data/games" / game / "rules/fr.po"))}
    flat = " ".join(text.split())
    assert not [s for s in en[::5] if s[:30] in flat]
    assert sum(" ".join(s.split())[:20].replace('"', "") in flat.replace("« ", "").replace(" »", "")
               for s in list(fr.values())[::7] if len(s) > 40 and "[[" not in s[:20]) >= 3


def _chars(pdf: Path):
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            chars = [c for c in page.chars if c["text"].strip()]
            yield from zip([None] + chars[:-1], chars, chars[1:] + [None])


def _same_line_with_gap(a: dict, b: dict) -> bool:
    """b follows a on the same line, a space's width apart (at least 1.5 pt: no-break, yet spaced)."""
    return abs(a["top"] - b["top"]) < 2 and b["x0"] - a["x1"] > 1.5


@pytest.mark.parametrize("game", GAMES)
def test_french_punctuation_in_the_book(built, game):
    """Each « is followed, each » ; : ! ? preceded, by a space on the same line (a no-break space:
    never the end of a line), read from the glyphs' positions."""
    seen = {"«": 0, "»": 0, ":": 0, ";": 0}
    bad = []
    for prev, c, nxt in _chars(built / game / "rulebook-fr.pdf"):
        ch = c["text"]
        if ch == "«":
            seen[ch] += 1
            if nxt is None or not _same_line_with_gap(c, nxt):
                bad.append((ch, nxt and nxt["text"]))
        elif ch in "»;:!?":
            seen[ch] = seen.get(ch, 0) + 1
            if prev is None or not _same_line_with_gap(prev, c):
                bad.append((ch, prev and prev["text"]))
    assert bad == []
    assert seen[":"] > 5 and seen["«"] >= 1 and seen["«"] == seen["»"]


@pytest.mark.parametrize("game", GAMES)
def test_the_french_pieces(built, game):
    name, words = FRENCH_PIECES[game]
    text = _text(built / game / name)
    for w in words:
        assert w in text, w
    for w in ENGLISH_PIECES[game]:
        assert w not in text, w
    manifest = (built / game / "manifest-fr.txt").read_text(encoding="utf-8")
    assert words[0] in manifest


def test_french_number_words_count_in_the_numbers_check():
    """Number words per language (issue 28): `deux joueurs` states 2; `une carte` matches a stated
    1 but `un dé` is no extra number where the source has none (un/une are also articles)."""
    from solver.rules.qa import _number_findings, _Unit, numbers_of

    assert numbers_of("Distribuez une carte à deux joueurs, puis trois.", "fr") == {"1": 1, "2": 1, "3": 1}
    assert numbers_of("Distribuez une carte à deux joueurs.", "fr", weak=False) == {"2": 1}
    assert numbers_of("la deuxième manche", "fr") == {"2": 1}

    def warned(source: str, target: str) -> list[str]:
        return [f.message for f in _number_findings(_Unit("clause 1", "fr.po:1", source, target), [], "ja", "fr")]

    assert warned("各プレイヤーに1枚ずつ配ります。", "Distribuez une carte à chaque joueur.") == []
    assert warned("ダイスを振ります。", "Lancez un dé.") == []
    assert warned("2人のプレイヤー", "deux joueurs") == []
    assert "extra 2" in warned("読めます。", "se lit de deux façons.")[0]
    assert "missing 3" in warned("3枚引きます。", "Piochez des cartes.")[0]
