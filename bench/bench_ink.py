"""Ink per example game: `pnp build --ink normal|saver|mono` of the printing stages (cards, counters,
pieces, maps) in each game's source language, every PDF rasterised by pdftoppm and read back with
Pillow. Prints, per game, the mean ink coverage of the pages in each mode and saver's and mono's
share of normal. Issue 25's aim: saver at most 50 % of normal.

Coverage of a page: the mean over its pixels of the cyan, magenta and yellow a naive RGB -> CMY
conversion asks for (Pillow's "CMYK" mode: C = 255 - R and so on), over 3 x 255: 0 for blank paper,
1 for solid black. A game's figure is the mean over all its pages, each page counted once.

    python3 bench/bench_ink.py [--games a,b] [--dpi 72]

Not much under 72 dpi: a rasteriser draws a hairline at least a pixel wide, which at low resolution
overstates the ink of thin lines (hex grids, outlines, crop marks).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("cards", "counters", "pieces", "maps")
MODES = ("normal", "saver", "mono")


def page_coverage(pdf: Path, dpi: int) -> list[float]:
    """Each page's mean CMY coverage, 0..1, from pdftoppm's rendering."""
    from PIL import Image, ImageStat

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), f"{tmp}/p"], check=True)
        out = []
        for png in sorted(Path(tmp).glob("p-*.png")):
            with Image.open(png) as im:
                mean = ImageStat.Stat(im.convert("RGB").convert("CMYK")).mean
            out.append(sum(mean[:3]) / (3 * 255))
        return out


def build(game: str, lang: str, mode: str, out: Path) -> Path:
    only = [a for s in STAGES for a in ("--only", s)]
    subprocess.run([sys.executable, "-m", "generator.cli", "build", game, "--ink", mode, "--out", str(out),
                    "--lang", lang, "--no-preflight", *only], cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    folder = out / game
    return folder if mode == "normal" else folder / f"ink-{mode}"


def game_coverage(game: str, dpi: int) -> dict[str, tuple[float, int]]:
    """Mode -> (mean coverage over the pages, pages)."""
    from solver.game.loader import load_game

    lang = load_game(game).meta.source_language
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in MODES:
            folder = build(game, lang, mode, Path(tmp) / mode)
            pdfs = [p for p in sorted(folder.glob("*.pdf")) if not p.name.startswith("calibration")]
            pages = [c for pdf in pdfs for c in page_coverage(pdf, dpi)]
            figures[mode] = (sum(pages) / len(pages) if pages else 0.0, len(pages))
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=None, help="comma list of game ids (default: every example game)")
    ap.add_argument("--dpi", type=int, default=72, help="rasterising resolution (default 72)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from solver.game.folders import game_ids

    games = args.games.split(",") if args.games else game_ids()
    print(f"{'game':28} {'pages':>5} {'normal':>7} {'saver':>7} {'mono':>7} {'saver/normal':>13} {'mono/normal':>12}")
    for game in games:
        f = game_coverage(game, args.dpi)
        n = f["normal"][0] or 1.0
        print(f"{game:28} {f['normal'][1]:5d} {f['normal'][0]:7.1%} {f['saver'][0]:7.1%} {f['mono'][0]:7.1%} "
              f"{f['saver'][0] / n:13.0%} {f['mono'][0] / n:12.0%}")
    print("aim: saver/normal at most 50 %")


if __name__ == "__main__":
    main()
