"""The plane geometry the pieces' record judges a sheet with (generator/pieces/shapes.py), against
plain definitions: which boxes meet a window (every pair tested one by one), and whether a window
lies inside a rounded rect (each of its corners within the radius of the rect's core, sampled
along the window's edges too)."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from generator.pieces.shapes import meeting, rect_covers

COORD = st.floats(0, 50, allow_nan=False).map(lambda v: round(v, 1))  # coarse: edges meet exactly at times


def _box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    return (x, y, x + w, y + h)


BOXES = st.lists(st.builds(_box, COORD, COORD, COORD, COORD), max_size=40)


@settings(max_examples=200, deadline=None)
@given(BOXES, BOXES)
def test_the_boxes_meeting_each_window_are_those_that_overlap_it(boxes, windows):
    """Per window, in order, the boxes whose insides overlap its inside (a shared edge is no
    overlap), ascending; windows beyond the first few dozen included."""
    windows = windows + windows  # more than one batch of 32 when the list is long
    got = list(meeting(np.array(boxes, dtype=np.float64).reshape(-1, 4), np.array(windows, dtype=np.float64).reshape(-1, 4)))
    want = [[i for i, b in enumerate(boxes) if b[0] < w[2] and w[0] < b[2] and b[1] < w[3] and w[1] < b[3]] for w in windows]
    assert got == want


def _inside_rounded(p: tuple[float, float], b: tuple[float, float, float, float], r: float) -> bool:
    """A point is inside a rect with corners rounded by r when it is within r of the rect shrunk by r."""
    dx = max(b[0] + r - p[0], 0.0, p[0] - (b[2] - r))
    dy = max(b[1] + r - p[1], 0.0, p[1] - (b[3] - r))
    return b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3] and math.hypot(dx, dy) <= r + 1e-9


@settings(max_examples=300, deadline=None)
@given(st.builds(_box, COORD, COORD, COORD.map(lambda v: v + 4), COORD.map(lambda v: v + 4)), st.floats(0, 2),
       st.builds(_box, COORD, COORD, COORD, COORD))
def test_a_rounded_rect_covers_a_window_whose_every_point_is_inside(b, r, w):
    """`rect_covers` says yes exactly when every point of the window is inside the rounded rect
    (a rounded rect is convex: its corners decide; points along the edges are sampled besides),
    away from the boundary's rounding (1e-6 mm)."""
    points = [(w[0] + (w[2] - w[0]) * t, y) for t in np.linspace(0, 1, 9) for y in (w[1], w[3])]
    points += [(x, w[1] + (w[3] - w[1]) * t) for t in np.linspace(0, 1, 9) for x in (w[0], w[2])]
    inside = all(_inside_rounded(p, b, r) for p in points)
    if inside == all(_inside_rounded(p, b, r - 1e-6) for p in points):  # not on the edge
        assert rect_covers(b, r)(w) == inside
