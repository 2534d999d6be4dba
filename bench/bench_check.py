"""Time `pnp check --all` and print the figure (the aim: under 2 s on a 2-core machine).

    python3 bench/bench_check.py [--runs 3]

Prints the best wall time of whole command runs (a fresh interpreter each, as a user sees it),
then where the time goes inside one process: loading each game, and each registered check.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def whole_command(runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "generator.cli", "check", "--all", "--json"], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def breakdown() -> list[tuple[str, float]]:
    from solver.checks import check_functions
    from solver.errors import DataError
    from solver.game.loader import game_ids, load_game

    rows: list[tuple[str, float]] = []
    start = time.perf_counter()
    checks = check_functions()
    rows.append(("import checks", time.perf_counter() - start))
    games = []
    start = time.perf_counter()
    for gid in game_ids():
        try:
            games.append(load_game(gid))
        except DataError as e:  # a game being edited: time the others
            print(f"  (skipped {gid}: {len(e.problems)} data problem(s))")
    rows.append(("load all games", time.perf_counter() - start))
    for check in checks:
        start = time.perf_counter()
        for game in games:
            check(game)
        rows.append((f"{check.__module__}:{check.__name__}", time.perf_counter() - start))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    total = whole_command(args.runs)
    print(f"pnp check --all: {total:.2f} s (best of {args.runs})")
    for name, seconds in breakdown():
        print(f"  {name:45s} {seconds:6.3f} s (one process, serial)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
