"""Benchmark: how loose the justified lines of the Latin-script rulebooks are.

Builds each example game's rulebook in a Latin-script language (English by default) and records
every line the typesetter asks to justify (each line of a justified paragraph but its last):
the word space it would need to fill the measure, as a multiple of the font's own space. A line
that needs more than 2x (justify.MAX_STRETCH) is left ragged; one over 1.5x reads loose. Prints
per game and in total the number of such lines and their share.

    python3 bench/bench_justify.py [--lang en] [--show N]

`--show N` prints the N loosest lines with their need. The last column counts the paragraphs
whose last line is only the tail of a word broken at a hyphen ("...dark-" / "ness.").
"""
from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator import fonts  # noqa: E402
from generator.context import BuildContext  # noqa: E402
from generator.rulebook import flowables  # noqa: E402
from generator.rulebook.build import rulebook_files  # noqa: E402
from generator.text import breaking  # noqa: E402
from generator.text.breaking import HYPHEN  # noqa: E402
from solver.game.folders import game_ids
from solver.game.loader import load_game  # noqa: E402


def need(line: str, hyphen: bool, font: str, size: float, width: float) -> float | None:
    """The word space (in spaces) that fills `width`; None for a line without a space."""
    gaps = line.count(" ")
    if not gaps:
        return None
    space = fonts.string_width(" ", font, size)
    natural = fonts.string_width(line + (HYPHEN if hyphen else ""), font, size)
    return 1 + (width - natural) / gaps / space


def measure(game_id: str, lang: str, out: Path) -> tuple[list[tuple[float, str]], int]:
    """(need, line) of every line the rulebook of `game_id` in `lang` justifies, and how many of
    its justified paragraphs end with a hyphenated line and the word's tail."""
    seen: dict[tuple, float] = {}
    final: set[tuple] = set()
    original = flowables.word_space
    wrap = importlib.import_module("generator.text.wrap")  # the module: the package exports its function wrap
    fit = breaking.total_fit

    def recording_fit(text, measure, width, lang, justified=False, span_width=None):  # type: ignore[no-untyped-def]
        lines = fit(text, measure, width, lang, justified, span_width)
        if justified and lines and len(lines) > 1 and lines[-2].end < len(text) and text[lines[-2].end] != " " \
                and " " not in text[lines[-1].start:lines[-1].end]:
            final.add((text, round(width, 2)))
        return lines

    def recording(line: str, hyphen: bool, font: str, size: float, width: float) -> float:
        n = need(line, hyphen, font, size, width)
        if n is not None:
            seen[(line, hyphen, font, size, round(width, 2))] = n  # the second typesetting pass draws it again
        return original(line, hyphen, font, size, width)

    flowables.word_space = recording  # type: ignore[assignment]
    wrap.total_fit = recording_fit  # type: ignore[assignment]
    try:
        rulebook_files(load_game(game_id), BuildContext(out_root=out, formats=("pdf",)), lang)
    finally:
        flowables.word_space = original  # type: ignore[assignment]
        wrap.total_fit = fit  # type: ignore[assignment]
    return [(n, key[0]) for key, n in seen.items()], len(final)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="en")
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args()
    everything: list[tuple[float, str, str]] = []
    print(f"{'game':32} {'lines':>6} {'>1.5x':>12} {'>2x (ragged)':>14} {'tail alone':>13}")
    finals = 0
    with tempfile.TemporaryDirectory() as tmp:
        for gid in game_ids():
            lines, final = measure(gid, args.lang, Path(tmp))
            finals += final
            loose = sum(1 for n, _ in lines if n > 1.5)
            ragged = sum(1 for n, _ in lines if n > 2.0)
            print(f"{gid:32} {len(lines):6d} {loose:5d} ({loose / max(1, len(lines)):5.1%}) "
                  f"{ragged:6d} ({ragged / max(1, len(lines)):5.1%}) {final:13d}")
            everything += [(n, gid, text) for n, text in lines]
    n = len(everything)
    loose = sum(1 for x, _, _ in everything if x > 1.5)
    ragged = sum(1 for x, _, _ in everything if x > 2.0)
    print(f"{'all':32} {n:6d} {loose:5d} ({loose / max(1, n):5.1%}) {ragged:6d} ({ragged / max(1, n):5.1%}) "
          f"{finals:13d}")
    for x, gid, text in sorted(everything, reverse=True)[:args.show]:
        print(f"  {x:4.2f}x  {gid}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
