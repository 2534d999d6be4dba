"""Preflight alone on PDFs a build wrote: the CPU seconds of reading them back (characters, render,
the colour under each run, crop marks, symbols, fonts), per kind of file, in one process.

    python3 bench/bench_preflight.py OUT [--games a,b] [--against DIR] [--safe MM] [--min-type PT]
                                         [--contrast RATIO] [--reading]

OUT is a build folder (`pnp build --all --out OUT`). `--against DIR` runs the same files through
another checkout's preflight (e.g. a worktree of main) in a fresh interpreter right after ours, so
the two figures are taken in the same minute on a shared machine (CPU seconds per kind of file, and
milliseconds a page); the findings of both are
compared too (they must be the same unless a change to preflight means them to differ). `--safe`
and `--min-type` make the checks stricter than a build's (e.g. `--safe 8 --min-type 9`), so that
more findings are compared; `--contrast 22` raises both contrast thresholds so that every run on
a page is judged and named in a finding (no ratio reaches 22:1). `--reading` compares, page by page,
what the checks are given besides the findings: the characters the rendered page shows (text, box,
size, colour), their runs, the colour under each run and whether its window is on the page, the
trims and the characters the edge check is given (a digest a page, the first pages that differ
named): two checkouts that read a page alike judge it alike under any options.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MEASURE = """\
import hashlib, json, sys, time
from pathlib import Path
import pypdfium2 as pdfium
import generator.preflight as pf
out, games = Path(sys.argv[1]), sys.argv[2].split(",") if sys.argv[2] else []
safe, min_type, contrast, reading = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6] == "1"
if contrast:  # every run under this ratio is judged, whatever its size
    pf.MIN_CONTRAST = pf.MIN_CONTRAST_LARGE = contrast
read = {}  # (file, page) -> digest of what the checks were given
current = [""]
def digest(key, *parts):
    h = hashlib.sha256(read.get(key, "").encode())
    for x in parts:
        h.update(x.tobytes() if hasattr(x, "tobytes") else repr(x).encode())
    read[key] = h.hexdigest()
def chars(t):
    return (t.text, t.box, t.size, t.rgb)
if reading:  # what the contrast and edge checks are given, page by page
    low, edge = pf._low_contrast, pf._edge
    def _low_contrast(page, seen, trims):
        digest((current[0], page), "runs", *chars(seen.chars), seen.starts, seen.ends, seen.under, seen.on_page, trims)
        return low(page, seen, trims)
    def _edge(name, page, text, w, h, image=None):
        digest((current[0], page), "edge", *chars(text), w, h)
        return edge(name, page, text, w, h, image)
    pf._low_contrast, pf._edge = _low_contrast, _edge
files = sorted(p for p in out.glob("*/*.pdf") if not games or p.parent.name in games)
kinds, pages, findings = {}, {}, []
for p in files:
    kind, current[0] = p.name.split("-")[0], str(p.relative_to(out))
    t = time.process_time()
    findings += [str(f) for f in pf.preflight_pdf(p, str(p.relative_to(out)), safe, min_type)]
    kinds[kind] = kinds.get(kind, 0.0) + time.process_time() - t
    pages[kind] = pages.get(kind, 0) + len(pdfium.PdfDocument(str(p)))
print(json.dumps({"files": len(files), "kinds": kinds, "pages": pages, "findings": findings,
                  "read": sorted([f"{k[0]} page {k[1]}", v] for k, v in read.items())}))
"""


def measure(checkout: Path, out: Path, games: str, safe: float, min_type: float, contrast: float, reading: bool) -> dict:
    args = [str(out), games, str(safe), str(min_type), str(contrast), "1" if reading else "0"]
    proc = subprocess.run([sys.executable, "-c", MEASURE, *args], cwd=checkout, capture_output=True,
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
    ap.add_argument("--contrast", type=float, default=0.0,
                    help="judge every run under this contrast ratio, whatever its size (e.g. 22: every run)")
    ap.add_argument("--reading", action="store_true", help="compare what the checks are given, page by page")
    a = ap.parse_args()
    opts = (a.games, a.safe, a.min_type, a.contrast, a.reading)
    ours = measure(ROOT, a.out.resolve(), *opts)
    theirs = measure(a.against.resolve(), a.out.resolve(), *opts) if a.against else None
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
        for f in sorted(set(ours["findings"]) ^ set(theirs["findings"]))[:20]:
            print(f"  {'here ' if f in ours['findings'] else 'there'}: {f}")
        if a.reading:
            mine, other = dict(ours["read"]), dict(theirs["read"])
            differ = sorted(k for k in mine.keys() | other.keys() if mine.get(k) != other.get(k))
            print(f"pages read: {len(mine)} here, {len(other)} there, {len(differ)} differ"
                  + (f" (first: {', '.join(differ[:5])})" if differ else ""))


if __name__ == "__main__":
    main()
