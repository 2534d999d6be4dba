"""The VASSAL modules play as their README says, read the way VASSAL 3.7 reads them
(tests/vassal_read.py, written from VASSAL's source): every counter has a menu command and a key
that flip it, front to back and back again; no face-down card is called by its own name; every hex
label the map PDF prints (read back with pdfplumber) is VASSAL's name of the spot it is printed on,
and every printed track cell number is where a marker lands and how VASSAL names it."""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

import vassal_read as vr
from generator.cli import main
from solver.game.loader import load_game

GAMES = ["dont-drop-the-ring", "lotr-sauron", "riddle-of-the-ring", "saboteur-the-lost-mines",
         "war-of-the-ring-campaign"]
MAP_GAMES = ["riddle-of-the-ring", "war-of-the-ring-campaign"]
PT_PER_INCH = 72


@pytest.fixture(scope="module")
def modules(tmp_path_factory) -> dict[str, zipfile.ZipFile]:
    """Every game's module in every language: 'game-lang.vmod' -> the zip."""
    out = tmp_path_factory.mktemp("vmods")
    assert main(["export", "--all", "--to", "vassal", "--out", str(out)]) == 0
    found = {p.name: zipfile.ZipFile(p) for p in sorted(out.glob("*/export/vassal/*.vmod"))}
    assert {n.rsplit("-", 1)[0] for n in found} == set(GAMES)
    return found


