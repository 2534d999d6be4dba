"""The piece model (generator/pieces/model.py) and the punch-out printers' pieces (generator/pieces/punch.py),
worked by hand in mm: a polygon's points on the page, which pieces print a back page and which
share a back picture, each component's size, outline and default layouts, the punch-out grid's
bleed and gutter, and a standee's net (front and mirrored back panel side by side, a 12 mm tab
under each, the folds and the cut between the tabs)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from generator.cards.facedata import FaceData
from generator.context import BuildContext
from generator.geometry import Box
from generator.pieces.model import Mark, Outline, Panel, Piece
from generator.pieces.punch import default_layout, die_copies, outline_of, printer_size, punch_grid, standee
from solver.game.components import Component, Face, Item


def comp(**fields) -> Component:
    return Component(**{"id": "things", "kind": "tokens", "name": "Things", **fields})


def face_data(item: Item | None, component: Component, face: Face | None = None) -> FaceData:
    return FaceData(item, component, face, "en", "game/things")


def piece(item: Item, back_layout: str | None = "back", back_face: Face | None = None, **more) -> Piece:
    c = comp()
    return Piece(item, "front", back_layout, face_data(item, c), face_data(item, c, back_face) if back_layout else None, **more)


def test_a_polygon_lands_at_its_trim():
    outline = Outline("polygon", points=((0, 0), (10, 0), (10, 5), (0, 7.5)))
    assert outline.placed(Box(3, 4, 10, 7.5)) == [(3, 4), (13, 4), (13, 9), (3, 11.5)]
    assert Outline().placed(Box(3, 4, 10, 5)) == []


def test_which_pieces_print_a_back_page():
    plain = Item(id="a")
    assert piece(plain).has_back_page
    assert not piece(plain, back_layout=None).has_back_page
    assert not piece(plain, back_layout="").has_back_page
    no_data = Piece(plain, "front", "back", face_data(plain, comp()), None)
    assert not no_data.has_back_page
    net = piece(plain, panels=(Panel("front", face_data(plain, comp()), Box(0, 0, 5, 5)),))
    assert not net.has_back_page


def test_pieces_share_a_back_picture_only_with_the_same_back():
    a, b = Item(id="a"), Item(id="b")
    # a common back (the items give none): one picture for both
    assert not piece(a).own_back
    assert piece(a).back_key == piece(b).back_key == ("back", None, None)
    # an item's own back face: its own picture, told apart by the item
    own_a = Item(id="a", back=Face(label="Reduced"))
    own_b = Item(id="b", back=Face(label="Reduced"))
    assert piece(own_a).own_back
    key_a = piece(own_a, back_face=Face(label="Reduced")).back_key
    key_b = piece(own_b, back_face=Face(label="Reduced")).back_key
    assert key_a != key_b and key_a[2] == "a" and key_a[1] is not None
    assert piece(a, back_face=Face(label="X")).back_key != piece(a, back_face=Face(label="Y")).back_key
    assert piece(a, back_layout="other").back_key != piece(a).back_key
    assert piece(a, back_layout=None).back_key == (None, None, None)


def test_each_printers_size_and_outline():
    assert printer_size(comp(), "tokens") == (20.0, 20.0)
    assert printer_size(comp(), "tiles") == (30.0, 30.0)
    assert printer_size(comp(), "standees") == (25.0, 40.0)
    assert printer_size(comp(kind="board"), "boards") == (210.0, 297.0)     # a board with no size: A4
    assert printer_size(comp(size={"width_mm": 12, "height_mm": 18}), "tiles") == (12.0, 18.0)
    assert outline_of(comp(), "tokens") == Outline("circle")          # tokens are round unless told
    assert outline_of(comp(), "tiles") == Outline("rect")
    assert outline_of(comp(shape="round"), "tiles") == Outline("circle")
    assert outline_of(comp(shape="rounded"), "tokens") == Outline("rounded", 2.0)
    assert outline_of(comp(shape="square"), "tokens") == Outline("rect")


def test_default_layouts_have_a_back_only_where_the_data_gives_one():
    assert (default_layout(comp(), "tokens").front, default_layout(comp(), "tokens").back) == ("token-basic", None)
    assert default_layout(comp(back=Face(label="B")), "tiles").back == "tile-basic"
    with_item_back = comp(items=[Item(id="a"), Item(id="b", back=Face(label="B"))])
    assert default_layout(with_item_back, "tokens").back == "token-basic"
    assert default_layout(comp(items=[Item(id="a"), Item(id="b")]), "tokens").back is None
    assert default_layout(comp(), "standees").back == "standee-basic"    # a standee shows its back panel


def test_the_punch_grid_keeps_bleed_and_gutter_within_3_mm():
    grid = punch_grid(BuildContext(), (20.0, 20.0))
    assert (grid.bleed, grid.gutter, grid.piece_w, grid.piece_h) == (1.5, 0.0, 20.0, 20.0)
    grid = punch_grid(BuildContext(bleed_mm=1.0), (20.0, 20.0))
    assert (grid.bleed, grid.gutter) == (1.0, 1.0)
    # 23 mm footprints on A4 less 9 mm a side (192 x 279): 8 x 12
    assert punch_grid(BuildContext(), (20.0, 20.0)).per_page == 8 * 12


def test_a_standee_is_a_net_of_front_and_mirrored_back_with_tabs():
    item = Item(id="pawn")
    c = comp(kind="pieces")
    front, back = face_data(item, c), face_data(item, c, Face(label="B"))
    net = standee(Piece(item, "front-l", "back-l", front, back), 25.0, 40.0)
    assert net.size == (50.0, 52.0) and net.cut_line
    assert net.outline == Outline("polygon", points=((0, 0), (50, 0), (50, 52), (0, 52)))
    assert net.panels == (Panel("front-l", front, Box(0, 0, 25, 40)), Panel("back-l", back, Box(25, 0, 25, 40)))
    assert net.marks == (Mark("fold", ((25, 0), (25, 40))), Mark("fold", ((0, 40), (25, 40))),
                         Mark("fold", ((25, 40), (50, 40))), Mark("cut", ((25, 40), (25, 52))))
    assert (net.back_layout, net.back) == (None, None) and not net.has_back_page
    # no back given: the back panel shows the front's layout and data again
    bare = standee(Piece(item, "front-l", None, front, None), 25.0, 40.0)
    assert bare.panels[1] == Panel("front-l", front, Box(25, 0, 25, 40))


def test_a_die_prints_its_stated_or_proposed_count():
    die = comp(id="d", kind="dice", count=2)
    assert die_copies(die, {}) == 2
    assert die_copies(die, {("d", "d"): (3, True)}) == 3
    assert die_copies(comp(id="d", kind="dice"), {}) == 0


def test_pieces_and_pages_cannot_be_changed_once_made():
    """Copies are one Piece repeated in a list, and plans share their pages' parts: none may be
    altered in place (a change to one copy would change them all)."""
    import dataclasses
    from generator.pieces.model import Placement, SheetPage, Stroke, Wedge
    p = piece(Item(id="a"))
    made = [Outline(), Mark("fold", ((0, 0), (1, 1))), Panel("front", p.front, Box(0, 0, 1, 1)), p,
            Stroke(0, 0, 1, 1, "#000000", 0.2), Wedge(((0, 0), (1, 0), (0, 1)), "#000000", "#ffffff", 0.1),
            Placement(p, "front", Box(0, 0, 1, 1), 1.0), SheetPage(210, 297, ())]
    for thing in made:
        name = dataclasses.fields(thing)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(thing, name, None)


PUNCH_GAME = {
    "game.yaml": "id: punch-test\ntitle: Punch Test\nplayers: {min: 1, max: 2}\nsource_language: en\nlanguages: [en]\n",
    "components.yaml": """\
