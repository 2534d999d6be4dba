"""`pnp export GAME|--all --to pdf-cards|tgc|tts|vassal|all [--interleave]`."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..export import TARGETS, target_function
from .core import _report_warnings, add_build_options, add_game_arguments, context_from, target_games


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="files for print services and virtual tabletops (output/GAME/export/TARGET/)")
    add_game_arguments(p)
    p.add_argument("--to", action="append", required=True, choices=sorted(TARGETS) + ["all"],
                   help="target (repeatable; 'all' for every target)")
    p.add_argument("--interleave", action="store_true", help="pdf-cards: front, back, front, back (default: fronts then backs)")
    add_build_options(p)
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from solver.game.loader import load_game  # here, not above: `pnp --help` stays fast

    from ..output import build_lock

    names = target_games(args, "pnp export")
    ctx = context_from(args)
    targets = sorted(TARGETS) if "all" in args.to else list(dict.fromkeys(args.to))
    games = [load_game(n) for n in names]  # validate all first
    written: list[Path] = []
    with build_lock(ctx.out_root):  # one writer per output folder: a build or another export waits
        for game in games:
            for target in targets:
                opts = {"interleave": args.interleave} if target == "pdf-cards" else {}
                paths = target_function(target)(game, ctx, **opts)
                written += paths
                print(f"{game.id}: {target}: {len(paths)} files in {ctx.out_dir(game.id) / 'export' / target}/")
    ctx.warnings[:] = dict.fromkeys(ctx.warnings)  # each target reads the same pieces: say a thing once
    _report_warnings(ctx, shown=10)
    return 0
