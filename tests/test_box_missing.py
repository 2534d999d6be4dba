"""No blank fillers, and what the sources lack named on paper (issue 24, items 3, 4 and 6), read
back from what a build writes: pdfplumber for the sheets, the lists and the rulebook's component
table, json for the manifest, an HTML parser for the page `pnp serve` shows.

War of the Ring states 392 counters, 62 action and 11 event cards; its rules describe 182, 18 and
1 of them (the rest are `rest: true` in components.yaml): the rest print only as chosen spares."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pdfplumber
import pytest

from generator.cli import main
from generator.gallery import index_html
from solver.game.folders import game_ids
from solver.game.loader import load_game

WOTR = "war-of-the-ring-campaign"
RIM_MM = 11.5  # a War of the Ring counter's rim (layouts.yaml wotr-counter, wotr-counter-blank)
PT = 72 / 25.4


def build(out: Path, game: str, *stages: str, extra: tuple[str, ...] = ()) -> Path:
    args = ["build", game, "--out", str(out), "--no-preflight"]
    for s in stages:
        args += ["--only", s]
    assert main(args + list(extra)) == 0
    return out / game


def counters_on_fronts(pdf: Path) -> tuple[int, int]:
    """(counters, counters with no text on them) of a duplex sheet's front pages: each counter is
    found by its rim, a square of RIM_MM with rounded corners."""
    total = blank = 0
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[::2]:  # fronts, then backs
            rims = [r for r in page.rects + page.curves if abs(r["width"] - RIM_MM * PT) < 0.5 and abs(r["height"] - RIM_MM * PT) < 0.5]
            for r in rims:
                inside = [c for c in page.chars if r["x0"] <= c["x0"] <= r["x1"] and r["top"] <= c["top"] <= r["bottom"]]
                total += 1
                blank += not inside
    return total, blank


@pytest.fixture(scope="module")
def wotr(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wotr")
    build(out, WOTR, "counters", extra=("--lang", "en"))
    return build(out, WOTR, "manifest", "missing")  # manifest.json is written with the source language


def test_no_blank_filler_is_printed(wotr):
    total, blank = counters_on_fronts(wotr / "counters-counters-en.pdf")
    assert (total, blank) == (182, 0)  # the 182 the rules describe; not the 210 they do not


def test_spares_print_a_chosen_number_of_blanks(tmp_path):
    folder = build(tmp_path, WOTR, "counters", extra=("--lang", "en", "--spares", "6"))
    assert counters_on_fronts(folder / "counters-counters-en.pdf") == (188, 6)


def test_manifest_says_how_many_of_a_stated_total_are_described_and_printed(wotr):
    data = json.loads((wotr / "manifest.json").read_text(encoding="utf-8"))
    comps = {c["id"]: c for c in data["components"]}
    assert {k: comps["counters"][k] for k in ("stated_total", "total", "described", "printed")} == \
        {"stated_total": 392, "total": 392, "described": 182, "printed": 182}
    assert (comps["action-cards"]["described"], comps["event-cards"]["described"]) == (18, 1)
    rest = [i for c in comps.values() for i in c["items"] if i.get("rest")]
    assert rest and all(i["printed"] == 0 for i in rest)
    assert "proposed" not in comps["counters"]  # 392 is stated: no mark on it
    text = (wotr / "manifest-en.txt").read_text(encoding="utf-8")
    assert "(182 described by the sources, 182 printed)" in text and "  392  Counters" in text


def _text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_missing_list_names_placeholders_left_out_pieces_and_proposals(wotr):
    text = _flat(_text(wotr / "missing-en.pdf"))
    game = load_game(WOTR)
    cards = game.component("action-cards")
    placeholders = [i for i in cards.items if i.text is None and not i.rest]
    assert placeholders
    for item in placeholders:  # every card printed with "text not given", by name
        assert _flat(f"{item.name['en']}: the rules do not give its text") in text, item.id
    assert _flat("Counters: the rules describe 182 of the 392; the other 210 are unknown and are not printed") in text
    assert _flat("Action cards: the rules describe 18 of the 62") in text
    assert _flat("Gondor troops 14") in text  # a proposed count, with the rules that bound it
    assert _flat("rules 18.5") in text  # the clause by its number; its Japanese name is not set in the Latin face
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_writes_its_list_naming_sources_as_a_player_does(tmp_path, game_id):
    folder = build(tmp_path, game_id, "missing")
    game = load_game(game_id)
    for lang in [game.meta.source_language] + [lg for lg in game.meta.languages if lg != game.meta.source_language]:
        pdf = folder / f"missing-{lang}.pdf"
        text = _text(pdf)
        assert text.strip(), pdf.name
        # a source as a player knows it: never a seed file, a gap id or a data file
        assert not re.search(r"seed \d|\bgap\b|\.ya?ml|\.csv|proposed\.yaml", text), (pdf.name, text[:400])
        lines = (folder / f"missing-{lang}.txt").read_text(encoding="utf-8").splitlines()
        assert lines


def test_a_short_list_is_a_one_page_leaflet_and_nothing_missing_says_only_that(tmp_path):
    """A list of a few lines is printed on one sheet: no cover, no contents page (it took three
    pages to say that nothing was missing); its heading names the game and what the list is."""
    folder = build(tmp_path, "dont-drop-the-ring", "missing", extra=("--lang", "en"))
    assert (folder / "missing-en.txt").read_text(encoding="utf-8").strip() == "Nothing: the sources give every piece, count and text."
    with pdfplumber.open(folder / "missing-en.pdf") as doc:
        assert len(doc.pages) == 1
        text = doc.pages[0].extract_text() or ""
    assert _flat("Don't Drop the Ring: what the sources do not give") in _flat(text)
    assert _flat("Nothing: the sources give every piece, count and text.") in _flat(text)
    assert "Contents" not in text and "follows" not in text  # no table of contents; no "what follows" over nothing


def test_saboteur_lists_the_chips_no_rule_bounds(tmp_path):
    folder = build(tmp_path, "saboteur-the-lost-mines", "missing", extra=("--lang", "en"))
    text = _flat(_text(folder / "missing-en.pdf"))
    assert _flat("Point chips: the rules give no count and none bounds it: make as many as play needs") in text


class _Items(HTMLParser):
    """The list items under each h3 of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, list[str]] = {}
        self._where: list[str] = []
        self._head: str | None = None
        self._item: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "h3":
            self._head = ""
        elif tag == "li" and self._head is None and self._where:
            self._item = []

    def handle_endtag(self, tag):
        if tag == "h3" and self._head is not None:
            self._where = [self._head.strip()]
            self.sections.setdefault(self._head.strip(), [])
            self._head = None
        elif tag == "li" and self._item is not None:
            self.sections[self._where[0]].append("".join(self._item))
            self._item = None

    def handle_data(self, data):
        if self._head is not None:
            self._head += data
        elif self._item is not None:
            self._item.append(data)


