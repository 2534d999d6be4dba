"""`pnp export`: every target read back by an independent parser (pypdf, Pillow, json, xml.etree,
zipfile) and checked against the game's data, never against the export code's own numbers."""
from __future__ import annotations

import csv
import io
import json
import math
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdf
import pytest
from PIL import Image

from generator.cli import main
from solver.loader import load_game
from solver.model import size_mm

PT = 72 / 25.4
CARD_GAME = "dont-drop-the-ring"    # small: five poker decks, no map
MAP_GAME = "riddle-of-the-ring"     # a hex map, counters and a deck: the virtual-tabletop targets


def export(out: Path, game: str, *targets: str, extra: tuple[str, ...] = ()) -> Path:
    args = ["export", game, "--out", str(out)]
    for t in targets:
        args += ["--to", t]
    assert main(args + list(extra)) == 0
    return out / game / "export"


def copies_by_deck(game_id: str, kind: str) -> dict[str, int]:
    """Copies per component from the game data (independent of the export code)."""
    game = load_game(game_id)
    out = {}
    for c in game.components:
        if c.kind in kind.split("|"):
            out[c.id] = sum(i.count or 1 for i in c.items) if c.items else (c.count or 0)
    return out


@pytest.fixture(scope="module")
def cards_out(tmp_path_factory) -> Path:
    return export(tmp_path_factory.mktemp("cards"), CARD_GAME, "pdf-cards", "tgc")


# --------------------------------------------------------------------------- pdf-cards

def test_pdf_cards_one_card_per_page_with_trim_and_bleed_boxes(cards_out):
    folder = cards_out / "pdf-cards"
    decks = copies_by_deck(CARD_GAME, "deck")
    pdfs = sorted(folder.glob("*.pdf"))
    assert {p.name.rsplit("-", 1)[0] for p in pdfs} == set(decks)
    w, h = size_mm("poker")
    assert (w, h) == (63.5, 88.9)  # the print services' poker trim, 2.5 x 3.5 in
    for pdf in pdfs:
        reader = pypdf.PdfReader(pdf)
        copies = decks[pdf.name.rsplit("-", 1)[0]]
        assert len(reader.pages) == 2 * copies  # every front, then every back
        for page in reader.pages:
            media = [float(v) / PT for v in page.mediabox]
            trim = [float(v) / PT for v in page.trimbox]
            bleed = [float(v) / PT for v in page.bleedbox]
            assert bleed == pytest.approx(media, abs=0.01)
            assert media == pytest.approx([0, 0, w + 6, h + 6], abs=0.01)
            assert trim == pytest.approx([3, 3, 3 + w, 3 + h], abs=0.01)
    assert "TrimBox" in (folder / "README.txt").read_text()


def test_pdf_cards_interleaved_pairs_each_front_with_its_back(tmp_path):
    folder = export(tmp_path, CARD_GAME, "pdf-cards", extra=("--interleave",)) / "pdf-cards"
    reader = pypdf.PdfReader(folder / "gem-cards-ja.pdf")
    texts = [reader.pages[i].extract_text() for i in range(4)]
    # the gem fronts differ from each other; the common back repeats on every second page
    assert texts[1] == texts[3] and texts[0] != texts[1]
    default = pypdf.PdfReader(cards_pdf_default(tmp_path))
    assert len(default.pages) == len(reader.pages)


def cards_pdf_default(tmp_path: Path) -> Path:
    export(tmp_path / "plain", CARD_GAME, "pdf-cards")
    return tmp_path / "plain" / CARD_GAME / "export" / "pdf-cards" / "gem-cards-ja.pdf"


def test_export_is_deterministic_and_replaces_the_old_folder(tmp_path):
    a = export(tmp_path / "a", CARD_GAME, "pdf-cards") / "pdf-cards"
    (a / "stale.txt").write_text("from an older export")
    export(tmp_path / "a", CARD_GAME, "pdf-cards")
    b = export(tmp_path / "b", CARD_GAME, "pdf-cards") / "pdf-cards"
    assert not (a / "stale.txt").exists()
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
    for p in a.iterdir():
        assert p.read_bytes() == (b / p.name).read_bytes(), p.name
    assert not [p for p in a.parent.iterdir() if p.name.startswith(".")]  # no staging folder left


def test_export_of_an_unknown_game_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["export", "no-such-game", "--to", "tgc", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no-such-game" in err[0]


# --------------------------------------------------------------------------- tgc

def test_tgc_images_have_the_shops_pixel_sizes_and_the_csv_the_counts(cards_out):
    folder = cards_out / "tgc"
    rows = list(csv.DictReader((folder / "cards.csv").open(encoding="utf-8")))
    decks = copies_by_deck(CARD_GAME, "deck")
    assert {r["deck"] for r in rows} == set(decks)
    for deck, copies in decks.items():
        assert sum(int(r["quantity"]) for r in rows if r["deck"] == deck) == copies
    # poker: 2.5 x 3.5 in trim + 1/8 in bleed each side at 300 dpi = 825 x 1125 px (the shop's template)
    assert {r["product"] for r in rows} == {"Poker Deck"}
    files = {r["front"] for r in rows} | {r["back"] for r in rows if r["back"]}
    assert len({r["front"] for r in rows}) == len(rows)  # each front once, its copies in the quantity
    for name in files:
        with Image.open(folder / name) as im:
            assert im.size == (round((2.5 + 0.25) * 300), round((3.5 + 0.25) * 300)) == (825, 1125), name
            assert round(im.info["dpi"][0]) == 300
    on_disk = {str(p.relative_to(folder)) for p in folder.rglob("*.png")}
    assert on_disk == files


def test_tgc_leaves_out_a_deck_no_product_fits_and_says_so(tmp_path, capsys):
    # riddle-of-the-ring's play cards are 50.8 x 76.2 mm (2 x 3 in): no Game Crafter deck has that trim
    folder = export(tmp_path, MAP_GAME, "tgc") / "tgc"
    rows = list(csv.DictReader((folder / "cards.csv").open(encoding="utf-8")))
    assert not [r for r in rows if r["deck"] == "play-cards"]
    assert "play-cards" in capsys.readouterr().err or "play-cards" in (tmp_path / "build-warnings.txt").read_text()
