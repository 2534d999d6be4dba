"""YAML and CSV reading that remembers where every value came from.

`load_yaml` returns plain Python data plus a `Locator` mapping a path of keys and indexes
(as pydantic reports it in `loc`) to the line and column of that value in the file. The composed
node tree (libyaml's composer) keeps positions; the plain safe loader would lose them.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import DataError, Problem, display_path

Loc = tuple[Any, ...]


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's parser with YAML 1.2 booleans: only true/false, so `on: shire` is a key, not True."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


@dataclass
class Locator:
    path: str
    positions: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    columns: list[str] = field(default_factory=list)  # a table's header row, as written (duplicates kept)

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


_CONSTRUCTOR = yaml.constructor.SafeConstructor()


class _NodeError(Exception):
    def __init__(self, node: yaml.Node, what: str, todo: str):
        self.node, self.what, self.todo = node, what, todo


def _plain(node: yaml.Node, loc: Loc, locator: Locator, active: frozenset[int] = frozenset()) -> Any:
    """Build plain dicts/lists/scalars from a composed node tree, recording every position.

    Composing with libyaml and constructing ourselves is ~30x faster than a round-trip
    loader and keeps the marks we need; duplicate keys and recursive aliases are refused here."""
    if id(node) in active:
        raise _NodeError(node, "an alias refers to its own ancestor", "remove the recursive anchor")
    locator.positions.setdefault(loc, (node.start_mark.line + 1, node.start_mark.column + 1))
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        inner = active | {id(node)}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                raise _NodeError(knode, "a mapping key must be a plain value", "write the key as text")
            key = _scalar(knode)
            key = key if isinstance(key, (int, bool)) else str(key)
            if key in out:
                first = locator.key_positions[loc + (key,)][0]
                raise _NodeError(knode, f"duplicate key {key!r} (first at line {first})", "remove one of them")
            locator.key_positions[loc + (key,)] = (knode.start_mark.line + 1, knode.start_mark.column + 1)
            locator.positions[loc + (key,)] = (vnode.start_mark.line + 1, vnode.start_mark.column + 1)
            out[key] = _plain(vnode, loc + (key,), locator, inner)
        return out
    if isinstance(node, yaml.SequenceNode):
        inner = active | {id(node)}
        return [_plain(v, loc + (i,), locator, inner) for i, v in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: yaml.Node) -> Any:
    try:
        value = _CONSTRUCTOR.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as e:
        raise _NodeError(node, f"unsupported value ({(e.problem or 'unknown tag').strip()})",
                         "write plain text, numbers, lists and mappings only") from None
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)  # dates, binary: keep their text


def read_text(path: Path, shown: str) -> str:
    """A data file's text (UTF-8, a BOM from spreadsheet programs tolerated), or a one-line DataError."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise DataError([Problem(shown, 0, 0, "file not found", "create it or check the game folder")])
    except UnicodeDecodeError as e:
        raise DataError([Problem(shown, 1, 1, f"not UTF-8 text ({e.reason})", "save the file as UTF-8")])


def load_yaml(path: Path) -> tuple[Any, Locator]:
    shown = display_path(path)
    locator = Locator(shown)
    text = read_text(path, shown)
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = " ".join(x.strip() for x in (e.context, e.problem) if x) or "invalid YAML"
        raise DataError([Problem(shown, line, col, f"YAML syntax error: {what}",
                                 "fix the indentation, quoting or punctuation at this point")])
    except yaml.YAMLError as e:
        raise DataError([Problem(shown, 1, 1, f"YAML error: {str(e).splitlines()[0]}", "fix the file")])
    if root is None:
        return {}, locator
    try:
        return _plain(root, (), locator), locator
    except _NodeError as e:
        raise DataError([Problem(shown, e.node.start_mark.line + 1, e.node.start_mark.column + 1, e.what, e.todo)])


def load_csv(path: Path) -> tuple[list[dict[str, str]], Locator]:
    """Rows of a CSV file as dicts; row i (0-based) is located at its line in the file."""
    shown = display_path(path)
    locator = Locator(shown)
    text = read_text(path, shown)
    reader = csv.DictReader(io.StringIO(text))
    locator.columns = [(h or "").strip() for h in (reader.fieldnames or [])]
    rows = []
    for i, row in enumerate(reader):
        locator.positions[(i,)] = (reader.line_num, 1)
        if None in row:
            raise DataError([Problem(shown, reader.line_num, 1, "more cells than header columns",
                                     "remove the extra cells or add a column name")])
        rows.append({k.strip(): (v or "").strip() for k, v in row.items() if k is not None})
    return rows, locator
