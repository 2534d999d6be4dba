"""What every model of a game folder shares: the base class, localised text, ids and expressions.

Plain pydantic models with `extra="forbid"`, so an unknown key is an error that points at its
line. Everything downstream (engine, checker, layout, renderers) reads these objects, never YAML.
The JSON Schemas in `data/schema/` are generated from the models (`pnp schema`).
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Protocol, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field

from .limits import MAX_COPIES, MAX_INTEGER
from solver import expr as _expr

ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Id = Annotated[str, Field(pattern=ID_PATTERN, description="lower-case kebab id, e.g. dwarf-blue-loyal")]
LANG_PATTERN = r"^[a-z]{2,3}(?:-[A-Za-z0-9]+)?$"


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True)


class Text(dict):
    """A localised string, `{ja: ..., en: ...}`. A plain string is accepted as every language."""


def check_local(v: Any) -> dict[str, str]:
    if isinstance(v, str):
        return {"und": v}
    if not isinstance(v, dict):
        raise ValueError("expected a localised text like {ja: ..., en: ...} or a plain string")
    for k, s in v.items():
        if not isinstance(k, str) or not re.match(LANG_PATTERN, k):
            raise ValueError(f"language code {k!r} is not like 'ja' or 'en'")
        if not isinstance(s, str):
            raise ValueError(f"text for {k!r} must be a string")
    return dict(v)


LocalText = Annotated[dict[str, str], Field(json_schema_extra={"description": "{ja: ..., en: ...}"})]


def pick(text: dict[str, str] | None, lang: str, fallback: str = "") -> str:
    """The text in `lang`, else the language-neutral one, else the first given."""
    if not text:
        return fallback
    return text.get(lang) or text.get("und") or next(iter(text.values()))


Count = Annotated[int, Field(ge=0, le=MAX_INTEGER)]
# Copies of one printed thing (an item, a component without items, a proposed count): a bound on
# what one line of data can make a build draw (README, Limits on input files).
Copies = Annotated[int, Field(ge=0, le=MAX_COPIES)]
Expression = Annotated[Union[int, str], Field(description="an integer or an expression such as 'players + 1'")]


def check_expr(v: Any) -> Any:
    if v is None or isinstance(v, int):
        return v
    try:
        _expr.parse(v)
    except _expr.ExprError as e:
        raise ValueError(f"bad expression {v!r}: {e}") from None
    return v


# what a `when:` may name: the player count, and the optional rules it switches on
WHEN_NAMES, WHEN_CALLS = {"players"}, {"variant", *_expr.BUILTINS}


def check_when(v: Any) -> Any:
    """A `when:` condition: an expression over `players` and `variant(id)` only, so that every
    command that evaluates it (the engine, the checker's tables of cases, pnp design) can. What
    variant() is given is checked against the declared variants later (cross_checks.py)."""
    v = check_expr(v)
    if isinstance(v, str):
        node = _expr.parse(v)
        calls = _expr.calls(node)
        named = _expr.names(node) - {n for c in calls if c.func == "variant" for n in _expr.names(c)}
        unknown = [f"unknown name {n!r}" for n in sorted(named - WHEN_NAMES)] + [
            f"unknown function {c.func}()" for c in calls if c.func not in WHEN_CALLS]
        if unknown:
            raise ValueError(f"bad condition {v!r}: {unknown[0]}; a `when` may use `players` and "
                             "variant('id'), e.g. 'players >= 4'")
    return v


def folder_id(folder_name: str) -> str:
    """A folder's name as a game id, lower-case kebab: `Lantern Test` -> `lantern-test` (what
    `pnp new` names a game; a folder whose name gives another id warns, solver/game/usage.py)."""
    return re.sub(r"[^a-z0-9]+", "-", folder_name.lower()).strip("-")


class ItemCount(Protocol):
    """An entry of a counts file (proposed.yaml, designed.yaml): `count` copies of one item."""
    component: str
    item: str
    count: int


def count_in(entries: Sequence[ItemCount], component: str, item: str) -> int | None:
    """The count a counts file gives `item` of `component`, or None when it gives none."""
    return next((e.count for e in entries if e.component == component and e.item == item), None)


def repeated(entries: Sequence[ItemCount]) -> list[int]:
    """The positions of entries that name an item an earlier entry already named."""
    seen: set[tuple[str, str]] = set()
    again = []
    for i, e in enumerate(entries):
        if (e.component, e.item) in seen:
            again.append(i)
        seen.add((e.component, e.item))
    return again
