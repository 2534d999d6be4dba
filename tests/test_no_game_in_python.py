"""Game knowledge lives in data/games/<id>/, never in Python: no string in solver/ or generator/
names a game. Docstrings, comments and --help texts may cite the example games; code may not
branch on them."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_IDS = sorted(p.name for p in (ROOT / "data" / "games").iterdir() if (p / "game.yaml").exists())
# Files still holding a game's knowledge, each with the issue that moves it to data. The test fails
# when one of them no longer needs its place here, so the list only shrinks.
PENDING: dict[str, str] = {}  # issue 11 moved wargame.py's chit mean and stock limit into the data


def _docstrings(tree: ast.AST) -> set[int]:
    """Docstrings, and command-line help texts (`help=...`), which may name an example game."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "help" and isinstance(node.value, ast.Constant):
            out.add(id(node.value))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def game_ids_in_code(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {gid}" for gid in GAME_IDS if gid in node.value]
    return found


def test_no_python_string_names_a_game():
    assert GAME_IDS  # the example games are there to look for
    found = {}
    for folder in ("solver", "generator"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            hits = game_ids_in_code(path)
            if hits:
                found[str(path.relative_to(ROOT))] = hits
    unexpected = {f: h for f, h in found.items() if f not in PENDING}
    assert unexpected == {}, "game ids in Python; move the knowledge to the game's data files"
    assert set(PENDING) <= set(found), f"no longer pending, drop from PENDING: {sorted(set(PENDING) - set(found))}"
