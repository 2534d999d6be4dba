"""A model's value from parsed data, and its pydantic errors as `path:line:col` problems.

pydantic errors carry a `loc` path; the `Locator` of the file turns it into line:column, so the
user reads `data/games/x/setup.yaml:12:7: unknown key 'shufle'; ...` and never a traceback.
"""
from __future__ import annotations

import difflib
from typing import Any, get_args

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
                problems.append(locator.problem(loc, what, _near_key(model, tuple(err["loc"]), str(key)), key=True))
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


def _near_key(model: type[BaseModel], loc: tuple[Any, ...], key: str) -> str:
    """What to do about an unknown key: `did you mean 'shuffle'?` when a key the models allow at
    that place is near it (difflib), as for ids (solver/game/references.py), else the usual advice."""
    known = sorted({name for m in _models_at(model, loc[:-1]) for name in _keys_of(m)})
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else _TODO["extra_forbidden"]


def _models_at(model: type[BaseModel], path: tuple[Any, ...]) -> list[type[BaseModel]]:
    """The models a value at `path` may be: each field name steps into its annotation; list
    indexes, mapping keys and union tags (no field of any candidate) leave the candidates as they are;
    a tag that is also a plain field (`deal:` of a deal step) keeps the candidates that have it."""
    candidates = [model]
    for part in path:
        if not isinstance(part, str):
            continue
        inner = [m for c in candidates if part in c.model_fields for m in _models_in(c.model_fields[part].annotation)]
        if inner:
            candidates = inner
        elif any(part in c.model_fields for c in candidates):  # a union's tag that is also a key (`deal:`)
            candidates = [c for c in candidates if part in c.model_fields]
    return candidates


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]


def _keys_of(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]
