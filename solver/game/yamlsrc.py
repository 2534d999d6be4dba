"""YAML and CSV reading that remembers where every value came from.

`load_yaml` returns plain Python data plus a `Locator` mapping a path of keys and indexes
(as pydantic reports it in `loc`) to the line and column of that value in the file. The composed
node tree (libyaml's composer) keeps positions; the plain safe loader would lose them.
"""
from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import limits
from ..errors import DataError, Problem, display_path

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
# C0 control characters but tab, line feed and carriage return, and DEL: refused in every text
# (CSV and XLSX cells, YAML values written with escapes such as "\0" or "\e"): they make SVG and
# XML output invalid and are never meant.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
CONTROL_TODO = "delete it (control characters cannot appear in a data file)"


def control_what(ch: str) -> str:
    return f"character U+{ord(ch):04X} is not allowed"


class _NodeError(Exception):
    def __init__(self, node: yaml.Node, what: str, todo: str):
        self.node, self.what, self.todo = node, what, todo


class _Budget:
    """Values built so far from one file: aliases repeat a subtree, so a file of a few hundred
    bytes can expand to billions of values (billion laughs); building stops at the limit."""

    def __init__(self) -> None:
        self.values = 0

    def spend(self, node: yaml.Node) -> None:
        self.values += 1
        if self.values > limits.MAX_VALUES:
            raise _NodeError(node, f"the file expands to more than {limits.MAX_VALUES:,} values "
                                   "(aliases repeating aliases?)",
                             "write the data out or split it; see README, Limits on input files")


def _plain(node: yaml.Node, loc: Loc, locator: Locator, active: frozenset[int] = frozenset(),
           budget: _Budget | None = None) -> Any:
    """Build plain dicts/lists/scalars from a composed node tree, recording every position.

    Composing with libyaml and constructing ourselves is ~30x faster than a round-trip
    loader and keeps the marks we need; duplicate keys and recursive aliases are refused here.
    Recursion depth is bounded by `_check_depth`, which runs before composing."""
    budget = budget or _Budget()
    budget.spend(node)
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
            out[key] = _plain(vnode, loc + (key,), locator, inner, budget)
        return out
    if isinstance(node, yaml.SequenceNode):
        inner = active | {id(node)}
        return [_plain(v, loc + (i,), locator, inner, budget) for i, v in enumerate(node.value)]
    return _scalar(node)


_TEXT = "tag:yaml.org,2002:str"


def _scalar(node: yaml.Node) -> Any:
    if node.tag == _TEXT:  # text, most of a file: the constructor would give the node's value itself
        value = node.value
    else:
        value = _constructed(node)
    if isinstance(value, str) and (bad := CONTROL.search(value)):
        raise _NodeError(node, control_what(bad.group()) + " in text (written as an escape?)", CONTROL_TODO)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        if abs(value) > limits.MAX_INTEGER:
            raise _NodeError(node, f"number {str(node.value)[:40]} is out of range "
                                   f"(at most {limits.MAX_INTEGER:,} either side of 0)",
                             "write a smaller number, or quote it if it is text")
        return value
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > limits.MAX_INTEGER:
            raise _NodeError(node, f"number {str(node.value)[:40]} is not a finite number in range",
                             f"write a number between -{limits.MAX_INTEGER:,} and {limits.MAX_INTEGER:,}, "
                             "or quote it if it is text")
        return value
    return str(value)  # dates, binary: keep their text


def _constructed(node: yaml.Node) -> Any:
    """A scalar that is not text (a number, true/false, null, a date) as the safe constructor reads it."""
    try:
        return _CONSTRUCTOR.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as e:
        raise _NodeError(node, f"unsupported value ({(e.problem or 'unknown tag').strip()})",
                         "write plain text, numbers, lists and mappings only") from None
    except (ValueError, OverflowError):  # an integer of thousands of digits, a bad timestamp
        raise _NodeError(node, f"unreadable value {str(node.value)[:40]!r}",
                         "write a number of at most 10 digits or quote the text") from None
    finally:  # the constructor keeps every node it built, for a document's aliases: these are scalars
        _CONSTRUCTOR.constructed_objects.pop(node, None)
        _CONSTRUCTOR.recursive_objects.pop(node, None)


