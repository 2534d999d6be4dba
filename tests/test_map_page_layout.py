"""The full-size map page (generator/hexmap/layout.py), worked by hand in mm for the map `pnp new`
writes (flat hexes 24 mm across the flats, 8 x 5, odd columns pushed down, A4 landscape 297 x 210):
its grid is 12.5 radii wide (radius 24 / sqrt 3) and 5.5 hexes tall, centred in the 10 mm margin below
a 12 mm title band; the panel of boxes and the legend 6 mm under it, lined up with the grid, wrapping,
widening, and refusing a map that cannot fit."""
from __future__ import annotations

import math

import pytest

from generator.cli import main
from generator.geometry import Box
from generator.hexmap.layout import MapPage, PanelItem, box_size, legend_rows, map_page, page_size
from solver.errors import DataError
from solver.game.loader import load_game

R = 24 / math.sqrt(3)
GW, GH = 12.5 * R, 5.5 * 24          # 173.205 x 132 mm
RIVER = """
rivers:
  - {id: creek, kind: minor, hexsides: [["0101", "0201"]]}
"""
MORE = RIVER + """  - {id: sound, kind: major, hexsides: [["0403", "0503"]]}
"""
CROSSING_AND_ROAD = """
crossings:
  - {kind: ford, hexside: ["0101", "0201"], river: creek}
roads:
  - {id: quay, path: ["0202", "0302"]}
"""


def harbour_map(tmp_path, extra: str = "", grid: tuple[str, str] | None = None):
    folder = tmp_path / "harbour"
    assert main(["new", str(folder)]) == 0
    path = folder / "map.yaml"
    text = path.read_text(encoding="utf-8") + extra
    if grid:
        text = text.replace(*grid)
    path.write_text(text, encoding="utf-8")
    return load_game(folder).extras["map"].resolve()


def boxes(*specs: str) -> str:
    return "boxes:\n" + "".join(f"  - {{id: b{i}, name: B{i}, {s}}}\n" for i, s in enumerate(specs))


def close(box: Box, expected: tuple[float, float, float, float]) -> bool:
    return all(abs(a - b) < 1e-6 for a, b in zip((box.x, box.y, box.w, box.h), expected))


def test_page_sizes_and_box_sizes():
    assert page_size("a4", "portrait") == (210.0, 297.0) and page_size("a4", "landscape") == (297.0, 210.0)
    assert page_size("a2", "landscape") == (594.0, 420.0)
    assert box_size("box", None) == (44.0, 20.0)
    assert box_size("area", 3) == (60.0, 20.0)
    assert box_size("track", 5) == (65.0, 16.0)        # 13 mm cells, 0.8 of a box's height
    assert box_size("track", None) == (130.0, 16.0)    # ten cells unless told


def test_legend_rows_count_the_kinds_two_a_row_and_four_more(tmp_path):
    # terrain sea, land, rocks; places start and goal: 5 entries, 3 rows, + 4
    assert legend_rows(harbour_map(tmp_path)) == 7
    # + the river kind minor: 6 entries, still 3 rows; + major: 7, 4 rows
    assert legend_rows(harbour_map(tmp_path / "river", RIVER)) == 7
    assert legend_rows(harbour_map(tmp_path / "rivers", MORE)) == 8
    # one river kind, a crossing kind and the roads (one entry however many): 8 entries, 4 rows
    assert legend_rows(harbour_map(tmp_path / "roads", RIVER + CROSSING_AND_ROAD)) == 8
    # two river kinds, a crossing kind, the roads: 9 entries, 5 rows
    assert legend_rows(harbour_map(tmp_path / "all", MORE + CROSSING_AND_ROAD)) == 9


