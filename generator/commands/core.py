"""`pnp list`, `pnp show GAME`, `pnp build GAME|--all`, `pnp schema`."""
from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Literal, TypedDict

from solver.errors import DataError, Problem

# Heavy modules (pydantic models, rich, reportlab, OR-Tools) are imported inside the commands
# that use them, so that `pnp --help` and `pnp list` start close to the interpreter's own start.
from ..build import STAGE_NAMES
from ..context import DEFAULT_BLEED_MM, PAPER_MM, BuildContext

if TYPE_CHECKING:
    from ..incremental import Runner


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="the games under data/games with players and time")
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", default="en")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="a game's inventory with counts and totals")
    p.add_argument("game", help="game id under data/games/, or a game folder")
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", default=None)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("build", help="build print files of one game or all games into output/")
    add_target_options(p, game_help="game id or folder")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("serve", help="build, preview in a browser, rebuild on save (live reload)")
    add_target_options(p, game_help="game id or folder to build and watch (none: serve the folder as it is)")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("schema", help="write the JSON Schemas of the data files to data/schema/")
    p.add_argument("--out", type=Path, default=None)
    p.set_defaults(func=cmd_schema)


def add_target_options(p: argparse.ArgumentParser, game_help: str) -> None:
    """What `pnp build` and `pnp serve` build and how: GAME or --all, the build options, --only
    and where the units run."""
    add_game_arguments(p, game_help)
    add_build_options(p)
    p.add_argument("--only", action="append", choices=STAGE_NAMES, help="build only this stage (repeatable)")
    add_run_options(p)


def add_game_arguments(p: argparse.ArgumentParser, game_help: str = "game id or folder",
                       all_help: str = "every game under data/games/") -> None:
    """GAME or --all: what the commands that work on one game or every game take."""
    p.add_argument("game", nargs="?", help=game_help)
    p.add_argument("--all", action="store_true", help=all_help)


def check_game_or_all(args: argparse.Namespace, command: str, required: bool = True) -> None:
    """One of GAME and --all (from `add_game_arguments`), not both; neither only when not `required`."""
    if args.all and args.game:
        raise DataError([Problem(command, 0, 0, "both a game and --all given", "give one of them")])
    if required and not (args.all or args.game):
        raise DataError([Problem(command, 0, 0, "no game given", "name a game id or folder, or use --all")])


def target_games(args: argparse.Namespace, command: str, required: bool = True) -> list[str]:
    """The games that GAME or --all name: every game under data/games/, or the one given; none when
    neither is given and the command can do without (serve)."""
    from solver.game.folders import game_ids

    check_game_or_all(args, command, required)
    return game_ids() if args.all else [args.game] if args.game else []


def add_build_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, default=Path("output"), help="output folder (default: output)")
    p.add_argument("--lang", default=None, help="languages to build, e.g. en or ja,en (default: every complete translation, source first)")
    p.add_argument("--paper", default="a4", choices=sorted(PAPER_MM))
    p.add_argument("--bleed", type=float, default=None,
                   help="bleed in mm (default 3; the pdf-cards and tgc exports default to their shops' 1/8 in)")
    p.add_argument("--back-offset", default="0,0", help="x,y mm to shift back pages (printer correction)")
    p.add_argument("--flip", default="long", choices=["long", "short"], help="duplex flip edge")
    p.add_argument("--spares", type=int, default=None, metavar="N",
                   help="print N blank spares of each piece that stands only for what the sources do not describe "
                        "(rest: true), at most its count (default: the data's `spares`, else none)")
    p.add_argument("--stated-only", action="store_true",
                   help="print only the counts the sources state, not the proposed ones (proposed.yaml)")
    p.add_argument("--layout", default="duplex",
                   help="card and counter sheets: duplex (backs on the next page, default) or gutterfold "
                        "(fronts and backs on one page, mirrored about a fold line, for single-sided printers); "
                        "packed (or packed,gutterfold) adds packed-<lang>.pdf: every piece of the game on the "
                        "fewest sheets")
    p.add_argument("--ink", default="normal", choices=["normal", "saver", "mono"],
                   help="saver: light tints and outlines instead of large fills, at most half the ink; mono: greys "
                        "for a greyscale printer (written to output/GAME/ink-saver/ or ink-mono/)")
    p.add_argument("--map-dpi", type=int, default=100, choices=[100, 150, 300],
                   help="resolution of the map PNG (default 100: a screen preview; print from the PDF)")
    add_draft_option(p)


def add_draft_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--draft", default=None, metavar="LANGS",
                   help="languages to treat as translation drafts, e.g. fr or fr,de (besides game.yaml's `drafts`): "
                        "built with what they lack in the source language, marked as drafts")


