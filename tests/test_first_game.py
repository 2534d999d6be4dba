"""A designer's first game (issue 18): a card list with the columns a person writes, no layout and
no source texts loads, checks clean and prints cards that show each card's name, value and text.

The game is written here file by file, as a designer would; outputs are read back with pdfplumber.
"""
from __future__ import annotations

import json
from pathlib import Path

from pypdf import PdfReader
import pytest

from generator.cli import main
from pdf_units import MM_PER_PT
from solver.errors import DataError
from solver.game.loader import load_game

GAME_YAML = """\
id: first-game
title: First Game
players: {min: 2, max: 4}
source_language: en
languages: [en]
"""
CARDS_CSV = """\
id,name,value,suit,count,text
fox,Fox,3,red,2,Steal a card from a neighbour.
owl,Owl,5,blue,2,Look at the top card of the deck.
bear,Bear,7.5,green,1,"Discard your hand, then draw three cards."
"""
COMPONENTS_YAML = """\
components:
  - id: animal-cards
    kind: deck
    name: Animal cards
    size: poker
    items_file: cards.csv
"""
SETUP_YAML = """\
steps:
  - use: animal-cards
  - remove: {component: animal-cards, where: {value: 7.5}}
    when: players == 2
  - shuffle: animal-cards
  - deal: animal-cards
    each: 1
constraints:
  - id: enough-cards
    require: count(animal-cards) >= players
  - id: one-per-player
    kind: exactly
    of: {component: animal-cards, zone: dealt}
    value: players
"""


def write_game(folder: Path, **files: str) -> Path:
    """The first game, with any file replaced (`cards_csv="..."`) or left out (`setup_yaml=None`)."""
    contents = {"game.yaml": GAME_YAML, "cards.csv": CARDS_CSV, "components.yaml": COMPONENTS_YAML,
                "setup.yaml": SETUP_YAML}
    for key, text in files.items():
        contents[key.replace("_", ".", 1)] = text
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in contents.items():
        if text is not None:
            (folder / name).write_text(text, encoding="utf-8")
    return folder


def problems_of(folder: Path) -> list[str]:
    with pytest.raises(DataError) as e:
        load_game(folder)
    return [str(p) for p in e.value.problems]


# ----------------------------------------------------------------- columns

def test_plain_name_text_and_value_columns_load(tmp_path):
    game = load_game(write_game(tmp_path / "first-game"))
    cards = {i.id: i for i in game.component("animal-cards").items}
    assert cards["fox"].name == {"en": "Fox"}
    assert cards["fox"].text == {"en": "Steal a card from a neighbour."}
    assert cards["fox"].count == 2
    assert cards["fox"].attrs == {"value": 3, "suit": "red"}
    assert cards["bear"].attrs["value"] == 7.5
    assert list(cards["owl"].attrs) == ["value", "suit"]  # the order written, for `{attrs.1}`


def test_suffixed_columns_give_other_languages(tmp_path):
    csv = "id,name,name_fr,text,text_fr,value\nfox,Fox,Renard,Steal.,Volez.,3\n"
    game = load_game(write_game(tmp_path / "g", cards_csv=csv))
    fox = game.component("animal-cards").items[0]
    assert fox.name == {"en": "Fox", "fr": "Renard"}
    assert fox.text == {"en": "Steal.", "fr": "Volez."}
    assert fox.attrs == {"value": 3}


def test_a_suffix_that_is_no_language_code_makes_an_attribute(tmp_path):
    csv = "id,name,text_colour,name_ja\nfox,Fox,white,キツネ\n"
    fox = load_game(write_game(tmp_path / "g", cards_csv=csv)).component("animal-cards").items[0]
    assert fox.name == {"en": "Fox", "ja": "キツネ"} and fox.text is None
    assert fox.attrs == {"text_colour": "white"}


def test_codes_with_leading_zeros_stay_text(tmp_path):
    csv = "id,name,code,value\nfox,Fox,007,-2\n"
    fox = load_game(write_game(tmp_path / "g", cards_csv=csv)).component("animal-cards").items[0]
    assert fox.attrs == {"code": "007", "value": -2}


