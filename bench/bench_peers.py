"""Side by side: the peer workloads of ../shared/bench-peers/ (W1 80 poker cards with duplex backs,
W2 392 double-sided 1/2" counters, W3 a 40 x 30 hex map on A1) run by pnp, by plain reportlab (the
floor: the canvas API, no framework) and by protograf 0.6 (an existing print-and-play tool), each
a whole process as a user runs it; prints wall and CPU seconds, peak memory and the ratios.

    python3 bench/bench_peers.py [--runs 3] [--peers DIR] [--protograf-python PY] [--only w1,w2,w3]

protograf 0.6 needs Python 3.13: make a venv with it (`python3.13 -m venv V && V/bin/pip install
protograf==0.6.0 reportlab svgwrite pillow pypdf`) and pass `--protograf-python V/bin/python`;
without it that column is left out. The floor scripts run in this interpreter (they need only
reportlab). pnp's side is the same pipeline as bench/bench_cards.py (a generated game folder ->
load_game -> the cards or counters stage -> PDF) and bench/bench_map.py (map model -> layout ->
PDF), importing what a build imports. Figures are medians of `--runs` runs after one warm-up;
on a shared machine compare CPU seconds, which wall time overstates.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_cards import write_game  # noqa: E402

PEERS = ROOT.parent / "shared" / "bench-peers"
if not PEERS.is_dir():
    PEERS = ROOT.parent.parent / "shared" / "bench-peers"  # from a worktree two folders down

# pnp's side of each workload: code run by a fresh interpreter with (game folder, output folder)
OURS = {
    "w1": "from generator.cards.deck import build_cards as stage",
    "w2": "from generator.counters import build_counters as stage",
}
STAGE = """\
{imp}
import sys
from pathlib import Path
from generator.context import BuildContext
from solver.game.loader import load_game
stage(load_game(sys.argv[1]), BuildContext(out_root=Path(sys.argv[2]), formats=("pdf",)))
"""
MAP = """\
import sys
from pathlib import Path
sys.path.insert(0, {bench!r})
from bench_map import bench_map, ours
Path(sys.argv[2], "w3-map.pdf").write_bytes(ours(bench_map(False)))
"""
WORKLOADS = {"w1": "80 poker cards, duplex backs", "w2": "392 double-sided 1/2\" counters",
             "w3": "40 x 30 hexes of 19 mm on A1"}


def one(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS in MB of one whole process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err[-1500:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def measure(cmd: list[str], env: dict[str, str], runs: int) -> tuple[float, float, float]:
    one(cmd, env)  # warm-up: the disk cache, .pyc files
    got = [one(cmd, env) for _ in range(runs)]
    return (statistics.median(g[0] for g in got), statistics.median(g[1] for g in got), max(g[2] for g in got))


def commands(work: str, scratch: Path, protograf: str | None) -> dict[str, list[str]]:
    game, out = scratch / "bench-game", scratch / "out"
    ours = (["-c", STAGE.format(imp=OURS[work]), str(game), str(out)] if work in OURS
            else ["-c", MAP.format(bench=str(ROOT / "bench")), str(game), str(out)])
    script = {"w1": "w1_cards", "w2": "w2_counters", "w3": "w3_hexmap"}[work]
    cmds = {"pnp": [sys.executable, *ours], "reportlab": [sys.executable, str(PEERS / f"{script}_reportlab.py")]}
    if protograf:
        cmds["protograf"] = [protograf, str(PEERS / f"{script}_protograf.py")]
    return cmds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peers", type=Path, default=PEERS, help="the folder of the peer scripts")
    ap.add_argument("--protograf-python", default=None, help="a Python 3.13 with protograf 0.6 installed")
    ap.add_argument("--only", default="w1,w2,w3")
    a = ap.parse_args()
    globals()["PEERS"] = a.peers.resolve()
    with tempfile.TemporaryDirectory(prefix="pnp-peers-") as tmp:
        scratch = Path(tmp)
        write_game(scratch / "bench-game")
        (scratch / "out").mkdir()
        env = dict(os.environ, PEERBENCH_OUT=str(scratch / "out"), PYTHONPATH=str(ROOT))
        print(f"{'workload':38} {'tool':10} {'wall s':>7} {'CPU s':>7} {'peak MB':>8}   ratio (CPU)")
        for work in a.only.split(","):
            figures = {tool: measure(cmd, env, a.runs) for tool, cmd in commands(work, scratch, a.protograf_python).items()}
            ours_cpu, floor_cpu = figures["pnp"][1], figures["reportlab"][1]
            for tool, (wall, cpu, peak) in figures.items():
                ratio = {"pnp": f"pnp / floor {ours_cpu / floor_cpu:.1f}x",
                         "protograf": f"protograf / pnp {cpu / ours_cpu:.1f}x"}.get(tool, "the floor")
                print(f"{work + ' ' + WORKLOADS[work]:38} {tool:10} {wall:7.2f} {cpu:7.2f} {peak:8.0f}   {ratio}")
    print(f"median of {a.runs} runs after a warm-up; load average {', '.join(f'{v:.1f}' for v in os.getloadavg())} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
