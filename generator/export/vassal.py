"""`pnp export GAME --to vassal`: a VASSAL module (.vmod).

A .vmod is a zip: `buildFile.xml` (the module's component tree), `moduledata` (name and
version) and `images/`. This one holds:

- the map page as the board of the "Main Map", with zones for the tracks and boxes beside the
  map and for the hex grid: a HexGrid matching our geometry and a HexGridNumbering naming each
  hex as the map prints it (vassal_grid.py);
- every counter as a piece with two layers, front and back, and a "Flip" command (Ctrl+F) in the
  pieces window (the traits are vassal_pieces.py's);
- every card deck as a DrawPile (face down, shuffled) holding one card (CardSlot, with a Mask
  showing the back and the deck's name) per copy, each with its own slot id, on a "Table" map
  window of its own, opened by its toolbar button, when the game has a map;
- per player count a predefined setup (a saved game, .vsav) that places the pieces where the
  rules engine places them (`place`/`give` steps whose `on:` is a place, hex, box or track cell
  of the map), each pile of pieces as one stack. A saved game without VASSAL's "not a new game"
  marker counts as a new game, so loading one also fills the decks from the module.

Element and trait strings follow real modules' buildFile.xml (VASSAL 3.7); the saved-game
format is VASSAL's: a zip whose `savedGame` entry is "!VCSK", a key byte in hex, then the
command text XOR the key in hex; the command text is begin_save, the board choice, AddPiece
commands (`+/id/type/state`) for pieces and their stacks, end_save, separated by ESC; beside it
the module's own `moduledata`, as VASSAL's saves carry it.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

from solver.engine.items import UNCOUNTED
from solver.engine.run import setup_table
from solver.game.base import pick
from solver.game.components import Item
from solver.game.loader import Game

from ..context import BuildContext
from ..geometry import MM_PER_INCH
from .common import (ExportDeck, MapImage, drawer_for, export_decks, export_dir, export_languages, face_image,
                     in_language, map_image, png_bytes, safe_name, staged_folder, write_file, zip_bytes)
from .vassal_grid import board_grid, grid_text
from .vassal_pieces import FLIP_KEY_TEXT, FLIP_TEXT, Module, PieceDef, clean_name, mask_name

VASSAL_VERSION = "3.7.0"
MAP_NAME = "Main Map"
BOARD_NAME = "Board"
TABLE_NAME = "Table"     # the map window of the card decks, when the game has a map
TABLE_BOARD = "Table"
GAP = 40                 # px between decks on the table
CARD_DPI = 150           # card images in the module (screen use)
NO_MAP_DPI = 150         # counter images when a game has no map to match
ESC = "\x1b"
SAVE_KEY = 0x5A          # the obfuscation key byte: fixed, so the same setup gives the same bytes


def _back_faces(item: Item) -> frozenset[str]:
    """What a setup step's `face:` says to mean this item's back side: 'back', 'down', or the
    name its back face carries (`back: {attrs: {face: fellowship}}`)."""
    names = {"back", "down"}
    if item.back is not None and item.back.attrs.get("face"):
        names.add(str(item.back.attrs["face"]))
    return frozenset(names)


README = """\
VASSAL module: {title}

Open {vmod} with VASSAL 3.7 or later (File -> Open Module).
- The Main Map shows the map with a hex grid matching the printed one
  ({grid}).
  VASSAL names every hex as the map prints it in its move reports. A marker dropped on a
  track beside the map lands on a cell and is reported as "<track> <number>"; boxes beside
  the map keep pieces where they are dropped.
- Counters are in the Pieces window. To turn a counter over, right-click it and choose
  {flip}, or select it and press {flip_key}: front to back, and again back to front.
- Cards are drawn face down; {flip} ({flip_key}) turns the one you hold face up. A face-down
  card is shown to others by its deck's name only.
- Card decks are face-down, shuffled draw piles, one card per copy (in the Table window when
  the game has a map: its toolbar button "Table" shows and hides it).

Predefined setups (File -> New Game, or the start-up wizard), one per player count, place the
pieces where the setup rules put them on the map:
{setups}

