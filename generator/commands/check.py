"""`pnp check GAME|--all [--json]`: the checker report of DESIGN.md, as JSON or as tables.

Exit status: 0 when no error-level finding, 1 when there is one, 2 when a game's data is
unusable (its problems go to stderr, one `path:line:col: what; what to do` per line; with
--all the other games are still checked and reported).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from solver.errors import DataError, Problem
from solver.loader import game_ids, load_game

EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2
STYLE = {"error": "bold red", "warning": "yellow", "assumption": "cyan", "info": "dim"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="prove a game's setup and inventory at every player count")
    p.add_argument("game", nargs="?", help="game id under data/games/, or a game folder")
    p.add_argument("--all", action="store_true", help="every game under data/games/")
    p.add_argument("--json", action="store_true", help="print the JSON report (a list with --all)")
    p.add_argument("--quiet-info", action="store_true", help="leave info findings out of the tables")
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from solver.report import check_game

    if not args.all and not args.game:
        raise DataError([Problem("pnp check", 0, 0, "no game given", "name a game id or folder, or use --all")])
    names = game_ids() if args.all else [args.game]
    reports: list[dict[str, Any]] = []
    unusable = False
    for name in names:
        try:
            reports.append(check_game(load_game(name)))
        except DataError as e:
            if not args.all:
                raise
            unusable = True
            for problem in e.problems:
                print(str(problem), file=sys.stderr)
    if args.json:
        payload: Any = reports if args.all else reports[0]
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        console = Console()
        for report in reports:
            print_report(console, report, quiet_info=args.quiet_info)
    if unusable:
        return EXIT_UNUSABLE
    return EXIT_FINDINGS if any(not r["ok"] for r in reports) else EXIT_OK


def print_report(console: Console, report: dict[str, Any], *, quiet_info: bool = False) -> None:
    verdict = "[green]ok[/green]" if report["ok"] else "[bold red]errors[/bold red]"
    console.rule(f"{report['game']} — {verdict}")
    if report["player_counts"]:
        t = Table(title="setup per player count", title_justify="left")
        for col in ("players", "hand", "dealt", "draw pile", "in play", "returned to box", "set aside"):
            t.add_column(col, justify="right" if col in ("players", "hand", "draw pile") else "left")
        for n, row in report["player_counts"].items():
            t.add_row(n, str(row.get("hand_size", "")), _counts(row.get("dealt")), str(row.get("draw_pile", "")),
                      _counts(row.get("in_play")), _counts(row.get("returned_to_box")), _counts(row.get("set_aside")))
        console.print(t)
    findings = [f for f in report["findings"] if not (quiet_info and f["severity"] == "info")]
    if findings:
        t = Table(title="findings", title_justify="left", show_lines=False)
        for col in ("severity", "code", "players", "message", "source"):
            t.add_column(col, overflow="fold")
        for f in findings:
            style = STYLE.get(f["severity"], "")
            t.add_row(f"[{style}]{f['severity']}[/{style}]", f["code"], _ranges(f["player_counts"]),
                      f["message"], f["source"])
        console.print(t)
    for name, table in sorted(report["derived"].items()):
        if name.startswith("p_no_") and not name.endswith("_exact"):
            cells = ", ".join(f"{n}: {p:.3f}" for n, p in table.items())
            console.print(f"{name} (players: probability): {cells}")


def _counts(d: dict[str, int] | None) -> str:
    return ", ".join(f"{k} {v}" for k, v in (d or {}).items())


def _ranges(ns: list[int]) -> str:
    if not ns:
        return ""
    out, start, prev = [], ns[0], ns[0]
    for n in ns[1:] + [None]:  # type: ignore[list-item]
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(f"{start}-{prev}" if prev != start else str(start))
        if n is not None:
            start = prev = n
    return ",".join(out)
