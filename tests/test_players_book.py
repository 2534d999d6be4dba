"""A player's book (issue 36): it opens with how to win, prints each question the source leaves open
with its ruling beside its clause and again in a list at the end, and the QA reports a book without an
objective and headings that repeat. Books are read back with pdfplumber and pypdf."""
from __future__ import annotations

import io
import json
import re

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.cli import main
from generator.rulebook.content import rulebook_content
from generator.rulebook.typeset import render
from solver.game.loader import load_game


def _pages(pdf: bytes) -> list[str]:
    """Each page's text without white space (justified lines come out without their spaces)."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [re.sub(r"\s+", "", p.extract_text() or "") for p in doc.pages]


@pytest.fixture(scope="module")
def riddle_en() -> list[str]:
    pdf, _ = render(rulebook_content(load_game("riddle-of-the-ring"), ["en"], None), "a4")
    return _pages(pdf)


@pytest.fixture(scope="module")
def ring_en() -> tuple[bytes, list[str]]:
    pdf, _ = render(rulebook_content(load_game("dont-drop-the-ring"), ["en"], None), "a4")
    return pdf, _pages(pdf)


def test_the_book_opens_with_how_to_win_and_names_where_the_source_says_it(riddle_en):
    """Riddle's basic rules never say how to win: the book's first section puts together the words of
    the Ring card, optional rule 7.6 and the note to 5.4.1 and cites them as a player finds them (the
    card's name, the rules' numbers), before the components. It is this edition's section, so it prints
    unnumbered and the post's sections keep their numbers (What is in the box is 1)."""
    body = "".join(riddle_en[2:])  # after the title page and the contents
    win = body.index("Objectofthegame")
    assert not body[:win].endswith(("0", "1"))
    # then the box's contents: the book's table, and the source's own list under a heading of its own
    assert win < body.index("Components") < body.index("1Whatisinthebox")
    opening = body[win:body.index("Components")]
    assert "CrackofDoom" in opening and "Barad-dûr" in opening and "victoryhex" in opening
    # the citation ends the section (the page's running foot may follow it when the table starts overleaf)
    assert re.fullmatch(r"Source:theRingcard,7\.6,5\.4\.1(RiddleoftheRing\d+)?", opening[opening.index("Source:"):])


def test_every_clarification_prints_beside_its_clause_and_in_the_list(ring_en):
    """Don't Drop the Ring's five rulings (2.3, 4.4 twice, 4.6.3, 4.8) each print beside the clause, marked
    as a clarification, and again in the list at the end; each list entry links to the one beside its
    clause (a GoTo to a page before the list's)."""
    pdf, pages = ring_en
    text = "".join(pages)
    assert text.count("Clarification:") == 5
    # a phrase of each ruling that stays on one line in the list's narrow column too
    for ruling in ["Adieat6staysat6", "Thentheplayerwhowon", "ACoincountsastheledsuit", "passesontotheleftagain",
                   "Tomoveyourring,movethemarker"]:
        assert text.count(ruling) == 2, ruling
    listed = next(i for i, p in enumerate(pages) if "Whattheoriginalrulesleaveopen" in p)
    die_rule = next(i for i, p in enumerate(pages) if "4.6.3" in p and "Adieat6staysat6" in p)
    assert die_rule < listed
    reader = PdfReader(io.BytesIO(pdf))
    index = {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages)}
    links = [a.get_object()["/Dest"] for a in reader.pages[listed].get("/Annots", [])
             if a.get_object().get("/Subtype") == "/Link"]
    assert len(links) == 5
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for dest in links:
            page, y = index[dest[0].idnum], float(dest[3])
            assert page <= listed
            at = doc.pages[page]
            # the first line below the destination is the clarification (its mark, then its text)
            below = [w for w in at.extract_words() if w["top"] >= at.height - y - 1]
            top = min(w["top"] for w in below)
            line = sorted((w for w in below if abs(w["top"] - top) < 2), key=lambda w: w["x0"])
            assert line[0]["text"] == "◆" and line[1]["text"].startswith("Clarification:"), line[:3]


def test_check_reports_each_clarification_as_an_assumption_at_its_clause(capsys):
    assert main(["check", "dont-drop-the-ring", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    found = [f for f in report["findings"] if f["code"] == "rules-clarification"]
    assert len(found) == 5 and {f["severity"] for f in found} == {"assumption"}
    assert sorted(f["message"].split(" ")[1] for f in found) == ["2.3", "4.4", "4.4", "4.6.3", "4.8"]
    assert all(re.search(r"rules/clauses\.yaml:\d+$", f["source"]) for f in found)


def test_a_book_without_an_objective_is_reported(game_copy, capsys):
    folder = game_copy("dont-drop-the-ring")
    clauses = folder / "rules" / "clauses.yaml"
    clauses.write_text(clauses.read_text(encoding="utf-8").replace("    kind: objective\n", ""), encoding="utf-8")
    main(["rules", "check", str(folder), "--lang", "en"])
    out = capsys.readouterr().out
    assert re.search(r"^warning: objective-missing: .*\[.*rules/clauses\.yaml:\d+\]$", out, re.M), out


def test_an_objective_below_a_section_is_a_located_error(game_copy, capsys):
    folder = game_copy("dont-drop-the-ring")
    clauses = folder / "rules" / "clauses.yaml"
    text = clauses.read_text(encoding="utf-8").replace("    kind: objective\n", "")
    text = text.replace("      - id: goal-rounds\n", "      - id: goal-rounds\n        kind: objective\n")
    clauses.write_text(text, encoding="utf-8")
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    line = text.splitlines().index("        kind: objective") + 1
    assert any(e.startswith(f"{clauses}:{line}:") or f"clauses.yaml:{line}:" in e for e in err), err
    assert not any("Traceback" in e for e in err)


def test_two_clauses_with_one_heading_are_reported_in_the_source_and_the_translation(game_copy, capsys):
    folder = game_copy("dont-drop-the-ring")
    clauses = folder / "rules" / "clauses.yaml"
    clauses.write_text(clauses.read_text(encoding="utf-8").replace("title: 選択ルール", "title: ゲームの目的"),
                       encoding="utf-8")
    po = folder / "rules" / "en.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgid "選択ルール"\nmsgstr "Optional rule"',
                                                         'msgid "ゲームの目的"\nmsgstr "Object of the game"'),
                  encoding="utf-8")
    main(["rules", "check", str(folder), "--lang", "en"])
    out = capsys.readouterr().out
    dupes = [ln for ln in out.splitlines() if ln.startswith("warning: heading-duplicate: clause 5:")]
    assert len(dupes) == 2, out  # the Japanese heading and the English one
    assert any("clauses.yaml:" in d for d in dupes) and any("en.po:" in d for d in dupes)