Setup steps that put pieces elsewhere (a hand, a player's sheet, a cup, a holding box off the
map) are not in the setups; take those pieces from the Pieces window or the decks:
{offmap}
"""


def export_vassal(game: Game, ctx: BuildContext) -> list[Path]:
    """`<game>-<lang>.vmod`, a module per language the game is built in."""
    target = export_dir(ctx, game, "vassal")
    readmes: list[str] = []
    with staged_folder(target) as folder:
        for lang in export_languages(game, ctx):
            vmod = f"{safe_name(game.id)}-{lang}.vmod"
            entries, readme = _module(game, in_language(ctx, lang), lang, vmod)
            write_file(folder, vmod, zip_bytes(entries))
            readmes.append(readme)
        write_file(folder, "README.txt", "\n".join(readmes) or "No language of the game is complete: nothing exported.\n")
    return sorted(target.iterdir())


def _module(game: Game, ctx: BuildContext, lang: str, vmod: str) -> tuple[dict[str, bytes], str]:
    """The zip entries of the module in `lang`, and its README."""
    drawer = drawer_for(game, ctx)
    title = pick(game.meta.title, lang)
    m = map_image(game, ctx)
    mod = Module()
    decks = export_decks(game, ctx)
    px_per_mm = m.px_per_mm if m else NO_MAP_DPI / MM_PER_INCH
    for deck in decks:
        k = px_per_mm if deck.kind == "counters" else CARD_DPI / MM_PER_INCH
        size = (max(8, round(deck.size[0] * k)), max(8, round(deck.size[1] * k)))
        for piece, _ in deck.distinct_fronts():
            front = png_bytes(face_image(drawer, piece.front_layout, piece.front, deck.size, 0, size))
            back = None
            if piece.back_layout and piece.back is not None:
                back = png_bytes(face_image(drawer, piece.back_layout, piece.back, deck.size, 0, size))
            name = piece.front.lookup("face.label|name")
            mod.add(deck.id, piece.item.id, name, (f"{safe_name(deck.id)}-{safe_name(piece.item.id)}", front, back),
                    size, _back_faces(piece.item), mask_name(deck.name, clean_name(name)))
    if m is not None:
        mod.images[f"images/map-{safe_name(m.name)}.png"] = png_bytes(m.image, m.dpi)
    moduledata = _moduledata(title, game.id)
    setups, offmap = _setups(game, m, mod, decks, ctx, moduledata)
    build = build_file(game, title, m, decks, mod, sorted(setups), ctx)
    entries = dict(mod.images)
    entries["buildFile.xml"] = build
    entries["moduledata"] = moduledata
    for name, data in setups.items():
        entries[name] = data
    readme = README.format(
        title=title, vmod=vmod, grid=grid_text(m) if m else "no map", flip=FLIP_TEXT, flip_key=FLIP_KEY_TEXT,
        setups="\n".join(f"  {n}" for n in sorted(setups)) or "  (none: the game places nothing on a map)",
        offmap="\n".join(f"  {line}" for line in offmap) or "  (nothing)")
    return entries, readme


# --------------------------------------------------------------------------- buildFile.xml

def build_file(game: Game, title: str, m: MapImage | None, decks: list[ExportDeck], mod: Module,
               setup_files: list[str], ctx: BuildContext) -> bytes:
    """buildFile.xml: the module's settings, the pieces window, the map (or a table) with the card
    decks, and the menu of predefined setups."""
    root = _module_root(game, title, mod)
    _pieces_window(root, decks, mod)
    _maps(root, m, [d for d in decks if d.kind == "cards"], mod, ctx.language(game.meta.source_language), ctx.warn)
    root.set("nextPieceSlotId", str(mod.next_gpid))  # every slot's id is below it
    if setup_files:
        menu = ET.SubElement(root, "VASSAL.build.module.PredefinedSetup", {"isMenu": "true", "name": "Setups",
                                                                           "useFile": "true"})
        for name in setup_files:
            ET.SubElement(menu, "VASSAL.build.module.PredefinedSetup", {
                "file": name, "isMenu": "false", "name": name.removesuffix(".vsav"), "useFile": "true"})
    ET.indent(root, "    ")
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


def _module_root(game: Game, title: str, mod: Module) -> ET.Element:
    """The GameModule element with the standard components every module carries."""
    root = ET.Element("VASSAL.build.GameModule", {
        "ModuleOther1": "", "ModuleOther2": "", "VassalVersion": VASSAL_VERSION,
        "description": f"exported by pnp-forge from {game.id}", "name": title,
        "nextPieceSlotId": "", "version": "1.0"})
    ET.SubElement(root, "VASSAL.build.module.BasicCommandEncoder")
    ET.SubElement(root, "VASSAL.build.module.Documentation")
    ET.SubElement(root, "VASSAL.build.module.PlayerRoster", {"buttonText": "Retire"})
    ET.SubElement(root, "VASSAL.build.module.GlobalOptions", {"autoReport": "Always", "nonOwnerUnmaskable": "Never",
                                                              "playerIdFormat": "$PlayerName$"})
    ET.SubElement(root, "VASSAL.build.module.Chatter")
    ET.SubElement(root, "VASSAL.build.module.KeyNamer")
    return root


def _pieces_window(root: ET.Element, decks: list[ExportDeck], mod: Module) -> None:
    """The pieces window: one list per counter sheet (cards live in their decks)."""
    window = ET.SubElement(root, "VASSAL.build.module.PieceWindow", {
        "hidden": "false", "scale": "1.0", "text": "Pieces", "tooltip": "Show/Hide the Pieces window"})
    tabs = ET.SubElement(window, "VASSAL.build.widget.TabWidget", {"entryName": "Pieces"})
    for deck in decks:
        if deck.kind != "counters":
            continue
        lst = ET.SubElement(tabs, "VASSAL.build.widget.ListWidget", {
            "divider": "200", "entryName": deck.name, "height": "0", "scale": "1.0", "width": "0"})
        for piece, _ in deck.distinct_fronts():
            d = mod.pieces[(deck.id, piece.item.id)]
            slot = ET.SubElement(lst, "VASSAL.build.widget.PieceSlot", {
                "entryName": d.name, "gpid": str(d.gpid), "height": str(d.size_px[1]), "width": str(d.size_px[0])})
            slot.text = f"+/null/{d.type_string()}/{d.state_string()}"


def _maps(root: ET.Element, m: MapImage | None, card_decks: list[ExportDeck], mod: Module, lang: str,
          warn: Callable[[str], None]) -> None:
    """The map with its hex grid, and the card decks on a table of their own beside it (on the map
    they would hide hexes); without a map, the table is the main map."""
    card_px = [mod.pieces[(d.id, d.pieces[0].item.id)].size_px for d in card_decks]
    table_w = max(1600, sum(w + GAP for w, _ in card_px) + GAP)
    table_h = max(1000, max((h for _, h in card_px), default=0) + 2 * GAP)
    if m is None:
        table = _map(root, MAP_NAME, _table_board(table_w, table_h))[0]
    else:
        board = _map(root, MAP_NAME, {"image": f"map-{safe_name(m.name)}.png", "name": BOARD_NAME,
                                      "reversible": "false", "width": str(m.image.size[0]),
                                      "height": str(m.image.size[1])})[1]
        board_grid(board, m, lang, warn)
        if not card_decks:
            return
        table = _map(root, TABLE_NAME, _table_board(table_w, table_h), launch=True)[0]
    x = GAP
    for deck, (w, h) in zip(card_decks, card_px):
        _draw_pile(table, deck, mod, x + w // 2, GAP + h // 2, (w, h))
        x += w + GAP


def _draw_pile(table: ET.Element, deck: ExportDeck, mod: Module, x: int, y: int, size_px: tuple[int, int]) -> None:
    """A card deck: face down, shuffled, one card (with its back as a mask) per copy."""
    w, h = size_px
    pile = ET.SubElement(table, "VASSAL.build.module.map.DrawPile", {
        "name": deck.name, "owningBoard": TABLE_BOARD, "x": str(x), "y": str(y),
        "width": str(w), "height": str(h), "faceDown": "Always", "shuffle": "Always", "drawFaceUp": "false",
        "reshufflable": "false", "allowMultiple": "false", "allowSelect": "false", "reversible": "false",
        "draw": "true", "color": "0,0,0"})
    for p in deck.pieces:  # one card per copy, each a slot of its own id
        d = mod.pieces[(deck.id, p.item.id)]
        gpid = mod.new_gpid()
        card = ET.SubElement(pile, "VASSAL.build.widget.CardSlot", {
            "entryName": d.name, "gpid": str(gpid), "height": str(d.size_px[1]), "width": str(d.size_px[0])})
        card.text = f"+/null/{d.type_string(card=True)}/{d.state_string(card=True, gpid=gpid)}"


def _map(root: ET.Element, name: str, board: dict[str, str], launch: bool = False) -> tuple[ET.Element, ET.Element]:
    """A map window with one board and the standard map components real modules carry. A second
    window has a toolbar button (`launch`) that shows and hides it: closing it then hides it, where
    closing a window nothing reopens would end the game."""
    themap = ET.SubElement(root, "VASSAL.build.module.Map", {
        "allowMultiple": "false", "backgroundcolor": "255,255,255", "buttonName": name, "launch": str(launch).lower(),
        "mapName": name, "markMoved": "Always", "moveToFormat": "$pieceName$ moves $previousLocation$ -> $location$ *"})
    picker = ET.SubElement(themap, "VASSAL.build.module.map.BoardPicker", {"title": "Choose Boards"})
    el = ET.SubElement(picker, "VASSAL.build.module.map.boardPicker.Board", board)
    for tag in ("StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                "StackExpander", "PieceMover", "KeyBufferer", "SelectionHighlighters"):
        ET.SubElement(themap, f"VASSAL.build.module.map.{tag}")
    # zoomStart counts from the most zoomed-in level, one-based: "1" opens the map at 100 %
    ET.SubElement(themap, "VASSAL.build.module.map.Zoomer", {"zoomLevels": "0.25,0.5,0.75,1.0", "zoomStart": "1"})
    return themap, el


def _table_board(w: int, h: int) -> dict[str, str]:
    return {"name": TABLE_BOARD, "reversible": "false", "width": str(w), "height": str(h), "color": "235,235,228"}


def _moduledata(title: str, game_id: str) -> bytes:
    root = ET.Element("data", {"version": "1"})
    for tag, text in (("version", "1.0"), ("extra1", ""), ("extra2", ""), ("VassalVersion", VASSAL_VERSION),
                      ("dateSaved", "0"), ("name", title), ("description", f"exported by pnp-forge from {game_id}")):
        ET.SubElement(root, tag).text = text
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="utf-8")


# --------------------------------------------------------------------------- predefined setups

def _setups(game: Game, m: MapImage | None, mod: Module, decks: list[ExportDeck],
            ctx: BuildContext, moduledata: bytes) -> tuple[dict[str, bytes], list[str]]:
    """A saved game per player count placing what the engine places on the map; and what it
    places elsewhere (one line each). Each carries the module's own metadata, as VASSAL's saves do."""
    if m is None or game.setup is None:
        return {}, []
    files: dict[str, bytes] = {}
    offmap: dict[str, None] = {}
    for players, result in sorted(setup_table(game).items()):
        stacks: dict[tuple[int, int], list[tuple[PieceDef, str]]] = {}
        for pl in result.placements:
            spot = m.spot(pl.on)
            if spot is None:
                offmap[f"{pl.component} -> {pl.on}"] = None
                continue
            _, x, y = spot
            for (comp, item_id), copies in pl.items:
                d = _piece_of(game, mod, comp, item_id, pl.step)
                if d is None:
                    ctx.warn(f"{game.id}: vassal setup for {players} players: {copies} {comp} on {pl.on} "
                             f"are of no single known item; not placed")
                    continue
                stacks.setdefault((round(x), round(y)), []).extend([(d, pl.face or "")] * copies)
        if stacks:
            name = f"{players} players.vsav" if players != 1 else "1 player.vsav"
            title = pick(game.meta.title, ctx.language(game.meta.source_language))
            files[name] = _vsav(stacks, f"{title}: setup for {players} players", moduledata,
                                table=any(d.kind == "cards" for d in decks))
    return files, list(offmap)


def _piece_of(game: Game, mod: Module, comp: str, item_id: str, step: int) -> PieceDef | None:
    if (comp, item_id) in mod.pieces:
        return mod.pieces[(comp, item_id)]
    if item_id == UNCOUNTED and game.setup is not None:  # copies of an item whose count nobody states:
        listed = getattr(game.setup.steps[step], "items", None) or []  # the step names it
        if len(listed) == 1 and (comp, listed[0]) in mod.pieces:
            return mod.pieces[(comp, listed[0])]
    return None


def _vsav(stacks: dict[tuple[int, int], list[tuple[PieceDef, str]]], description: str, moduledata: bytes,
          table: bool) -> bytes:
    # which board each map window shows (BoardPicker's SetBoards command), as VASSAL saves it
    commands = ["begin_save", f"{MAP_NAME}BoardPicker\t{BOARD_NAME}\t0\t0"]
    if table:
        commands.append(f"{TABLE_NAME}BoardPicker\t{TABLE_BOARD}\t0\t0")
    n = 0
    for (x, y), pieces in sorted(stacks.items()):
        ids = []
        for d, face in pieces:
            n += 1
            pid = f"{1000 + n}"
            back_up = bool(face and d.back and face in d.back_faces)
            state = d.state_string(MAP_NAME, x, y, layer=2 if back_up else 1)
            commands.append(f"+/{pid}/{d.type_string()}/{state}")
            ids.append(pid)
        n += 1
        commands.append(f"+/{1000 + n}/stack/{MAP_NAME};{x};{y};{';'.join(ids)}")
    commands.append("end_save")
    plain = ESC.join(commands).encode("utf-8")
    saved = ("!VCSK" + f"{SAVE_KEY:02x}" + "".join(f"{b ^ SAVE_KEY:02x}" for b in plain)).encode("ascii")
    meta = ET.Element("data", {"version": "1"})
    for tag, text in (("version", "1.0"), ("VassalVersion", VASSAL_VERSION), ("dateSaved", "0"),
                      ("description", description)):
        ET.SubElement(meta, tag).text = text
    savedata = b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(meta, encoding="utf-8")
    return zip_bytes({"savedGame": saved, "savedata": savedata, "moduledata": moduledata})
