"""`pnp`: the one command-line entry point.

Every subcommand lives in a module of `generator.commands` whose `register(subparsers)` function
is listed in COMMANDS (a new command: import its module and add one line). Command modules import
their heavy libraries only when they run, so `pnp --help` stays fast. Unusable input (a `DataError`) prints one line per problem and exits with status 2;
`--debug` shows the traceback as well.
"""
from __future__ import annotations

import argparse
import sys
import traceback
from typing import Protocol

from solver.errors import DataError

from .commands import catalogue, check, core, design, export, new, preflight, propose, rules
from .commands import map as map_cmd  # not `map`: that is a builtin


class Registrar(Protocol):
    """Adds a command's subparser(s) and sets `func` on them."""

    def __call__(self, sub: argparse._SubParsersAction) -> None: ...


COMMANDS: list[Registrar] = [
    core.register,
    check.register,
    rules.register,
    catalogue.register,
    map_cmd.register,
    preflight.register,
    new.register,
    export.register,
    propose.register,
    design.register,
]

EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="pnp", description="Print-and-play forge: game data in, print-ready files out.")
    p.add_argument("--debug", action="store_true", help="show a traceback on errors")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in COMMANDS:
        register(sub)
    return p


def tolerant_streams() -> None:
    """Where stdout or stderr cannot encode all of Unicode (a legacy console, ASCII, output
    redirected on Windows), characters it lacks are written as '?' instead of ending the command in
    a UnicodeEncodeError: game names and tables are Japanese as often as not."""
    import codecs

    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        if codecs.lookup(encoding).name != "utf-8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def main(argv: list[str] | None = None) -> int:
    """Run the command `argv` names (by default the program's own arguments) and return its exit
    status. Called without `argv` (the `pnp` program, `python -m generator.cli`), it ends the
    process itself once the command is done (`end_now`)."""
    code = _run(argv)
    if argv is None:
        end_now(code)
    return code


def end_now(code: int) -> None:
    """End the program without the interpreter's teardown, which frees every object one by one
    for the OS to reclaim at once: 0.2-0.3 CPU-s at the end of a cold `build --all` (the loaded
    games, the fonts, the drawing code's modules), against 0.01 here. What an ordinary exit does
    that matters is done first: the stdout and stderr flushed and the functions registered with
    atexit run (multiprocessing's, or a tool's that times the command). Not while another thread
    runs (its work could be cut short), nor when a stream cannot be flushed (a reader that left):
    then the interpreter ends as usual, and reports that as usual."""
    import atexit
    import os
    import threading

    def flushed() -> bool:
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
        except (OSError, ValueError):  # a closed stream, a pipe whose reader left
            return False
        return True

    if threading.active_count() > 1 or not flushed():
        return
    atexit._run_exitfuncs()  # (then cleared: an ordinary exit after this would not run them again)
    if flushed():
        os._exit(code)


def _run(argv: list[str] | None) -> int:
    tolerant_streams()
    args = parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except DataError as e:
        if args.debug:
            traceback.print_exc()
        for problem in e.problems:
            print(str(problem), file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        # `pnp show X --json | head`: the reader left; that is not an error of ours.
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
