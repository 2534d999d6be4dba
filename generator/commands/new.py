"""`pnp new PATH [--from GAME]`: start a game folder that builds and checks from the first minute.

Without `--from`, PATH gets the package's template game (generator/templates/new-game/: a CSV card
list with plain columns, components, a setup with constraints, layouts with a front and a back, a
hex map, rule clauses and a Japanese PO file), every file commented to teach what it holds. With
`--from`, a copy of an existing game (an example id or a folder). The game's id becomes the
folder's name. The folder is written whole or not at all: it is assembled beside PATH and renamed.
"""
from __future__ import annotations

import argparse
import re
import shlex
import shutil
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from solver.errors import DataError, Problem, display_path

TEMPLATE_ID = "harbour-lights"  # the id written in the template's files, replaced by the new id
ID_LINE = re.compile(r"^id:[ \t]*[^\s#]+", re.MULTILINE)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="start a new game folder (a small complete game, or a copy of one)")
    p.add_argument("path", type=Path, help="the folder to create; its name becomes the game's id")
    p.add_argument("--from", dest="source", default=None, metavar="GAME",
                   help="copy this game instead: an example game id (see `pnp list`) or a game folder")
    p.set_defaults(func=cmd_new)


def cmd_new(args: argparse.Namespace) -> int:
    target: Path = args.path
    game_id = id_for(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise DataError([Problem(display_path(target), 0, 0, "already exists and is not an empty folder",
                                 "give the path of a new folder")])
    if args.source:
        from solver.game.loader import resolve_game_dir
        source_dir = resolve_game_dir(args.source)
        made = scaffold(lambda tmp: _copy_game(source_dir, tmp, game_id), target)
        origin = f"a copy of {args.source}"
    else:
        made = scaffold(lambda tmp: _copy_template(files("generator") / "templates" / "new-game", tmp, game_id), target)
        origin = "the template game"
    shown = display_path(target)
    print(f"wrote {len(made)} files of {game_id!r} ({origin}) to {shown}/:")
    for rel in made:
        print(f"  {rel}")
    quoted = shlex.quote(shown)
    print(f"next: pnp check {quoted} && pnp build {quoted} --out output")
    return 0


def id_for(target: Path) -> str:
    """The folder's name as a game id (lower-case kebab), or a located error saying what to rename."""
    game_id = re.sub(r"[^a-z0-9]+", "-", target.name.lower()).strip("-")
    if not game_id:
        raise DataError([Problem(str(target), 0, 0, "the folder's name gives no usable game id",
                                 "name the folder with letters or digits, e.g. my-game")])
    return game_id


def scaffold(fill, target: Path) -> list[str]:
    """Run `fill(tmp_folder)`, then rename the filled folder to `target`: all the files or none."""
    from ..output import atomic_folder

    with atomic_folder(target) as tmp:
        fill(tmp)
        made = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*") if p.is_file())
    return made


def _copy_template(node: Traversable, dest: Path, game_id: str) -> None:
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.name.startswith((".", "__")):
            continue
        if child.is_dir():
            (dest / child.name).mkdir()
            _copy_template(child, dest / child.name, game_id)
        else:
            (dest / child.name).write_text(child.read_text(encoding="utf-8").replace(TEMPLATE_ID, game_id),
                                           encoding="utf-8")


def _copy_game(source: Path, dest: Path, game_id: str) -> None:
    """An existing game, files as they are, but for its id in game.yaml."""
    shutil.copytree(source, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".*", "__pycache__"))
    game_yaml = dest / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(ID_LINE.sub(f"id: {game_id}", text, count=1), encoding="utf-8")
