"""How to print a game, for a player who has only its PDFs: the rulebook's last section and a
one-page `print-guide-<lang>.pdf` beside the other files.

What it says follows from the game and the build: the paper and the 100 % scale; the duplex flip
edge and the calibration page, when the game has cards or counters; card stock; the cutting order
and the bleed; each map's full-size sheet and its tiles with their count and assembly; the book
and its booklet. File names are those the build writes in that language.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.game.base import pick
from solver.game.loader import Game
from solver.game.objmemo import kept_for

from .. import catalogue
from ..context import BuildContext
from .blocks import BULLET, Heading, Para, Text, _labels
from .strings import label

BOOK_PAPERS = ("a4", "letter")  # a rulebook is A4 or Letter whatever the sheets' paper
PAPER_NAMES = {"a4": "A4", "letter": "Letter", "a3": "A3", "a2": "A2", "a1": "A1", "a0": "A0"}


@dataclass(frozen=True)
class Printing:
    """The build options a print guide speaks of."""
    paper: str  # the sheets' paper, as --paper names it (a4, letter, a3...)
    flip: str  # long | short
    bleed_mm: float

    @classmethod
    def of(cls, ctx: BuildContext) -> "Printing":
        return cls(ctx.paper, ctx.flip, ctx.bleed_mm)


def _suffix(game: Game, lang: str) -> str:
    return "" if lang == game.meta.source_language else f"-{lang}"


def _map_lines(game: Game, lang: str, p: Printing) -> list[str]:
    """One line per map: its full-size file and paper, its tiles and their count (a map no larger
    than the paper has none)."""
    mapfile = game.extras.get("map")
    if mapfile is None:
        return []
    from ..hexmap.stage import map_tiles

    # resolved once per loaded game for each language's book, booklet and guide (objmemo); the
    # tiling is kept by map_tiles itself, which the map stage asks too
    hm = kept_for(game, "print guide map", lambda: mapfile.resolve(game.locators.get("map.yaml")))
    tiled = map_tiles(hm, p.paper)
    stem = f"map-{hm.data.id}{_suffix(game, lang)}"
    size = PAPER_NAMES.get(hm.data.paper, hm.data.paper.upper())
    if tiled is None:
        return [label("guide_map_whole", lang, name=pick(hm.data.name, lang), file=f"{stem}.pdf", size=size)]
    paper, plan = tiled
    return [label("guide_map", lang, name=pick(hm.data.name, lang), file=f"{stem}.pdf", size=size,
                  tiles=f"{stem}-tiles-{paper}.pdf", n=len(plan.tiles), rows=plan.rows, cols=plan.cols,
                  paper=PAPER_NAMES[paper])]


def guide_lines(game: Game, lang: str, p: Printing) -> list[str]:
    """The guide's paragraphs in `lang`, in the order a player needs them."""
    paper = PAPER_NAMES[p.paper]
    flip = catalogue.text(f"calibration.flip.{p.flip}", lang)
    pieces = any(c.kind in ("deck", "counters", "chits", "tokens", "tiles") for c in game.components)
    lines = [label("guide_scale", lang, paper=paper)]
    if pieces:
        lines.append(label("guide_duplex", lang, flip=flip,
                           calibration=f"calibration-{p.paper}-{p.flip}{_suffix(game, lang)}.pdf"))
        lines.append(label("guide_stock", lang))
        lines.append(label("guide_cut", lang, bleed=f"{p.bleed_mm:g}"))
    lines += _map_lines(game, lang, p)
    book = PAPER_NAMES[p.paper if p.paper in BOOK_PAPERS else "a4"]  # what the rulebook stage prints on
    lines.append(label("guide_book", lang, rulebook=f"rulebook-{lang}.pdf", booklet=f"booklet-{lang}.pdf",
                       flip=flip, paper=book))
    return lines


def guide_blocks(game: Game, langs: list[str], p: Printing) -> list[Any]:
    """The rulebook's section "How to print", each language naming its own language's files."""
    per_lang = {lg: guide_lines(game, lg, p) for lg in langs}
    blocks: list[Any] = [Heading("print-guide", 0, "", _labels(langs, "guide"))]
    for i in range(len(per_lang[langs[0]])):
        blocks.append(Para("item", {lg: Text(per_lang[lg][i]) for lg in langs}, marker=BULLET))
    return blocks
