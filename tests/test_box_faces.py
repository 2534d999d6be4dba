"""Faces of the example games a player needs to play, read back from the files with independent
tools (pypdf for page boxes, pdfplumber for the drawn rectangles and the words, the csv module):
Saboteur's tunnels run into the bleed and its start and mine cards draw theirs, War of the Ring's
leader counters carry their name on the back, The Game Crafter's card list names cards."""
from __future__ import annotations

import csv
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from generator.context import BuildContext
from generator.export.pdf_cards import export_pdf_cards
from solver.game.loader import load_game

PT = 25.4 / 72
TUNNEL_RGB = (0xE8 / 255, 0xD8 / 255, 0xB0 / 255)  # `tunnel` in Saboteur's layouts.yaml


def _tunnels(page) -> list[tuple[float, float, float, float]]:
    """The tunnel-coloured rectangles of a page in mm (x0, top, x1, bottom)."""
    out = []
    for r in page.rects:
        colour = r.get("non_stroking_color")
        if colour and len(colour) == 3 and all(abs(a - b) < 0.01 for a, b in zip(colour, TUNNEL_RGB)):
            out.append((r["x0"] * PT, r["top"] * PT, r["x1"] * PT, r["bottom"] * PT))
    return out


@pytest.fixture(scope="module")
def saboteur_cards(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("sab")
    game = load_game("saboteur-the-lost-mines")
    paths = export_pdf_cards(game, BuildContext(out_root=out, lang="ja"))
    return {p.name: p for p in paths}


def _pages(path: Path) -> list[tuple[list, tuple, tuple]]:
    """(tunnels, trim, bleed) of every front page of a one-card-per-page PDF, boxes in mm as
    (x0, top, x1, bottom): the TrimBox as pypdf reads it, the page (= bleed box) as pdfplumber does."""
    boxes = pypdf.PdfReader(path).pages
    out = []
    with pdfplumber.open(path) as pdf:
        for i in range(len(pdf.pages) // 2):  # fronts, then backs
            page = pdf.pages[i]
            tb = boxes[i].trimbox
            h = float(boxes[i].mediabox.height)
            trim = (float(tb.left) * PT, (h - float(tb.top)) * PT, float(tb.right) * PT, (h - float(tb.bottom)) * PT)
            out.append((_tunnels(page), trim, (0.0, 0.0, page.width * PT, page.height * PT)))
    return out


@pytest.mark.parametrize("deck", ["path-cards", "start-cards", "mine-cards"])
def test_every_tunnel_runs_into_the_bleed(saboteur_cards, deck):
    # A side of a tunnel either ends well inside the card (a dead end, the crossing) or passes the
    # cut and reaches the bleed edge: never a sliver short of the cut (it was 0.15 mm short east).
    checked = 0
    for tunnels, trim, bleed in _pages(saboteur_cards[f"{deck}-ja.pdf"]):
        for t in tunnels:
            for side, inner, outer in ((0, trim[0], bleed[0]), (1, trim[1], bleed[1])):
                assert t[side] <= outer + 0.05 or t[side] >= inner + 2, (deck, t, trim)
            for side, inner, outer in ((2, trim[2], bleed[2]), (3, trim[3], bleed[3])):
                assert t[side] >= outer - 0.05 or t[side] <= inner - 2, (deck, t, trim)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("deck,cards", [("start-cards", 2), ("mine-cards", 4)])
def test_start_and_mine_cards_draw_their_tunnels(saboteur_cards, deck, cards):
    # Every start and mine card opens on all four edges (gap start-mine-tunnels-assumed): a tunnel
    # reaches each bleed edge, centred on it (12 mm wide, so neighbouring cards' tunnels meet).
    pages = list(_pages(saboteur_cards[f"{deck}-ja.pdf"]))
    assert len(pages) == cards
    for ts, trim, bleed in pages:
        cx, cy = (trim[0] + trim[2]) / 2, (trim[1] + trim[3]) / 2
        north = [t for t in ts if t[1] <= bleed[1] + 0.05]
        south = [t for t in ts if t[3] >= bleed[3] - 0.05]
        west = [t for t in ts if t[0] <= bleed[0] + 0.05]
        east = [t for t in ts if t[2] >= bleed[2] - 0.05]
        for t in north + south:
            assert (t[0] + t[2]) / 2 == pytest.approx(cx, abs=0.05) and t[2] - t[0] == pytest.approx(12, abs=0.05)
        for t in west + east:
            assert (t[1] + t[3]) / 2 == pytest.approx(cy, abs=0.05) and t[3] - t[1] == pytest.approx(12, abs=0.05)
        assert north and south and west and east, (deck, ts)
