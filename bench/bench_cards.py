"""Benchmark: 80 poker cards with mirrored backs and 392 double-sided ½" counters, data in, PDF out.

Runs the real pipeline (a generated game folder -> load_game -> cards and counters stages ->
PDF files) in a fresh interpreter, and beside it a plain reportlab script that draws the same
shapes (the practical floor), each several times; prints the best wall time and peak memory
of each and their ratio.

    python3 bench/bench_cards.py [--runs 3] [--scale 1] [--keep DIR]

`--scale 2` doubles both counts: with cost linear in the number of pieces, draw+write doubles
while imports and fixed costs stay.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDS, COUNTERS = 80, 392

GAME_YAML = """\
id: bench-game
title: {en: Bench game}
players: {min: 2, max: 4}
source_language: en
languages: [en]
"""

LAYOUTS_YAML = """\
layouts:
  - id: bench-card
    size: poker
    background: "#f6f0e0"
    fields:
      - {name: frame, kind: rect, box: [3, 3, 57, 82], stroke: "#553322", width: 0.5, radius: 3}
      - {name: title, kind: text, box: [6, 6, 51, 10], text: "{name}", size_pt: 12, wrap: false}
      - {name: body, kind: text, box: [7, 20, 49, 10], text: "{text}", size_pt: 9, wrap: false}
  - id: bench-back
    size: poker
    background: "#553322"
    fields:
      - {name: title, kind: text, box: [6, 40, 51, 10], text: "Bench", size_pt: 16, colour: "#ffffff", wrap: false}
  - id: bench-counter
    size: half-inch
    background: "{face.colour}"
    fields:
      - {name: label, kind: text, box: [0.6, 0.6, 11.5, 4.2], text: "{face.label}", size_pt: 5, wrap: false}
      - {name: values, kind: text, box: [0.6, 7.4, 11.5, 4.6], text: "{face.values}", size_pt: 7, wrap: false}
components:
  cards: {front: bench-card, back: bench-back}
  counters: {front: bench-counter, back: bench-counter}
"""


def write_game(folder: Path, scale: int = 1) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME_YAML)
    (folder / "layouts.yaml").write_text(LAYOUTS_YAML)
    lines = ["components:", "  - id: cards", "    kind: deck", "    name: {en: Cards}", "    size: poker",
             "    items_file: cards.csv", "  - id: counters", "    kind: counters", "    name: {en: Counters}",
             "    size: half-inch", "    items:"]
    for i in range(COUNTERS * scale // 8):
        lines += [f"      - id: unit-{i}", "        count: 8",
                  f"        front: {{label: {{en: Unit {i}}}, values: '4-3-6', colour: '#9fc5e8'}}",
                  f"        back: {{label: {{en: Unit {i}}}, values: '2-1-6', colour: '#cfe2f3'}}"]
    (folder / "components.yaml").write_text("\n".join(lines) + "\n")
    rows = ["id,count,name_en,text_en"] + [f"card-{i},1,Card {i},Rule text of card {i}" for i in range(CARDS * scale)]
    (folder / "cards.csv").write_text("\n".join(rows) + "\n")


PIPELINE = """\
import resource, sys, time
t0 = time.perf_counter()
from pathlib import Path
from generator.cards.deck import build_cards
from generator.context import BuildContext
from generator.counters import build_counters
from solver.game.loader import load_game
t1 = time.perf_counter()
game = load_game(sys.argv[1])
t2 = time.perf_counter()
# printing alone: no preflight runs here, so no sheet's record is kept for it (pieces/drawn.py)
ctx = BuildContext(out_root=Path(sys.argv[2]), formats=("pdf",), preflight=False)
files = build_cards(game, ctx) + build_counters(game, ctx)
t3 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")
"""

# The same shapes with reportlab alone: per card a bled background, a rounded frame and two
# strings, per back a background and a string; per counter side a background and two strings.
FLOOR = """\
import sys
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
import matplotlib_fontja, os
pdfmetrics.registerFont(TTFont("G", os.path.join(os.path.dirname(matplotlib_fontja.__file__), "fonts", "ipaexg.ttf")))
K = 72 / 25.4
out, scale = sys.argv[1], int(sys.argv[2])
c = Canvas(out + "/floor-cards.pdf", pagesize=(297 * K, 210 * K), invariant=1, initialFontName="G")
for page in range(10 * scale):
    for side in (0, 1):
        for i in range(8):
            col, row = i % 4, i // 4
            x, y = (10.5 + col * 69) * K, (11 + row * 94) * K
            c.setFillColorRGB(0.96, 0.94, 0.88 if side == 0 else 0.2)
            c.rect(x, y, 69 * K, 94 * K, stroke=0, fill=1)
            c.setFillColorRGB(0.1, 0.1, 0.1)
            if side == 0:
                c.setStrokeColorRGB(0.33, 0.2, 0.13)
                c.roundRect(x + 6 * K, y + 6 * K, 57 * K, 82 * K, 3 * K, stroke=1, fill=0)
                c.setFont("G", 12); c.drawCentredString(x + 34.5 * K, y + 80 * K, "Card %d" % (page * 8 + i))
                c.setFont("G", 9); c.drawCentredString(x + 34.5 * K, y + 64 * K, "Rule text of card %d" % (page * 8 + i))
            else:
                c.setFont("G", 16); c.drawCentredString(x + 34.5 * K, y + 47 * K, "Bench")
        c.showPage()
