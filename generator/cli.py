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
