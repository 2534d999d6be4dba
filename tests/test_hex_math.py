"""Hex maths against Red Blob Games' formulas: centres, offset neighbours, labels, hexsides."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from generator.hexmap.geometry import PaperGrid
from solver.hexmap.hexes import (DIRECTIONS, Hex, Labeller, Offset, common_neighbours, letters, letters_index,
                          make_grid, side_vertices)


def on_paper(orientation: str, parity: str, hex_mm: float, columns: int, rows: int) -> PaperGrid:
    return PaperGrid(make_grid(orientation, parity, columns, rows), hex_mm)  # type: ignore[arg-type]  # parity: a str here

R3 = math.sqrt(3)

# Red Blob's offset neighbour tables, (dcol, drow), keyed by (orientation, parity, parity of the
# staggered index). Written out here rather than derived, so the test cannot share a bug with the code.
NEIGHBOUR_TABLES = {
    ("flat", "odd", 0): {(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)},
    ("flat", "odd", 1): {(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)},
    ("flat", "even", 0): {(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)},
    ("flat", "even", 1): {(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)},
    ("pointy", "odd", 0): {(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)},
    ("pointy", "odd", 1): {(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)},
    ("pointy", "even", 0): {(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)},
    ("pointy", "even", 1): {(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)},
}


def offset_pixel(orientation: str, parity: str, size: float, o: Offset) -> tuple[float, float]:
    """Red Blob's offset-to-pixel formulas, written per case (size = corner radius)."""
    k = 1 if parity == "odd" else -1
    if orientation == "flat":
        return size * 1.5 * o.col, size * R3 * (o.row + k * 0.5 * (o.col & 1))
    return size * R3 * (o.col + k * 0.5 * (o.row & 1)), size * 1.5 * o.row


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("parity", ["odd", "even"])
@pytest.mark.parametrize("hex_mm", [19.0, 12.7])
def test_centres_match_offset_formulas(orientation, parity, hex_mm):
    g = on_paper(orientation, parity, hex_mm, 9, 7)
    radius = hex_mm / R3  # hex_mm is across the flats, which are sqrt 3 corner radii apart
    assert g.radius == pytest.approx(radius)
    ref = Offset(0, 0)
    rx, ry = offset_pixel(orientation, parity, radius, ref)
    cx0, cy0 = g.centre(g.grid.to_cube(ref))
    for c in range(9):
        for r in range(7):
            o = Offset(c, r)
            fx, fy = offset_pixel(orientation, parity, radius, o)
            cx, cy = g.centre(g.grid.to_cube(o))
            assert abs((cx - cx0) - (fx - rx)) < 0.01
            assert abs((cy - cy0) - (fy - ry)) < 0.01


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("parity", ["odd", "even"])
def test_grid_starts_at_origin_and_size_matches(orientation, parity):
    g = on_paper(orientation, parity, 19.0, 40, 30)
    xs = [x for h in g.grid.hexes() for x, _ in g.corners(h)]
    ys = [y for h in g.grid.hexes() for _, y in g.corners(h)]
    assert min(xs) == pytest.approx(0, abs=1e-9) and min(ys) == pytest.approx(0, abs=1e-9)
    w, h = g.size_mm()
    assert max(xs) == pytest.approx(w) and max(ys) == pytest.approx(h)
    if orientation == "flat":  # 40 columns of 1.5 R pitch plus half a hex, 30.5 rows of 19 mm
        assert w == pytest.approx(1.5 * (19.0 / R3) * 39 + 2 * (19.0 / R3))
        assert h == pytest.approx(19.0 * 30.5)


@pytest.mark.parametrize("orientation,parity,stagger", list(NEIGHBOUR_TABLES))
def test_offset_neighbours_follow_red_blob_tables(orientation, parity, stagger):
    g = make_grid(orientation, parity, 8, 8)
    o = Offset(4 + stagger, 3) if orientation == "flat" else Offset(3, 4 + stagger)
    got = {(n.col - o.col, n.row - o.row) for n in (g.to_offset(h) for h in g.to_cube(o).neighbours())}
    assert got == NEIGHBOUR_TABLES[(orientation, parity, stagger)]


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("parity", ["odd", "even"])
def test_neighbours_on_grid_at_edges(orientation, parity):
    g = make_grid(orientation, parity, 6, 5)
    for o in (Offset(0, 0), Offset(5, 0), Offset(0, 4), Offset(5, 4), Offset(1, 0), Offset(0, 1)):
        h = g.to_cube(o)
        on = [n for n in h.neighbours() if g.contains(n)]
        stagger = (o.col if orientation == "flat" else o.row) & 1
        table = NEIGHBOUR_TABLES[(orientation, parity, stagger)]
        expect = {(o.col + dc, o.row + dr) for dc, dr in table
                  if 0 <= o.col + dc < 6 and 0 <= o.row + dr < 5}
        assert {(g.to_offset(n).col, g.to_offset(n).row) for n in on} == expect


