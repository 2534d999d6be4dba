"""What the columns of a card list (CSV, or an XLSX sheet) mean.

A designer writes the columns a spreadsheet invites: `id,name,value,count,text`. So:

- `id`, `count`, `layout`, `source` are the item's own fields;
- `name`, `text`, `note` without a suffix are in the game's source language, and `name_en`
  (any `<field>_<language code>`) gives the same field in another language;
- every other column is an attribute (`value`, `suit`, ...), usable in layouts (`{value}`) and
  in setup selectors (`where: {suit: red}`); a cell that reads as a number becomes a number.

A column that can be none of these (no header, a header no template could name, a structured
field such as `front`) is an error located at its header cell, never silently dropped.
"""
from __future__ import annotations

import re
from typing import Any

from .limits import MAX_INTEGER
from ..errors import Problem
from .base import LANG_PATTERN

ITEM_FIELDS = ("id", "count", "layout", "source")
LOCAL_FIELDS = ("name", "text", "note")  # the item's localised texts
NOT_IN_A_LIST = ("front", "back", "attrs")  # structured fields: only components.yaml can hold them
ATTR_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")  # what a `{...}` template key can name
_INT = re.compile(r"^-?(?:0|[1-9][0-9]*)$")  # "007" stays a code, not the number 7
_FLOAT = re.compile(r"^-?(?:0|[1-9][0-9]*)\.[0-9]+$")


def check_header(header: list[str], rows: list[dict[str, str]], path: str, header_line: int = 1) -> list[Problem]:
    """Problems of the header row: each located at its column (1-based). (Duplicate names are the
    readers' to report: solver/game/yamlsrc.py header_problems.)"""
    problems = []

    def bad(col: int, what: str, todo: str) -> None:
        problems.append(Problem(path, header_line, col, what, todo))

    for col, name in enumerate(header, start=1):
        if name == "":
            if any(r.get("") for r in rows):
                bad(col, f"column {col} has values but no header", "name the column (e.g. value, suit) or empty it")
            continue
        if name in NOT_IN_A_LIST:
            bad(col, f"column {name!r} cannot be given in a card list",
                f"describe {name} of these items in components.yaml, or rename the column to make it an attribute")
        elif local_language(name):
            continue
        elif name not in ITEM_FIELDS and name not in LOCAL_FIELDS and not ATTR_NAME.match(name):
            suggestion = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "value"
            bad(col, f"column {name!r} is neither an item field nor a usable attribute name",
                f"name attributes with letters, digits, - and _ only (e.g. {suggestion})")
    return problems


def local_language(column: str) -> str | None:
    """`name_ja` -> 'ja': a localised field in another language. `text_colour` is no language
    code, so it stays an attribute like any other column."""
    base, _, suffix = column.partition("_")
    return suffix if base in LOCAL_FIELDS and re.match(LANG_PATTERN, suffix) else None


def source_clashes(header: list[str], source_language: str, path: str, header_line: int = 1) -> list[Problem]:
    """`name` and `name_<source language>` would give the same text twice."""
    problems = []
    for field in LOCAL_FIELDS:
        twin = f"{field}_{source_language}"
        if field in header and twin in header:
            problems.append(Problem(path, header_line, header.index(twin) + 1,
                                    f"columns {field!r} and {twin!r} both give the {source_language} {field} "
                                    f"({source_language} is the game's source language)",
                                    "keep one of them"))
    return problems


def item_data(row: dict[str, str], source_language: str) -> dict[str, Any]:
    """One row as the keys of an `Item` (validated by the caller, so a bad id or count is located)."""
    row = dict(row)
    row.pop("", None)
    data: dict[str, Any] = {"id": row.pop("id", "")}
    count = row.pop("count", "1")
    data["count"] = None if count in ("", "unknown", "?") else count
    for key in LOCAL_FIELDS:
        local: dict[str, str] = {}
        plain = row.pop(key, "")
        if plain:
            local[source_language] = plain
        for col in [c for c in row if local_language(c) and c.startswith(key + "_")]:
            value = row.pop(col)
            if value:
                local[col.split("_", 1)[1]] = value
        if local:
            data[key] = local
    for key in ("layout", "source"):
        if key in row:
            data[key] = row.pop(key) or None
    data["attrs"] = {k: cell_value(v) for k, v in row.items() if v != "" and k not in NOT_IN_A_LIST}
    return data


def cell_value(v: str) -> Any:
    """A cell as a number when it reads as one (`3`, `-1`, `2.5`) within the data limit
    (solver/game/limits.py), else the text: `1e309` or a thousand digits stay text."""
    if _INT.match(v) and len(v) <= 12 and abs(int(v)) <= MAX_INTEGER:
        return int(v)
    if _FLOAT.match(v) and len(v) <= 32 and abs(float(v)) <= MAX_INTEGER:
        return float(v)
    return v


def attribute_names(items: list[Any]) -> list[str]:
    """The attributes a component's items carry, in first-seen order (what `pnp show` lists)."""
    names: dict[str, None] = {}
    for it in items:
        for k in it.attrs:
            names.setdefault(k, None)
    return list(names)
