"""`pnp build` and `pnp serve` name what they build the same way: GAME or --all, the build options,
--only and the runner options (generator/commands/core.py add_target_options)."""
from __future__ import annotations

import argparse
import re

import pytest

from generator.cli import main, parser

LINE = re.compile(r"^[^:]+: .+; .+$")


def _subparser(name: str) -> argparse.ArgumentParser:
    sub = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def _options(name: str) -> dict[str, argparse.Action]:
    return {a.dest: a for a in _subparser(name)._actions if a.dest != "help"}


def test_build_and_serve_take_the_same_target_options():
    build, serve = _options("build"), _options("serve")
    assert set(serve) - set(build) == {"host", "port"}  # what only a server needs
    assert set(build) - set(serve) == set()
    for dest, action in build.items():
        assert action.option_strings == serve[dest].option_strings, dest
        assert action.default == serve[dest].default, dest
        assert action.choices == serve[dest].choices, dest
    assert {"game", "all", "only", "lang", "out", "paper", "jobs", "force", "no_preflight"} <= set(build)


@pytest.mark.parametrize("command", ["build", "serve"])
def test_the_same_arguments_parse_to_the_same_values(command, tmp_path):
    argv = ["g", "--lang", "en", "--only", "cards", "--only", "maps", "--out", str(tmp_path), "--paper", "letter",
            "--bleed", "2", "--jobs", "1", "--no-preflight"]
    args = _subparser(command).parse_args(argv)
    assert (args.game, args.all, args.lang, args.only, args.out, args.paper, args.bleed, args.jobs,
            args.no_preflight) == ("g", False, "en", ["cards", "maps"], tmp_path, "letter", 2.0, 1, True)


# every command that works on one game or on all of them, with options that keep a wrong run harmless
GAME_OR_ALL = {"build": ["--out", "{out}"], "serve": ["--out", "{out}"], "export": ["--to", "tts", "--out", "{out}"],
               "preflight": ["--out", "{out}"], "check": [], "propose": ["--dry-run"]}


BOTH = (["dont-drop-the-ring", "--all"], "both a game and --all")
NEITHER = ([], "no game given")


@pytest.mark.parametrize("command, target, says", [(c, *BOTH) for c in sorted(GAME_OR_ALL)] +
                         [(c, *NEITHER) for c in sorted(GAME_OR_ALL) if c != "serve"])
def test_a_target_given_twice_or_not_at_all_is_one_line(command, target, says, tmp_path, capsys):
    """`pnp build GAME --all` used to build every game and drop GAME without a word (so did export
    and propose); every command now refuses both, and all but serve (which serves the build folder
    as it is when given no game: tests/test_serve.py) refuse neither."""
    out = tmp_path / "out"
    options = [o.format(out=out) for o in GAME_OR_ALL[command]]
    assert main([command, *target, *options]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and LINE.match(err[0]) and says in err[0] and err[0].startswith(f"pnp {command}:")
    assert not out.exists()  # nothing built, exported or served
