"""Benchmark: the packed print (`pnp build --layout packed`) of every example game.

Per game: the sheets of paper its pieces take printed one component at a time (each on its own
grid), packed by the CP-SAT model, packed by the greedy first-fit-decreasing start alone, the area
bound (the pieces' area with bleed over one sheet's printable area, rounded up), the gap to it,
whether the solver proved its layout the fewest this cut structure allows, and the solve time (both
orientations, no drawing).

    python3 bench/bench_pack.py [--paper a4] [--layout duplex|gutterfold] [GAME ...]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.context import PAPER_MM, BuildContext  # noqa: E402
from generator.pieces import pack as packmod  # noqa: E402
from generator.pieces.packed import area_bound, own_sheets, printed_groups, problem, regions  # noqa: E402
from solver.game.folders import game_ids
from solver.game.loader import load_game  # noqa: E402


def row(game_id: str, ctx: BuildContext) -> str:
    game = load_game(game_id)
    groups = printed_groups(game, ctx, game.meta.source_language)
    kinds, pieces, too_large = problem(groups, ctx)
    demand = tuple(len(p) for p in pieces)
    portrait, landscape = regions(ctx)
    shapes = ((packmod.units(portrait[0]), packmod.units(portrait[1])),
              (packmod.units(landscape[0]), packmod.units(landscape[1])))
    greedy = min([len(packmod.greedy(kinds, demand, *shape)) for shape in shapes]
                 + [len(packmod.greedy_mixed(kinds, demand, shapes))]) if any(demand) else 0
    packmod.pack.cache_clear()
    start = time.perf_counter()
    result = packmod.pack(kinds, demand, (portrait, landscape))
    seconds = time.perf_counter() - start
    own = sum(own_sheets(g, ctx) for g in groups)
    packed = len(result.sheets) + sum(own_sheets(g, ctx) for g in too_large)
    bound = area_bound(kinds, pieces, ctx)
    return (f"{game_id:<28} {sum(demand):>6} {len(kinds):>5} {own:>9} {greedy:>7} {packed:>7} {bound:>6} "
            f"{packed - bound:>4} {'yes' if result.optimal else 'no':>7} {seconds:>8.2f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", help="game ids (default: every example)")
    p.add_argument("--paper", default="a4", choices=sorted(PAPER_MM))
    p.add_argument("--layout", default="duplex", choices=["duplex", "gutterfold"])
    args = p.parse_args()
    ctx = BuildContext(paper=args.paper, sheet_layout=args.layout, packed=True)
    print(f"paper {args.paper}, {args.layout}; solver: deterministic limit {packmod.DETERMINISTIC_LIMIT}, "
          f"one worker; greedy: the best greedy start")
    print(f"{'game':<28} {'pieces':>6} {'kinds':>5} {'per comp.':>9} {'greedy':>7} {'packed':>7} {'bound':>6} "
          f"{'gap':>4} {'proved':>7} {'solve s':>8}")
    for gid in args.games or game_ids():
        print(row(gid, ctx), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
