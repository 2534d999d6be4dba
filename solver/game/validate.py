"""A model's value from parsed data, and its pydantic errors as `path:line:col` problems.

pydantic errors carry a `loc` path; the `Locator` of the file turns it into line:column, so the
user reads `data/games/x/setup.yaml:12:7: unknown key 'shufle'; ...` and never a traceback.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import Problem
from .renames import upgrade
from .yamlsrc import Locator


def _real_loc(data: Any, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """Drop the parts of a pydantic loc that are not keys of the data (union tags, 'function-after')."""
    def has(node: Any, part: Any) -> bool:
        return (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node))

    out: list[Any] = []
    node = data
    for i, part in enumerate(loc):
        if not has(node, part):
            continue
        nxt = loc[i + 1] if i + 1 < len(loc) else None
        # A union tag can equal a real key ({use: dice, count: ...} tagged 'use'): skip it when
        # the next part belongs to this node rather than to the tagged child.
        if nxt is not None and not has(node[part], nxt) and has(node, nxt):
            continue
        out.append(part)
        node = node[part]
    return tuple(out)


_TODO = {
    "extra_forbidden": "remove it or check its spelling against data/schema/",
    "missing": "add it",
    "int_type": "write a whole number",
    "int_parsing": "write a whole number",
    "greater_than_equal": "counts cannot be negative; write 0 or more",
    "string_pattern_mismatch": "ids are lower-case kebab, like dwarf-blue-loyal",
    "literal_error": "use one of the listed values",
    "step-kind": "see data/schema/setup.schema.json for the step kinds",
}


def validate(model: type[BaseModel], data: Any, locator: Locator,
             notes: list[Problem] | None = None) -> tuple[Any, list[Problem]]:
    """The model's value and the problems that make `data` unusable. Old spellings of renamed keys
    (solver/game/renames.py) are read, with a note each appended to `notes`."""
    upgraded = upgrade(model, data, locator)
    if notes is not None:
        notes += upgraded
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = _real_loc(data, tuple(err["loc"]))
            etype = err["type"]
            msg = err["msg"].removeprefix("Value error, ")
            if etype == "extra_forbidden":
                key = err["loc"][-1]
                what = f"unknown key {key!r}"
                problems.append(locator.problem(loc, what, _TODO[etype], key=True))
                continue
            if etype == "missing":
                what = f"missing key {err['loc'][-1]!r}"
            else:
                field_name = ".".join(str(x) for x in loc) or "file"
                what = f"{field_name}: {msg[0].lower() + msg[1:] if msg else etype}"
                if etype.endswith("_type") and "input" in err:
                    what += f" (got {type(err['input']).__name__} {str(err['input'])[:40]!r})"
            problems.append(locator.problem(loc, what, _TODO.get(etype, "fix the value")))
        return None, problems
