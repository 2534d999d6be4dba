"""The packed print of a small game written as a newcomer would (two poker cards and their tuck box,
coin tokens, crew counters, pawn standees, a die with faces, a deck printed as counters), laid out
without drawing (generator/pieces/packed.py): which components it packs, the manifest's sheet
figures counted by hand, and the pages, every piece at a place of its own inside the printer's
margin with its back behind it."""
from __future__ import annotations

import dataclasses

import pytest

from gamefiles import write_game
from generator.context import BuildContext
from generator.pieces.packed import packed_pages, packing, printed_groups, sheet_figures
from solver.game.loader import load_game

GAME = """\
id: pocket-harbour
title: Pocket Harbour
players: {min: 2, max: 4}
source_language: en
languages: [en]
"""
FACES = "".join(f"      - {{label: {w}}}\n" for w in ["Sun", "Rain", "Fog", "Storm", "Calm", "Hail"])
COMPONENTS = """\
components:
  - id: tide-cards
    kind: deck
    name: Tide cards
    size: poker
    tuck_box: true  # two cards: the default would give them no box, too thin to fold
    items:
      - {id: high-tide, name: High tide}
      - {id: low-tide, name: Low tide}
  - id: coins
    kind: tokens
    name: Coins
    count: 4
  - id: crew
    kind: counters
    name: Crew
    count: 6
  - id: pawns
    kind: pieces
    name: Pawns
    count: 2
  - id: weather-die
    kind: dice
    name: Weather die
    count: 1
    faces:
""" + FACES + """\
  - id: plain-die
    kind: dice
    name: Plain die
    count: 2
  - id: wind-chits
    kind: deck
    name: Wind chits
    size: {width_mm: 15, height_mm: 15}
    count: 3
"""
LAYOUTS = """\
components:
  wind-chits: {print_as: counters}
"""
A4 = BuildContext()


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = write_game(tmp_path_factory.mktemp("pocket") / "pocket-harbour",
                        {"game.yaml": GAME, "components.yaml": COMPONENTS, "layouts.yaml": LAYOUTS})
    return load_game(folder)


def test_every_printed_component_is_packed_as_its_printer_makes_it(game):
    groups = printed_groups(game, A4, "en")
    # the plain die is a standard one: not printed; the chits deck prints as counters (no tuck box)
    assert [(g[0], len(g[1])) for g in groups] == [("tide-cards", 2), ("tide-cards (tuck box)", 1), ("coins", 4),
                                                   ("crew", 6), ("pawns", 2), ("weather-die", 1), ("wind-chits", 3)]
    sizes = {g[0]: (g[2].piece_w, g[2].piece_h) for g in groups}
    assert sizes["tide-cards"] == (63.5, 88.9)        # poker
    assert sizes["coins"] == (20.0, 20.0)             # a token's default size
    assert sizes["crew"] == (12.7, 12.7)              # a counter's default, half an inch
    assert sizes["pawns"] == (50.0, 52.0)             # a 25 x 40 mm standee: front and back side by side, a 12 mm tab
    assert sizes["wind-chits"] == (15.0, 15.0)
    # a cut line where crop marks cannot show the cut: round tokens, the tuck box's and the standee's
    # nets, not cards or counters; a die's net draws its cuts as marks of its own
    cut = {g[0]: {p.cut_line for p in g[1]} for g in groups}
    assert cut == {"tide-cards": {False}, "tide-cards (tuck box)": {True}, "coins": {True}, "crew": {False},
                   "pawns": {True}, "weather-die": {False}, "wind-chits": {False}}
    # cards 3 mm bleed; punch-outs 1.5 mm with the rest of their 3 mm gutter (none)
    assert {g[0]: (g[2].bleed, g[2].gutter) for g in groups if g[0] in ("tide-cards", "coins", "pawns")} == {
        "tide-cards": (3.0, 0.0), "coins": (1.5, 0.0), "pawns": (1.5, 0.0)}