def test_serve_page_shows_the_list(wotr):
    page = _Items()
    page.feed(index_html(wotr.parent))
    (head,) = [h for h in page.sections if h.startswith("What the sources do not give (en)")]
    assert "missing-en.pdf" in head
    items = page.sections[head]
    listed = (wotr / "missing-en.txt").read_text(encoding="utf-8").splitlines()
    assert items == listed and any("the rules describe 182 of the 392" in i for i in items)


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("books")
    for game in (WOTR, "saboteur-the-lost-mines", "riddle-of-the-ring"):
        build(out, game, "rulebooks", extra=("--lang", "en"))
    return out


def _components_section(book: Path) -> str:
    """The rulebook's text from its Components heading to the next chapter (Setup by player count)."""
    text = _text(book)
    start = text.index("\nComponents\n")
    end = text.index("Setup by player count", start)
    return text[start:end]


def test_table_stars_no_stated_total_and_lists_every_kind(books):
    wotr = _components_section(books / WOTR / "rulebook-en.pdf")
    assert re.search(r"^Counters 392$", wotr, re.M) and re.search(r"^Action cards 62$", wotr, re.M)
    assert re.search(r"^Gondor troops 14\*$", wotr, re.M) and re.search(r"^Elrond 1$", wotr, re.M)
    assert re.search(r"^of which the rules describe \(printed: 182\) 182$", wotr, re.M)
    assert "What the sources do not give" in wotr  # the list closes the section
    riddle = _components_section(books / "riddle-of-the-ring" / "rulebook-en.pdf")
    game = load_game("riddle-of-the-ring")
    for item in game.component("play-cards").items:  # every kind of the 80-card deck with its count
        assert re.search(rf"^{re.escape(item.name['en'])} \d+\*?$", riddle, re.M), item.id
    sab = _components_section(books / "saboteur-the-lost-mines" / "rulebook-en.pdf")
    assert re.search(r"^Point chips \?$", sab, re.M) and not re.search(r"^Point chips 1\*?$", sab, re.M)
