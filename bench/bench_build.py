"""Time `pnp build --all` the ways a designer meets it, and print the figures against the aims
of issues 13 and 26 (2 cores): cold build with --jobs 1 and 2 (aim: at most 16 CPU seconds, 8 s
wall with two jobs; each split into the CPU of the build's own process and of the processes it
started: the checker's and the pool's workers), no-op rebuild (0.22 s), one card's text edited and rebuilt (1.06 s), peak
memory per process (300 MB), and with `--preflight-share` preflight's share of each cold build's
CPU (aim: at most 15 %), timed inside the build: each unit's preflight says its CPU seconds, in
whichever process runs it (a forked worker inherits the timer).

    python3 bench/bench_build.py [--against DIR] [--repeat N] [--games a,b] [--skip-cold] [--preflight-share]

Every figure is a whole command in a fresh interpreter, as a user runs it, building the games
of data/games into a scratch folder inside the measured checkout (where the README's build writes,
`output/`, is: on the development machine creating a file costs 0.3 ms of CPU under /tmp against
0.02 ms in the checkout, which put 0.6 CPU-s on a build that the user does not pay): wall seconds,
and the CPU seconds of all its processes. It first prints the machine's reference figure (a fixed
workload of pure Python and zlib, the same whatever the checkout), so figures taken on other days
can be compared in proportion. Each checkout's own modules are compiled to bytecode first (`compileall`), as the user's first run
leaves them: a shell with PYTHONDONTWRITEBYTECODE set (the development machine's) would otherwise
compile some 180 modules again in every process of every command, 0.4-0.6 CPU-s of a build that
a user pays once. `--against DIR` runs the same commands in another checkout
(e.g. a worktree of an older commit) and prints its figures beside ours. `--repeat N` takes the
cold builds N times in rounds, the checkouts in turn, and prints their medians and ranges: on this
shared machine two equal builds differ by 1-2 CPU-s, so one run decides nothing near an aim. No
folder the bench writes is deleted before every figure is taken (see `figures`); give runs of the
bench half a minute between them for the same reason. `bench/bench_startup.py` measures `pnp list`
and `pnp --help`.
"""
from __future__ import annotations

import argparse
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the edit: one card's rule text in the first example game (its deck alone reads it)
EDIT_GAME, EDIT_FILE, EDIT_FROM, EDIT_TO = "dont-drop-the-ring", "components.yaml", "【Just】", "【Exactly】"


CPU = [0.0, 0.0]  # CPU seconds of the last command (user + system, workers included), and of its workers alone

# `pnp` as a user runs it, saying at its exit the CPU seconds of the processes it started (the
# pool's workers, the checker's process): a build's own CPU is the rest
PNP = ("import atexit, resource, runpy, sys\n"
       "def split():\n"
       "    u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
       "    print(f'bench-workers-cpu {u.ru_utime + u.ru_stime}', file=sys.stderr)\n"
       "    print(f'bench-peak-kb {max(u.ru_maxrss, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)}', file=sys.stderr)\n"
       "atexit.register(split)\n"
       "sys.argv[0] = 'pnp'\n"
       "runpy.run_module('generator.cli', run_name='__main__')\n")


# with --preflight-share, in front of PNP: each unit's preflight (generator/units.py `_preflight`,
# where a checkout has it) says its CPU seconds on stderr as it ends. Subtracting a build made
# without preflight had been the way: its noise (1-2 CPU-s between two equal builds on the
# development machine) was as large as the share itself, which came out at -2 % and 4 %.
PREFLIGHT_TIMER = ("import sys, time\n"
                   "import generator.units as _units\n"
                   "_own = getattr(_units, '_preflight', None)\n"
                   "def _timed(*a, **k):\n"
                   "    t = time.process_time()\n"
                   "    try:\n"
                   "        return _own(*a, **k)\n"
                   "    finally:\n"
                   "        print(f'bench-preflight-cpu {time.process_time() - t}', file=sys.stderr, flush=True)\n"
                   "if _own is not None:\n"
                   "    _units._preflight = _timed\n")
PREFLIGHT: list[float | None] = [None]  # preflight's CPU seconds in the last command run with the timer, None where not said


