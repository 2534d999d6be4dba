"""`pnp export GAME --to tts`: a Tabletop Simulator saved object with the game's decks, counters
and map.

- Card decks become deck sheets: at most 10 x 7 cards and 4096 px a side per sheet (TTS's
  limits), the last slot holding the hidden-card face (what other players see of a card in a
  hand), and a back image (or a back sheet when cards have backs of their own). The saved object
  (`<game>.json`) has one DeckCustom per deck whose CustomDeck entries point at the sheets by
  file:// URL, with every copy in DeckIDs (CardID = deck key * 100 + slot), so the deck loads
  with its counts.
- Counters become double-sided tiles (Custom_Tile: front image, back image), one object per copy,
  gathered in a bag per counter sheet.
- The map becomes a Custom_Board with its image; the hex grid's size in pixels, orientation and
  first hex centre are recorded in the board's GMNotes (JSON) and description.
- One saved object per language the game is built in, `<game>-<lang>.json`, its images named
  with the language too (`<deck>-<lang>-sheet1.png`, `map-<id>-<lang>.png`).

The save format follows real Tabletop Simulator saves (ObjectStates, DeckCustom with DeckIDs and
CustomDeck {FaceURL, BackURL, NumWidth, NumHeight, BackIsHidden, UniqueBack}, Custom_Tile with
CustomImage {ImageURL, ImageSecondaryURL, CustomTile}).
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from PIL import Image

from solver.game.base import pick
from solver.game.loader import Game

from ..context import BuildContext
from .common import (ExportDeck, drawer_for, export_decks, export_dir, export_languages, face_image, in_language,
                     map_image, png_bytes, safe_name, staged_folder, write_file)

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
CARD_MAX_W = 512        # px per card on a sheet: sharp on screen, sheets stay a few MB
TILE_PX = 256           # a counter side's image


@dataclass(frozen=True)
class SheetPlan:
    cols: int
    rows: int
    card_px: tuple[int, int]

    @property
    def slots(self) -> int:
        return self.cols * self.rows

    @property
    def size(self) -> tuple[int, int]:
        return (self.cols * self.card_px[0], self.rows * self.card_px[1])


def plan_sheet(n_faces: int, size_mm: tuple[float, float]) -> SheetPlan:
    """The grid for `n_faces` distinct faces plus the hidden-card slot (n_faces <= 69)."""
    n = n_faces + 1
    cols = min(MAX_COLS, n)
    rows = math.ceil(n / cols)
    assert rows <= MAX_ROWS
    aspect = size_mm[1] / size_mm[0]
    w = min(CARD_MAX_W, MAX_PX // cols, int(MAX_PX / rows / aspect))
    h = min(round(w * aspect), MAX_PX // rows)
    return SheetPlan(cols, rows, (w, h))


def guid(*parts: str) -> str:
    """A stable 6-hex-digit GUID (TTS's form) from the object's identity: same input, same JSON."""
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


def transform(x: float, z: float, flip: bool = False, scale: float = 1.0) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if flip else 0.0, "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


README = """\
Tabletop Simulator: {title}

{load}Put the saved object of your language ({json_names})
in your Saved Objects folder (Documents/My Games/Tabletop Simulator/Saves/Saved Objects), then in
a game: Objects -> Saved Objects -> that name.

What is inside:
{contents}

Deck sheets hold at most 10 x 7 cards and stay within 4096 px a side; their last slot is the
hidden-card face. CardID = CustomDeck key x 100 + slot, and DeckIDs repeats a card per copy.
"""


LOAD_LOCAL = """\
Load it: copy this whole folder somewhere permanent (the JSON points at the images by file://
URL, which only this computer can read; if you move the folder, run the export again there).
To share the game, host the images and export with --base-url (below).
"""
LOAD_HOSTED = """\
Load it: every image is linked under {base_url}. Upload every .png file of this folder there,
keeping its name (any static web host, or Steam Cloud with TTS's Cloud Manager, whose links
then replace that address: run the export again with --base-url set to it). Anyone who loads
the saved object then sees the images.
"""


def export_tts(game: Game, ctx: BuildContext, base_url: str | None = None) -> list[Path]:
    """The saved objects; images linked under `base_url` (where they will be hosted), else by
    file:// URL of the export folder."""
    drawer = drawer_for(game, ctx)
    target = export_dir(ctx, game, "tts")
    base = base_url.rstrip("/") + "/" if base_url else target.resolve().as_uri() + "/"
    json_names: list[str] = []
    contents: list[str] = []
    with staged_folder(target) as folder:
        for lang in export_languages(game, ctx):
            json_name = f"{safe_name(game.id)}-{lang}.json"
            save, lines = _save(folder, base, game, in_language(ctx, lang), drawer, lang)
            write_file(folder, json_name, json.dumps(save, ensure_ascii=False, indent=2) + "\n")
            json_names.append(json_name)
            contents += [f"{json_name}:"] + (lines or ["  (nothing printable)"])
        title = pick(game.meta.title, game.meta.source_language)
        load = LOAD_HOSTED.format(base_url=base) if base_url else LOAD_LOCAL
        write_file(folder, "README.txt", README.format(title=title, load=load, json_names=", ".join(json_names) or "none",
                                                       contents="\n".join(contents) or "  (no language to export)"))
    return sorted(p for p in target.rglob("*") if p.is_file())


def _save(folder: Path, base_url: str, game: Game, ctx: BuildContext, drawer, lang: str) -> tuple[dict, list[str]]:
    """The saved object of one language and what it holds (README lines); its images written."""
    objects: list[dict] = []
    contents: list[str] = []
    key = 1
    x = -12.0
    for deck in export_decks(game, ctx):
        if deck.kind == "cards":
            obj, key, lines = _deck(folder, base_url, deck, drawer, key, x, game.id, lang)
        else:
            obj, lines = _counters(folder, base_url, deck, drawer, x, game.id, lang)
        objects.append(obj)
        contents += lines
        x += 4.0
    board = _board(folder, base_url, game, ctx, lang)
    if board:
        objects.append(board[0])
        contents += board[1]
    save = {"SaveName": pick(game.meta.title, lang), "GameMode": pick(game.meta.title, lang), "Date": "",
            "VersionNumber": "", "Note": f"exported by pnp-forge from {game.id}", "ObjectStates": objects}
    return save, contents


def _url(base: str, name: str) -> str:
    """`name` (a file of the export folder) under `base`, which ends in '/'."""
    return base + quote(name)


def _deck(folder: Path, base: str, deck: ExportDeck, drawer, key: int, x: float, game_id: str, lang: str):
    """DeckCustom (or a lone Card) with one CustomDeck entry per sheet of up to 69 distinct faces."""
    fronts = deck.distinct_fronts()
    unique_back = not deck.common_back
    custom: dict[str, dict] = {}
    cards: list[dict] = []
    ids: list[int] = []
    lines: list[str] = []
    stem = f"{safe_name(deck.id)}-{lang}"
    back_name = f"{stem}-back.png"
    first_back = next((p for p in deck.pieces if p.back_layout and p.back is not None), None)
    back_img = None
    per_sheet = MAX_COLS * MAX_ROWS - 1
    for sheet_no, start in enumerate(range(0, len(fronts), per_sheet), 1):
        chunk = fronts[start:start + per_sheet]
        plan = plan_sheet(len(chunk), deck.size)
        face_sheet = Image.new("RGB", plan.size, "white")
        back_sheet = Image.new("RGB", plan.size, "white") if unique_back else None
        for i, (piece, count) in enumerate(chunk):
            at = ((i % plan.cols) * plan.card_px[0], (i // plan.cols) * plan.card_px[1])
            face_sheet.paste(face_image(drawer, piece.front_layout, piece.front, deck.size, 0, plan.card_px), at)
            if back_sheet is not None and piece.back_layout and piece.back is not None:
                back_sheet.paste(face_image(drawer, piece.back_layout, piece.back, deck.size, 0, plan.card_px), at)
            card_id = key * 100 + i
            ids += [card_id] * count
            cards += [_card(deck, piece, card_id, key, game_id, n) for n in range(count)]
        # The last slot is what TTS shows of a card hidden in another player's hand: the back
        # (blank, like the printed card, when the deck has no back layout).
        hidden = _back_face(drawer, first_back, deck, plan.card_px)
        last = plan.slots - 1
        face_sheet.paste(hidden, ((last % plan.cols) * plan.card_px[0], (last // plan.cols) * plan.card_px[1]))
        if back_img is None and not unique_back:
            back_img = hidden
        sheet_name = f"{stem}-sheet{sheet_no}.png"
        write_file(folder, sheet_name, png_bytes(face_sheet))
        entry = {"FaceURL": _url(base, sheet_name), "BackURL": "", "NumWidth": plan.cols, "NumHeight": plan.rows,
                 "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
        if back_sheet is not None:
            bname = f"{stem}-backs{sheet_no}.png"
            write_file(folder, bname, png_bytes(back_sheet))
            entry["BackURL"] = _url(base, bname)
        else:
            entry["BackURL"] = _url(base, back_name)
        custom[str(key)] = entry
        lines.append(f"  {sheet_name}: {len(chunk)} faces of {deck.id} on {plan.cols} x {plan.rows} "
                     f"({plan.size[0]} x {plan.size[1]} px), CustomDeck {key}")
        key += 1
    if back_img is not None:
        write_file(folder, back_name, png_bytes(back_img))
        lines.append(f"  {back_name}: the back of {deck.id}")
    for c in cards:  # each card carries the CustomDeck entry of its own sheet
        c["CustomDeck"] = {k: custom[k] for k in custom if int(k) == c["CardID"] // 100}
    if len(cards) == 1:
        obj = dict(cards[0], Name="CardCustom", Transform=transform(x, 0.0, flip=True))  # a lone card is no deck
    else:
        obj = {"GUID": guid(game_id, deck.id), "Name": "DeckCustom", "Transform": transform(x, 0.0, flip=True),
               "Nickname": deck.name, "Description": "", "DeckIDs": ids, "CustomDeck": custom,
               "ContainedObjects": cards, "Locked": False, "Grid": True, "Snap": True, "Tooltip": True}
    lines.insert(0, f"  {deck.name}: a deck of {len(ids)} cards")
    return obj, key, lines


def _back_face(drawer, piece, deck: ExportDeck, px: tuple[int, int]):
    if piece is None or piece.back_layout is None or piece.back is None:
        return Image.new("RGB", px, "white")
    return face_image(drawer, piece.back_layout, piece.back, deck.size, 0, px)


def _card(deck: ExportDeck, piece, card_id: int, key: int, game_id: str, n: int) -> dict:
    return {"GUID": guid(game_id, deck.id, piece.item.id, str(n)), "Name": "Card", "Transform": transform(0, 0, True),
            "Nickname": piece.front.lookup("name"), "Description": "", "CardID": card_id,
            "SidewaysCard": deck.size[0] > deck.size[1]}


def _counters(folder: Path, base: str, deck: ExportDeck, drawer, x: float, game_id: str, lang: str):
    """A bag of double-sided tiles, one per copy; each distinct side is one image."""
    tiles: list[dict] = []
    aspect = deck.size[1] / deck.size[0]
    px = (TILE_PX, round(TILE_PX * aspect))
    sub = f"{safe_name(deck.id)}-{lang}"
    for piece, count in deck.distinct_fronts():
        front = f"{sub}/{safe_name(piece.item.id)}.png"
        write_file(folder, front, png_bytes(face_image(drawer, piece.front_layout, piece.front, deck.size, 0, px)))
        back = ""
        if piece.back_layout and piece.back is not None:
            back = f"{sub}/{safe_name(piece.item.id)}-back.png"
            write_file(folder, back, png_bytes(face_image(drawer, piece.back_layout, piece.back, deck.size, 0, px)))
        for n in range(count):
            tiles.append({
                "GUID": guid(game_id, deck.id, piece.item.id, str(n)), "Name": "Custom_Tile",
                "Transform": transform(0, 0, scale=round(deck.size[0] / 25.4, 3)),
                "Nickname": piece.front.lookup("name"), "Description": "",
                "CustomImage": {"ImageURL": _url(base, front), "ImageSecondaryURL": _url(base, back) if back else "",
                                "WidthScale": 0.0,
                                "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": True, "Stretch": True}}})
    bag = {"GUID": guid(game_id, deck.id, "bag"), "Name": "Bag", "Transform": transform(x, 6.0),
           "Nickname": deck.name, "Description": f"{len(tiles)} double-sided counters", "ContainedObjects": tiles}
    return bag, [f"  {deck.name}: a bag of {len(tiles)} double-sided tiles (images in {sub}/)"]


def _board(folder: Path, base: str, game: Game, ctx: BuildContext, lang: str):
    m = map_image(game, ctx)
    if m is None:
        return None
    name = f"map-{safe_name(m.name)}-{lang}.png"
    write_file(folder, name, png_bytes(m.image, m.dpi))
    g = m.hexmap.data.grid
    first = m.hexmap.data.labeller().label(m.hexmap.grid.to_offset(next(m.hexmap.grid.hexes())))
    cx, cy = m.hex_centre_px(first)
    grid = {"orientation": g.orientation, "offset": g.offset, "columns": g.columns, "rows": g.rows,
            "hex_mm": g.hex_mm, "dpi": m.dpi, "hex_px": round(g.hex_mm * m.px_per_mm, 3),
            "first_hex": first, "first_hex_centre_px": [round(cx, 2), round(cy, 2)],
            "image_px": list(m.image.size)}
    board = {"GUID": guid(game.id, "map", m.name), "Name": "Custom_Board", "Transform": transform(0.0, 20.0),
             "Nickname": pick(m.hexmap.data.name, lang),
             "Description": (f"hex grid: {g.orientation}-top, {grid['hex_px']} px across the flats "
                             f"({g.hex_mm:g} mm at {m.dpi:g} dpi), {g.columns} x {g.rows} hexes"),
             "GMNotes": json.dumps({"hex_grid": grid}), "Locked": True,
             "CustomImage": {"ImageURL": _url(base, name), "ImageSecondaryURL": "", "WidthScale": 0.0}}
    return board, [f"  {name}: the map ({m.image.size[0]} x {m.image.size[1]} px at {m.dpi:g} dpi), "
                   f"hexes {grid['hex_px']} px across the flats"]