@pytest.mark.parametrize("header,col,says", [
    ("id,name,Card Value,text", 3, "column 'Card Value' is neither an item field nor a usable attribute name"),
    ("id,name,name (fr),text", 3, "column 'name (fr)' is neither an item field nor a usable attribute name"),
    ("id,name,front,text", 3, "column 'front' cannot be given in a card list"),
    ("id,name,value,value", 4, "duplicate column 'value' (also column 3)"),
    ("id,name,name_en,text", 3, "columns 'name' and 'name_en' both give the en name"),
])
def test_an_unusable_column_is_a_located_error(tmp_path, header, col, says):
    csv = header + "\nfox,Fox,3,Steal.\n"
    problems = problems_of(write_game(tmp_path / "g", cards_csv=csv))
    assert len(problems) == 1
    assert problems[0].startswith(f"{tmp_path / 'g' / 'cards.csv'}:1:{col}: {says}")


def test_values_under_no_header_are_a_located_error(tmp_path):
    csv = "id,name,,text\nfox,Fox,3,Steal.\n"
    problems = problems_of(write_game(tmp_path / "g", cards_csv=csv))
    assert problems == [f"{tmp_path / 'g' / 'cards.csv'}:1:3: column 3 has values but no header; "
                        "name the column (e.g. value, suit) or empty it"]


def test_an_unusable_column_exits_2_with_one_line(tmp_path, capsys):
    folder = write_game(tmp_path / "g", cards_csv="id,name,Card Value\nfox,Fox,3\n")
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ":1:3: column 'Card Value'" in err[0] and "Traceback" not in err[0]