def run(cwd: Path, args: list[str], timed: bool = False) -> tuple[float, int]:
    """Wall seconds and the peak RSS in MB of the largest process the command ran (its own, or one
    it started), as the command says at its exit: this process's RUSAGE_CHILDREN keeps the largest
    of every command run before, so the second checkout measured could never show a lower peak."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_before = usage.ru_utime + usage.ru_stime
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", (PREFLIGHT_TIMER if timed else "") + PNP, *args], cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"pnp {' '.join(args)} failed in {cwd}:\n{proc.stderr[-2000:]}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[0] = usage.ru_utime + usage.ru_stime - cpu_before
    said = [line.split()[1] for line in proc.stderr.splitlines() if line.startswith("bench-workers-cpu ")]
    CPU[1] = float(said[-1]) if said else 0.0
    # found anywhere, not by line: two workers' prints may share a line (print writes its newline apart)
    checked = [float(v) for v in re.findall(r"bench-preflight-cpu ([0-9.]+(?:e-?[0-9]+)?)", proc.stderr)]
    PREFLIGHT[0] = sum(checked) if checked else None
    peak = [int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("bench-peak-kb ")]
    return took, (peak[-1] if peak else 0) // 1024


def supports(cwd: Path, option: str) -> bool:
    proc = subprocess.run([sys.executable, "-m", "generator.cli", "build", "--help"], cwd=cwd,
                          capture_output=True, text=True)
    return option in proc.stdout


def compile_bytecode(cwd: Path) -> None:
    """The checkout's packages as bytecode beside their sources, where a user's first run writes it."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "generator", "solver"], cwd=cwd,
                   stdout=subprocess.DEVNULL, check=True)


@dataclass
class Cold:
    """One cold build's figures: wall and CPU seconds (all processes), the CPU of the processes it
    started, preflight's CPU (None where the checkout does not say it) and the largest process's peak."""
    wall: float
    cpu: float
    workers: float
    checked: float | None
    peak: int  # MB


def each(games: list[str]) -> list[list[str]]:
    """The build commands' targets: each game of `games`, or every game when it is empty."""
    return [[g] for g in games] or [["--all"]]


def cold(cwd: Path, games: list[str], jobs: int | None, folder: Path, share: bool) -> Cold:
    """A cold build of `games` (every game when empty) into the new folder `folder`."""
    got = Cold(0.0, 0.0, 0.0, 0.0, 0)
    for target in each(games):
        took, peak = run(cwd, ["build", *target, "--out", str(folder),
                               *(["--jobs", str(jobs)] if jobs else [])], timed=share)
        got.wall, got.cpu, got.workers = got.wall + took, got.cpu + CPU[0], got.workers + CPU[1]
        got.checked = None if got.checked is None or PREFLIGHT[0] is None else got.checked + PREFLIGHT[0]
        got.peak = max(got.peak, peak)
    return got


def cold_figures(runs: list[Cold], n: int, share: bool) -> dict[str, str]:
    """The rows of `runs` (the same build repeated): medians, and their range when there are several."""
    med = Cold(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs),
               statistics.median(r.workers for r in runs), None, max(r.peak for r in runs))
    out = {f"cold, --jobs {n}": f"{med.wall:6.2f} s ({med.cpu:.1f} s CPU)"}
    if len(runs) > 1:
        out[f"  range of runs {n}"] = (f"{min(r.wall for r in runs):.2f}-{max(r.wall for r in runs):.2f} s "
                                      f"({min(r.cpu for r in runs):.1f}-{max(r.cpu for r in runs):.1f})")
    if share:
        shares = [r.checked / r.cpu for r in runs if r.checked is not None]
        checked = [r.checked for r in runs if r.checked is not None]
        out[f"  preflight's share {n}"] = (f"{statistics.median(shares):6.0%} ({statistics.median(checked):.1f} s CPU)"
                                           if shares else "n/a (no per-unit preflight)")
    # the CPU of the build's own process, and of the processes it started (the checker's, the pool's)
    out[f"  of which build / workers {n}"] = f"{med.cpu - med.workers:.1f} / {med.workers:.1f} s CPU"
    return out


def warm_figures(cwd: Path, games: list[str], scratch: Path) -> dict[str, str]:
    """No-op rebuild, one card's text edited, `pnp list`."""
    out: dict[str, str] = {}
    folder = scratch / "warm"
    for target in each(games):
        run(cwd, ["build", *target, "--out", str(folder)])
    took = sum(run(cwd, ["build", *target, "--out", str(folder)])[0] for target in each(games))
    out["no-op rebuild"] = f"{took:6.2f} s ({CPU[0]:.2f} s CPU)"

    game = scratch / EDIT_GAME
    shutil.copytree(cwd / "data" / "games" / EDIT_GAME, game)
    edit_out = scratch / "edit"
    run(cwd, ["build", str(game), "--out", str(edit_out)])
    path = game / EDIT_FILE
    path.write_text(path.read_text(encoding="utf-8").replace(EDIT_FROM, EDIT_TO), encoding="utf-8")
    took, _ = run(cwd, ["build", str(game), "--out", str(edit_out)])
    out["one card's text edited"] = f"{took:6.2f} s ({CPU[0]:.2f} s CPU)"
    took, _ = run(cwd, ["list"])
    out["pnp list"] = f"{took:6.2f} s ({CPU[0]:.2f} s CPU)"
    return out


