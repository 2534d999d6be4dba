"""Benchmark: render a 40 x 30 map of 19 mm hexes with labels and terrain on A1, beside a floor.

The floor draws the same hexes (filled, outlined) and labels straight onto a reportlab canvas with
the same embedded font: the least any PDF map renderer has to do. Ours goes through the map model,
layout and the shared Surface interface, and adds the title and legend. Prints both times (best of
N runs) and their ratio; the aim is a ratio within 1.3. A second line times the same map with
terrain marks (tree/peak symbols), which the floor does not draw.

    python3 bench/bench_map.py [--runs 5]
"""
from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator import fonts  # noqa: E402
from generator.geometry import PT_PER_MM  # noqa: E402
from generator.hexmap.draw import draw_map_page  # noqa: E402
from generator.hexmap.geometry import paper_grid  # noqa: E402
from generator.hexmap.layout import map_page  # noqa: E402
from generator.render.pdf import PdfSurface  # noqa: E402
from solver.game.map import MapFile  # noqa: E402

COLS, ROWS, HEX = 40, 30, 19.0
KINDS = {"clear": "#eef0d2", "forest": "#b5d39a", "hill": "#ddc9a0", "mountain": "#c4ae93", "water": "#a9cbe6"}
MARKS = {"clear": "none", "forest": "trees", "hill": "hills", "mountain": "peaks", "water": "waves"}


def bench_map(with_marks: bool) -> MapFile:
    names = list(KINDS)
    areas: dict[str, list[str]] = {k: [] for k in names[1:]}
    for c in range(COLS):
        for r in range(ROWS):
            k = names[(c * 7 + r * 3) % 11 % len(names)]
            if k != "clear":
                areas[k].append(f"{c + 1:02d}{r + 1:02d}")
    return MapFile.model_validate({
        "id": "bench", "name": "bench", "reconstruction": False, "paper": "a1", "page_orientation": "landscape",
        "grid": {"orientation": "pointy", "offset": "odd", "hex_mm": HEX, "columns": COLS, "rows": ROWS},
        "labels": {"style": "xxyy", "size_pt": 5},
        "terrain": {"default": "clear",
                    "kinds": {k: {"name": k, "fill": f, "mark": MARKS[k] if with_marks else "none"} for k, f in KINDS.items()},
                    "areas": [{"terrain": k, "hexes": v} for k, v in areas.items()]},
        "legend": {"title": "Bench map", "note": "40 x 30 hexes of 19 mm"},
    })


def ours(mapfile: MapFile) -> bytes:
    hm = mapfile.resolve()
    surf = PdfSurface(title="bench")
    draw_map_page(surf, hm, map_page(hm), "en", fonts.faces("en"))
    return surf.getvalue()


def floor(mapfile: MapFile) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    hm = mapfile.resolve()
    g = paper_grid(hm)
    font = fonts.register()
    buf = io.BytesIO()
    W, H = 841.0, 594.0
    c = Canvas(buf, pagesize=(W * PT_PER_MM, H * PT_PER_MM), invariant=1, initialFontName=font)
    corners = [g.corner_offset(i) for i in range(6)]
    ox, oy = 10.0, 22.0
    c.setLineWidth(0.15 * PT_PER_MM)
    c.setFont(font, 5)
    for h in hm.grid.hexes():
        cx, cy = g.centre(h)
        fill = KINDS[hm.terrain[h]]
        c.setFillColorRGB(int(fill[1:3], 16) / 255, int(fill[3:5], 16) / 255, int(fill[5:7], 16) / 255)
        p = c.beginPath()
        pts = [((ox + cx + dx) * PT_PER_MM, (H - oy - cy - dy) * PT_PER_MM) for dx, dy in corners]
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        p.close()
        c.drawPath(p, stroke=1, fill=1)
        c.setFillColorRGB(0.5, 0.5, 0.45)
        c.drawCentredString((ox + cx) * PT_PER_MM, (H - oy - cy + HEX * 0.35) * PT_PER_MM, hm.label(h))
    c.showPage()
    c.save()
    return buf.getvalue()


def best(fn, arg, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    plain, marked = bench_map(False), bench_map(True)
    fonts.register()
    ours(plain), floor(plain)  # warm up: font parsing, imports
    t_floor = best(floor, plain, args.runs)
    t_ours = best(ours, plain, args.runs)
    t_marks = best(ours, marked, args.runs)
    print(f"40x30 hexes of 19 mm on A1, labels + terrain, best of {args.runs}:")
    print(f"  reportlab floor      {t_floor:.3f} s")
    print(f"  pnp map renderer     {t_ours:.3f} s   ratio {t_ours / t_floor:.2f} (aim <= 1.30)")
    print(f"  with terrain marks   {t_marks:.3f} s   ratio {t_marks / t_floor:.2f}")


if __name__ == "__main__":
    main()
