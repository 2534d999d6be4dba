"""`pnp new PATH [--from GAME]`: start a game folder that builds and checks from the first minute.

Without `--from`, PATH gets the package's template game (generator/templates/new-game/: a CSV card
list with plain columns, components, a setup with constraints, layouts with a front and a back, a
hex map, rule clauses and a Japanese PO file), every file commented to teach what it holds;
`--template full` lays generator/templates/full-game/ over it (pictures on the cards, an icon
from an SVG file inline in card text, bold words, tokens, a deal that varies with the players). With
`--from`, a copy of an existing game (an example id or a folder): its regular files and folders
only, each file within its size limit (a link, wherever it points, a FIFO or a device is skipped
with one warning line each, since the folder may be a stranger's). The game's id becomes the
folder's name. The folder is written whole or not at all: it is assembled beside PATH and renamed.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import stat
import sys
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from solver.errors import DataError, Problem, display_path
from solver.game import limits

TEMPLATE_ID = "harbour-lights"  # the id written in the template's files, replaced by the new id
ID_LINE = re.compile(r"^id:[ \t]*[^\s#]+", re.MULTILINE)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")  # copied within the image limit; other files within the data-file limit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="start a new game folder (a small complete game, or a copy of one)")
    p.add_argument("path", type=Path, help="the folder to create; its name becomes the game's id")
    p.add_argument("--from", dest="source", default=None, metavar="GAME",
                   help="copy this game instead: an example game id (see `pnp list`) or a game folder")
    p.add_argument("--template", choices=("basic", "full"), default="basic",
                   help="basic: cards, a setup, a layout, a map, rules; full: also pictures on the cards, an "
                        "inline icon from an SVG file, bold words, oil tokens and a deal that varies with the "
                        "player count")
    p.set_defaults(func=cmd_new)


def cmd_new(args: argparse.Namespace) -> int:
    target: Path = args.path
    game_id = id_for(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise DataError([Problem(display_path(target), 0, 0, "already exists and is not an empty folder",
                                 "give the path of a new folder")])
    if args.source:
        from solver.game.folders import resolve_game_dir
        source_dir = resolve_game_dir(args.source)
        skipped: list[str] = []
        made = scaffold(lambda tmp: skipped.extend(_copy_game(source_dir, tmp, game_id)), target)
        origin = f"a copy of {args.source}"
        for line in skipped:
            print(f"warning: {line}", file=sys.stderr)
    else:
        templates = files("generator") / "templates"

        def fill(tmp: Path) -> None:
            _copy_template(templates / "new-game", tmp, game_id)
            if args.template == "full":  # the same game, with the files of the second hour laid over it
                _copy_template(templates / "full-game", tmp, game_id)

        made = scaffold(fill, target)
        origin = "the template game" if args.template == "basic" else "the full template game"
    shown = display_path(target)
    print(f"wrote {len(made)} files of {game_id!r} ({origin}) to {shown}/:")
    for rel in made:
        print(f"  {rel}")
    quoted = shlex.quote(shown)
    print(f"next: pnp check {quoted} && pnp build {quoted} --out output")
    return 0


def id_for(target: Path) -> str:
    """The folder's name as a game id (lower-case kebab), or a located error saying what to rename."""
    from solver.game.base import folder_id  # pydantic's models: not at every `pnp` start

    game_id = folder_id(target.name)
    if not game_id:
        raise DataError([Problem(str(target), 0, 0, "the folder's name gives no usable game id",
                                 "name the folder with letters or digits, e.g. my-game")])
    return game_id


def scaffold(fill, target: Path) -> list[str]:
    """Run `fill(tmp_folder)`, then rename the filled folder to `target`: all the files or none."""
    from ..output import atomic_folder

    with atomic_folder(target, elsewhere="choose a folder on another disk") as tmp:
        fill(tmp)
        made = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*") if p.is_file())
    return made


def _copy_template(node: Traversable, dest: Path, game_id: str) -> None:
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.name.startswith((".", "__")):
            continue
        if child.is_dir():
            (dest / child.name).mkdir(exist_ok=True)
            _copy_template(child, dest / child.name, game_id)
        else:
            (dest / child.name).write_text(child.read_text(encoding="utf-8").replace(TEMPLATE_ID, game_id),
                                           encoding="utf-8")


def _copy_game(source: Path, dest: Path, game_id: str) -> list[str]:
    """An existing game, files as they are, but for its id in game.yaml. Only regular files and
    folders are copied, each file within its size limit; links (wherever they point), FIFOs and
    devices are skipped, one line each in the returned list."""
    skipped: list[str] = []
    _copy_tree(source, dest, skipped)
    game_yaml = dest / "game.yaml"
    if game_yaml.is_file():
        text = game_yaml.read_text(encoding="utf-8")
        game_yaml.write_text(ID_LINE.sub(f"id: {game_id}", text, count=1), encoding="utf-8")
    return skipped


def _copy_tree(src: Path, dest: Path, skipped: list[str]) -> None:
    with os.scandir(src) as it:
        entries = sorted(it, key=lambda e: e.name)
    for entry in entries:
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        path = Path(entry.path)
        if entry.is_symlink():
            skipped.append(f"{display_path(path)}: a link, not copied (copy the file it points to instead)")
        elif entry.is_dir(follow_symlinks=False):
            (dest / entry.name).mkdir()
            _copy_tree(path, dest / entry.name, skipped)
        elif entry.is_file(follow_symlinks=False):
            _copy_file(path, dest / entry.name, skipped)
        else:
            skipped.append(f"{display_path(path)}: not a regular file (a FIFO, socket or device), not copied")


def _copy_file(src: Path, dest: Path, skipped: list[str]) -> None:
    """Copy one regular file, opened without following a link or blocking, within its limit."""
    limit = limits.MAX_IMAGE_BYTES if src.suffix.lower() in IMAGE_SUFFIXES else limits.MAX_FILE_BYTES
    try:
        fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        skipped.append(f"{display_path(src)}: cannot be read ({e.strerror}), not copied")
        return
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            skipped.append(f"{display_path(src)}: not a regular file, not copied")
            return
        if st.st_size > limit:
            skipped.append(f"{display_path(src)}: {limits.size_text(st.st_size)}, over the limit of "
                           f"{limits.size_text(limit)}, not copied")
            return
        data = f.read(limit + 1)
    dest.write_bytes(data[:limit])
