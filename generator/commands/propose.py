"""`pnp propose GAME|--all`: write proposed.yaml, the counts the solver proposes where the sources state none.

The proposal is data (solver/game/proposals.py) beside components.yaml: the build prints complete
sets from it and `pnp check` reports each count as an assumption. When no proposal satisfies every
rule, the command names the steps, counts and rules that conflict, writes nothing and exits 1.
"""
from __future__ import annotations

import argparse
import sys

from solver.errors import DataError

from .core import add_game_arguments, target_games


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("propose", help="write proposed.yaml: counts the solver proposes where the sources state none")
    add_game_arguments(p)
    p.add_argument("--dry-run", action="store_true", help="print the proposal instead of writing it")
    p.set_defaults(func=cmd_propose)


def cmd_propose(args: argparse.Namespace) -> int:
    # imported when the command runs, so that `pnp --help` starts fast (no OR-Tools)
    from solver.game.loader import load_game
    from solver.counts.propose import propose, proposals_yaml

    from ..output import write_text

    status = 0
    for gid in target_games(args, "pnp propose"):
        game = load_without_proposals(gid, load_game)
        result = propose(game)
        target = game.folder / "proposed.yaml"
        if result.conflict:
            print(f"{game.id}: no counts satisfy every rule; these cannot hold together"
                  f"{'' if result.confirmed else ' (not confirmed minimal)'}:", file=sys.stderr)
            for line in result.conflict:
                print(f"  {line}", file=sys.stderr)
            status = 1
            continue
        if not result.proposals:
            if target.exists() and not args.dry_run:
                target.unlink()  # every count is stated now: an old proposal would only be stale
            print(f"{game.id}: every count is stated; nothing to propose")
            continue
        if result.stopped:
            print(f"{game.id}: warning: {result.stopped}", file=sys.stderr)
        text = proposals_yaml(result.as_file(), game.id)
        if args.dry_run:
            sys.stdout.write(text)
            continue
        write_text(target, text)
        print(f"{game.id}: {len(result.proposals)} counts proposed -> {target}")
    return status


def load_without_proposals(gid: str, load_game, name: str = "proposed.yaml"):
    """The game as its sources state it: a proposed.yaml (or `name`: designed.yaml) that no longer
    loads (an item renamed or removed since) must not stop the command that rewrites it. The old
    file is set aside while the game loads and put back untouched; what is computed never reads it."""
    from pathlib import Path

    from solver.game.folders import resolve_game_dir

    from ..output import write_bytes

    old = resolve_game_dir(gid) / name
    try:
        return load_game(gid)
    except DataError as e:
        if not old.exists() or not all(Path(p.path).name == name for p in e.problems):
            raise
    kept = old.read_bytes()
    old.unlink()
    try:
        return load_game(gid)
    finally:
        write_bytes(old, kept)  # back as it was, whatever happens next
