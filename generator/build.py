"""The build: the list of stages `pnp build` runs, each a function `stage(game, ctx) -> written paths`.

This file is the one readable list of what a build makes. Each stage imports its drawing code
when it runs, so `pnp list` and `pnp --help` never load reportlab or OR-Tools.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from .context import BuildContext

if TYPE_CHECKING:
    from solver.loader import Game


class Stage(Protocol):
    """A build stage; its `__name__` is the name `--only` takes."""
    __name__: str

    def __call__(self, game: Game, ctx: BuildContext) -> list[Path]: ...


def manifest(game: Game, ctx: BuildContext) -> list[Path]:
    """manifest.json and manifest-<lang>.txt: the inventory."""
    from .manifest import build_manifest
    return build_manifest(game, ctx)


def cards(game: Game, ctx: BuildContext) -> list[Path]:
    """Card sheets (PDF, SVG pages, PNG per card) and the duplex calibration page."""
    from .cards.deck import build_cards
    return build_cards(game, ctx)


def counters(game: Game, ctx: BuildContext) -> list[Path]:
    """Double-sided counter sheets."""
    from .counters import build_counters
    return build_counters(game, ctx)


def maps(game: Game, ctx: BuildContext) -> list[Path]:
    """The hex map, full size and tiled."""
    from .hexmap.stage import build_maps
    return build_maps(game, ctx)


def rulebooks(game: Game, ctx: BuildContext) -> list[Path]:
    """Rulebooks per language and A5 booklets."""
    from .rulebook.build import build_rulebooks
    return build_rulebooks(game, ctx)


STAGES: list[Stage] = [manifest, cards, counters, maps, rulebooks]
STAGE_NAMES: list[str] = [s.__name__ for s in STAGES]


def stage_functions(only: set[str] | None = None) -> list[tuple[str, Stage]]:
    return [(s.__name__, s) for s in STAGES if not only or s.__name__ in only]


def build_game(game: Game, ctx: BuildContext, only: set[str] | None = None,
               on_stage: Callable[[str], None] | None = None) -> list[Path]:
    from .languages import languages_to_build, parse_requested

    written: list[Path] = []
    # Every stage runs once per language the game is built in (ctx.lang narrows them: --lang ja,en).
    langs = languages_to_build(game, parse_requested(ctx.lang), ctx.warn)
    for name, fn in stage_functions(only):
        if on_stage:
            on_stage(name)
        for lang in langs:
            written += fn(game, dataclasses.replace(ctx, lang=lang))
    return written
