"""`pnp export`: every target read back by an independent parser (pypdf, Pillow, json, xml.etree,
zipfile) and checked against the game's data, never against the export code's own numbers."""
from __future__ import annotations

import csv
import io
import json
import math
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdf
import pytest
from PIL import Image

from generator.cli import main
from solver.game.components import size_mm
from solver.game.loader import load_game

from vassal_read import Grids, hex_snap

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
    # every deck in each language the game is built in, the language in the name
    assert {p.name for p in pdfs} == {f"{d}-{lang}.pdf" for d in decks for lang in ("ja", "en", "fr")}
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
            # MakePlayingCards' / DriveThruCards' poker template: 2.75 x 3.75 in, 1/8 in bleed each side
            assert media == pytest.approx([0, 0, 69.85, 95.25], abs=0.01)
            assert trim == pytest.approx([3.175, 3.175, 3.175 + w, 3.175 + h], abs=0.01)
    assert "TrimBox" in (folder / "README.txt").read_text()


def test_pdf_cards_bleed_option_overrides_the_shops(tmp_path):
    folder = export(tmp_path, CARD_GAME, "pdf-cards", extra=("--bleed", "2", "--lang", "en")) / "pdf-cards"
    page = pypdf.PdfReader(next(iter(sorted(folder.glob("*.pdf"))))).pages[0]
    w, h = size_mm("poker")
    assert [float(v) / PT for v in page.mediabox] == pytest.approx([0, 0, w + 4, h + 4], abs=0.01)
    assert [float(v) / PT for v in page.trimbox] == pytest.approx([2, 2, 2 + w, 2 + h], abs=0.01)


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
    assert {r["language"] for r in rows} == {"ja", "en", "fr"}
    for deck, copies in decks.items():
        for lang in ("ja", "en"):
            mine = [r for r in rows if r["deck"] == deck and r["language"] == lang]
            assert sum(int(r["quantity"]) for r in mine) == copies
            assert all(r["front"].startswith(f"{deck}-{lang}/") for r in mine)
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
    # each row names its card as a player knows it, in the row's language, and keeps the data's id
    game = load_game(CARD_GAME)
    names = {(c.id, i.id): i.name for c in game.components for i in c.items}
    for r in rows:
        want = names[(r["deck"], r["id"])]
        assert r["name"] == (want.get(r["language"]) if isinstance(want, dict) else want), r
        assert r["name"] != r["id"]


def test_tgc_leaves_out_a_deck_no_product_fits_and_says_so(tmp_path, capsys):
    # riddle-of-the-ring's play cards are 50.8 x 76.2 mm (2 x 3 in): no Game Crafter deck has that trim
    folder = export(tmp_path, MAP_GAME, "tgc") / "tgc"
    rows = list(csv.DictReader((folder / "cards.csv").open(encoding="utf-8")))
    assert not [r for r in rows if r["deck"] == "play-cards"]
    assert "play-cards" in capsys.readouterr().err or "play-cards" in (tmp_path / "export-warnings.txt").read_text()


# --------------------------------------------------------------------------- tts

@pytest.fixture(scope="module")
def map_out(tmp_path_factory) -> Path:
    return export(tmp_path_factory.mktemp("map"), MAP_GAME, "tts")


def url_path(url: str) -> Path:
    assert url.startswith("file://"), url
    return Path(unquote(urlparse(url).path))


def test_tts_base_url_links_every_image_under_it_and_each_exists(tmp_path):
    """--base-url: every image link is that URL plus the name of a file the export wrote (what a
    user uploads there), none a file:// path of this machine; the README says how to host them."""
    base = "https://games.example.org/riddle/tts/"
    folder = export(tmp_path, MAP_GAME, "tts", extra=("--base-url", base, "--lang", "en")) / "tts"
    text = (folder / f"{MAP_GAME}-en.json").read_text(encoding="utf-8")
    assert "file://" not in text and str(tmp_path) not in text
    urls = set(re.findall(r'"(?:FaceURL|BackURL|ImageURL|ImageSecondaryURL)": "([^"]+)"', text))
    assert urls
    for url in urls:
        assert url.startswith(base), url
        assert (folder / unquote(url[len(base):])).is_file(), url
    assert base in (folder / "README.txt").read_text(encoding="utf-8")


def test_tts_decks_load_with_their_counts_from_sheets_within_the_limits(map_out):
    folder = map_out / "tts"
    save = json.loads((folder / f"{MAP_GAME}-ja.json").read_text(encoding="utf-8"))
    objects = save["ObjectStates"]
    decks = [o for o in objects if o["Name"] == "DeckCustom"]
    game = load_game(MAP_GAME)
    play = game.component("play-cards")
    assert len(decks) == 1
    deck = decks[0]
    # every copy of the complete set, as `pnp build` prints it (stated and proposed counts): the box's 80
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == play.stated_total.value == 80
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
    objects = json.loads((folder / f"{MAP_GAME}-ja.json").read_text(encoding="utf-8"))["ObjectStates"]
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


