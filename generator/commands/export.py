"""`pnp export GAME|--all --to pdf-cards|tgc|tts|vassal|all [--interleave] [--base-url URL]`."""
from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from ..context import SHOP_BLEED_MM, BuildContext
from ..export import TARGETS, target_function
from .core import _report_warnings, add_build_options, add_game_arguments, context_from, target_games

SHOP_TARGETS = ("pdf-cards", "tgc")  # exports for print shops, whose templates fix the bleed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="files for print services and virtual tabletops (output/GAME/export/TARGET/)")
    add_game_arguments(p)
    p.add_argument("--to", action="append", required=True, choices=sorted(TARGETS) + ["all"],
                   help="target (repeatable; 'all' for every target)")
    p.add_argument("--interleave", action="store_true", help="pdf-cards: front, back, front, back (default: fronts then backs)")
    p.add_argument("--base-url", default=None,
                   help="tts: link every image under this URL (where you will host the images) instead of file:// "
                        "paths of this folder, e.g. https://example.org/my-game/tts/")
    add_build_options(p)
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from solver.game.loader import load_game  # here, not above: `pnp --help` stays fast

    from ..output import build_lock
    from ..render.ink import ink_mode

    names = target_games(args, "pnp export")
    ctx = context_from(args)
    targets = sorted(TARGETS) if "all" in args.to else list(dict.fromkeys(args.to))
    games = [load_game(n) for n in names]  # validate all first
    written: list[Path] = []
    with build_lock(ctx.out_root):  # one writer per output folder: a build or another export waits
        for game in games:
            for target in targets:
                with ink_mode(ctx.ink):  # --ink saver|mono: into output/GAME/ink-<mode>/export/
                    paths = target_function(target)(game, _target_context(ctx, target, args.bleed), **_options(target, args))
                written += paths
                print(f"{game.id}: {target}: {len(paths)} files in {ctx.out_dir(game.id) / 'export' / target}/")
    ctx.warnings[:] = dict.fromkeys(ctx.warnings)  # each target reads the same pieces: say a thing once
    _report_warnings(ctx, shown=10, name="export-warnings.txt")
    return 0


def _target_context(ctx: BuildContext, target: str, bleed: float | None) -> BuildContext:
    """The shops' own bleed (1/8 in, generator/context.py) for their exports unless --bleed was given.
    The context is copied, its warnings list shared."""
    if bleed is None and target in SHOP_TARGETS:
        return replace(ctx, bleed_mm=SHOP_BLEED_MM)
    return ctx


def _options(target: str, args: argparse.Namespace) -> dict:
    if target == "pdf-cards":
        return {"interleave": args.interleave}
    if target == "tts":
        return {"base_url": args.base_url}
    return {}