def context_from(args: argparse.Namespace) -> BuildContext:
    try:
        x, y = (float(v) for v in str(args.back_offset).split(","))
    except ValueError:
        raise DataError([Problem("--back-offset", 0, 0, f"{args.back_offset!r} is not 'x,y' in mm",
                                 "write it like --back-offset 0.5,-1")])
    bleed = DEFAULT_BLEED_MM if args.bleed is None else args.bleed
    if not 0 <= bleed <= 10:
        raise DataError([Problem("--bleed", 0, 0, f"{bleed} mm is outside 0-10 mm", "use e.g. --bleed 3")])
    if getattr(args, "spares", None) is not None and not 0 <= args.spares <= 1000:
        raise DataError([Problem("--spares", 0, 0, f"{args.spares} is not a number of spares", "give 0 to 1000")])
    sheet_layout, packed = layout_of(args.layout)
    return BuildContext(out_root=args.out, lang=args.lang, paper=args.paper, bleed_mm=bleed,
                        back_offset_mm=(x, y), flip=args.flip, sheet_layout=sheet_layout, packed=packed,
                        map_dpi=args.map_dpi, ink=getattr(args, "ink", "normal"),
                        stated_only=getattr(args, "stated_only", False),
                        spares=getattr(args, "spares", None),
                        drafts=draft_languages(args),
                        preflight=not getattr(args, "no_preflight", False))


def layout_of(text: str) -> tuple[Literal["duplex", "gutterfold"], bool]:
    """--layout: duplex or gutterfold sheets, and whether packed sheets are asked for too
    ("packed", "packed,gutterfold")."""
    words = [w.strip() for w in str(text).split(",") if w.strip()]
    if not words or any(w not in ("duplex", "gutterfold", "packed") for w in words) \
            or {"duplex", "gutterfold"} <= set(words) or len(set(words)) != len(words):
        raise DataError([Problem("--layout", 0, 0, f"{text!r} is not a sheet layout",
                                 "give duplex, gutterfold, packed or packed,gutterfold")])
    return ("gutterfold" if "gutterfold" in words else "duplex"), "packed" in words


def draft_languages(args: argparse.Namespace) -> tuple[str, ...]:
    """`--draft fr,de` -> ('fr', 'de'); a malformed code is unusable input."""
    value = getattr(args, "draft", None)
    if not value:  # no --draft: the languages module (and what it imports) is not needed
        return ()
    from ..languages import parse_requested

    return tuple(parse_requested(value, "--draft") or ())


class GameRow(TypedDict):
    """One game of `pnp list --json`."""
    id: str
    title: str
    players: list[int]
    play_time_minutes: list[int] | None
    year: int | None


def cmd_list(args: argparse.Namespace) -> int:
    from solver.game.base import pick
    from solver.game.folders import game_ids
    from solver.game.loader import load_meta

    rows: list[GameRow] = []
    for gid in game_ids():
        m = load_meta(gid)
        rows.append({"id": m.id, "title": pick(m.title, args.lang), "players": [m.players.min, m.players.max],
                     "play_time_minutes": [m.play_time_minutes.min, m.play_time_minutes.max] if m.play_time_minutes else None,
                     "year": m.year})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table(title="Games")
    for col in ("id", "title", "players", "time (min)", "year"):
        t.add_column(col)
    for r in rows:
        pl = f"{r['players'][0]}-{r['players'][1]}"
        tm = "?" if not r["play_time_minutes"] else "-".join(str(v) for v in sorted(set(r["play_time_minutes"])))
        t.add_row(r["id"], r["title"], pl, tm, str(r["year"] or "?"))
    Console().print(t)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from solver.game.columns import attribute_names
    from solver.game.loader import load_game

    from ..manifest import inventory

    game = load_game(args.game)
    lang = args.lang or game.meta.source_language
    data = inventory(game, lang)
    for c in data["components"]:  # what a card list's columns became (solver/game/columns.py)
        c["attributes"] = attribute_names(game.component(c["id"]).items)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    t = Table(title=f"{data['title']} — {game.id}")
    t.add_column("component")
    t.add_column("kind")
    t.add_column("count", justify="right")
    t.add_column("stated", justify="right")
    mark = lambda entry: "*" if entry.get("proposed") else ""  # noqa: E731
    for c in data["components"]:
        total = "unknown" if c["total"] is None else f"{c['total']}{mark(c)}"
        t.add_row(escape(f"{c['name']} [{c['id']}]"), c["kind"], total, str(c.get("stated_total", "")))
        if len(c["items"]) > 1:
            for i in c["items"]:
                t.add_row(f"  {i['name']}", "", "?" if i["count"] is None else f"{i['count']}{mark(i)}", "")
        if c["attributes"]:
            t.add_row(f"  attributes: {', '.join(c['attributes'])}", "", "", "")
    t.add_row("total (known counts)", "", str(data["total_pieces"]), "")
    Console().print(t)
    if data["proposed_counts"]:
        Console().print("* proposed by the solver (proposed.yaml, `pnp propose`), not stated by the sources")
    if data["unknown_counts"]:
        Console().print(f"unknown counts: {', '.join(data['unknown_counts'])}")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from ..gallery import write_index
    from ..incremental import build

    names = target_games(args, "pnp build", required=True)
    ctx = context_from(args)
    only = set(args.only) if args.only else None
    quiet = not sys.stderr.isatty()
    from ..output import build_lock

    from ..gcpause import fewer_collections

    # the index too at the build's thresholds: its units' collections (gcpause.py) would else have the
    # first collection after the build walk everything the process holds (0.14 CPU-s)
    with build_lock(ctx.out_root), fewer_collections():  # one build at a time per folder; sweeps a killed build's temp files
        with _progress(quiet) as on_unit:
            report = build(names, ctx, only, force=args.force, runner=runner_from(args), on_unit=on_unit)
        write_index(ctx.out_root)
        _report_warnings(ctx, shown=10)
    print(f"{len(report.built)} unit(s) built, {len(report.skipped)} unchanged", file=sys.stderr)
    print(f"wrote {len(set(report.written))} files for {len(names)} game(s) under {ctx.out_root}/")
    return 0