def test_tts_writes_a_saved_object_per_language_its_images_named_by_language(map_out):
    folder = map_out / "tts"
    game = load_game(MAP_GAME)
    en = json.loads((folder / f"{MAP_GAME}-en.json").read_text(encoding="utf-8"))
    assert en["SaveName"] == game.meta.title["en"]
    deck, = [o for o in en["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert deck["Nickname"] == game.component("play-cards").name["en"]
    urls = [e["FaceURL"] for e in deck["CustomDeck"].values()]
    urls += [o["CustomImage"]["ImageURL"] for o in en["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert urls and all("-en" in url_path(u).name and url_path(u).exists() for u in urls)


def test_export_lang_narrows_the_languages(tmp_path):
    folder = export(tmp_path, CARD_GAME, "pdf-cards", extra=("--lang", "en")) / "pdf-cards"
    names = [p.name for p in folder.glob("*.pdf")]
    assert names and all(n.endswith("-en.pdf") for n in names)


# --------------------------------------------------------------------------- vassal

@pytest.fixture(scope="module")
def vmod(tmp_path_factory) -> zipfile.ZipFile:
    out = export(tmp_path_factory.mktemp("vassal"), MAP_GAME, "vassal")
    assert (out / "vassal" / f"{MAP_GAME}-en.vmod").is_file()
    return zipfile.ZipFile(out / "vassal" / f"{MAP_GAME}-ja.vmod")


def saved_commands(data: bytes) -> list[str]:
    raw = zipfile.ZipFile(io.BytesIO(data)).read("savedGame").decode("ascii")
    assert raw.startswith("!VCSK")
    key, body = int(raw[5:7], 16), raw[7:]
    return bytes(int(body[i:i + 2], 16) ^ key for i in range(0, len(body), 2)).decode("utf-8").split("\x1b")


def test_vassal_module_images_all_exist_and_decks_hold_every_copy(vmod):
    names = set(vmod.namelist())
    assert {"buildFile.xml", "moduledata"} <= names
    root = ET.fromstring(vmod.read("buildFile.xml"))
    assert root.tag == "VASSAL.build.GameModule"
    board = root.find(".//VASSAL.build.module.map.boardPicker.Board")
    assert "images/" + board.get("image") in names
    slots = root.findall(".//VASSAL.build.widget.PieceSlot") + root.findall(".//VASSAL.build.widget.CardSlot")
    assert slots
    for slot in slots:
        images = re.findall(r"[\w.-]+\.png", slot.text)
        # a Mask names its image after a style letter: "G<image>" (as real modules write it)
        assert images and all("images/" + i in names or "images/" + i[1:] in names for i in images), slot.text
    counters = root.findall(".//VASSAL.build.widget.PieceSlot")
    game = load_game(MAP_GAME)
    assert len(counters) == len(game.component("character-markers").items)
    assert all("emb2;" in s.text and s.text.count(".png") >= 3 for s in counters)  # two layers: front, back
    pile, = root.findall(".//VASSAL.build.module.map.DrawPile")
    cards = pile.findall("VASSAL.build.widget.CardSlot")
    assert len(cards) == game.component("play-cards").stated_total.value  # the complete set, proposed counts included


def test_vassal_hex_grid_matches_our_geometry(vmod):
    from generator.hexmap.layout import map_page

    root = ET.fromstring(vmod.read("buildFile.xml"))
    board = root.find(".//VASSAL.build.module.map.boardPicker.Board")
    g = board.find(".//VASSAL.build.module.map.boardPicker.board.HexGrid").attrib
    with Image.open(io.BytesIO(vmod.read("images/" + board.get("image")))) as im:
        dpi = im.info["dpi"][0]
        assert (int(board.get("width")), int(board.get("height"))) == im.size
    game = load_game(MAP_GAME)
    hm = game.extras["map"].resolve(game.locators.get("map.yaml"))
    k = dpi / 25.4
    assert float(g["dy"]) == pytest.approx(hm.data.grid.hex_mm * k, abs=0.01)      # across the flats
    assert float(g["dx"]) == pytest.approx(float(g["dy"]) * math.sqrt(3) / 2, abs=0.01)
    assert g["sideways"] == ("true" if hm.data.grid.orientation == "pointy" else "false")
    # every hex centre of the printed map (the map stage's layout) is a hex centre for VASSAL
    page = map_page(hm)
    snapped = set()
    for h in hm.grid.hexes():
        x, y = page.hex_centre(hm, h)
        px, py = x * k, y * k
        sx, sy = hex_snap(px, py, g)
        assert abs(sx - px) <= 1.5 and abs(sy - py) <= 1.5, hm.label(h)
        snapped.add((sx, sy))
    assert len(snapped) == hm.grid.columns * hm.grid.rows


def test_vassal_setups_place_the_engines_pieces_on_the_named_hexes(vmod):
    from solver.engine.run import setup_table

    root = ET.fromstring(vmod.read("buildFile.xml"))
    setups = root.findall(".//VASSAL.build.module.PredefinedSetup[@isMenu='false']")
    game = load_game(MAP_GAME)
    hm = game.extras["map"].resolve(game.locators.get("map.yaml"))
    places = {p.id: p.hex for p in hm.data.places}
    table = setup_table(game)
    assert sorted(s.get("name") for s in setups) == sorted(f"{n} players" for n in table)
    # where a stack stands is read as VASSAL reads it (tests/vassal_read.py: HexGrid snapping and
    # HexGridNumbering), not from the map layout the exporter itself placed the stacks with
    grids = Grids(root.find(".//VASSAL.build.module.map.boardPicker.Board"))
    for s in setups:
        players = int(s.get("name").split()[0])
        commands = saved_commands(vmod.read(s.get("file")))
        assert commands[0] == "begin_save" and commands[-1] == "end_save"
        pieces = [c for c in commands if c.startswith("+/") and "/stack/" not in c]
        stacks = [c.split("/stack/")[1].split(";") for c in commands if "/stack/" in c]
        want = [(places[p.on], p.count) for p in table[players].placements if p.on in places]
        assert len(pieces) == sum(n for _, n in want) == sum(len(st) - 3 for st in stacks)
        placed = sorted((grids.name(int(st[1]), int(st[2])), len(st) - 3) for st in stacks)
        assert placed == sorted(want)                       # each stack on its named hex, with its count
        for st in stacks:
            assert st[0] == "Main Map"
            x, y = int(st[1]), int(st[2])
            sx, sy = grids.snap(x, y)                       # on the hex's centre, to VASSAL's rounding
            assert abs(sx - x) <= 1.5 and abs(sy - y) <= 1.5, (st[1:3], (sx, sy))


def test_vmod_bytes_do_not_depend_on_where_it_is_written(vmod, tmp_path):
    again = export(tmp_path, MAP_GAME, "vassal") / "vassal" / f"{MAP_GAME}-ja.vmod"
    assert Path(vmod.filename).read_bytes() == again.read_bytes()
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in vmod.infolist())
    assert vmod.namelist() == sorted(vmod.namelist())


def test_a_failing_export_leaves_the_previous_one_in_place(tmp_path, monkeypatch):
    from generator.export import common

    good = export(tmp_path, CARD_GAME, "pdf-cards") / "pdf-cards"
    before = {p.name: p.read_bytes() for p in good.iterdir()}
    calls = {"n": 0}
    real = common.FaceDrawer.draw

    def draw_then_fail(self, *a, **k):
        calls["n"] += 1
        if calls["n"] > 5:
            raise RuntimeError("disk full halfway")
        return real(self, *a, **k)

    monkeypatch.setattr(common.FaceDrawer, "draw", draw_then_fail)
    with pytest.raises(RuntimeError):
        main(["export", CARD_GAME, "--to", "pdf-cards", "--out", str(tmp_path)])
    assert {p.name: p.read_bytes() for p in good.iterdir()} == before
    assert not [p for p in good.parent.iterdir() if p.name.startswith(".")]


def test_pdf_cards_embed_every_font_they_use(cards_out):
    for pdf in (cards_out / "pdf-cards").glob("*.pdf"):
        page = pypdf.PdfReader(pdf).pages[0]
        fonts = page["/Resources"]["/Font"]
        assert fonts
        for ref in fonts.values():
            font = ref.get_object()
            desc = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = desc["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), (pdf.name, font["/BaseFont"])


def test_tts_counters_are_nicknamed_by_their_item_names_not_their_face_labels(tmp_path):
    """A newcomer's counters whose faces print a short label ("Keeper") are named in Tabletop
    Simulator by what the item is called ("Harbour keeper"), as cards are."""
    folder = tmp_path / "harbour-game"
    assert main(["new", str(folder)]) == 0
    comps = folder / "components.yaml"
    comps.write_text(comps.read_text(encoding="utf-8") + """\
  - id: crew
    kind: counters
    name: {en: Crew, ja: 乗組員}
    size: {width_mm: 16, height_mm: 16}
    items:
      - {id: keeper, name: {en: Harbour keeper, ja: 港の番人}, count: 2,
         front: {label: {en: Keeper, ja: 番人}}, back: {label: {en: Keeper, ja: 番人}}}
      - {id: pilot, name: {en: Sea pilot, ja: 水先案内人}, count: 1,
         front: {label: {en: Pilot, ja: 案内}}, back: {label: {en: Pilot, ja: 案内}}}
""", encoding="utf-8")
    export(tmp_path / "out", str(folder), "tts")
    saved = json.loads((tmp_path / "out" / "harbour-game" / "export" / "tts" / "harbour-game-en.json").read_text(encoding="utf-8"))
    bag, = [o for o in saved["ObjectStates"] if o["Name"] == "Bag"]
    assert sorted(t["Nickname"] for t in bag["ContainedObjects"]) == ["Harbour keeper", "Harbour keeper", "Sea pilot"]
