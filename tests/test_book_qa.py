"""A book and pieces with nothing a reader trips on (issues 28 and 36).

Every example game's English book is typeset as the build sets it (A4 rulebook, and the A5 pages a
booklet imposes) and read back with pdfplumber:
- no page ends with a word hyphenated across the turn (the last body line of every page);
- nothing for maintainers: no glossary `maintainer_note` prints;
- the wording slips a read against the Japanese found are fixed.
- A piece cites a clause with `{ref:clause-id}`: the card prints the clause's number and heading in
  its own language, read back from the built card sheet (pdfplumber), and a reference that names no
  clause is a located checker error.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

import io
import json
import random

from generator.context import BuildContext
from generator.incremental import build
from generator.rulebook.blocks import Content, Heading, Para, Text
from generator.rulebook.build import _report
from generator.rulebook.content import rulebook_content
from generator.rulebook.guide import Printing
from generator.rulebook.typeset import render
from solver.game.folders import game_ids
from solver.game.loader import load_game
from solver.rules.glossary import load_glossary
from solver.rules.qa import check_rules

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _last_lines(pdf: bytes, right_half: bool = False) -> list[tuple[int, str]]:
    """(page, text) of the last line of running text on every page (`right_half`: of its right-hand
    column, a side-by-side book's English): the running foot, the lowest line in the page's bottom
    tenth, is left out."""
    out = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for i, page in enumerate(doc.pages, 1):
            if right_half:
                page = page.crop((page.width / 2, 0, page.width, page.height))
            lines = [ln for ln in page.extract_text_lines() if ln["text"].strip()]
            if len(lines) > 1 and lines[-1]["top"] > page.height * 0.9:
                lines = lines[:-1]
            if lines:
                out.append((i, lines[-1]["text"]))
    return out


def _hyphenated(line: str) -> bool:
    return line.rstrip().endswith(("-", "\u2010", "\u00ad"))


@pytest.fixture(scope="module")
def english_books() -> dict[str, dict[str, bytes]]:
    """game id -> {"a4": the rulebook, "a5": the booklet's pages before imposition}, as the build sets them."""
    books = {}
    for gid in game_ids():
        game = load_game(gid)
        if "en" not in game.meta.languages:
            continue
        content = rulebook_content(game, ["en"], _report(game), printing=Printing("a4", "long", 3.0))
        books[gid] = {"a4": render(content, "a4")[0], "a5": render(content, "a5", back_cover=True)[0]}
    return books


def test_no_english_book_page_ends_in_a_hyphenated_word(english_books):
    found = [(gid, size, page, line) for gid, sizes in english_books.items() for size, pdf in sizes.items()
             for page, line in _last_lines(pdf) if _hyphenated(line)]
    assert found == []


def test_no_side_by_side_book_page_ends_in_a_hyphenated_english_word():
    """The English column of a ja+en book: Sauron's page 11 ended in "for-" and Don't Drop the Ring's
    page 8 in "congratu-" before the rule."""
    found = []
    for gid in ("lotr-sauron", "dont-drop-the-ring"):
        game = load_game(gid)
        pdf = render(rulebook_content(game, ["ja", "en"], _report(game), printing=Printing("a4", "long", 3.0)), "a4")[0]
        found += [(gid, page, line) for page, line in _last_lines(pdf, right_half=True) if _hyphenated(line)]
    assert found == []


def test_a_page_turn_never_splits_a_word_even_where_most_lines_are_hyphenated():
    """Paragraphs of long words, hyphenated line after line: set with the page-turn rule off, 6 of
    the 13 A5 pages end in a hyphen; with it, none does, and lines inside the pages still do."""
    rnd = random.Random(0)
    words = ("extraordinarily incomprehensibility characteristically responsibilities internationalisation "
             "counterrevolutionary disproportionately unquestionably interdepartmental representatives "
             "misunderstanding telecommunications the a of and to in").split()
    paras = [Para("text", {"en": Text(" ".join(rnd.choice(words) for _ in range(rnd.randint(40, 140))) + ".")},
                  f"1.{i}", depth=1) for i in range(1, 30)]
    content = Content(langs=["en"], title={"en": "Hyphens"}, subtitle={"en": ""}, facts={"en": []},
                      blocks=[Heading("h", 0, "1", {"en": Text("Words")})] + paras, faces={"en": "source-serif"},
                      colophon=False)
    pdf = render(content, "a5")[0]
    ends = _last_lines(pdf)
    assert len(ends) >= 10 and not [e for e in ends if _hyphenated(e[1])]
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        inside = sum(_hyphenated(ln["text"]) for p in doc.pages for ln in p.extract_text_lines())
    assert inside > 50


def _maintainer_notes(gid: str) -> list[str]:
    path = GAMES / gid / "rules" / "glossary.yaml"
    return [e.term.maintainer_note for e in (load_glossary(path) if path.is_file() else []) if e.term.maintainer_note]


def test_no_maintainer_note_prints(english_books):
    """The glossary's notes for translators and maintainers ("the Japanese rules' spelling of
    バラド・ドゥア", "no settled English form…") are a key that never prints."""
    checked = 0
    for gid, sizes in english_books.items():
        text = _flat("".join(p.extract_text() or "" for p in pdfplumber.open(io.BytesIO(sizes["a4"])).pages))
        for note in _maintainer_notes(gid):
            checked += 1
            assert _flat(note) not in text, (gid, note)
    assert checked >= 8
    riddle = _flat("".join(p.extract_text() or "" for p in pdfplumber.open(io.BytesIO(english_books["riddle-of-the-ring"]["a4"])).pages))
    assert "spellingof" not in riddle and "nosettled" not in riddle


@pytest.mark.parametrize("gid, phrase", [
    ("saboteur-the-lost-mines", "turnthecardfaceupandrotateitsothatthepathsconnect"),  # 回転させて
    ("dont-drop-the-ring", "highestnumberonthescale(2.3)wins"),  # 目盛りの数字が最も大きい (2.3: where the scale is)
    ("war-of-the-ring-campaign", "isalwaysinoneof6states"),  # 6つの状態がある
    ("war-of-the-ring-campaign", "Thisisbecausecard31"),  # 9.7's note, a sentence
    ("war-of-the-ring-campaign", "(11.5Movementofroutedtroops)"),  # 9.3 cites 11.5 by its heading
])
def test_the_wording_slips_are_fixed(english_books, gid, phrase):
    with pdfplumber.open(io.BytesIO(english_books[gid]["a4"])) as doc:
        text = _flat("".join(p.extract_text() or "" for p in doc.pages)).replace("\u2010", "-")
    assert phrase in text


def _columns(page) -> list[str]:
    """The text of each column of cards on a sheet: characters grouped where the page has a gap of
    more than 4 mm with no character (the cards' text boxes are 7 mm apart)."""
    chars = sorted((c for c in page.chars if c["text"].strip()), key=lambda c: c["x0"])
    groups: list[list[dict]] = []
    for c in chars:
        if groups and c["x0"] < max(g["x1"] for g in groups[-1]) + 4 * 72 / 25.4:
            groups[-1].append(c)
        else:
            groups.append([c])
    return [page.crop((min(c["x0"] for c in g), 0, max(c["x1"] for c in g) + 0.1, page.height))
            .extract_text() or "" for g in groups]


@pytest.fixture(scope="module")
def riddle_cards(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("riddle-cards")
    build(["riddle-of-the-ring"], BuildContext(out_root=root, formats=("pdf",), preflight=False), only={"cards"})
    return root / "riddle-of-the-ring"


@pytest.mark.parametrize("lang, cited", [
    ("en", ["Optionalrule7.8“VictorybytheElvenRings”:", "Optionalrule7.15“Shelob’sfeast”:",
            "Optionalrule7.16“BilborefusesGollum”:"]),
    ("ja", ["選択ルール7.8「エルフの指輪による勝利」:", "選択ルール7.15「シェロブの狂宴」:",
            "選択ルール7.16「ゴクリを拒否するビルボ」:"]),
])
def test_cards_cite_optional_rules_by_the_books_number_and_heading(riddle_cards, lang, cited):
    """The Elven Ring, Shelob and Bilbo cite optional rules the book numbers 7.8, 7.15 and 7.16 (the
    post's (7), (14), (15)); each card prints the number and the heading of the clause in its language."""
    with pdfplumber.open(riddle_cards / f"cards-play-cards-{lang}.pdf") as doc:
        text = "|".join(_flat(column) for p in doc.pages for column in _columns(p))
    for phrase in cited:
        assert phrase in text, phrase
    assert "{ref:" not in text and "(14)" not in text and "(15)" not in text


def test_a_piece_citing_no_clause_is_a_located_error(tmp_path):
    folder = tmp_path / "riddle-of-the-ring"
    shutil.copytree(GAMES / "riddle-of-the-ring", folder)
    csv = folder / "play-cards.csv"
    lines = csv.read_text(encoding="utf-8").splitlines(keepends=True)
    row = next(i for i, ln in enumerate(lines) if ln.startswith("shelob,"))
    lines[row] = lines[row].replace("{ref:opt-shelob-feast}", "{ref:opt-no-such-rule}", 1)
    csv.write_text("".join(lines), encoding="utf-8")
    found = [f for f in check_rules(load_game(folder)).findings
             if f.code == "cross-reference-dangling" and "opt-no-such-rule" in f.message]
    assert found and found[0].severity == "error"
    assert found[0].source.endswith(f"play-cards.csv:{row + 1}")


# --------------------------------------------------------------------------- Don't Drop the Ring's ring marker

@pytest.fixture(scope="module")
def ring_pieces(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ring-pieces")
    build(["dont-drop-the-ring"], BuildContext(out_root=root, formats=("pdf",), preflight=False),
          only={"cards", "pieces", "manifest"})
    return root / "dont-drop-the-ring"


@pytest.mark.parametrize("lang, name, tip", [("en", "Ring", "←fingertip"), ("ja", "指輪", "←指先")])
def test_every_player_gets_a_printed_ring_marker_and_the_hand_card_shows_the_fingertip(ring_pieces, lang, name, tip):
    """2.3 lays a full-size ring card on a full-size hand card, which hides the whole 1-9 scale: the box
    prints a ring marker per seat (5 round tokens, each named), the hand card prints where the
    fingertip is (past mark 1), and the manifest lists the token sheet as printing the markers."""
    with pdfplumber.open(ring_pieces / f"tokens-ring-markers-{lang}.pdf") as doc:
        page = doc.pages[0]
        words = [w["text"] for w in page.extract_words()]
        assert words.count(name) == 5
        assert all(c["size"] >= 6 for c in page.chars)
    with pdfplumber.open(ring_pieces / f"cards-hand-cards-{lang}.pdf") as doc:
        assert tip in _flat(doc.pages[0].extract_text())
    manifest = json.loads((ring_pieces / "manifest.json").read_text(encoding="utf-8"))
    markers = next(c for c in manifest["components"] if c["id"] == "ring-markers")
    assert f"tokens-ring-markers-{lang}.pdf" in markers["printed_in"] and markers["total"] == 5


def test_the_setup_gives_each_player_a_ring_marker_and_the_book_says_how_to_use_it():
    from solver.engine.run import count_reports, setup_table

    counts = count_reports(setup_table(load_game("dont-drop-the-ring")))
    assert {int(n): c["in_play"]["ring-markers"] for n, c in counts.items()} == {3: 3, 4: 4, 5: 5}
    pdf = render(rulebook_content(load_game("dont-drop-the-ring"), ["en"], None), "a4")[0]
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = _flat("".join(p.extract_text() or "" for p in doc.pages))
    assert "Yourringmarkershowswhereyourringis:putitunderthescalewiththering’sstonepointingatmark“9”." in text
    # the glossary describes only what is printed: no hand-and-finger picture
    assert "handandfinger" not in text and "ringmarker" in text.lower()


# --------------------------------------------------------------------------- references carry their target's heading

def test_a_reference_naming_its_target_by_another_heading_is_reported(tmp_path):
    """War of the Ring 9.3 cited "(11.5 Routed troops)" where 11.5 is "Movement of routed troops"; the
    QA reports such a reference at its PO line (a warning), and the example games have none."""
    for gid in game_ids():
        assert not [f for f in check_rules(load_game(gid)).findings if f.code == "reference-heading"], gid
    folder = tmp_path / "war-of-the-ring-campaign"
    shutil.copytree(GAMES / "war-of-the-ring-campaign", folder)
    po = folder / "rules" / "en.po"
    text = po.read_text(encoding="utf-8")
    assert text.count("(11.5 Movement of routed troops)") == 1
    po.write_text(text.replace("(11.5 Movement of routed troops)", "(11.5 Routed troops)"), encoding="utf-8")
    entry = next(i for i, ln in enumerate(po.read_text(encoding="utf-8").splitlines(), 1) if ln == 'msgctxt "9.3"')
    found = [f for f in check_rules(load_game(folder)).findings if f.code == "reference-heading"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "'Routed troops'" in found[0].message and "'Movement of routed troops'" in found[0].message
    assert found[0].source.endswith(f"rules/en.po:{entry - 1}")  # 9.3's entry, from its comment line


# --------------------------------------------------------------------------- terms before their definition

@pytest.mark.parametrize("gid, lang, cited", [
    ("dont-drop-the-ring", "en", ["spend5tricks(4.4)", "onthescale(2.3)"]),
    ("dont-drop-the-ring", "ja", ["トリック(4.4)"]),
    ("riddle-of-the-ring", "en", ["makepowerplays(5.3)", "cityhex(5.5.3)", "HallsofMandos(5.10)", "victoryhex(5.4.1)",
                                  "discardpile(5.5.5)"]),
])
def test_a_term_used_before_its_definition_cites_the_defining_clause(gid, lang, cited):
    """"Trick" opens Don't Drop the Ring (1.1) but 4.4 defines it; Riddle's power play, city hex, Halls
    of Mandos, victory hex and discard pile come before their clauses too: the first use cites the
    definition by number, and the number is a link to that clause."""
    pdf = render(rulebook_content(load_game(gid), [lang], None), "a4")[0]
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = _flat("".join(p.extract_text() or "" for p in doc.pages))
        links = sum(1 for p in doc.pages for a in p.annots or [] if a.get("uri") is None)
    for phrase in cited:
        assert text.count(phrase) == 1, phrase
    assert links > len(cited)


def test_a_term_the_translation_cannot_cite_before_its_definition_is_reported(tmp_path):
    folder = tmp_path / "dont-drop-the-ring"
    shutil.copytree(GAMES / "dont-drop-the-ring", folder)
    po = folder / "rules" / "en.po"
    text = po.read_text(encoding="utf-8")
    old = "then spend 5 tricks trying to win exactly as many tricks as"
    assert old in text
    po.write_text(text.replace(old, "then spend 5 turns trying to win exactly as many times as"), encoding="utf-8")
    glossary = folder / "rules" / "glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("defined_in: play-trick-winner",
                                                                     "defined_in: no-such-clause"), encoding="utf-8")
    findings = check_rules(load_game(folder)).findings
    early = [f for f in findings if f.code == "term-before-definition"]
    assert len(early) == 1 and early[0].severity == "warning" and "(goal-summary)" in early[0].message
    assert "4.4" in early[0].message and re.search(r"rules/en\.po:\d+$", early[0].source)
    dangling = [f for f in findings if f.code == "cross-reference-dangling" and "no-such-clause" in f.message]
    assert len(dangling) == 1 and re.search(r"rules/glossary\.yaml:\d+$", dangling[0].source)