def test_the_sheet_figures_by_hand(game):
    # one sheet each on their own grids: cards, tuck box, coins, crew, pawns, die net, chits: 7
    # art with bleed: 28,148 mm2 (below) and the tuck box's 148.4 x 115.8 = 17,185 mm2: 45,333 mm2, under
    # A4 less 5 mm a side (57,400 mm2): the area bound is 1, and one sheet holds them
    figures = sheet_figures(game, A4)
    assert figures == {"per_component": 7, "packed": 1, "area_bound": 1}
    result, kinds, pieces, same = packing(game, A4, "en")
    assert same == figures and len(result.sheets) == 1 and result.optimal
    assert sorted(len(p) for p in pieces) == [1, 1, 2, 2, 3, 4, 6]


def test_gutterfold_leaves_the_tuck_box_on_its_own_sheet(game):
    # the fronts' half of A4 is 96.5 x 282 mm or 140 x 195 mm: the tuck box's net (148.4 mm wide with
    # its bleed) fits neither, so it is named and counted on its own sheet
    figures = sheet_figures(game, dataclasses.replace(A4, sheet_layout="gutterfold"))
    assert figures["not_packed"] == ["tide-cards (tuck box)"]
    # on their own gutterfold grids every component still takes one sheet each: 7
    assert figures["per_component"] == 7
    # the rest's art: 2 x 69.5 x 94.9 + 4 x 23^2 + 6 x 15.7^2 + 2 x 53 x 55 + 76 x 60 + 3 x 18^2 = 28,148 mm2,
    # under half of A4's 57,400: a bound of 1; packed they take 1 or 2 sheets, and the tuck box 1 more
    assert figures["area_bound"] == 1
    assert figures["packed"] in (2, 3)


def test_every_piece_has_a_place_of_its_own_and_its_back_behind_it(game):
    pages, figures = packed_pages(game, A4, "en")
    assert len(pages) == 2 * figures["packed"]          # a backs page behind the fronts page
    fronts, backs = pages
    assert (fronts.width, fronts.height) in ((210.0, 297.0), (297.0, 210.0))
    boxes = [(p.trim.x - p.bleed, p.trim.y - p.bleed, p.trim.right + p.bleed, p.trim.bottom + p.bleed)
             for p in fronts.placements]
    assert len(boxes) == 2 + 1 + 4 + 6 + 2 + 1 + 3
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        assert x0 >= 5 and y0 >= 5 and x1 <= fronts.width - 5 and y1 <= fronts.height - 5
        for a0, b0, a1, b1 in boxes[i + 1:]:
            assert min(x1, a1) - max(x0, a0) <= 1e-9 or min(y1, b1) - max(y0, b0) <= 1e-9
    # the pieces with a back page (not the nets, which print all on one side) are behind their fronts
    with_backs = [p for p in fronts.placements if p.piece.has_back_page]
    assert len(backs.placements) == len(with_backs) > 0
    for f, b in zip(with_backs, backs.placements):
        assert b.piece is f.piece and b.side == "back"
        if fronts.width < fronts.height:     # portrait, long-edge flip: x mirrors
            assert (b.trim.x, b.trim.y) == pytest.approx((fronts.width - f.trim.right, f.trim.y))
        else:
            assert (b.trim.x, b.trim.y) == pytest.approx((f.trim.x, fronts.height - f.trim.bottom))


def test_build_packed_writes_one_pdf_only_when_asked(game, tmp_path):
    from pypdf import PdfReader

    from generator.pieces.packed import build_packed

    assert build_packed(game, dataclasses.replace(A4, out_root=tmp_path)) == []          # no --layout packed
    assert not (tmp_path / "pocket-harbour").exists()
    written = build_packed(game, dataclasses.replace(A4, out_root=tmp_path, packed=True, formats=("pdf", "svg", "png")))
    assert written == [tmp_path / "pocket-harbour" / "packed-en.pdf"]                 # a PDF only, whatever the formats
    assert len(PdfReader(written[0]).pages) == 2                                      # one sheet: fronts and backs