def check_size(path: Path, shown: str) -> None:
    """Refuse a data file over the size limit before reading it (a DataError of its own)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DataError([Problem(shown, 0, 0, "file not found", "create it or check the game folder")])
    except OSError as e:
        raise DataError([Problem(shown, 0, 0, f"cannot read the file ({e.strerror})", "check its permissions")])
    if path.is_dir():
        raise DataError([Problem(shown, 0, 0, "a folder where a file was expected", "replace it with the file")])
    if size > limits.MAX_FILE_BYTES:
        raise DataError([Problem(shown, 1, 1, f"file is {limits.size_text(size)}, more than the limit of "
                                              f"{limits.size_text(limits.MAX_FILE_BYTES)}",
                                 "split it or keep long lists in a CSV/XLSX items_file; "
                                 "see README, Limits on input files")])


def read_text(path: Path, shown: str) -> str:
    """A data file's text (UTF-8, a BOM from spreadsheet programs tolerated), or a one-line DataError."""
    check_size(path, shown)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise DataError([Problem(shown, 0, 0, f"cannot read the file ({e.strerror})", "check its permissions")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line, col = _line_col(data, e.start)
        raise DataError([Problem(shown, line, col, f"not UTF-8 text ({e.reason} at byte {e.start})",
                                 "save the file as UTF-8")])


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a byte offset of UTF-8 data."""
    before = data[:offset]
    line = before.count(b"\n") + 1
    col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
    return line, col


def _text_line_col(text: str, index: int) -> tuple[int, int]:
    before = text[:index]
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


def _check_depth(text: str, shown: str) -> None:
    """Refuse lists and mappings nested deeper than the limit, before composing: libyaml's composer
    recurses in C and crashes the interpreter on a few ten thousand `[`. Parsing events is flat,
    and stopping at the first event too deep keeps it fast."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > limits.MAX_DEPTH:
                mark = event.start_mark
                raise DataError([Problem(shown, mark.line + 1, mark.column + 1,
                                         f"lists and mappings nest more than {limits.MAX_DEPTH} levels deep",
                                         "flatten the data; see README, Limits on input files")])
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def load_yaml(path: Path) -> tuple[Any, Locator]:
    shown = display_path(path)
    return parse_yaml(read_text(path, shown), shown)


def parse_yaml(text: str, shown: str) -> tuple[Any, Locator]:
    """YAML text read from the file shown as `shown`, with a line:column for every value."""
    locator = Locator(shown)
    try:
        _check_depth(text, shown)
        root = yaml.compose(text, Loader=_Loader)
    except yaml.reader.ReaderError as e:  # a control character such as NUL: located by its index
        # libyaml counts the position in UTF-8 bytes, the pure-Python reader in characters
        line, col = (_line_col(text.encode("utf-8"), e.position) if hasattr(yaml, "CSafeLoader")
                     else _text_line_col(text, e.position))
        code = e.character if isinstance(e.character, int) else ord(e.character)
        raise DataError([Problem(shown, line, col, f"character U+{code:04X} is not allowed in YAML",
                                 "delete it (control characters cannot appear in a data file)")])
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


def header_problems(header: list[str], locator: Locator, line: int) -> list[Problem]:
    """A CSV/XLSX header: no duplicate column names, not more columns than the limit."""
    problems = []
    if len(header) > limits.MAX_COLUMNS:
        problems.append(Problem(locator.path, line, 1, f"{len(header)} columns, more than the limit of {limits.MAX_COLUMNS}",
                                "remove unused columns; see README, Limits on input files"))
    seen: dict[str, int] = {}
    for i, name in enumerate(header, 1):
        if name and name in seen:
            problems.append(Problem(locator.path, line, i, f"duplicate column {name!r} (also column {seen[name]})",
                                    "rename or remove one of them"))
        seen.setdefault(name, i)
    return problems


def too_many_rows(locator: Locator, line: int) -> DataError:
    return DataError([Problem(locator.path, line, 1, f"more than {limits.MAX_ITEMS:,} rows",
                              "split the list into several components; see README, Limits on input files")])


def load_csv(path: Path) -> tuple[list[dict[str, str]], Locator]:
    """Rows of a CSV file as dicts; row i (0-based) is located at the line where it starts. Read
    strictly: a quote left open is an error at the line of its row, never rows silently joined."""
    shown = display_path(path)
    locator = Locator(shown)
    text = read_text(path, shown)
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # Windows and old Mac line ends alike
    if bad := CONTROL.search(text):
        line, col = _text_line_col(text, bad.start())
        raise DataError([Problem(shown, line, col, control_what(bad.group()) + " in a CSV file", CONTROL_TODO)])
    reader = csv.DictReader(io.StringIO(text), strict=True)
    rows: list[dict[str, str]] = []
    start = 1  # the line where the row being read starts
    try:
        locator.columns = header = [(h or "").strip() for h in (reader.fieldnames or [])]
        _check_csv_header(header, locator)
        start = reader.line_num + 1
        for i, row in enumerate(reader):
            if i >= limits.MAX_ITEMS:
                raise too_many_rows(locator, start)
            locator.positions[(i,)] = (start, 1)
            if None in row:
                raise DataError([Problem(shown, start, 1, "more cells than header columns",
                                         "remove the extra cells or add a column name")])
            rows.append({k.strip(): (v or "").strip() for k, v in row.items() if k is not None})
            start = reader.line_num + 1
    except csv.Error:  # a quote left open, or text after a closing quote, or a cell over csv's size limit
        raise _csv_quote_error(shown, text, start) from None
    return rows, locator


def _check_csv_header(header: list[str], locator: Locator) -> None:
    if len(header) == 1 and ";" in header[0]:
        raise DataError([Problem(locator.path, 1, 1, "the columns are separated by ';', not ','",
                                 "save the file as CSV with commas (in a spreadsheet: CSV UTF-8, comma-delimited)")])
    problems = header_problems(header, locator, 1)
    if problems:
        raise DataError(problems)


def _csv_quote_error(shown: str, text: str, start: int) -> DataError:
    """The row starting at line `start` cannot be read: point at its first quote."""
    lines = text.split("\n")
    first = lines[start - 1] if start - 1 < len(lines) else ""
    col = first.find('"') + 1 or 1
    rest = text[sum(len(x) + 1 for x in lines[:start - 1]):]
    if '"' not in rest:
        return DataError([Problem(shown, start, 1, f"a cell is longer than {csv.field_size_limit():,} characters",
                                  "shorten it")])
    what = ("a quote opened here is never closed: every row after it would be read into one cell"
            if rest.count('"') % 2 else "a quote here does not close where a cell ends")
    return DataError([Problem(shown, start, col, what, 'close the quote, or write a quote inside a quoted cell as ""')])
