"""`pnp export`: a game's pieces as a print service or a virtual tabletop takes them.

One module per target (pdf_cards.py, tgc.py, tts.py, vassal.py; vassal.py's piece traits are in
vassal_pieces.py and its map grids in vassal_grid.py; common.py is what they share); each writes
output/<game>/export/<target>/ with a README.txt that says how to upload or load it. TARGETS maps a target name to its function; each function imports its
module when it runs, so a target's dependencies load only then.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from solver.game.loader import Game

    from ..context import BuildContext


def pdf_cards(game: Game, ctx: BuildContext, **opts: Any) -> list[Path]:
    from .pdf_cards import export_pdf_cards
    return export_pdf_cards(game, ctx, **opts)


def tgc(game: Game, ctx: BuildContext, **opts: Any) -> list[Path]:
    from .tgc import export_tgc
    return export_tgc(game, ctx, **opts)


def tts(game: Game, ctx: BuildContext, **opts: Any) -> list[Path]:
    from .tts import export_tts
    return export_tts(game, ctx, **opts)


def vassal(game: Game, ctx: BuildContext, **opts: Any) -> list[Path]:
    from .vassal import export_vassal
    return export_vassal(game, ctx, **opts)


TARGETS: dict[str, Callable[..., list[Path]]] = {"pdf-cards": pdf_cards, "tgc": tgc, "tts": tts, "vassal": vassal}


def target_function(name: str) -> Callable[..., list[Path]]:
    return TARGETS[name]
