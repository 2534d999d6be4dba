"""`pnp map GAME reach HEX --mp N [--unit TYPE]`: which hexes a unit can reach, at what cost.

Also `pnp map GAME info`: the map's size, terrain counts and places (what the build draws).
"""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from solver.errors import DataError, Problem

if TYPE_CHECKING:  # imported when a command runs, so that `pnp --help` starts fast
    from solver.game.map import HexMap


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("map", help="hex map queries: reach (movement), info")
    p.add_argument("game", help="game id or folder with a map.yaml")
    msub = p.add_subparsers(dest="map_command", required=True, metavar="QUERY")

    r = msub.add_parser("reach", help="hexes reachable from HEX with N movement points")
    r.add_argument("hex", help="start hex label, e.g. M17")
    r.add_argument("--mp", type=int, required=True, help="movement points")
    r.add_argument("--unit", default=None, help="unit kind from map.yaml movement.units (default: its default_unit)")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_reach)

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