@pytest.fixture(scope="module")
def map_pdfs(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("maps")
    pdfs = {}
    for game in MAP_GAMES:
        assert main(["build", game, "--only", "maps", "--lang", "en", "-j", "1", "--out", str(out)]) == 0
        pdfs[game], = [p for p in (out / game).glob("map-*-en.pdf") if "tiles" not in p.name]
    return pdfs


def build_file(vmod: zipfile.ZipFile) -> ET.Element:
    return ET.fromstring(vmod.read("buildFile.xml"))


def slot_commands(root: ET.Element, tag: str) -> list[str]:
    return [s.text for s in root.iter(f"VASSAL.build.widget.{tag}")]


def setup_commands(vmod: zipfile.ZipFile) -> list[str]:
    """The AddPiece commands of every predefined setup (the obfuscated savedGame decoded)."""
    out = []
    for name in vmod.namelist():
        if name.endswith(".vsav"):
            raw = zipfile.ZipFile(io.BytesIO(vmod.read(name))).read("savedGame").decode("ascii")
            key, body = int(raw[5:7], 16), raw[7:]
            text = bytes(int(body[i:i + 2], 16) ^ key for i in range(0, len(body), 2)).decode("utf-8")
            out += [c for c in text.split("\x1b") if c.startswith("+/") and "/stack/" not in c]
    return out


def typable(key) -> bool:
    """A key stroke a keyboard types: not null, not a named command's private-use key code."""
    return not vr.key_is_null(key) and not key[2] and not 0xE000 <= key[0] <= 0xF8FF


# --------------------------------------------------------------------------- counters flip

def test_every_counter_flips_from_its_menu_and_with_a_key_front_to_back_and_back(modules):
    counters = 0
    for name, vmod in modules.items():
        images = set(vmod.namelist())
        for command in slot_commands(build_file(vmod), "PieceSlot") + setup_commands(vmod):
            traits, states = vr.piece(command)
            layers = [(t, s) for t, s in zip(traits, states) if t.startswith("emb2;")]
            if not layers:
                continue
            counters += 1
            (trait, state), = layers
            f = vr.embellishment(trait)
            assert len(f["images"]) == 2 and all(f"images/{i}" in images for i in f["images"]), (name, f["images"])
            menu = [(text, key) for text, key in vr.layer_menu(f) if text and typable(key)]
            assert menu, (name, command[:120])
            value = int(vr.Decoder(state, ";").token())
            assert value in (1, 2)             # active, front or back up
            text, key = menu[0]
            once = vr.layer_key(f, value, key)
            assert abs(once) != abs(value) and vr.layer_key(f, once, key) == value, (name, text)
    assert counters > 100


def test_the_readme_says_how_to_flip(modules, tmp_path):
    out = tmp_path / "o"
    assert main(["export", "riddle-of-the-ring", "--to", "vassal", "--lang", "en", "--out", str(out)]) == 0
    readme = (out / "riddle-of-the-ring" / "export" / "vassal" / "README.txt").read_text(encoding="utf-8")
    f = vr.embellishment(vr.piece(slot_commands(build_file(modules["riddle-of-the-ring-en.vmod"]),
                                                "PieceSlot")[0])[0][0])
    assert f["upCommand"] in readme and "Ctrl+F" in readme and f["increaseKeyStroke"][:2] == (70, 130)


# --------------------------------------------------------------------------- hidden stays hidden

def test_no_face_down_card_is_named_by_its_own_name(modules):
    cards = 0
    for name, vmod in modules.items():
        root = build_file(vmod)
        for pile in root.iter("VASSAL.build.module.map.DrawPile"):
            assert pile.get("faceDown") == "Always"
            for command in slot_commands(pile, "CardSlot"):
                traits, states = vr.piece(command)
                assert traits[0].startswith("obs;"), (name, command[:80])
                mask = vr.obscurable(traits[0])
                own = vr.basic(traits[-1])["name"]
                assert mask["maskName"] and mask["maskName"] != own, (name, own)
                assert states[0] == "null;" and vr.obscured_by(states[0]) is None  # as VASSAL writes it
                cards += 1
    assert cards > 500


def test_every_slot_has_its_own_id_below_the_next_one(modules):
    for name, vmod in modules.items():
        root = build_file(vmod)
        ids = [int(s.get("gpid")) for tag in ("PieceSlot", "CardSlot") for s in root.iter(f"VASSAL.build.widget.{tag}")]
        assert len(ids) == len(set(ids)), name
        assert max(ids) < int(root.get("nextPieceSlotId")), name


def test_piece_names_are_one_line(modules):
    game = load_game("war-of-the-ring-campaign")
    two_lines = {str(i.front.label.get("en")) for c in game.components for i in c.items
                 if i.front is not None and isinstance(i.front.label, dict) and "\n" in str(i.front.label.get("en"))}
    assert "Gandalf\nthe White" in two_lines
    names = set()
    for vmod in modules.values():
        for command in slot_commands(build_file(vmod), "PieceSlot") + slot_commands(build_file(vmod), "CardSlot") \
                + setup_commands(vmod):
            names.add(vr.basic(vr.piece(command)[0][-1])["name"])
    assert not [n for n in names if "\n" in n or "\r" in n]
    assert "Gandalf the White" in names and "白のガンダルフ" in names


# --------------------------------------------------------------------------- every hex named as printed

def printed_labels(pdf: Path, pattern: str) -> list[tuple[str, float, float]]:
    """The hex labels the map prints: (text, x pt, y pt) of each word's centre."""
    with pdfplumber.open(pdf) as doc:
        words = doc.pages[0].extract_words(extra_attrs=["size"])
    return [(w["text"], (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2) for w in words
            if re.fullmatch(pattern, w["text"]) and w["size"] < 6]


def board_of(vmod: zipfile.ZipFile) -> tuple[ET.Element, float]:
    root = build_file(vmod)
    board = next(b for b in root.iter("VASSAL.build.module.map.boardPicker.Board") if b.get("image"))
    with Image.open(io.BytesIO(vmod.read("images/" + board.get("image")))) as im:
        return board, im.info["dpi"][0]


@pytest.mark.parametrize("game", MAP_GAMES)
def test_every_printed_hex_label_is_vassals_name_for_the_hex_it_is_printed_on(game, modules, map_pdfs):
    hm = load_game(game)
    mapdata = hm.extras["map"].resolve(hm.locators.get("map.yaml")).data
    pattern = r"[A-Z]+\d+" if mapdata.labels.style == "letter-number" else r"\d{4,}"
    labels = printed_labels(map_pdfs[game], pattern)
    assert len(labels) == mapdata.grid.columns * mapdata.grid.rows
    for lang in ("en", "ja"):
        board, dpi = board_of(modules[f"{game}-{lang}.vmod"])
        grids = vr.Grids(board)
        k = dpi / PT_PER_INCH
        wrong = []
        for text, x, y in labels:
            # a piece dropped on the label snaps to its hex; VASSAL reports it by that spot's name
            sx, sy = grids.snap(round(x * k), round(y * k))
            if grids.name(sx, sy) != text:
                wrong.append((text, grids.name(sx, sy)))
        assert wrong == [], f"{game}-{lang}: {len(wrong)} of {len(labels)} hexes misnamed, e.g. {wrong[:5]}"


def test_markers_on_a_track_land_on_its_cells_and_boxes_do_not_snap_to_hexes(modules, map_pdfs):
    game = "war-of-the-ring-campaign"
    board, dpi = board_of(modules[f"{game}-en.vmod"])
    grids = vr.Grids(board)
    k = dpi / PT_PER_INCH
    hm = load_game(game).extras["map"]
    data = hm.resolve(load_game(game).locators.get("map.yaml")).data
    track = next(b for b in data.boxes if b.kind == "track")
    with pdfplumber.open(map_pdfs[game]) as doc:
        words = doc.pages[0].extract_words(extra_attrs=["size"])
    zone = next(z for z in grids.zones if z.name == track.name["en"])
    # the printed cell numbers (8 pt) inside the track's zone: each one of its cells, once
    cells = [w for w in words if w["text"].isdigit() and abs(w["size"] - 8) < 0.1
             and zone.contains((w["x0"] + w["x1"]) / 2 * k, (w["top"] + w["bottom"]) / 2 * k)]
    assert sorted(int(w["text"]) for w in cells) == list(range(track.first, track.first + track.cells))
    landed = set()
    for w in cells:
        x, y = round((w["x0"] + w["x1"]) / 2 * k), round(w["top"] * k)
        spot = grids.snap(x + 3, y - 2)        # dropped near the printed number
        landed.add(spot)
        assert grids.name(*spot) == f"{track.name['en']} {w['text']}"
        assert abs(spot[0] - x) < 20, w["text"]  # on the number's cell, not a hex centre
    assert len(landed) == track.cells
    box = next(b for b in data.boxes if b.kind == "box")
    zone = next(z for z in grids.zones if z.name == box.name["en"])
    inside = (zone.poly[0][0] + 17, zone.poly[0][1] + 23)
    assert grids.snap(*inside) == inside and grids.name(*inside) == box.name["en"]


# --------------------------------------------------------------------------- the smaller points

def test_windows_zoom_and_saved_games_as_vassal_reads_them(modules):
    for name, vmod in modules.items():
        root = build_file(vmod)
        maps = root.findall("VASSAL.build.module.Map")
        # a second window closes to its toolbar button instead of ending the game
        assert all(m.get("launch") == "true" and m.get("buttonName") for m in maps[1:]), name
        for m in maps:
            z = m.find("VASSAL.build.module.map.Zoomer")
            levels = sorted(float(v) for v in z.get("zoomLevels").split(","))
            # Zoomer.setAttribute(zoomStart): one-based, counted from the most zoomed-in level
            assert levels[max(0, min(len(levels) - 1, len(levels) - int(z.get("zoomStart"))))] == 1.0, name
        title = root.get("name")
        for entry in (n for n in vmod.namelist() if n.endswith(".vsav")):
            saved = zipfile.ZipFile(io.BytesIO(vmod.read(entry)))
            assert ET.fromstring(saved.read("moduledata")).findtext("name") == title, (name, entry)
        assert ET.fromstring(vmod.read("moduledata")).findtext("name") == title


# --------------------------------------------------------------------------- any grid, as a newcomer writes it

GRID_VARIANTS = [  # orientation, offset, label style, origin corner, first number
    ("pointy", "even", "letter-number", "bottom-right", 1),
    ("pointy", "odd", "xxyy", "top-right", 0),
    ("pointy", "even", "xxyy", "bottom-left", 1),
    ("flat", "odd", "letter-number", "bottom-left", 0),
    ("flat", "even", "xxyy", "bottom-right", 1),
    ("flat", "odd", "xxyy", "top-right", 1),
]


@pytest.mark.parametrize("orientation,offset,style,origin,first", GRID_VARIANTS)
def test_a_new_games_hexes_are_named_as_printed_whatever_the_grid(tmp_path, orientation, offset, style, origin,
                                                                   first):
    """`pnp new`'s game with its grid turned and renumbered: every printed label is VASSAL's name."""
    assert main(["new", str(tmp_path / "harbour")]) == 0
    mapfile = tmp_path / "harbour" / "map.yaml"
    text = mapfile.read_text(encoding="utf-8")
    grid = re.search(r"^grid: .*$", text, re.M).group(0)
    text = text.replace(grid, f"grid: {{orientation: {orientation}, offset: {offset}, hex_mm: 22, columns: 8, "
                              f"rows: 5}}\nlabels: {{style: {style}, origin: {origin}, first: {first}, show: all}}")
    # the template's hexes are xxyy ids from the top-left: name them in the new style
    mapfile.write_text(_relabel(text, style, origin, first), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["export", str(tmp_path / "harbour"), "--to", "vassal", "--lang", "en", "--out", str(out)]) == 0
    assert main(["build", str(tmp_path / "harbour"), "--only", "maps", "--lang", "en", "-j", "1",
                 "--out", str(out)]) == 0
    pdf, = [p for p in (out / "harbour").glob("map-*.pdf") if "tiles" not in p.name]
    labels = printed_labels(pdf, r"[A-Z]+\d+" if style == "letter-number" else r"\d{4}")
    assert len(labels) == 40
    board, dpi = board_of(zipfile.ZipFile(out / "harbour" / "export" / "vassal" / "harbour-en.vmod"))
    grids, k = vr.Grids(board), dpi / PT_PER_INCH
    named = {text: grids.name(*grids.snap(round(x * k), round(y * k))) for text, x, y in labels}
    assert {t: n for t, n in named.items() if t != n} == {}


def _relabel(text: str, style: str, origin: str, first: int) -> str:
    """The template's xxyy hex ids (top-left, from 1) in another labelling of its 8 x 5 grid."""
    def one(m: re.Match) -> str:
        col, row = int(m.group(1)) - 1, int(m.group(2)) - 1
        col = 7 - col if origin.endswith("right") else col
        row = 4 - row if origin.startswith("bottom") else row
        if style == "letter-number":
            return f'"{chr(65 + col)}{row + first}"'
        return f'"{col + first:02d}{row + first:02d}"'
    return re.sub(r'"(\d\d)(\d\d)"', one, text)
