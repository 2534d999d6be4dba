"""`pnp map GAME reach HEX --mp N [--unit TYPE]`: which hexes a unit can reach, at what cost.

Also `pnp map GAME neighbours HEX`: the six hexes around one, with their compass direction on the
printed map (no `movement:` needed), and `pnp map GAME info`: the map's size, terrain counts and
places (what the build draws).
"""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from solver.errors import DataError, Problem

if TYPE_CHECKING:  # imported when a command runs, so that `pnp --help` starts fast
    from solver.game.map import HexMap


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("map", help="hex map queries: neighbours, reach (movement), info")
    p.add_argument("game", help="game id or folder with a map.yaml")
    msub = p.add_subparsers(dest="map_command", required=True, metavar="QUERY")

    r = msub.add_parser("reach", help="hexes reachable from HEX with N movement points")
    r.add_argument("hex", help="start hex label, e.g. M17")
    r.add_argument("--mp", type=int, required=True, help="movement points")
    r.add_argument("--unit", default=None, help="unit kind from map.yaml movement.units (default: its default_unit)")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_reach)

    n = msub.add_parser("neighbours", aliases=["neighbors"],
                        help="the six hexes around HEX: direction, label, terrain, place, river or road between")
    n.add_argument("hex", help="hex label, e.g. 0303 or M17")
    n.add_argument("--json", action="store_true")
    n.set_defaults(func=cmd_neighbours)

    i = msub.add_parser("info", help="size, terrain and places of the map")
    i.add_argument("--json", action="store_true")
    i.set_defaults(func=cmd_info)


def game_map(game_id: str) -> HexMap:
    from solver.game.loader import load_game

    game = load_game(game_id)
    mapfile = game.extras.get("map")
    if mapfile is None:
        raise DataError([Problem(str(game.folder / "map.yaml"), 0, 0, "this game has no map",
                                 "add a map.yaml (its keys: docs/vocabulary.md, under map.yaml)")])
    return mapfile.resolve(game.locators.get("map.yaml"))


def cmd_reach(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table
    from solver.hexmap.movement import reach

    hm = game_map(args.game)
    rows = reach(hm, args.hex, args.mp, args.unit)
    if args.json:
        print(json.dumps([{"hex": r.label, "cost": r.cost, "mode": r.mode} for r in rows], ensure_ascii=False, indent=2))
        return 0
    t = Table(title=f"reach from {args.hex} with {args.mp} MP ({args.unit or (hm.data.movement and hm.data.movement.default_unit) or 'default'})")
    for col in ("hex", "cost", "how", "terrain", "place"):
        t.add_column(col)
    for r in rows:
        h = hm.hex(r.label)
        place = ", ".join(p.id for p in hm.places_at.get(h, []))
        t.add_row(r.label, str(r.cost), r.mode, hm.terrain[h], place)
    Console().print(t)
    print(f"{len(rows)} hexes")
    return 0


COMPASS = ("E", "SE", "S", "SW", "W", "NW", "N", "NE")  # clockwise from east, y down as on paper


def neighbour_rows(hm: HexMap, label: str) -> list[dict[str, str]]:
    """The hexes around `label` in clockwise order from the top: their compass direction (from
    where they lie on the printed map), label, terrain, places, and what lies on the hexside
    between (a river, a road). Needs no `movement:` section; a hex off the map is left out."""
    import math

    from generator.hexmap.geometry import paper_grid
    from solver.hexmap.hexes import hexside

    h = hm.find(label)
    if h is None or not hm.on_map(h):
        raise DataError([Problem(label, 0, 0, f"{label!r} is not a hex of this map",
                                 f"use a label such as {hm.label(next(iter(hm.terrain)))} (`pnp map GAME info`)")])
    grid = paper_grid(hm)
    (x0, y0), rows = grid.centre(h), []
    for n in hm.neighbours(h):
        x, y = grid.centre(n)
        angle = math.degrees(math.atan2(y - y0, x - x0)) % 360
        between = [f"river {hm.river_sides[hexside(h, n)].id}"] if hexside(h, n) in hm.river_sides else []
        between += ["road"] if (h, n) in hm.road_steps else []
        rows.append({"direction": COMPASS[round(angle / 45) % 8], "hex": hm.label(n), "terrain": hm.terrain[n],
                     "place": ", ".join(p.id for p in hm.places_at.get(n, [])), "between": ", ".join(between),
                     "_order": str((angle + 90) % 360).zfill(8)})
    rows.sort(key=lambda r: float(r.pop("_order")))
    return rows


def cmd_neighbours(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    hm = game_map(args.game)
    rows = neighbour_rows(hm, args.hex)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    t = Table(title=f"neighbours of {args.hex} ({hm.data.grid.orientation}-top hexes, offset {hm.data.grid.offset})")
    for col in ("direction", "hex", "terrain", "place", "between"):
        t.add_column(col)
    for r in rows:
        t.add_row(*(r[c] for c in ("direction", "hex", "terrain", "place", "between")))
    Console().print(t)
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from solver.hexmap.mapcheck import summary

    hm = game_map(args.game)
    data = summary(hm)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    for k, v in data.items():
        print(f"{k}: {v}")
    return 0
