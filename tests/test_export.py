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


# --------------------------------------------------------------------------- tts

@pytest.fixture(scope="module")
def map_out(tmp_path_factory) -> Path:
    return export(tmp_path_factory.mktemp("map"), MAP_GAME, "tts")


def url_path(url: str) -> Path:
    assert url.startswith("file://"), url
    return Path(unquote(urlparse(url).path))


def test_tts_decks_load_with_their_counts_from_sheets_within_the_limits(map_out):
    folder = map_out / "tts"
    save = json.loads((folder / f"{MAP_GAME}.json").read_text(encoding="utf-8"))
    objects = save["ObjectStates"]
    decks = [o for o in objects if o["Name"] == "DeckCustom"]
    game = load_game(MAP_GAME)
    play = game.component("play-cards")
    assert len(decks) == 1
    deck = decks[0]
    # every copy the data states (an item of unknown count prints once, as `pnp build` does)
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == sum(i.count or 1 for i in play.items)
    assert len(set(deck["DeckIDs"])) == len(play.items)
    for key, entry in deck["CustomDeck"].items():
        sheet = url_path(entry["FaceURL"])
        assert sheet.parent == folder.resolve() and sheet.exists()
        assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7
        with Image.open(sheet) as im:
            w, h = im.size
            assert w <= 4096 and h <= 4096
            assert w % entry["NumWidth"] == 0 and h % entry["NumHeight"] == 0
            cw, ch = w // entry["NumWidth"], h // entry["NumHeight"]
            assert ch / cw == pytest.approx(76.2 / 50.8, abs=0.01)  # the cards' own shape
            # the last slot is the hidden-card face: the same picture as the common back
            hidden = im.crop((w - cw, h - ch, w, h)).convert("RGB")
        with Image.open(url_path(entry["BackURL"])) as back:
            assert back.size == (cw, ch)
            assert back.convert("RGB").tobytes() == hidden.tobytes()
        ids = [i for i in deck["DeckIDs"] if i // 100 == int(key)]
        assert all(i % 100 < entry["NumWidth"] * entry["NumHeight"] - 1 for i in ids)
    for card in deck["ContainedObjects"]:
        assert card["CardID"] in deck["DeckIDs"]
        assert str(card["CardID"] // 100) in card["CustomDeck"]


def test_tts_counters_are_double_sided_tiles_and_the_map_records_its_grid(map_out):
    folder = map_out / "tts"
    objects = json.loads((folder / f"{MAP_GAME}.json").read_text(encoding="utf-8"))["ObjectStates"]
    bags = [o for o in objects if o["Name"] == "Bag"]
    counters = copies_by_deck(MAP_GAME, "counters")
    assert sum(len(b["ContainedObjects"]) for b in bags) == sum(counters.values())
    for tile in (t for b in bags for t in b["ContainedObjects"]):
        assert tile["Name"] == "Custom_Tile"
        front, back = (url_path(tile["CustomImage"][k]) for k in ("ImageURL", "ImageSecondaryURL"))
        assert front.exists() and back.exists() and front != back
    board, = [o for o in objects if o["Name"] == "Custom_Board"]
    grid = json.loads(board["GMNotes"])["hex_grid"]
    hm = load_game(MAP_GAME).extras["map"]
    with Image.open(url_path(board["CustomImage"]["ImageURL"])) as im:
        assert list(im.size) == grid["image_px"] and max(im.size) <= 4096
        dpi = im.info["dpi"][0]
    assert grid["hex_px"] == pytest.approx(hm.grid.hex_mm * dpi / 25.4, abs=0.01)
    assert (grid["orientation"], grid["columns"], grid["rows"]) == (hm.grid.orientation, hm.grid.columns, hm.grid.rows)
