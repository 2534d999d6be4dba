"""The build: the list of stages `pnp build` runs, each a function `stage(game, ctx) -> written paths`.

This file is the one readable list of what a build makes. Each stage imports its drawing code
when it runs, so `pnp list` and `pnp --help` never load reportlab or OR-Tools. The incremental
build (generator/incremental.py) runs them as work units (generator/units.py): a stage that
prints decks runs once per deck, with a game narrowed to that component.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

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


def packed(game: Game, ctx: BuildContext) -> list[Path]:
    """With --layout packed: every card, counter, token, tile, standee, tuck box and die net on the fewest sheets
    (generator/pieces/packed.py)."""
    from .pieces.packed import build_packed
    return build_packed(game, ctx)


def maps(game: Game, ctx: BuildContext) -> list[Path]:
    """The hex map, full size and tiled."""
    from .hexmap.stage import build_maps
    return build_maps(game, ctx)


def rulebooks(game: Game, ctx: BuildContext) -> list[Path]:
    """Rulebooks per language and A5 booklets."""
    from .rulebook.build import build_rulebooks
    return build_rulebooks(game, ctx)


def missing(game: Game, ctx: BuildContext) -> list[Path]:
    """missing-<lang>.pdf: what the sources do not give (placeholders, pieces left out, proposed counts)."""
    from .missing import build_missing
    return build_missing(game, ctx)


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
    report = in_game_folder(report, game.folder)  # the file names its sources as the game folder does
    return [write_text(ctx.out_dir(game.id) / "check-report.json",
                       json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True) + "\n")]


def in_game_folder(value: Any, folder: Path) -> Any:
    """`value` (a report: dicts, lists, texts) with every path into the game folder written relative
    to it ("setup.yaml:2"): findings name their file as the terminal shows it, relative to the
    working folder or absolute, and a file must not depend on where the build ran."""
    from solver.errors import display_path

    prefixes = sorted({f"{p}{os.sep}" for p in (display_path(folder), str(folder), str(folder.resolve()))},
                      key=len, reverse=True)

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            for prefix in prefixes:
                v = v.replace(prefix, "")
            return v
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v
    return walk(value)


STAGES: list[Stage] = [manifest, missing, check, cards, counters, pieces, packed, maps, rulebooks]
STAGE_NAMES: list[str] = [s.__name__ for s in STAGES]