def figures(checkouts: list[Path], games: list[str], skip_cold: bool, share: bool, repeat: int) -> list[dict[str, str]]:
    """Every figure of each checkout. The cold builds are taken in rounds, the checkouts in turn (the
    first one first in odd rounds, last in even ones), so that a machine that slows or speeds up
    over the minutes weighs on each alike. Every folder written stays until all figures are taken:
    ext4 passes over recently deleted inodes when it allocates one (`recently_deleted`, 2 % of a cold
    build's CPU in a profile of the development machine), and a cold build started right after the
    1300 files of another were deleted took 0.8 CPU-s more system time in two of three pairs."""
    scratch = {}
    for cwd in checkouts:
        compile_bytecode(cwd)
        scratch[cwd] = Path(tempfile.mkdtemp(prefix=".pnp-bench-", dir=cwd))  # on the disk of its output/
    try:
        jobs = {cwd: supports(cwd, "--jobs") for cwd in checkouts}
        runs: dict[tuple[Path, int], list[Cold]] = {(cwd, n): [] for cwd in checkouts for n in (1, 2)}
        for r in range(0 if skip_cold else repeat):
            for cwd in checkouts if r % 2 == 0 else checkouts[::-1]:
                for n in (1, 2) if jobs[cwd] else (1,):
                    folder = scratch[cwd] / f"cold{n}-{r}"
                    runs[cwd, n].append(cold(cwd, games, n if jobs[cwd] else None, folder, share))
        out = []
        for cwd in checkouts:
            got: dict[str, str] = {}
            for n in (1, 2):
                if runs[cwd, n]:
                    got |= cold_figures(runs[cwd, n], n, share)
                elif not skip_cold:
                    got[f"cold, --jobs {n}"] = "n/a (no --jobs)"
            if not skip_cold:
                got["peak memory of one process"] = f"{max(c.peak for k, v in runs.items() if k[0] == cwd for c in v)} MB"
            out.append(got | warm_figures(cwd, games, scratch[cwd]))
        return out
    finally:
        for folder in scratch.values():
            shutil.rmtree(folder, ignore_errors=True)


# The machine's reference: a fixed workload (interpreted Python, and zlib over 48 MB) timed in a
# fresh interpreter, the best of three. It does not depend on the checkout: divide a figure by it
# to compare figures from another day or machine.
REFERENCE = ("import time, zlib\n"
             "def loop(n):\n"
             "    s = 0\n"
             "    for i in range(n):\n"
             "        s += i * i % 7\n"
             "    return s\n"
             "data = bytes(range(256)) * 4096 * 48\n"
             "best = 9e9\n"
             "for _ in range(3):\n"
             "    t = time.process_time()\n"
             "    loop(6_000_000)\n"
             "    zlib.compress(data, 1)\n"
             "    best = min(best, time.process_time() - t)\n"
             "print(best)\n")


def reference() -> float:
    """The machine's reference figure in CPU seconds (see REFERENCE)."""
    out = subprocess.run([sys.executable, "-c", REFERENCE], capture_output=True, text=True, check=True).stdout
    return float(out)


AIMS = {"cold, --jobs 1": "<= 16 s CPU", "  range of runs 1": "", "  of which build / workers 1": "", "  preflight's share 1": "<= 15 %",
        "cold, --jobs 2": "<= 8 s, 16 s CPU", "  range of runs 2": "", "  of which build / workers 2": "", "  preflight's share 2": "<= 15 %",
        "no-op rebuild": "<= 0.22 s", "one card's text edited": "<= 1.06 s", "pnp list": "<= 0.3 s",
        "peak memory of one process": "<= 300 MB"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another checkout to measure the same way")
    ap.add_argument("--games", default="", help="comma-separated game ids (default: --all)")
    ap.add_argument("--skip-cold", action="store_true", help="leave out the two cold builds (the slow part)")
    ap.add_argument("--repeat", type=int, default=1, help="cold builds of each checkout, in rounds (medians and ranges)")
    ap.add_argument("--preflight-share", action="store_true", help="preflight's share of the cold builds' CPU, timed inside them")
    a = ap.parse_args()
    games = [g for g in a.games.split(",") if g]
    print(f"machine reference (fixed Python and zlib workload): {reference():.2f} CPU-s", flush=True)
    found = figures([ROOT] + ([a.against.resolve()] if a.against else []), games, a.skip_cold, a.preflight_share,
                    a.repeat)
    ours, theirs = found[0], (found[1] if a.against else {})
    import os
    print(f"machine reference at the end: {reference():.2f} CPU-s")
    print(f"load average at the end: {', '.join(f'{v:.1f}' for v in os.getloadavg())} on {os.cpu_count()} cores "
          "(wall times on a busy machine overstate; CPU seconds less so)")
    print(f"{'':28} {'this checkout':>24} {'--against' if theirs else '':>24}   aim")
    for key in AIMS:
        if key in ours:
            print(f"{key:28} {ours[key]:>24} {theirs.get(key, ''):>24}   {AIMS[key]}")


if __name__ == "__main__":
    main()
