"""The build: the list of stages `pnp build` runs, each a function `stage(game, ctx) -> written paths`.

This file is the one readable list of what a build makes. Each stage imports its drawing code
when it runs, so `pnp list` and `pnp --help` never load reportlab or OR-Tools. The incremental
build (generator/incremental.py) runs them as work units (generator/units.py): a stage that
prints decks runs once per deck, with a game narrowed to that component.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .context import BuildContext

if TYPE_CHECKING:
    from solver.game.loader import Game


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


def pieces(game: Game, ctx: BuildContext) -> list[Path]:
    """Tokens, chips, tiles, standees, boards and sheets (generator/pieces/punch.py)."""
    from .pieces.punch import build_pieces
    return build_pieces(game, ctx)


def maps(game: Game, ctx: BuildContext) -> list[Path]:
    """The hex map, full size and tiled."""
    from .hexmap.stage import build_maps
    return build_maps(game, ctx)


def rulebooks(game: Game, ctx: BuildContext) -> list[Path]:
    """Rulebooks per language and A5 booklets."""
    from .rulebook.build import build_rulebooks
    return build_rulebooks(game, ctx)


def check(game: Game, ctx: BuildContext) -> list[Path]:
    """check-report.json: the checker's report (setup per player count, findings), for the preview.
    The mistakes that load but print wrong (solver/game/usage.py) are build warnings too."""
    import json

    from solver.game.usage import CODES
    from .coverage import check_report
    from .output import write_text
    report = check_report(game)
    for f in report["findings"]:
        if f["code"] in CODES and f["severity"] == "warning":
            ctx.warn(f"{f['source']}: {f['message']}")
    return [write_text(ctx.out_dir(game.id) / "check-report.json",
                       json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True) + "\n")]


STAGES: list[Stage] = [manifest, check, cards, counters, pieces, maps, rulebooks]
STAGE_NAMES: list[str] = [s.__name__ for s in STAGES]
