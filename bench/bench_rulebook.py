"""Benchmark: CPU seconds to typeset every example game's rulebooks (the `rulebooks` stage).

Runs the stage (generator/rulebook/build.py build_rulebooks: each book language's rulebook, its
A5 booklet and the print guide) for every game in one fresh interpreter, as `pnp build --all
--only rulebooks --jobs 1` does, without the preflight, and prints per game the CPU seconds
(user + system, `time.process_time`) beside the wall time, the files and the pages written; the
imports before the first game are counted apart. Caches fill as the games go (fonts, words
measured), as they do in a build.

    python3 bench/bench_rulebook.py [--games riddle-of-the-ring,...] [--profile FILE]

`--profile FILE` writes a cProfile of the stage runs (cProfile itself adds about a third).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

T0_CPU, T0_WALL = time.process_time(), time.perf_counter()
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pypdf import PdfReader  # noqa: E402

from generator.context import BuildContext  # noqa: E402
from generator.rulebook.build import build_rulebooks  # noqa: E402
from solver.game.folders import game_ids
from solver.game.loader import load_game  # noqa: E402


def run(games: list[str], out: Path) -> list[tuple[str, float, float, int, int]]:
    """(game, CPU s, wall s, files, pages) per game."""
    rows = []
    for gid in games:
        game = load_game(gid)
        ctx = BuildContext(out_root=out, preflight=False)
        cpu, wall = time.process_time(), time.perf_counter()
        written = build_rulebooks(game, ctx)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        pages = sum(len(PdfReader(p).pages) for p in written)
        rows.append((gid, cpu, wall, len(written), pages))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every example game)")
    ap.add_argument("--profile", default="", help="write a cProfile of the stage runs here")
    args = ap.parse_args()
    games = args.games.split(",") if args.games else game_ids()
    startup = (time.process_time() - T0_CPU, time.perf_counter() - T0_WALL)
    with tempfile.TemporaryDirectory() as tmp:
        if args.profile:
            import cProfile

            prof = cProfile.Profile()
            rows = prof.runcall(run, games, Path(tmp))
            prof.dump_stats(args.profile)
        else:
            rows = run(games, Path(tmp))
    print(f"{'game':32} {'CPU s':>7} {'wall s':>7} {'files':>6} {'pages':>6} {'CPU ms/page':>12}")
    print(f"{'(imports)':32} {startup[0]:7.2f} {startup[1]:7.2f}")
    for gid, cpu, wall, files, pages in rows:
        print(f"{gid:32} {cpu:7.2f} {wall:7.2f} {files:6d} {pages:6d} {1000 * cpu / max(1, pages):12.1f}")
    cpu, wall = sum(r[1] for r in rows), sum(r[2] for r in rows)
    files, pages = sum(r[3] for r in rows), sum(r[4] for r in rows)
    print(f"{'all':32} {cpu:7.2f} {wall:7.2f} {files:6d} {pages:6d} {1000 * cpu / max(1, pages):12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