def test_a_map_with_no_boxes_is_centred_and_its_legend_under_the_grids_right_edge(tmp_path):
    hm = harbour_map(tmp_path)
    page = map_page(hm)
    assert (page.width, page.height) == (297.0, 210.0)
    x = 10 + (277 - GW) / 2                            # 61.90 mm
    assert close(page.grid, (x, 22, GW, GH))
    assert close(page.title, (x, 10, GW, 12))          # the band is the grid's width (wider than the legend)
    # 7 rows of 5.2 mm, 150 mm wide, its right edge under the grid's, 6 mm below it
    assert close(page.legend, (x + GW - 150, 22 + GH + 6, 150, 7 * 5.2))
    assert page.items == ()
    # the drawn part: the boxes' bounds and 1 mm round them
    assert close(page.extent, (x - 1, 9, GW + 2, 22 + GH + 6 + 36.4 + 1 - 9))
    assert page.content == (page.title, page.grid, page.legend)
    # hex 0101: column 0 is not pushed down (odd columns are): its centre a radius in, half a hex down
    h = hm.hex("0101")
    assert page.hex_centre(hm, h) == (pytest.approx(x + R), pytest.approx(22 + 12))
    assert page.hex_centre(hm, hm.hex("0201")) == (pytest.approx(x + 2.5 * R), pytest.approx(22 + 24))
    portrait = map_page(hm, orientation="portrait")
    assert (portrait.width, portrait.height) == (210.0, 297.0)
    assert close(portrait.grid, (10 + (190 - GW) / 2, 22, GW, GH))


def test_boxes_flow_left_to_right_and_wrap_in_a_band_widened_for_them(tmp_path):
    # the widest box (a 5-cell track, 65 mm) widens the band to 150 + 6 + 65 = 221 mm, centred: x 38;
    # the legend at its right (109..259), boxes left of 103: the box at 38, the track wraps below it
    page = map_page(harbour_map(tmp_path, boxes("kind: box", "kind: track, cells: 5")))
    assert close(page.title, (38, 10, 221, 12))
    assert close(page.legend, (109, 160, 150, 36.4))
    assert [i.kind for i in page.items] == ["box", "track"] and [i.ref for i in page.items] == ["b0", "b1"]
    assert close(page.items[0].box, (38, 160, 44, 20))
    assert close(page.items[1].box, (38, 184, 65, 16))         # 20 mm row and 4 mm gap: y 184, bottom 200
    assert close(page.grid, (10 + (277 - GW) / 2, 22, GW, GH))  # the grid stays centred


def test_boxes_side_by_side_while_they_fit_before_the_legend(tmp_path):
    # 12 columns: the grid is 18.5 radii wide (256.3 mm), wider than legend and box: the band is the
    # grid's, its legend from 150 mm before its right edge; two 44 mm boxes and the 4 mm between them
    # (92 mm) fit in the 100.3 mm before the legend's 6 mm gap
    hm = harbour_map(tmp_path, boxes("kind: box", "kind: box"), grid=("columns: 8", "columns: 12"))
    page = map_page(hm)
    gw = 18.5 * R
    x = 10 + (277 - gw) / 2
    assert close(page.grid, (x, 22, gw, GH)) and close(page.title, (x, 10, gw, 12))
    assert close(page.legend, (x + gw - 150, 160, 150, 36.4))
    assert [tuple(round(v, 6) for v in (i.box.x, i.box.y)) for i in page.items] == [
        (round(x, 6), 160), (round(x + 48, 6), 160)]


def test_a_narrow_map_gets_a_band_as_wide_as_its_legend(tmp_path):
    # 12 mm hexes: 12.5 radii of 12 / sqrt 3 (86.6 mm), narrower than the 150 mm legend: title and legend
    # share a 150 mm band centred on the page (x 73.5), the legend 6 mm under the 66 mm grid; the grid centred
    page = map_page(harbour_map(tmp_path, grid=("hex_mm: 24", "hex_mm: 12")))
    gw = 12.5 * 12 / math.sqrt(3)
    assert close(page.title, (73.5, 10, 150, 12)) and close(page.legend, (73.5, 22 + 66 + 6, 150, 36.4))
    assert close(page.grid, (10 + (277 - gw) / 2, 22, gw, 66))


