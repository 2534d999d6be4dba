"""Where a build's memory goes (issue 26 item 2: every process of a build at most 300 MB): run
`pnp build` in this process with --jobs 1 and print, per work unit, the peak resident memory while
it ran (the kernel's high-water mark, reset before each unit through /proc/self/clear_refs) and
what stayed resident after it; then the peak before the first unit (loading, planning,
fingerprints) and after the last (warnings, index). Linux only.

    .venv/bin/python bench/bench_memory.py [pnp build arguments]   # default: --all
    .venv/bin/python bench/bench_memory.py GAME_FOLDER --lang ja --top 10

The build's own arguments are passed through (--out defaults to a scratch folder, removed after).
The checker's units run in a process of their own (generator/runners.py), whose peak is printed
apart. With --processes the build runs as a user runs it, in a fresh interpreter with the --jobs
given, and the peak of every process it starts (the build, the optimiser's process, a pool's
workers) is printed, sampled from /proc every 50 ms, beside the kernel's largest (ru_maxrss):

    .venv/bin/python bench/bench_memory.py --processes --all --jobs 2
"""
from __future__ import annotations

import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def status_mb(field: str) -> float:
    text = Path("/proc/self/status").read_text()
    found = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) / 1024 if found else 0.0


def reset_peak() -> None:
    """Set the high-water mark (VmHWM) to the current resident size (Linux 4.0 and later)."""
    Path("/proc/self/clear_refs").write_text("5")


ROWS: list[tuple[str, float, float, float]] = []  # unit, peak, resident after, seconds
PHASE = {"before units": 0.0}
REAL: list = []  # the real runners.execute


def measured(game, unit, ctx, *where):  # type: ignore[no-untyped-def]
    """runners.execute, measured (module-level: the optimiser's process gets it pickled by name)."""
    if not ROWS:
        PHASE["before units"] = status_mb("VmHWM")
    reset_peak()
    start = time.perf_counter()
    result = REAL[0](game, unit, ctx, *where)
    ROWS.append((str(unit), status_mb("VmHWM"), status_mb("VmRSS"), time.perf_counter() - start))
    reset_peak()
    return result


def tree(pid: int) -> list[tuple[int, int]]:
    """`pid` and every process under it, each with its parent (Linux: /proc/PID/task/TID/children)."""
    found, todo = [], [(pid, 0)]
    while todo:
        p, parent = todo.pop()
        found.append((p, parent))
        for children in Path(f"/proc/{p}/task").glob("*/children"):
            try:
                todo += [(int(c), p) for c in children.read_text().split()]
            except OSError:
                pass
    return found


def sampled(pid: int) -> tuple[float, str] | None:
    """The high-water mark (MB) of a process, and what it is: its command's name, and whether it
    has loaded OR-Tools."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        optimiser = "ortools" in Path(f"/proc/{pid}/maps").read_text()
        name = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
    return (int(found.group(1)) / 1024 if found else 0.0), name + (", OR-Tools loaded" if optimiser else "")


def processes(args: list[str]) -> int:
    """Run the build in a fresh interpreter and print every process's peak."""
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "build", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peaks: dict[int, tuple[float, str, int]] = {}  # pid -> peak MB, what it is, its parent
    while proc.poll() is None:
        for pid, parent in tree(proc.pid):
            got = sampled(pid)
            if got:
                old = peaks.get(pid, (0.0, "", parent))
                peaks[pid] = (max(old[0], got[0]), got[1] if "OR-Tools" in got[1] or not old[1] else old[1], parent)
        time.sleep(0.05)
    err = proc.stderr.read() if proc.stderr else ""
    kernel = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"pnp build {' '.join(args)}: exit {proc.returncode}")
    if proc.returncode:
        print(err[-2000:])
    print(f"{'process (a forked child counts the pages it shares with its parent)':70} {'peak MB':>8}")
    for pid, (peak, what, parent) in peaks.items():
        role = "the build" if pid == proc.pid else f"child of {parent}"
        print(f"{f'{pid} {role} ({what})':70} {peak:8.0f}")
    print(f"{'largest of all (kernel, ru_maxrss)':70} {kernel:8.0f}")
    return proc.returncode


