"""`pnp export GAME|--all --to pdf-cards|tgc|tts|vassal|all [--interleave]`."""
from __future__ import annotations

import argparse
from pathlib import Path

from solver.errors import DataError, Problem

from ..export import TARGETS, target_function
from .core import _report_warnings, add_build_options, context_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="files for print services and virtual tabletops (output/GAME/export/TARGET/)")
    p.add_argument("game", nargs="?", help="game id or folder")
    p.add_argument("--all", action="store_true", help="every game under data/games/")
    p.add_argument("--to", action="append", required=True, choices=sorted(TARGETS) + ["all"],
                   help="target (repeatable; 'all' for every target)")
    p.add_argument("--interleave", action="store_true", help="pdf-cards: front, back, front, back (default: fronts then backs)")
    add_build_options(p)
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from solver.game.loader import game_ids, load_game  # here, not above: `pnp --help` stays fast

    if not args.all and not args.game:
        raise DataError([Problem("pnp export", 0, 0, "no game given", "name a game id or folder, or use --all")])
    ctx = context_from(args)
    targets = sorted(TARGETS) if "all" in args.to else list(dict.fromkeys(args.to))
    games = [load_game(n) for n in (game_ids() if args.all else [args.game])]  # validate all first
    written: list[Path] = []
    for game in games:
        for target in targets:
            opts = {"interleave": args.interleave} if target == "pdf-cards" else {}
            paths = target_function(target)(game, ctx, **opts)
            written += paths
            print(f"{game.id}: {target}: {len(paths)} files in {ctx.out_dir(game.id) / 'export' / target}/")
    ctx.warnings[:] = dict.fromkeys(ctx.warnings)  # each target reads the same pieces: say a thing once
    _report_warnings(ctx, shown=10)
    return 0
