"""`pnp design GAME`: the least box meeting the game's targets.yaml at every player count, written to
designed.yaml with every target's exact value; or the smallest set of targets that conflict.

Prints a table per player count with each target's exact fraction and its decimal (`--json`: the
same for scripts, each value a string "p/q"). Exit 0 with a design, 1 when the targets (or the
setup's own rules) cannot all hold, 2 on unusable input (no targets.yaml included).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from solver.errors import DataError, Problem

from .core import target_games


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("design", help="turn targets.yaml (odds, ranges, box size) into counts for every player count")
    p.add_argument("game", help="game id or folder (with a targets.yaml)")
    p.add_argument("--json", action="store_true", help="print the design as JSON (each value a string \"p/q\")")
    p.add_argument("--dry-run", action="store_true", help="print the design without writing designed.yaml")
    p.set_defaults(func=cmd_design, all=False)


def cmd_design(args: argparse.Namespace) -> int:
    # imported when the command runs, so that `pnp --help` starts fast (no OR-Tools)
    from solver.counts.design import OBJECTIVE, design
    from solver.counts.design_check import design_yaml
    from solver.game.loader import load_game

    from ..output import write_text
    from .propose import load_without_proposals

    gid = target_games(args, "pnp design")[0]
    game = load_without_proposals(gid, load_game, "designed.yaml")
    result = design(game)
    if result is None:
        raise DataError([Problem(str(game.folder / "targets.yaml"), 0, 0, "no targets.yaml",
                                 "write one: see docs/design.md (`pnp design` turns targets into counts)")])
    if args.json:
        print(json.dumps(as_json(game.id, result), ensure_ascii=False, indent=2))
    if result.setup_conflict or result.conflict:
        if not args.json:
            print_conflict(game.id, result)
        return 1
    target = game.folder / "designed.yaml"
    if not args.json:
        print_table(game.id, result)
    if not args.dry_run:
        write_text(target, design_yaml(result, game.id, OBJECTIVE, step_labels(game, result)))
        if not args.json:
            print(f"{game.id}: {len(result.counts)} counts designed -> {target}")
    return 0


def step_labels(game: Any, result: Any) -> dict[int, str]:
    from solver.engine.steps import step_label

    return {i: step_label(game, i) for i, _n, _v in result.amounts}


def conflict_words(result: Any) -> str:
    """'odds a and odds b at 3 and 4 players' (and, where no count alone shows it, 'over the box')."""
    names = " and ".join(result.conflict)
    where = result.conflict_players
    at = (f" at {', '.join(where[:-1])} and {where[-1]} players" if len(where) > 1 else
          f" at {where[0]} players" if where else " over the box every player count shares")
    return names + at


def print_conflict(game_id: str, result: Any) -> None:
    if result.setup_conflict:
        print(f"{game_id}: the setup's own rules cannot all hold"
              f"{'' if result.confirmed else ' (not confirmed minimal)'}:", file=sys.stderr)
        for line in result.setup_conflict:
            print(f"  {line}", file=sys.stderr)
        return
    if result.stated:  # the targets against counts the sources state: the box is not the designer's to choose
        comps = ", ".join(dict.fromkeys(line.split("/", 1)[0] for line in result.stated))
        print(f"{game_id}: the stated counts leave no way to meet every target"
              f"{'' if result.confirmed else ' (not confirmed minimal)'}: {conflict_words(result)} with "
              f"{', '.join(result.stated)}; loosen a target, or add `open: [{comps}]` to targets.yaml "
              f"so that pnp design chooses those counts", file=sys.stderr)
        return
    print(f"{game_id}: no box meets every target; these conflict{'' if result.confirmed else ' (not confirmed minimal)'}: "
          f"{conflict_words(result)}; loosen one of them", file=sys.stderr)


def print_table(game_id: str, result: Any) -> None:
    """The counts, then one row per player count with every per-count target, then the box targets."""
    from solver.counts.measure import shown

    print(f"{game_id}: the least box that meets every target")
    for (comp, item), n in result.counts.items():
        print(f"  {comp}/{item}: {n}")
    steps = sorted({i for i, _n, _v in result.amounts})
    for step in steps:
        row = ", ".join(f"{n}{f' ({v})' if v else ''}: {e}" for (i, n, v), e in result.amounts.items() if i == step)
        print(f"  step {step} (each: free), each matched item at players {row}")
    per = [v for v in result.values if v.players is not None]
    ids = list(dict.fromkeys(v.target for v in per))
    if ids:
        rows: dict[str, dict[str, str]] = {}
        for v in per:
            label = f"{v.players}" + (f" ({v.variant})" if v.variant else "")
            mark = "" if v.holds else "  MISSED"
            rows.setdefault(label, {})[v.target] = f"{plain(v)} ≈ {float(v.value):.4f}{mark}"
        widths = [max(len(i), *(len(r.get(i, "")) for r in rows.values())) for i in ids]
        print("  players  " + "  ".join(i.ljust(w) for i, w in zip(ids, widths)))
        for label, r in rows.items():
            print(f"  {label:<7}  " + "  ".join(r.get(i, "-").ljust(w) for i, w in zip(ids, widths)).rstrip())
        for tid in ids:
            bounds = list(dict.fromkeys(v.bound for v in per if v.target == tid))
            print(f"  {tid}: {bounds[0]}" + (f" (at {len(bounds)} different bounds over the counts)" if len(bounds) > 1 else ""))
    for v in result.values:
        if v.players is None:
            extra = f"; slack {v.slack}" if v.slack is not None else ""
            part = f" [{v.part}]" if v.part else ""
            print(f"  {v.target}{part}: {plain(v)} ({v.bound}{extra})")
    for note in result.notes:
        print(f"  {note}")


def plain(v: Any) -> str:
    """A value for the table: "p/q", or the integer when the fraction is whole (1, 0, a count)."""
    return str(v.value.numerator) if v.value.denominator == 1 else f"{v.value.numerator}/{v.value.denominator}"


def as_json(game_id: str, result: Any) -> dict:
    from solver.counts.design_check import value_json

    out: dict[str, Any] = {"game": game_id, "status": "designed", "counts": [
        {"component": k[0], "item": k[1], "count": n} for k, n in result.counts.items()],
        "amounts": [{"step": i, "players": n, "variant": v, "each": e} for (i, n, v), e in result.amounts.items()],
        "values": [value_json(v) for v in result.values], "notes": result.notes}
    if result.conflict or result.setup_conflict:
        out["status"] = "conflict"
        out["conflict"] = {"targets": result.conflict, "players": result.conflict_players,
                           "setup": result.setup_conflict, "stated": result.stated, "confirmed": result.confirmed}
    return out
