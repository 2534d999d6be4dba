"""A hex grid on paper (generator/hexmap/geometry.py) worked by hand for hexes of radius 10 mm
(10 sqrt 3 = 17.32 mm across the flats): corners every 60 degrees from 0 (flat) or 30 (pointy), the
grid's box at the origin, the point where three hexes meet and the two ends of a shared side."""
from __future__ import annotations

import math

import pytest

from generator.hexmap.geometry import PaperGrid, paper_grid
from solver.hexmap.hexes import Offset, make_grid

H = 10 * math.sqrt(3)      # across the flats of a hex of radius 10
HALF = H / 2               # 8.660


def grid(orientation: str, columns: int, rows: int, parity: str = "odd") -> PaperGrid:
    return PaperGrid(make_grid(orientation, parity, columns, rows), H)  # type: ignore[arg-type]


def points(pts) -> list[tuple[float, float]]:
    return [(round(x, 6) + 0.0, round(y, 6) + 0.0) for x, y in pts]


def test_corners_of_flat_and_pointy_hexes():
    flat = grid("flat", 1, 1)
    assert flat.radius == pytest.approx(10.0)
    assert points(flat.corner_offset(i) for i in range(6)) == points(
        [(10, 0), (5, HALF), (-5, HALF), (-10, 0), (-5, -HALF), (5, -HALF)])
    pointy = grid("pointy", 1, 1)
    assert points(pointy.corner_offset(i) for i in range(6)) == points(
        [(HALF, 5), (0, 10), (-HALF, 5), (-HALF, -5), (0, -10), (HALF, -5)])


def test_one_hex_sits_at_the_origin():
    flat = grid("flat", 1, 1)
    h = flat.grid.to_cube(Offset(0, 0))
    assert flat.centre(h) == pytest.approx((10, HALF))
    assert points(flat.corners(h)) == points([(20, HALF), (15, H), (5, H), (0, HALF), (5, 0), (15, 0)])
    assert flat.size_mm() == pytest.approx((20, H))
    pointy = grid("pointy", 1, 1)
    assert pointy.size_mm() == pytest.approx((H, 20))
    assert pointy.centre(pointy.grid.to_cube(Offset(0, 0))) == pytest.approx((HALF, 10))


def test_a_flat_grid_two_by_two_with_odd_columns_pushed_down():
    g = grid("flat", 2, 2)
    at = {(c, r): g.grid.to_cube(Offset(c, r)) for c in range(2) for r in range(2)}
    # columns 15 mm apart (1.5 radii); column 1 half a hex lower; rows one hex (17.32 mm) apart
    assert g.centre(at[0, 0]) == pytest.approx((10, HALF))
    assert g.centre(at[0, 1]) == pytest.approx((10, HALF + H))
    assert g.centre(at[1, 0]) == pytest.approx((25, H))
    assert g.centre(at[1, 1]) == pytest.approx((25, 2 * H))
    assert g.size_mm() == pytest.approx((35, 2.5 * H))
    # (0,0), (1,0) and (0,1) meet at the corner between them: (15, H)
    assert g.vertex_point(frozenset((at[0, 0], at[1, 0], at[0, 1]))) == pytest.approx((15, H))
    # (0,0) above (0,1): their shared side runs along y = H from x 5 to 15
    ends = sorted(points(g.side_points(at[0, 0], at[0, 1])))
    assert ends == points([(5, H), (15, H)])
    # (0,0) beside (1,0): the side from (15, H) up to (20, HALF)
    assert sorted(points(g.side_points(at[0, 0], at[1, 0]))) == points([(15, H), (20, HALF)])


def test_paper_grid_is_made_once_per_grid_and_size():
    class Data:
        class grid:
            hex_mm = H

    class Map:
        grid = make_grid("flat", "odd", 3, 2)
        data = Data

    first = paper_grid(Map)  # type: ignore[arg-type]
    assert paper_grid(Map) is first and first.hex_mm == H  # type: ignore[arg-type]
    assert first.size_mm() == pytest.approx((50, 2.5 * H))


def test_a_paper_grid_cannot_be_changed_once_made():
    """paper_grid hands one PaperGrid to every drawing of a map: none may alter its size in place."""
    import dataclasses
    g = grid("flat", 2, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.hex_mm = 5.0  # type: ignore[misc]
