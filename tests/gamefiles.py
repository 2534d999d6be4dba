"""A small game written into a folder from the texts of its files, as a newcomer writes one: what the
tests of the engine, the counts and the proof build their cases from."""
from __future__ import annotations

from pathlib import Path


def write_game(folder: Path, files: dict[str, str]) -> Path:
    """`files` (name -> text, e.g. "game.yaml", "rules/clauses.yaml") written into `folder`, made if needed."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def line_of(text: str, needle: str) -> int:
    """The 1-based line of `text` that first holds `needle`: read off the file, not from the loader."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)