@contextmanager
def _progress(quiet: bool) -> Iterator[Callable[[object, bool], None]]:
    """A build's progress bar on a terminal, and what to call as each unit ends; nothing (and rich
    not even imported) when stderr is no terminal. Redrawn at each unit, not by rich's refresh
    thread: a build with no other thread forks the checker's process apart (generator/runners.py),
    which keeps the printing processes small."""
    if quiet:
        yield lambda unit, skipped: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  transient=True, auto_refresh=False) as progress:
        task = progress.add_task("building", total=None)
        yield lambda unit, skipped: progress.update(task, advance=1, description=str(unit), refresh=True)


def add_run_options(p: argparse.ArgumentParser) -> None:
    """Where the work units run, and whether unchanged ones are skipped."""
    p.add_argument("--force", action="store_true", help="rebuild every unit, changed or not")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="processes to build with (default: every core)")
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:8786",
                   help="run the units on this Dask distributed scheduler (extra: pnp-forge[distributed])")
    p.add_argument("--no-preflight", action="store_true", help="skip checking the written PDFs (pnp preflight)")


def runner_from(args: argparse.Namespace) -> Runner:
    from ..runners import dask, default_jobs, pool

    if args.scheduler:
        return dask(args.scheduler)
    jobs = args.jobs if args.jobs is not None else default_jobs()
    if jobs < 1:
        raise DataError([Problem("--jobs", 0, 0, f"{jobs} is not a number of processes", "give 1 or more")])
    return pool(jobs)


def _report_warnings(ctx: BuildContext, shown: int, name: str = "build-warnings.txt") -> None:
    """The first few warnings on the terminal; all of them in output/build-warnings.txt (`pnp
    export` names its own file, so it does not overwrite the build's)."""
    if not ctx.warnings:  # a clean build leaves no earlier build's warnings behind to be read as its own
        (ctx.out_root / name).unlink(missing_ok=True)
        return
    from ..cards.images import merged_image_warnings
    from ..output import write_text

    ctx.warnings[:] = merged_image_warnings(ctx.warnings)  # one line per picture file, not per card
    for w in ctx.warnings[:shown]:
        print(f"warning: {w}", file=sys.stderr)
    path = write_text(ctx.out_root / name, "\n".join(ctx.warnings) + "\n")
    rest = len(ctx.warnings) - shown
    more = f"{rest} more; " if rest > 0 else ""
    print(f"warning: {more}all {len(ctx.warnings)} warnings are in {path}", file=sys.stderr)


def cmd_serve(args: argparse.Namespace) -> int:
    """Build GAME (or --all), serve the output folder, rebuild on save; with neither, serve it as it is."""
    import threading

    from solver.game.folders import resolve_game_dir

    from ..gallery import write_index
    from ..serve import PreviewState, Rebuilder, make_server, watch

    names = target_games(args, "pnp serve", required=False)
    state = PreviewState()
    rebuild = None
    if names:
        folders = [resolve_game_dir(n).resolve() for n in names]
        only = set(args.only) if args.only else None
        rebuild = Rebuilder(names, context_from(args), state, only)
        rebuild(runner=runner_from(args))  # the first build may use every core; rebuilds run in this process
    elif not args.out.is_dir():
        raise DataError([Problem(str(args.out), 0, 0, "no build folder",
                                 "name a game to build and watch (pnp serve GAME), or use --all")])
    else:
        write_index(args.out)
    try:
        server = make_server(args.out, args.port, args.host, state, live=bool(names))
    except OSError as e:
        raise DataError([Problem(f"{args.host}:{args.port}", 0, 0, f"cannot listen ({e.strerror})",
                                 "choose another port with --port")])
    host, port = server.socket.getsockname()[:2]  # the port the system chose for --port 0
    stop = threading.Event()
    if rebuild is not None:
        threading.Thread(target=watch, args=(folders, rebuild, stop), daemon=True).start()
        print(f"watching {', '.join(str(f) for f in folders)}", flush=True)
    print(f"serving {args.out}/ at http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.server_close()
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from solver.game.folders import DATA_DIR
    from solver.schema import schema_files

    from ..output import write_text

    out = args.out or DATA_DIR / "schema"
    for name, text in schema_files().items():
        print(write_text(out / name, text))
    return 0
