"""Errors that point at the input.

Every problem found in a data file becomes one `Problem` with a file, a line and a column, a
statement of what is wrong and what to do. Loading collects all problems of a file before it
reports them (as MkDocs' config validation does), then raises `DataError` once.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int  # 1-based; 0 when the problem concerns the whole file
    column: int  # 1-based; 0 when unknown
    what: str
    todo: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}" if self.line else f"{self.path}"
        tail = f"; {self.todo}" if self.todo else ""
        return f"{where}: {self.what}{tail}"


class DataError(Exception):
    """Unusable input: one or more problems, each printed on its own line (exit status 2)."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))


def display_path(path: Path | str) -> str:
    """A path as the user should see it: relative to the working directory when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)
