"""Plane geometry for generator/pieces/drawn.py: what a recorded drawing call covers and touches,
in mm, y down (boxes as (x0, y0, x1, y1)): whether a window lies surely inside a rect (its rounded
corners), a convex polygon or a circle, or keeps clear of a stroked line's segments; which boxes
meet which windows."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import numpy as np

from ..pagetext import Rect


@dataclass
class Shape:
    """Something drawn on the page: its box (mm, y down, its clip applied), whether it is an opaque
    fill and how to tell whether it covers a window (`covers`), its colour; `inner` a stroked outline's
    inside, which it does not touch."""
    box: Rect
    fill: tuple[int, int, int] | None = None
    covers: Callable[[Rect], bool] | None = None
    inner: Callable[[Rect], bool] | None = None


def corners(w: Rect) -> list[tuple[float, float]]:
    return [(w[0], w[1]), (w[2], w[1]), (w[0], w[3]), (w[2], w[3])]


def in_box(w: Rect, b: Rect) -> bool:
    return b[0] <= w[0] and b[1] <= w[1] and w[2] <= b[2] and w[3] <= b[3]


def rect_covers(b: Rect, r: float) -> Callable[[Rect], bool]:
    def covers(w: Rect) -> bool:
        if not in_box(w, b):
            return False
        cx0, cy0, cx1, cy1 = b[0] + r, b[1] + r, b[2] - r, b[3] - r  # a rounded rect is convex: its corners in
        if (cx0 <= w[0] and w[2] <= cx1) or (cy0 <= w[1] and w[3] <= cy1):
            return True  # between the corners' arcs along one axis (a square rect's: always)
        return all(math.hypot(x - min(max(x, cx0), cx1), y - min(max(y, cy0), cy1)) <= r for x, y in corners(w))
    return covers


def circle_covers(cx: float, cy: float, r: float) -> Callable[[Rect], bool]:
    return lambda w: r > 0 and all(math.hypot(x - cx, y - cy) <= r for x, y in corners(w))


def polygon_covers(pts: Sequence[tuple[float, float]], inset: float) -> Callable[[Rect], bool] | None:
    """A convex polygon's test (each corner of a window at least `inset` inside every edge); None for another polygon."""
    n = len(pts)
    turns = [(pts[(i + 1) % n][0] - pts[i][0]) * (pts[(i + 2) % n][1] - pts[(i + 1) % n][1])
             - (pts[(i + 1) % n][1] - pts[i][1]) * (pts[(i + 2) % n][0] - pts[(i + 1) % n][0]) for i in range(n)]
    if not (all(t >= 0 for t in turns) or all(t <= 0 for t in turns)) or not any(turns):
        return None
    sign = 1 if sum(turns) > 0 else -1
    edges = []
    for i in range(n):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
        length = math.hypot(x1 - x0, y1 - y0)
        if length > 0:
            edges.append((x0, y0, (x1 - x0) / length, (y1 - y0) / length))

    def covers(w: Rect) -> bool:  # each corner on the inner side of every edge
        return all(sign * (dx * (y - y0) - dy * (x - x0)) >= inset for x0, y0, dx, dy in edges for x, y in corners(w))
    return covers


def clear_of(pts: Sequence[tuple[float, float]], reach: float) -> Callable[[Rect], bool]:
    """Whether a window keeps clear of every segment of a stroked line through `pts` (each
    segment's box widened by `reach`): inside a non-convex outline, away from its edges."""
    boxes = [outset((min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])), reach) for a, b in zip(pts, pts[1:])]
    return lambda w: not any(b[0] < w[2] and w[0] < b[2] and b[1] < w[3] and w[1] < b[3] for b in boxes)


def cut(b: Rect, clip: Rect | None) -> Rect:
    if clip is None:
        return b
    return max(b[0], clip[0]), max(b[1], clip[1]), min(b[2], clip[2]), min(b[3], clip[3])


def outset(b: Rect, d: float) -> Rect:
    return b[0] - d, b[1] - d, b[2] + d, b[3] + d


def meeting(boxes: np.ndarray, windows: np.ndarray) -> Iterator[list[int]]:
    """Per window (n x 4), the boxes (m x 4) that meet it, ascending; worked a few dozen windows at
    once (a page whose record cannot tell mostly fails at its first texts: a map's thousand labels
    over its thousands of hexes are not all met)."""
    for a in range(0, len(windows), 32):
        w = windows[a:a + 32, None, :]
        meet = (boxes[:, 0] < w[..., 2]) & (boxes[:, 2] > w[..., 0]) & (boxes[:, 1] < w[..., 3]) & (boxes[:, 3] > w[..., 1])
        rows, cols = np.nonzero(meet)
        at, met = np.searchsorted(rows, np.arange(len(w) + 1)).tolist(), cols.tolist()  # not np.split: an array a window
        yield from (met[a:b] for a, b in zip(at, at[1:]))
