"""`pnp preflight GAME|--all`: check the PDFs of a build as a print shop would (generator/preflight.py),
and the game's data for pieces told apart by colour alone (generator/colourvision.py).

A PDF the build already checked (its bytes, name and options as the build record keeps them) is
not read again: its findings are the record's.

Exit status: 0 when no finding is an error (warnings are printed), 1 when one is (a font not
embedded), 2 when there is no build to check.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from solver.errors import DataError, Problem

from .core import add_game_arguments, check_game_or_all


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("preflight", help="check a build's PDFs: fonts embedded, safe zone, contrast, paper edge, "
                                         "overlapping symbols, type on pieces under 6 pt, "
                                         "colours a colour-blind player cannot tell apart")
    add_game_arguments(p, "game id (or game folder) whose build to check", "every game in the build folder")
    p.add_argument("--out", type=Path, default=Path("output"), help="build folder (default: output)")
    p.add_argument("--safe", type=float, default=3.0, help="safe zone inside the trim, mm (default 3)")
    p.set_defaults(func=cmd_preflight)


def _min_type(args: argparse.Namespace, folder: Path) -> float:
    """The smallest type the game built into `folder` allows on its pieces: its game.yaml's
    `min_type`, else 6 pt (also when the game's data is not at hand)."""
    from ..typesize import min_type_of

    try:
        from solver.game.loader import load_meta  # pydantic's models: not at every `pnp` start

        return min_type_of(load_meta(args.game if args.game else folder.name))
    except DataError:
        return min_type_of(None)


def cmd_preflight(args: argparse.Namespace) -> int:
    from ..preflight import preflight

    check_game_or_all(args, "pnp preflight")
    if args.all:
        folders = sorted(d for d in args.out.iterdir() if d.is_dir()) if args.out.is_dir() else []
    else:
        folders = [args.out / Path(args.game).name]
    pdfs = [p for d in folders if d.is_dir() for p in d.rglob("*.pdf")]
    if not pdfs:
        what = "any game" if args.all else Path(args.game).name
        raise DataError([Problem(str(args.out), 0, 0, f"no PDF of {what} to check",
                                 f"run `pnp build {'--all' if args.all else args.game} --out {args.out}` first")])
    memo = _kept(folders)
    findings = [f for d in folders if d.is_dir()
                for f in preflight(sorted(d.rglob("*.pdf")), args.out, safe_mm=args.safe, min_type_pt=_min_type(args, d),
                                   memo=memo)]
    for f in findings:
        print(f"{f.level}: {f}")
    colours = [line for game in ([d.name for d in folders] if args.all else [args.game]) for line in _colour_vision(game)]
    for line in colours:
        print(f"warning: {line}")
    errors = sum(f.level == "error" for f in findings)
    print(f"checked {len(pdfs)} PDF(s): {errors} error(s), {len(findings) + len(colours) - errors} warning(s)")
    return 1 if errors else 0


def _kept(folders: list[Path]):
    """The findings the builds' records keep (generator/incremental.py): a PDF whose bytes the build
    checked, with the same options, is not read again."""
    from ..incremental import RECORD, kept_findings, read_record
    from ..preflight import Memo

    return Memo({k: v for d in folders if d.is_dir() for rec in sorted(d.rglob(RECORD))
                 for k, v in kept_findings(read_record(rec.parent)).items()})


def _colour_vision(game: str) -> list[str]:
    """The colour-vision check of the game's data (generator/colourvision.py); nothing for a build
    folder whose game is not found or does not load (`pnp check` reports why)."""
    from solver.game.loader import load_game

    from ..colourvision import colour_vision

    try:
        return colour_vision(load_game(game))
    except (DataError, FileNotFoundError, KeyError):
        return []
