"""`pnp check GAME|--all [--json]`: the checker report of DESIGN.md, as JSON or as tables.

Exit status: 0 when no error-level finding, 1 when there is one, 2 when a game's data is
unusable (its problems go to stderr, one `path:line:col: what; what to do` per line; with
--all the other games are still checked and reported).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any


from solver.errors import DataError, Problem

from .core import add_draft_option, add_game_arguments, check_game_or_all, draft_languages

if TYPE_CHECKING:  # imported when a command runs, so that `pnp --help` starts fast
    from rich.console import Console

EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2
STYLE = {"error": "bold red", "warning": "yellow", "assumption": "cyan", "info": "dim"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="prove a game's setup and inventory at every player count")
    add_game_arguments(p, "game id under data/games/, or a game folder")
    p.add_argument("--json", action="store_true", help="print the JSON report (a list with --all)")
    p.add_argument("--quiet-info", action="store_true", help="leave info findings out of the tables")
    add_draft_option(p)
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from rich.console import Console
    from solver.game.folders import game_ids
    from solver.game.loader import load_game

    from ..coverage import check_report

    check_game_or_all(args, "pnp check")
    if not args.all:
        from ..languages import with_drafts

        reports = [check_report(with_drafts(load_game(args.game), draft_languages(args)))]
        unusable = False
    else:
        reports, unusable = [], False
        for report, problems in check_many(game_ids()):
            if report is not None:
                reports.append(report)
            for problem in problems:
                unusable = True
                print(str(problem), file=sys.stderr)
    if args.json:
        payload: Any = reports if args.all else reports[0]
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        console = Console()
        if not console.is_terminal:  # piped to a file or a pager: do not squeeze the tables to 80
            console = Console(width=160)
        for report in reports:
            print_report(console, report, quiet_info=args.quiet_info)
    if unusable:
        return EXIT_UNUSABLE
    return EXIT_FINDINGS if any(not r["ok"] for r in reports) else EXIT_OK


def _check_one(name: str) -> tuple[dict[str, Any] | None, list[Problem]]:
    from solver.game.loader import load_game

    from ..coverage import check_report

    try:
        return check_report(load_game(name)), []
    except DataError as e:  # problems cross the process boundary as plain dataclasses
        return None, list(e.problems)


def check_many(names: list[str]) -> list[tuple[dict[str, Any] | None, list[Problem]]]:
    """Check several games, one process per core (the games are independent); results keep the
    order of `names`, so the output is the same as a serial run's."""
    import multiprocessing  # here, not at the top: `pnp build` (a no-op above all) loads this module but never forks it
    from concurrent.futures import ProcessPoolExecutor

    from solver.checks import check_functions

    check_functions()  # import every check before forking, so the workers start warm
    workers = min(len(names), os.cpu_count() or 1)
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [_check_one(n) for n in names]
    # biggest game first (longest-processing-time scheduling): with the largest one last, one
    # core would idle while the other finishes it
    order = sorted(names, key=lambda n: -_data_size(n))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = {n: pool.submit(_check_one, n) for n in order}
        return [futures[n].result() for n in names]


def _data_size(name: str) -> int:
    """Bytes of a game's data files: a cheap, deterministic stand-in for how long it takes to check."""
    from solver.game.folders import resolve_game_dir

    try:
        folder = resolve_game_dir(name)
    except DataError:
        return 0
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def print_report(console: Console, report: dict[str, Any], *, quiet_info: bool = False) -> None:
    from rich.table import Table

    verdict = "[green]ok[/green]" if report["ok"] else "[bold red]errors[/bold red]"
    console.rule(f"{report['game']} — {verdict}")
    counts = report["player_counts"]
    if counts:
        # one column per player count, one row per figure: reads like a rulebook's setup table
        t = Table(title="setup per player count", title_justify="left")
        t.add_column("players")
        for n in counts:
            t.add_column(n, justify="right")
        # a count where a step runs short has no figures (they would be a state no table can show)
        if any("cannot_set_up" in r for r in counts.values()):
            t.add_row("can be set up", *("no (see error)" if "cannot_set_up" in r else "yes" for r in counts.values()))
        t.add_row("hand size", *_cells(counts, lambda r: r.get("hand_size", "")))
        t.add_row("draw pile", *_cells(counts, lambda r: r.get("draw_pile", "")))
        for zone in ("dealt", "in_play", "returned_to_box", "set_aside"):
            keys = sorted({k for r in counts.values() for k in (r.get(zone) or {})})
            for key in keys:
                t.add_row(f"{zone.replace('_', ' ')}: {key}",
                          *_cells(counts, lambda r: (r.get(zone) or {}).get(key, 0)))  # noqa: B023
        console.print(t)
    findings = [f for f in report["findings"] if not (quiet_info and f["severity"] == "info")]
    if findings:
        from rich.markup import escape

        t = Table(title="findings", title_justify="left")
        for col in ("severity", "code", "players", "message", "source"):
            t.add_column(col, overflow="fold", ratio=4 if col == "message" else None)
        for f in findings:
            style = STYLE.get(f["severity"], "")
            t.add_row(f"[{style}]{f['severity']}[/{style}]", f["code"], _ranges(f["player_counts"]),
                      escape(f["message"]), escape(f["source"]))  # `[setup.yaml:9]` is text, not markup
        console.print(t)
    for name, table in sorted(report["derived"].items()):
        if name.startswith("p_no_") and not name.endswith("_exact"):
            cells = ", ".join(f"{n}: {p:.3f}" for n, p in table.items())
            console.print(f"{name} (players: probability): {cells}")
    errors = sum(f["severity"] == "error" for f in report["findings"])
    warnings = sum(f["severity"] == "warning" for f in report["findings"])
    console.print(f"{report['game']}: {errors} error(s), {warnings} warning(s), {len(report['findings'])} finding(s)")


def _cells(counts: dict[str, dict[str, Any]], value: Any) -> list[str]:
    """One cell per player count; `–` where the setup cannot be carried out."""
    return ["–" if "cannot_set_up" in r else str(value(r)) for r in counts.values()]


def _counts(d: dict[str, int] | None) -> str:
    return ", ".join(f"{k} {v}" for k, v in (d or {}).items())


def _ranges(ns: list[int]) -> str:
    if not ns:
        return ""
    out, start, prev = [], ns[0], ns[0]
    for n in [*ns[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(f"{start}-{prev}" if prev != start else str(start))
        if n is not None:
            start = prev = n
    return ",".join(out)
