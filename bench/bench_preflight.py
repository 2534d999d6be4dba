"""Preflight alone on PDFs a build wrote: the CPU seconds of reading them back (characters, render,
the colour under each run, crop marks, symbols, fonts), per kind of file, in one process.

    python3 bench/bench_preflight.py OUT [--games a,b] [--against DIR] [--safe MM] [--min-type PT]

OUT is a build folder (`pnp build --all --out OUT`). `--against DIR` runs the same files through
another checkout's preflight (e.g. a worktree of main) in a fresh interpreter right after ours, so
the two figures are taken in the same minute on a shared machine (CPU seconds per kind of file, and
milliseconds a page); the findings of both are
compared too (they must be the same unless a change to preflight means them to differ). `--safe`
and `--min-type` make the checks stricter than a build's (e.g. `--safe 8 --min-type 9`), so that
more findings are compared.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MEASURE = """\
import json, sys, time
from pathlib import Path
import pypdfium2 as pdfium
from generator.preflight import preflight_pdf
out, games = Path(sys.argv[1]), sys.argv[2].split(",") if sys.argv[2] else []
safe, min_type = float(sys.argv[3]), float(sys.argv[4])
files = sorted(p for p in out.glob("*/*.pdf") if not games or p.parent.name in games)
kinds, pages, findings = {}, {}, []
for p in files:
    kind = p.name.split("-")[0]
    t = time.process_time()
    findings += [str(f) for f in preflight_pdf(p, str(p.relative_to(out)), safe, min_type)]
    kinds[kind] = kinds.get(kind, 0.0) + time.process_time() - t
    pages[kind] = pages.get(kind, 0) + len(pdfium.PdfDocument(str(p)))
print(json.dumps({"files": len(files), "kinds": kinds, "pages": pages, "findings": findings}))
"""


def measure(checkout: Path, out: Path, games: str, safe: float, min_type: float) -> dict:
    proc = subprocess.run([sys.executable, "-c", MEASURE, str(out), games, str(safe), str(min_type)], cwd=checkout, capture_output=True,
                          text=True, env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"})
    if proc.returncode != 0:
        raise SystemExit(f"preflight failed in {checkout}:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="a build folder")
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every game built there)")
    ap.add_argument("--against", type=Path, help="another checkout to measure the same way")
    ap.add_argument("--safe", type=float, default=3.0, help="safe zone inside the trim, mm (default 3, a build's)")
    ap.add_argument("--min-type", type=float, default=6.0, help="smallest type on a piece, pt (default 6, a build's)")
    a = ap.parse_args()
    ours = measure(ROOT, a.out.resolve(), a.games, a.safe, a.min_type)
    theirs = measure(a.against.resolve(), a.out.resolve(), a.games, a.safe, a.min_type) if a.against else None
    print(f"{ours['files']} PDFs; CPU seconds of preflight by kind of file (and milliseconds a page)")
    print(f"{'kind':14} {'pages':>6} {'this checkout':>20} {'--against' if theirs else '':>20}")

    def cell(run: dict, kind: str) -> str:
        cpu = run["kinds"].get(kind, 0.0)
        return f"{cpu:12.2f} ({1000 * cpu / max(1, run['pages'].get(kind, 0)):5.1f})"
    for kind in sorted(ours["kinds"], key=lambda k: -ours["kinds"][k]):
        print(f"{kind:14} {ours['pages'][kind]:6} {cell(ours, kind):>20} {cell(theirs, kind) if theirs else '':>20}")
    total = sum(ours["kinds"].values())
    other = f"{sum(theirs['kinds'].values()):12.2f}{'':8}" if theirs else ""
    print(f"{'total':14} {sum(ours['pages'].values()):6} {total:12.2f}{'':8} {other:>20}")
    if theirs is not None:
        same = ours["findings"] == theirs["findings"]
        print(f"findings: {len(ours['findings'])} here, {len(theirs['findings'])} there, "
              f"{'the same' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
