"""Movement reach (solver/hexmap/movement.py) on small two-dimensional maps of mixed terrain,
against shortest paths computed here by Floyd-Warshall over Red Blob's offset neighbour table
(written out, not derived from the module): every hex within the movement points at its cheapest
cost, and, for units that may go all in (9.18), every unaffordable hex next to one reached with
points to spare.
"""
from __future__ import annotations

import itertools
import json
import random

import pytest

from solver.game.map import MapFile
from solver.hexmap.movement import reach

COLUMNS, ROWS = 4, 3
COST = {"clear": 1, "forest": 2, "hills": 3, "mountain": None}
# flat-top, odd columns shifted down: (dcol, drow) of the six neighbours by column parity
NEIGHBOURS = {0: [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)],
              1: [(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)]}


def label(c: int, r: int) -> str:
    return f"{c + 1:02d}{r + 1:02d}"


def map_of(terrain: dict[tuple[int, int], str]) -> MapFile:
    areas: dict[str, list[str]] = {}
    for (c, r), kind in sorted(terrain.items()):
        if kind != "clear":
            areas.setdefault(kind, []).append(label(c, r))
    data = {
        "id": "patch", "name": "patch", "reconstruction": True, "paper": "a4",
        "grid": {"orientation": "flat", "offset": "odd", "hex_mm": 20, "columns": COLUMNS, "rows": ROWS},
        "labels": {"style": "xxyy"},
        "terrain": {"default": "clear", "kinds": {k: {"name": k, "fill": "#eeeeee", "move_cost": v}
                                                  for k, v in COST.items()},
                    "areas": [{"terrain": k, "hexes": v} for k, v in areas.items()]},
        "movement": {"minor_river": 1, "major_river_crossing": 3, "road_cost": 1, "road_march_bonus": [],
                     "units": {"troops": {"all_in": True}, "fellowship": {"all_in": False}}},
        "legend": {"title": "t", "note": "n"},
    }
    return MapFile.model_validate(json.loads(json.dumps(data)))


def cheapest(terrain, start) -> dict[tuple[int, int], float]:
    """Floyd-Warshall: entering a hex costs its terrain; mountains are never entered nor left."""
    cells = list(itertools.product(range(COLUMNS), range(ROWS)))
    inf = float("inf")
    d = {(a, b): (0 if a == b else inf) for a in cells for b in cells}
    for c, r in cells:
        if COST[terrain[c, r]] is None:
            continue
        for dc, dr in NEIGHBOURS[c % 2]:
            n = (c + dc, r + dr)
            if n in terrain and COST[terrain[n]] is not None:
                d[(c, r), n] = COST[terrain[n]]
    for k, a, b in itertools.product(cells, cells, cells):
        if d[a, k] + d[k, b] < d[a, b]:
            d[a, b] = d[a, k] + d[k, b]
    return {b: d[start, b] for b in cells}


@pytest.mark.parametrize("seed", range(6))
def test_reach_is_every_hex_within_the_points_at_its_cheapest_cost(seed):
    rnd = random.Random(seed)
    terrain = {(c, r): rnd.choice(list(COST)) for c in range(COLUMNS) for r in range(ROWS)}
    start = (rnd.randrange(COLUMNS), rnd.randrange(ROWS))
    terrain[start] = "clear"
    hm = map_of(terrain).resolve()
    best = cheapest(terrain, start)
    for mp, unit in itertools.product(range(0, 6), ("fellowship", "troops")):
        got = {r.label: (r.cost, r.mode) for r in reach(hm, label(*start), mp, unit)}
        expect = {label(*h): (int(c), "normal") for h, c in best.items() if c <= mp}
        expect[label(*start)] = (0, "start")
        if unit == "troops":  # 9.18: one more hex entered for all the points, from a hex left with some
            for (c, r), cost in best.items():
                if cost >= mp:
                    continue
                for dc, dr in NEIGHBOURS[c % 2]:
                    n = (c + dc, r + dr)
                    if n in terrain and COST[terrain[n]] is not None and label(*n) not in expect:
                        expect[label(*n)] = (mp, "all-in")
        assert got == expect, (seed, mp, unit)
        # listed cheapest first
        listed = reach(hm, label(*start), mp, unit)
        assert [r.cost for r in listed] == sorted(r.cost for r in listed)