c.save()
c = Canvas(out + "/floor-counters.pdf", pagesize=(210 * K, 297 * K), invariant=1, initialFontName="G")
n = 392 * scale
for page in range((n + 314) // 315):
    for side in (0, 1):
        for i in range(min(315, n - page * 315)):
            col, row = i % 15, i // 15
            x, y = (9.75 + col * 12.7) * K, (15 + row * 12.7) * K
            c.setFillColorRGB(0.62, 0.77, 0.91)
            c.rect(x, y, 12.7 * K, 12.7 * K, stroke=0, fill=1)
            c.setFillColorRGB(0.1, 0.1, 0.1)
            c.setFont("G", 5); c.drawCentredString(x + 6.35 * K, y + 9 * K, "Unit %d" % (i // 8))
            c.setFont("G", 7); c.drawCentredString(x + 6.35 * K, y + 2 * K, "4-3-6" if side == 0 else "2-1-6")
        c.showPage()
c.save()
import resource
print(f"0 0 0 {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")
"""


def run(code: str, *args: str) -> tuple[float, list[float], float]:
    """Wall seconds of a fresh interpreter running `code`, what it reports on its last line
    (seconds for imports, data loading and drawing+writing, then its own peak RSS in MB), and
    its CPU seconds (user + system: on a shared machine the steadier figure)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], check=True, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, [float(v) for v in done.stdout.split()[-4:]], usage.ru_utime + usage.ru_stime - cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--scale", type=int, default=1, help="multiply both counts (linearity check)")
    ap.add_argument("--keep", type=Path, default=None, help="keep the generated game and PDFs here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        game, out = base / "bench-game", base / "out"
        write_game(game, args.scale)
        out.mkdir(parents=True, exist_ok=True)
        ours = [run(PIPELINE, str(game), str(out)) for _ in range(args.runs)]
        floor = [run(FLOOR, str(out), str(args.scale)) for _ in range(args.runs)]
        pdfs = sorted((out / "bench-game").glob("*.pdf"))
        sizes = ", ".join(f"{p.name} {p.stat().st_size // 1024} KB" for p in pdfs)
    best, floor_best = min(ours), min(floor)
    t_ours, (imp, load, draw, mem), _ = best
    t_floor, (_, _, _, floor_mem), _ = floor_best
    cpu_ours, cpu_floor = min(r[2] for r in ours), min(r[2] for r in floor)
    print(textwrap.dedent(f"""\
        {CARDS * args.scale} poker cards (mirrored backs) + {COUNTERS * args.scale} double-sided 1/2" counters, best of {args.runs}
          pipeline (data in, PDF out): {t_ours:.3f} s  (imports {imp:.3f}, load_game {load:.3f}, draw+write {draw:.3f})
          plain reportlab floor:       {t_floor:.3f} s
          ratio:                       {t_ours / t_floor:.2f}x
          CPU seconds (best):          pipeline {cpu_ours:.3f} s, floor {cpu_floor:.3f} s, ratio {cpu_ours / cpu_floor:.2f}x
          peak memory:                 pipeline {mem:.0f} MB, floor {floor_mem:.0f} MB
          files: {sizes}"""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
