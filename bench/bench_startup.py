"""How fast `pnp` starts: `pnp --help` and `pnp list` against a bare interpreter, and which
heavy modules each one imports (aim: `pnp list` at most 0.3 s on a 2-core machine).

    python3 bench/bench_startup.py [--runs 5]

Prints the best wall time of whole command runs (a fresh interpreter each, as a user sees it),
then the slowest imports of `pnp list` from `python -X importtime`, and whether reportlab,
OR-Tools, pydantic or rich were loaded at all.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("reportlab", "ortools", "pydantic", "rich", "PIL", "svglib")


def best_of(cmd: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def imports(args: list[str]) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) of every import `pnp ARGS` makes."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "generator.cli", *args], cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.removeprefix("import time:").split("|")
        rows.append((int(cumulative), name.strip()))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    runs = ap.parse_args().runs
    py = sys.executable
    print(f"{'python -c pass':<22} {best_of([py, '-c', 'pass'], runs):6.3f} s")
    for args in (["--help"], ["list"], ["list", "--json"]):
        label = "pnp " + " ".join(args)
        print(f"{label:<22} {best_of([py, '-m', 'generator.cli', *args], runs):6.3f} s")
    for args in (["--help"], ["list"]):
        rows = imports(args)
        loaded = {name.split(".")[0] for _, name in rows}
        heavy = ", ".join(h for h in HEAVY if h in loaded) or "none"
        print(f"\npnp {' '.join(args)}: heavy packages imported: {heavy}")
        for us, name in sorted(rows, reverse=True)[:6]:
            print(f"  {us / 1000:7.1f} ms  {name}")


if __name__ == "__main__":
    main()