def test_xlsx_sheet_reads_like_the_csv(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    folder = write_game(tmp_path / "g", cards_csv=None,
                        components_yaml=COMPONENTS_YAML.replace("cards.csv", "cards.xlsx"))
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "animal-cards"
    ws.append(["id", "name", "value", "suit", "text"])
    ws.append(["fox", "Fox", 3.0, "red", "Steal a card."])  # a spreadsheet keeps 3 as 3.0
    wb.save(folder / "cards.xlsx")
    fox = load_game(folder).component("animal-cards").items[0]
    assert (fox.name, fox.text, fox.attrs) == ({"en": "Fox"}, {"en": "Steal a card."}, {"value": 3, "suit": "red"})


def test_show_lists_the_attributes_read(tmp_path, capsys):
    folder = write_game(tmp_path / "g")
    assert main(["show", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    deck = next(c for c in data["components"] if c["id"] == "animal-cards")
    assert deck["attributes"] == ["value", "suit"]
    assert main(["show", str(folder)]) == 0
    assert "attributes: value, suit" in capsys.readouterr().out


# ----------------------------------------------------------------- sources

def check_json(folder: Path, capsys) -> tuple[int, dict]:
    code = main(["check", str(folder), "--json"])
    return code, json.loads(capsys.readouterr().out)


def findings(report: dict) -> list[dict]:
    games = report["games"] if "games" in report else [report]
    return [f for g in games for f in g["findings"]]


def test_an_original_game_with_constraints_and_no_sources_checks_clean(tmp_path, capsys):
    code, report = check_json(write_game(tmp_path / "first-game"), capsys)
    assert code == 0
    severities = {f["severity"] for f in findings(report)}
    assert severities <= {"info"}, findings(report)
    assert any(f["code"] == "setup-proven" for f in findings(report))


def test_a_broken_rule_of_an_original_game_points_at_its_line(tmp_path, capsys):
    setup = SETUP_YAML.replace("count(animal-cards) >= players", "count(animal-cards) >= players + 3")
    code, report = check_json(write_game(tmp_path / "g", setup_yaml=setup), capsys)
    assert code == 1
    errors = [f for f in findings(report) if f["severity"] == "error"]
    assert errors and all(f["source"].endswith("setup.yaml:9") for f in errors), errors


def test_a_game_with_sources_must_cite_them(tmp_path):
    game_yaml = GAME_YAML + "sources:\n  - {id: rulebook, title: The printed rulebook}\n"
    setup = SETUP_YAML + "variants:\n  - {id: short-game, name: Short game}\n"
    variant_line = len(SETUP_YAML.splitlines()) + 2
    problems = problems_of(write_game(tmp_path / "g", game_yaml=game_yaml, setup_yaml=setup))
    assert problems == [
        f"{tmp_path / 'g' / 'setup.yaml'}:{line}:5: {what} has no `source:`; name the clause it "
        "follows (game.yaml declares sources), e.g. source: 'seed 002, setup 5'"
        for line, what in ((9, "constraint 'enough-cards'"), (11, "constraint 'one-per-player'"),
                           (variant_line, "variant 'short-game'"))]
    # the same rules in an original game (no sources) load
    assert load_game(write_game(tmp_path / "h", setup_yaml=setup)).setup.variants[0].source is None


# ----------------------------------------------------------------- the default face

def runs(pdf_path: Path, page: int = 0) -> list[tuple[str, float, float]]:
    """The text runs of a page as (text, x mm, baseline y mm from the top), read with pypdf."""
    reader_page = PdfReader(pdf_path).pages[page]
    height_pt = float(reader_page.mediabox.height)
    out: list[tuple[str, float, float]] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x_pt = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
            y_pt = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            out.append((text.strip(), x_pt * MM_PER_PT, (height_pt - y_pt) * MM_PER_PT))

    reader_page.extract_text(visitor_text=visit)
    return out


def build_cards_of(folder: Path, out: Path) -> Path:
    assert main(["build", str(folder), "--out", str(out), "--only", "cards"]) == 0
    return out / "first-game" / "cards-animal-cards-en.pdf"


def test_the_default_face_shows_name_value_and_text(tmp_path):
    pdf_path = build_cards_of(write_game(tmp_path / "first-game"), tmp_path / "out")
    fronts = runs(pdf_path)
    texts = [t for t, _, _ in fronts]
    assert texts.count("Fox") == 2 and texts.count("Owl") == 2 and texts.count("Bear") == 1
    assert texts.count("Steal a card from a neighbour.") == 2
    assert "Discard your hand, then draw" in texts and "three cards." in texts
    assert texts.count("value 3 · suit red") == 2  # every attribute, named
    assert [t for t, _, _ in runs(pdf_path, 1)].count("Animal cards") == 5  # the deck's back
    # the value sits in the top-left corner, level with the name and left of it; the text below
    for name, value, first_line in (("Fox", "3", "Steal a card from a neighbour."),
                                    ("Owl", "5", "Look at the top card of the deck."),
                                    ("Bear", "7.5", "Discard your hand, then draw")):
        for _, tx, ty in [r for r in fronts if r[0] == name]:
            corner = [(x, y) for t, x, y in fronts if t == value and 10 < tx - x < 35 and abs(ty - y) < 3]
            assert len(corner) == 1, (name, value, fronts)
            cx, cy = corner[0]
            below = [(x, y) for t, x, y in fronts if t == first_line and 10 < y - cy < 25 and abs(x - cx) < 5]
            assert len(below) == 1, (name, first_line)


def test_a_card_with_no_attributes_keeps_a_full_width_title(tmp_path):
    csv = "id,name,text\nlong,A rather long card name that fills the line,Do a thing.\n"
    fronts = runs(build_cards_of(write_game(tmp_path / "g", cards_csv=csv, setup_yaml=None), tmp_path / "out"))
    title = next((x for t, x, _ in fronts if t.startswith("A rather")), None)
    body = next(x for t, x, _ in fronts if t == "Do a thing.")
    assert title is not None, fronts
    assert not any("·" in t for t, _, _ in fronts)  # no attribute line
    # the title starts near the left frame, as the body does (beside a corner it starts 12 mm further in)
    assert abs(title - body) < 6


def test_the_default_counter_shows_its_name_and_factors(tmp_path):
    components = COMPONENTS_YAML + """\
  - id: units
    kind: counters
    name: Units
    size: half-inch
    items:
      - {id: knight, name: Knight, count: 2, attrs: {strength: 4, move: 3}}
      - {id: archer, name: Archer, count: 1, attrs: {strength: 2, move: 4}}
"""
    folder = write_game(tmp_path / "first-game", components_yaml=components, setup_yaml=None)
    assert main(["build", str(folder), "--out", str(tmp_path / "out"), "--only", "counters"]) == 0
    fronts = runs(tmp_path / "out" / "first-game" / "counters-units-en.pdf")
    texts = [t for t, _, _ in fronts]
    assert texts.count("Knight") == 2 and texts.count("4-3") == 2 and texts.count("2-4") == 1
    for _, nx, ny in [r for r in fronts if r[0] == "Archer"]:  # the factors below the name, on the 12.7 mm counter
        assert [t for t, x, y in fronts if t == "2-4" and 3 < y - ny < 10 and abs(x - nx) < 8]
