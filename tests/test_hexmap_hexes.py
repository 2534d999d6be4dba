"""Hex-grid mathematics (solver/hexmap/hexes.py) against oracles computed here another way:
distances by breadth-first search over the six neighbours, rounding and lines by the nearest hex
centre in the plane, rings and spirals as sets of hexes at a distance, labels by their round trip
and by corners worked out by hand.
"""
from __future__ import annotations

import itertools
import math
from collections import deque

import pytest

from solver.hexmap.hexes import (DIRECTIONS, Hex, Labeller, Offset, hex_round, hexside, letters, line,
                                 make_grid)

R3 = math.sqrt(3)
STEPS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]  # Red Blob's axial neighbours, written out


def plane(q: float, r: float) -> tuple[float, float]:
    """Centre of axial (q, r) in the plane, pointy-top, corner radius 1 (Red Blob's formula)."""
    return R3 * q + R3 / 2 * r, 1.5 * r


def bfs_distances(start: tuple[int, int], radius: int) -> dict[tuple[int, int], int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        q, r = queue.popleft()
        if seen[q, r] == radius:
            continue
        for dq, dr in STEPS:
            n = (q + dq, r + dr)
            if n not in seen:
                seen[n] = seen[q, r] + 1
                queue.append(n)
    return seen


def test_distance_is_the_fewest_steps_between_neighbours():
    dist = bfs_distances((0, 0), 6)
    for (q, r), d in dist.items():
        for start in (Hex(0, 0), Hex(3, -2)):
            assert start.distance(start + Hex(q, r)) == d
            assert Hex(q, r).length() == d
    assert Hex(2, -5).s == 3 and Hex(4, 1).scale(-2) == Hex(-8, -2) and Hex(1, 2) - Hex(3, -1) == Hex(-2, 3)


def test_neighbours_are_the_six_steps_in_order_and_directions_wrap():
    h = Hex(2, -3)
    assert [(n.q - h.q, n.r - h.r) for n in h.neighbours()] == STEPS
    assert [h.neighbour(i) for i in range(6)] == h.neighbours()
    assert h.neighbour(6) == h.neighbour(0) and h.neighbour(-1) == h.neighbour(5) and h.neighbour(13) == h.neighbour(1)


@pytest.mark.parametrize("radius", [0, 1, 2, 3])
def test_rings_and_spirals_are_the_hexes_at_each_distance(radius):
    centre = Hex(1, -2)
    dist = bfs_distances((1, -2), radius)
    ring = centre.ring(radius)
    assert sorted(ring) == sorted(Hex(q, r) for (q, r), d in dist.items() if d == radius)
    assert len(ring) == max(1, 6 * radius)
    if radius:
        # a ring walks round: it starts radius steps in direction 4 and each hex touches the next
        assert ring[0] == Hex(1 - radius, -2 + radius)
        assert all(a.distance(b) == 1 for a, b in zip(ring, ring[1:] + ring[:1]))
    spiral = centre.spiral(radius)
    assert sorted(spiral) == sorted(Hex(q, r) for (q, r) in dist)
    assert [centre.distance(h) for h in spiral] == sorted(centre.distance(h) for h in spiral)


def nearest(x: float, y: float) -> Hex:
    """The hex whose centre is nearest the plane point (x, y), searched over a neighbourhood."""
    r0 = round(y / 1.5)
    q0 = round((x - R3 / 2 * r0) / R3)
    best = min(((q0 + dq, r0 + dr) for dq in range(-2, 3) for dr in range(-2, 3)),
               key=lambda c: math.dist(plane(*c), (x, y)))
    return Hex(*best)


def gap(h: Hex, point: tuple[float, float]) -> float:
    return math.dist(plane(h.q, h.r), point)


def test_rounding_finds_the_hex_whose_centre_is_nearest():
    steps = [i / 7 - 3 for i in range(43)]
    for q, r in itertools.product(steps, steps):
        point = plane(q, r)
        # a point on a hexside is as near to both hexes: either will do
        assert gap(hex_round(q, r), point) == pytest.approx(gap(nearest(*point), point), abs=1e-9), (q, r)
        assert hex_round(q, r).distance(nearest(*point)) <= 1


@pytest.mark.parametrize("a", [Hex(0, 0), Hex(3, -1), Hex(-2, 5)])  # from the origin and away from it
@pytest.mark.parametrize("b", [Hex(0, 0), Hex(5, -2), Hex(-3, 4), Hex(2, 2), Hex(-4, -1), Hex(0, -6)])
def test_a_line_steps_through_neighbours_along_the_nearest_hexes(a, b):
    hexes = line(a, b)
    n = a.distance(b)
    assert len(hexes) == n + 1 and hexes[0] == a and hexes[-1] == b
    assert all(x.distance(y) == 1 for x, y in zip(hexes, hexes[1:]))
    (ax, ay), (bx, by) = plane(a.q, a.r), plane(b.q, b.r)
    for i, h in enumerate(hexes):
        t = i / n if n else 0
        point = (ax + (bx - ax) * t, ay + (by - ay) * t)
        # the line's hex is a nearest one to the point a fraction of the way (ties: either)
        assert gap(h, point) <= gap(nearest(*point), point) + 1e-5


def test_a_hexside_is_named_by_its_two_hexes_in_order():
    a, b = Hex(0, 0), Hex(1, -1)
    assert hexside(a, b) == hexside(b, a) == (Hex(0, 0), Hex(1, -1))
    with pytest.raises(ValueError):
        hexside(a, Hex(2, 0))
    with pytest.raises(ValueError):
        hexside(a, a)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("parity", ["odd", "even"])
def test_a_grid_holds_exactly_its_rectangle_column_by_column(orientation, parity):
    g = make_grid(orientation, parity, 4, 3)
    assert [(g.to_offset(h).col, g.to_offset(h).row) for h in g.hexes()] == [(c, r) for c in range(4) for r in range(3)]
    inside = {h for h in g.hexes()}
    for q, r in itertools.product(range(-6, 8), repeat=2):
        h = Hex(q, r)
        assert g.contains(h) == (h in inside)


CORNERS = {  # (origin, the offset labelled first) on a 3 x 2 grid
    "top-left": Offset(0, 0), "top-right": Offset(2, 0), "bottom-left": Offset(0, 1), "bottom-right": Offset(2, 1)}


@pytest.mark.parametrize("origin", list(CORNERS))
@pytest.mark.parametrize("style", ["xxyy", "letter-number"])
@pytest.mark.parametrize("first", [0, 1])
def test_labels_count_from_their_corner_and_read_back(origin, style, first):
    lab = Labeller(style, 3, 2, origin=origin, first=first)
    start = "A" if style == "letter-number" else "00"
    assert lab.label(CORNERS[origin]) == f"{start}{first}" if style == "letter-number" else f"0{first}0{first}"
    labels = {}
    for c, r in itertools.product(range(3), range(2)):
        text = lab.label(Offset(c, r))
        assert lab.parse(text) == Offset(c, r)
        labels[text] = (c, r)
    assert len(labels) == 6
    # labels one past the grid, or malformed, are not this grid's
    past = f"D{first}" if style == "letter-number" else f"0{first + 3}0{first}"
    below = f"A{first + 2}" if style == "letter-number" else f"0{first}0{first + 2}"
    for bad in (past, below, "", "a1", "1A", "0", "A", "01011"):
        assert lab.parse(bad) is None, bad


def test_label_width_grows_with_the_largest_number():
    assert Labeller("xxyy", 99, 5).label(Offset(98, 4)) == "9905"
    assert Labeller("xxyy", 100, 5).label(Offset(99, 4)) == "100005"
    assert Labeller("xxyy", 100, 5, first=0).label(Offset(99, 4)) == "9904"
    assert Labeller("xxyy", 5, 100, first=0).label(Offset(4, 99)) == "0499"
    assert Labeller("xxyy", 5, 101, first=0).label(Offset(4, 100)) == "004100"
    assert Labeller("xxyy", 5, 100, first=0).parse("0499") == Offset(4, 99)
    assert [letters(n) for n in (0, 25, 26, 51, 52, 701, 702)] == ["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA"]
    assert DIRECTIONS[2] == Hex(0, -1)