components:
  - {id: deck, kind: deck, name: Deck, size: poker, items: [{id: one, name: One}]}
  - {id: coins, kind: tokens, name: Coins, count: 3}
  - {id: reefs, kind: tiles, name: Reefs, count: 2, shape: rounded}
  - {id: pawns, kind: pieces, name: Pawns, count: 1}
  - {id: tray, kind: board, name: Tray, count: 1, size: {width_mm: 100, height_mm: 80}}
  - {id: plain-die, kind: dice, name: Plain die, count: 2}
  - id: weather-die
    kind: dice
    name: Weather die
    count: 1
    faces: [{label: Sun}, {label: Rain}, {label: Fog}, {label: Storm}, {label: Calm}, {label: Hail}]
""",
}


def test_build_pieces_writes_a_file_for_each_punch_out_component(tmp_path):
    """Tokens, tiles, standees, the board and the die with faces each get their PDF; the deck (the card
    printer's, listed first) and the standard die none."""
    from pypdf import PdfReader

    from gamefiles import write_game
    from generator.pieces.punch import build_pieces
    from solver.game.loader import load_game

    game = load_game(write_game(tmp_path / "punch-test", PUNCH_GAME))
    written = build_pieces(game, BuildContext(out_root=tmp_path / "out", formats=("pdf",)))
    folder = tmp_path / "out" / "punch-test"
    assert sorted(p.name for p in written) == ["boards-tray-en.pdf", "dice-weather-die-en.pdf", "standees-pawns-en.pdf",
                                               "tiles-reefs-en.pdf", "tokens-coins-en.pdf"]
    assert all(p.parent == folder and p.is_file() for p in written)
    # a sheet of fronts and one of backs where a side has a back (none here: fronts only, one page each)
    pages = {p.name: len(PdfReader(p).pages) for p in written}
    assert pages["tokens-coins-en.pdf"] == pages["tiles-reefs-en.pdf"] == pages["standees-pawns-en.pdf"] == 1


def test_a_die_net_uses_the_layout_named_for_it():
    from generator.pieces.punch import die_layout
    from solver.game.layouts import ComponentLayout, LayoutsFile
    die = comp(id="d", kind="dice", count=1)
    assert die_layout(LayoutsFile(), die) == "die-face-basic"
    assert die_layout(LayoutsFile(components={"d": ComponentLayout(front="weather-face")}), die) == "weather-face"
    assert die_layout(LayoutsFile(components={"d": ComponentLayout(print_as="dice")}), die) == "die-face-basic"