def test_a_panel_too_tall_for_the_band_takes_the_pages_width(tmp_path):
    # a box and an area: in the 216 mm band (x 40.5) the area wraps to y 184 and ends at 204, below the
    # margin (200); across the page (10..287, legend at 137) they sit side by side at y 160
    page = map_page(harbour_map(tmp_path, boxes("kind: box", "kind: area")))
    assert close(page.title, (10, 10, 277, 12))
    assert close(page.legend, (137, 160, 150, 36.4))
    assert close(page.items[0].box, (10, 160, 44, 20)) and close(page.items[1].box, (58, 160, 60, 20))


def test_a_map_that_cannot_fit_is_refused(tmp_path):
    # 40 mm hexes: 12.5 x 40 / sqrt 3 = 288.7 mm wide, more than the 277 mm inside the margins; the page
    # it needs: 288.7 + 2 x 10 = 309 mm wide, and 22 + 5.5 x 40 + 6 + 36.4 (the legend) + 10 = 294 mm tall
    with pytest.raises(DataError) as refused:
        map_page(harbour_map(tmp_path, grid=("hex_mm: 24", "hex_mm: 40")))
    message = str(refused.value)
    assert message.startswith("map harbour: ") and message.count("\n") == 0
    assert "309 x 294 mm" in message and "a4 landscape (297 x 210 mm)" in message
    # 17 columns (26 radii, 360 mm): too wide, though the panel under it fits
    with pytest.raises(DataError):
        map_page(harbour_map(tmp_path / "wide", grid=("columns: 8", "columns: 17")))
    # a panel 0.55 mm too tall in the band (24.1 mm hexes: the track wrapped under the box ends at 200.55)
    # takes the page's width, where the track sits beside the box
    page = map_page(harbour_map(tmp_path / "tall", boxes("kind: box", "kind: track, cells: 5"), ("hex_mm: 24", "hex_mm: 24.1")))
    assert close(page.title, (10, 10, 277, 12)) and close(page.items[1].box, (58, 160.55, 65, 16))
    # Letter landscape (259.4 mm inside): an 8-cell track (104 mm) ends 0.6 mm past the legend's gap
    with pytest.raises(DataError):
        map_page(harbour_map(tmp_path / "letter", boxes("kind: track, cells: 8"), ("paper: a4", "paper: letter")))
    # a panel that cannot fit under the grid even across the page: a box, a 5-cell track and an area
    hm = harbour_map(tmp_path / "panel", boxes("kind: box", "kind: track, cells: 5", "kind: area"))
    with pytest.raises(DataError):
        map_page(hm)
    # on a portrait page the legend (50..200) leaves 44 - 10 = 34 mm for boxes: not one fits
    with pytest.raises(DataError):
        map_page(harbour_map(tmp_path / "narrow", boxes("kind: box")), orientation="portrait")


def test_the_extent_is_clipped_to_the_page():
    page = MapPage(100.0, 80.0, Box(0.5, 0.5, 50, 5), Box(20, 10, 30, 30), (PanelItem("box", "b", Box(60, 20, 39.5, 10)),),
                   Box(10, 50, 40, 29.6))
    assert page.extent == Box(0.0, 0.0, 100.0, 80.0)
    inner = MapPage(100.0, 80.0, Box(5, 6, 50, 5), Box(20, 10, 30, 30), (), Box(10, 50, 40, 20))
    assert inner.extent == Box(4.0, 5.0, 52.0, 66.0)


def test_a_page_layout_cannot_be_changed_once_made(tmp_path):
    """map_page's numbers are what draw.py and the tiling both follow: neither may alter them in place."""
    import dataclasses
    page = map_page(harbour_map(tmp_path, boxes("kind: box")))
    for thing, field in ((page, "grid"), (page.items[0], "box")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(thing, field, Box(0, 0, 1, 1))