@given(st.integers(-50, 50), st.integers(-50, 50), st.sampled_from(["flat", "pointy"]),
       st.sampled_from(["odd", "even"]))
def test_offset_roundtrip(q, r, orientation, parity):
    g = make_grid(orientation, parity, 1, 1)
    h = Hex(q, r)
    assert g.to_cube(g.to_offset(h)) == h


def test_neighbour_centres_are_one_hex_apart():
    for orientation in ("flat", "pointy"):
        g = on_paper(orientation, "odd", 19, 5, 5)
        h = g.grid.to_cube(Offset(2, 2))
        cx, cy = g.centre(h)
        for n in h.neighbours():
            nx, ny = g.centre(n)
            assert math.hypot(nx - cx, ny - cy) == pytest.approx(19.0)


def test_compass_directions_flat_and_pointy():
    g = make_grid("flat", "even", 26, 28)
    lab = Labeller("letter-number", 26, 28)
    at = lambda s: g.to_cube(lab.parse(s))
    assert g.compass(at("N15"), at("N16")) == "S"
    assert sorted(g.compass(at("I13"), n) for n in at("I13").neighbours()) == sorted(
        ["N", "NE", "SE", "S", "SW", "NW"])
    p = make_grid("pointy", "odd", 5, 5)
    h = p.to_cube(Offset(2, 2))
    assert sorted(p.compass(h, n) for n in h.neighbours()) == sorted(["E", "NE", "NW", "W", "SW", "SE"])


def test_distance_and_ring():
    h = Hex(2, -1)
    assert all(h.distance(n) == 1 for n in h.neighbours())
    assert len(h.ring(2)) == 12 and all(h.distance(x) == 2 for x in h.ring(2))
    assert len(set(h.spiral(2))) == 19


def test_hexside_vertices_are_shared():
    a = Hex(0, 0)
    b = a + DIRECTIONS[0]
    c1, c2 = common_neighbours(a, b)
    assert c1.distance(a) == c1.distance(b) == 1 and c2.distance(a) == c2.distance(b) == 1
    v1, v2 = side_vertices(a, b)
    assert len(v1) == len(v2) == 3 and v1 != v2
    g = on_paper("flat", "odd", 10, 4, 4)
    p1, p2 = (g.vertex_point(v) for v in (v1, v2))
    assert math.hypot(p1[0] - p2[0], p1[1] - p2[1]) == pytest.approx(10 / R3)  # a side is R = 10 / sqrt 3 long


def test_labels_xxyy_and_letter_number():
    lab = Labeller("xxyy", 40, 30)
    assert lab.label(Offset(0, 0)) == "0101"
    assert lab.label(Offset(12, 16)) == "1317"
    assert lab.parse("1317") == Offset(12, 16)
    assert lab.parse("4131") is None and lab.parse("117") is None
    bl = Labeller("xxyy", 40, 30, origin="bottom-left")
    assert bl.label(Offset(0, 29)) == "0101" and bl.label(Offset(0, 0)) == "0130"
    tr = Labeller("letter-number", 26, 28, origin="top-right")
    assert tr.label(Offset(25, 0)) == "A1"
    ln = Labeller("letter-number", 30, 28)
    assert ln.label(Offset(12, 16)) == "M17" and ln.parse("M17") == Offset(12, 16)
    assert ln.label(Offset(27, 0)) == "AB1" and ln.parse("AB1") == Offset(27, 0)
    z = Labeller("xxyy", 10, 10, first=0)
    assert z.label(Offset(0, 0)) == "0000"
    wide = Labeller("xxyy", 120, 5)
    assert wide.label(Offset(101, 2)) == "102003"


@given(st.integers(0, 700))
def test_letters_roundtrip(n):
    assert letters_index(letters(n)) == n
