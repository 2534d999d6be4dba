"""The build: for each game, run every stage of the pipeline and collect what it wrote.

A stage is `function(game, ctx) -> list[Path]`. Capabilities register their stage here, by
import path, so this file stays the one readable list of what `pnp build` makes.
"""
from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from typing import Callable

from solver.loader import Game

from .context import BuildContext
from .languages import languages_to_build, parse_requested

STAGES: list[tuple[str, str]] = [
    ("manifest", "generator.manifest:build_manifest"),
    ("cards", "generator.cards.deck:build_cards"),
    ("counters", "generator.counters:build_counters"),
    ("maps", "generator.hexmap.stage:build_maps"),
    ("rulebooks", "generator.rulebook.build:build_rulebooks"),
]

Stage = Callable[[Game, BuildContext], list[Path]]


def stage_functions(only: set[str] | None = None) -> list[tuple[str, Stage]]:
    out = []
    for name, target in STAGES:
        if only and name not in only:
            continue
        module, func = target.split(":")
        out.append((name, getattr(importlib.import_module(module), func)))
    return out


def build_game(game: Game, ctx: BuildContext, only: set[str] | None = None,
               on_stage: Callable[[str], None] | None = None) -> list[Path]:
    written: list[Path] = []
    # Every stage runs once per language the game is built in (ctx.lang narrows them: --lang ja,en).
    langs = languages_to_build(game, parse_requested(ctx.lang), ctx.warn)
    for name, fn in stage_functions(only):
        if on_stage:
            on_stage(name)
        for lang in langs:
            written += fn(game, dataclasses.replace(ctx, lang=lang))
    return written
