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


@pytest.mark.parametrize("argv, says", [
    (["build", "some-game", "--all"], "both a game and --all"),
    (["serve", "some-game", "--all"], "both a game and --all"),
    (["build"], "no game given"),
])
def test_a_target_given_twice_or_not_at_all_is_one_line(argv, says, tmp_path, capsys):
    assert main(argv + ["--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and LINE.match(err[0]) and says in err[0] and err[0].startswith(f"pnp {argv[0]}:")
    assert not (tmp_path / "out").exists()  # nothing built, nothing served
