"""Benchmark: CPU seconds of the rulebooks' line breaking alone (generator/text `_wrap_spans`).

Records every `_wrap_spans` miss of a cold `pnp build --all --jobs 1 --only rulebooks
--no-preflight` of this checkout (its arguments, and each unit's end, where a build lets go of
the breaker's memory: `forget_paragraphs`), then replays them in a fresh interpreter for each
checkout, alternately, and prints per round the CPU seconds of the replay (user + system,
`time.process_time`) and of total fit's walk inside it (`best_breaks_summed`), with a digest of
the lines given, which must be the same for every checkout. The first replay of each process
(pyphen's dictionaries, the fonts) is not counted.

    python3 bench/bench_wrap.py [--against DIR] [--rounds 3]

`--against DIR`: another checkout (e.g. a worktree of main with its own .venv) replayed beside ours.
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def record(out: Path) -> None:
    """The build's misses (None at each unit's end), pickled to `out`."""
    import generator.text as text
    import generator.rulebook.build as books
    from generator import cli

    wrap = sys.modules["generator.text.wrap"]  # (the package's `wrap` is the function)
    calls: list = []
    miss = wrap._wrap_spans.__wrapped__

    @functools.lru_cache(maxsize=32768)
    def recorded(*args):
        calls.append(args)
        return miss(*args)

    def forget() -> None:
        calls.append(None)
        text.forget_paragraphs()

    wrap._wrap_spans, books.forget_paragraphs = recorded, forget
    with tempfile.TemporaryDirectory(dir=ROOT) as scratch:
        sys.argv = ["pnp", "build", "--all", "--jobs", "1", "--only", "rulebooks", "--no-preflight", "--out", scratch]
        try:
            cli.main()
        except SystemExit:
            pass
    out.write_bytes(pickle.dumps(calls))


def replay(calls_file: Path, rounds: int, root: Path) -> None:
    """Replay the misses `rounds` times in this interpreter with `root`'s generator, one line a round."""
    sys.path.insert(0, str(root))
    import generator.text as text
    import generator.text.breaking as breaking
    from generator import fonts

    wrap = sys.modules["generator.text.wrap"]
    assert Path(wrap.__file__).is_relative_to(root), wrap.__file__
    fonts.register()
    for role in ("regular", "bold", "italic"):
        fonts.register_face("source-serif", role)
    walk = [0.0]
    inner = breaking.best_breaks_summed

    def timed(*args):
        t = time.process_time()
        try:
            return inner(*args)
        finally:
            walk[0] += time.process_time() - t

    breaking.best_breaks_summed = timed
    calls = pickle.loads(calls_file.read_bytes())
    for r in range(rounds + 1):
        for _ in range(3):
            text.forget_paragraphs()
        fonts.advances.cache_clear()
        walk[0], lines = 0.0, []
        t = time.process_time()
        for args in calls:
            if args is None:
                fonts.advances.cache_clear()
                text.forget_paragraphs()
            else:
                lines.append(wrap._wrap_spans.__wrapped__(*args))
        cpu = time.process_time() - t
        if r:
            print(f"{cpu:.3f} {walk[0]:.3f} {hashlib.sha1(repr(lines).encode()).hexdigest()[:12]}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--against", type=Path, default=None)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--record", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--replay", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.record:
        return record(a.record)
    if a.replay:
        return replay(a.replay, 1, a.root)
    checkouts = [ROOT] + ([a.against.resolve()] if a.against else [])
    with tempfile.TemporaryDirectory(dir=ROOT) as scratch:
        calls = Path(scratch) / "calls.pickle"
        subprocess.run([sys.executable, __file__, "--record", str(calls)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print("round  " + "  ".join(f"{c.name:>24s}" for c in checkouts) + "   (replay CPU s, walk CPU s, digest)")
        for r in range(a.rounds):
            row = {}
            for c in (checkouts if r % 2 == 0 else checkouts[::-1]):  # alternately, against the machine's drift
                python = c / ".venv" / "bin" / "python"
                out = subprocess.run([str(python), __file__, "--replay", str(calls), "--root", str(c)], cwd=c, check=True,
                                     capture_output=True, text=True).stdout.split()
                row[c] = f"{out[0]:>8s} {out[1]:>7s} {out[2]}"
            print(f"{r:5d}  " + "  ".join(f"{row[c]:>24s}" for c in checkouts), flush=True)


if __name__ == "__main__":
    main()