def main() -> int:
    args = sys.argv[1:]
    top = 15
    caches, trace, apart = "--caches" in args, "--trace" in args, "--processes" in args
    args = [a for a in args if a not in ("--caches", "--trace", "--processes")]
    if trace:
        import tracemalloc

        tracemalloc.start(8)
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i:i + 2]
    scratch = None
    if "--out" not in args:
        scratch = Path(tempfile.mkdtemp(prefix="pnp-mem-"))
        args += ["--out", str(scratch)]
    if not any(not a.startswith("-") for a in args[:1]) and "--all" not in args:
        args.insert(0, "--all")
    if apart:
        try:
            return processes(args)
        finally:
            if scratch:
                shutil.rmtree(scratch, ignore_errors=True)
    if "--jobs" in args:
        del args[args.index("--jobs"):args.index("--jobs") + 2]
    args += ["--jobs", "1"]

    from generator import runners
    from generator.cli import main as pnp

    rows, phase = ROWS, PHASE
    REAL.append(runners.execute)
    runners.execute = measured  # type: ignore[assignment]
    try:
        code = pnp(["build", *args])
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    after = status_mb("VmHWM")
    print(f"pnp build {' '.join(args)}: exit {code}, {len(rows)} unit(s)")
    print(f"peak before the first unit (import, load, plan, fingerprints): {phase['before units']:6.0f} MB")
    print(f"peak after the last unit (warnings, index):                      {after:6.0f} MB")
    whole = max([phase["before units"], after, *(r[1] for r in rows)])
    print(f"peak of the whole process:                                       {whole:6.0f} MB")
    apart = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak of the optimiser's process (the checker's units, not listed): {apart:4.0f} MB")
    print(f"\n{'unit':58} {'peak MB':>8} {'after MB':>9} {'s':>6}")
    for name, peak, resident, took in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"{name[:58]:58} {peak:8.0f} {resident:9.0f} {took:6.1f}")
    # what each unit left resident: memory a later unit does not get back (caches, leaks)
    kept = [(rows[k][0], rows[k][2] - (rows[k - 1][2] if k else phase["before units"])) for k in range(len(rows))]
    print(f"\n{'unit (by memory it left resident)':58} {'kept MB':>8}")
    for name, grew in sorted(kept, key=lambda r: -r[1])[:top]:
        print(f"{name[:58]:58} {grew:8.0f}")
    if trace:
        print_trace(top)
    if caches:
        print_caches()
    return int(code or 0)


def print_trace(top: int) -> None:
    """What Python holds at the end of the build, by the line that allocated it (tracemalloc)."""
    import tracemalloc

    snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    print(f"\nPython memory still held at the end, by allocating line (top {top}):")
    for stat in snapshot.statistics("traceback")[:top]:
        print(f"{stat.size / 2**20:8.1f} MB {stat.count:9d} blocks")
        for line in stat.traceback.format(limit=4)[::-1]:
            print("     ", line)


def print_caches() -> None:
    """Every lru_cache of the project: its entries, and the resident MB given back on clearing it."""
    import ctypes
    import gc

    libc = ctypes.CDLL("libc.so.6")
    found = []
    for name, module in sorted(sys.modules.items()):
        if not name.startswith(("generator", "solver")):
            continue
        for attr, fn in vars(module).items():
            if hasattr(fn, "cache_info") and getattr(fn, "__module__", None) == name:
                found.append((f"{name}.{attr}", fn))
    print(f"\n{'cache':58} {'entries':>8} {'freed MB':>9}")
    gc.collect()
    libc.malloc_trim(0)
    for label, fn in found:
        before = status_mb("VmRSS")
        entries = fn.cache_info().currsize
        fn.cache_clear()
        gc.collect()
        libc.malloc_trim(0)
        print(f"{label[:58]:58} {entries:8d} {before - status_mb('VmRSS'):9.1f}")
    print(f"resident after clearing every cache: {status_mb('VmRSS'):.0f} MB "
          f"({status_mb('RssAnon'):.0f} MB heap, {status_mb('RssFile'):.0f} MB mapped files such as libraries)")


if __name__ == "__main__":
    sys.exit(main())
