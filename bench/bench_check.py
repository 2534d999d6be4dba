"""Time `pnp check --all` and print the figure (the aim: under 2 s on a 2-core machine).

    python3 bench/bench_check.py [--runs 3]

Prints the best wall time of whole command runs (a fresh interpreter each, as a user sees it) and
their least CPU time (the command and what it starts, msgfmt included: on a shared machine the
figure to compare), then where the time goes inside one process: loading each game, and each
registered check, in seconds of wall and of CPU.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def whole_command(runs: int) -> tuple[float, float]:
    """The best wall time and the least CPU time of `runs` runs."""
    best, least = float("inf"), float("inf")
    for _ in range(runs):
        cpu = _children_cpu()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "generator.cli", "check", "--all", "--json"], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - start)
        least = min(least, _children_cpu() - cpu)
    return best, least


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def breakdown() -> list[tuple[str, float, float]]:
    from solver.errors import DataError
    from solver.game.folders import game_ids
    from solver.game.loader import load_game

    rows: list[tuple[str, float, float]] = []
    start, cpu = time.perf_counter(), time.process_time()
    from solver.checks import check_functions  # timed: it imports every checker, OR-Tools included

    checks = check_functions()
    rows.append(("import checks", time.perf_counter() - start, time.process_time() - cpu))
    games = []
    start, cpu = time.perf_counter(), time.process_time()
    for gid in game_ids():
        try:
            games.append(load_game(gid))
        except DataError as e:  # a game being edited: time the others
            print(f"  (skipped {gid}: {len(e.problems)} data problem(s))")
    rows.append(("load all games", time.perf_counter() - start, time.process_time() - cpu))
    for check in checks:
        start, cpu = time.perf_counter(), time.process_time()
        for game in games:
            check(game)
        rows.append((f"{check.__module__}:{check.__name__}", time.perf_counter() - start, time.process_time() - cpu))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    total, cpu = whole_command(args.runs)
    print(f"pnp check --all: {total:.2f} s (best of {args.runs}), {cpu:.2f} CPU-s (least)")
    rows = breakdown()
    for name, seconds, cpu in rows:
        print(f"  {name:45s} {seconds:6.3f} s {cpu:6.3f} CPU-s (one process, serial)")
    print(f"  {'checks in all':45s} {sum(r[1] for r in rows[2:]):6.3f} s {sum(r[2] for r in rows[2:]):6.3f} CPU-s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
