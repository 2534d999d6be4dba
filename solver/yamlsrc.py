"""YAML and CSV reading that remembers where every value came from.

`load_yaml` returns plain Python data plus a `Locator` mapping a path of keys and indexes
(as pydantic reports it in `loc`) to the line and column of that value in the file. ruamel's
round-trip loader keeps positions; PyYAML's safe loader would lose them.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .errors import DataError, Problem, display_path

Loc = tuple[Any, ...]


@dataclass
class Locator:
    path: str
    positions: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Loc, tuple[int, int]] = field(default_factory=dict)

    def at(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """Line and column (1-based) of the value at `loc`, or of its nearest ancestor.

        With `key=True`, the position of the mapping key itself (for unknown keys)."""
        loc = tuple(loc)
        if key and loc in self.key_positions:
            return self.key_positions[loc]
        while loc:
            if loc in self.positions:
                return self.positions[loc]
            if loc in self.key_positions:
                return self.key_positions[loc]
            loc = loc[:-1]
        return self.positions.get((), (1, 1))

    def problem(self, loc: Loc, what: str, todo: str = "", *, key: bool = False) -> Problem:
        line, col = self.at(loc, key=key)
        return Problem(self.path, line, col, what, todo)


def _plain(node: Any, loc: Loc, locator: Locator) -> Any:
    """Convert ruamel's commented containers to dicts/lists, recording positions."""
    if isinstance(node, CommentedMap):
        out = {}
        for k, v in node.items():
            kline, kcol, vline, vcol = node.lc.data.get(k, (None, None, None, None))
            if kline is not None:
                locator.key_positions[loc + (k,)] = (kline + 1, kcol + 1)
                locator.positions[loc + (k,)] = (vline + 1, vcol + 1)
            out[str(k) if not isinstance(k, (int, bool)) else k] = _plain(v, loc + (k,), locator)
        return out
    if isinstance(node, CommentedSeq):
        out_list = []
        for i, v in enumerate(node):
            pos = node.lc.data.get(i) if hasattr(node.lc, "data") else None
            if pos:
                locator.positions[loc + (i,)] = (pos[0] + 1, pos[1] + 1)
            out_list.append(_plain(v, loc + (i,), locator))
        return out_list
    if isinstance(node, str):
        return str(node)
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def load_yaml(path: Path) -> tuple[Any, Locator]:
    shown = display_path(path)
    locator = Locator(shown)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError([Problem(shown, 0, 0, "file not found", "create it or check the game folder")])
    except UnicodeDecodeError as e:
        raise DataError([Problem(shown, 1, 1, f"not UTF-8 text ({e.reason})", "save the file as UTF-8")])
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        raw = yaml.load(io.StringIO(text))
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = (e.problem or e.context or "invalid YAML").strip()
        if "duplicate key" in what or "found duplicate key" in str(e):
            what = "duplicate key " + str(e).split('"')[1] if '"' in str(e) else what
        raise DataError([Problem(shown, line, col, f"YAML syntax error: {what}",
                                 "fix the indentation, quoting or punctuation at this point")])
    except YAMLError as e:  # pragma: no cover - ruamel raises marked errors for syntax
        raise DataError([Problem(shown, 1, 1, f"YAML error: {e}", "fix the file")])
    if raw is None:
        raw = {}
    return _plain(raw, (), locator), locator


def load_csv(path: Path) -> tuple[list[dict[str, str]], Locator]:
    """Rows of a CSV file as dicts; row i (0-based) is located at its line in the file."""
    shown = display_path(path)
    locator = Locator(shown)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise DataError([Problem(shown, 0, 0, "file not found", "create it or fix the file name that refers to it")])
    reader = csv.DictReader(io.StringIO(text))
    rows = []
    for i, row in enumerate(reader):
        locator.positions[(i,)] = (reader.line_num, 1)
        if None in row:
            raise DataError([Problem(shown, reader.line_num, 1, "more cells than header columns",
                                     "remove the extra cells or add a column name")])
        rows.append({k.strip(): (v or "").strip() for k, v in row.items() if k is not None})
    return rows, locator
