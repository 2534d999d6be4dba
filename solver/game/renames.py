"""Keys renamed in the data vocabulary (docs/vocabulary.md), and their old spellings.

A word means one thing everywhere: `count` is a total (use, place, set_aside, an item's copies),
`each` is per receiver or per matched item (deal, give, remove), `when` is an expression over
`players` (setup.yaml), `where` an attribute match (setup.yaml selections, layouts.yaml fields and
item layouts), and `variants` are optional rules (setup.yaml). An old spelling is still read for
one release: the loader renames it before validation and leaves a note at its line that says the
new one (`pnp check` reports the notes as `old-spelling` warnings).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import Problem
from ..findings import CheckResult, Finding
from .yamlsrc import Locator


@dataclass(frozen=True)
class Rename:
    model: str  # class name of the file's model: SetupFile, LayoutsFile
    at: tuple[str, ...]  # path of the mapping that holds the key; "*" matches any index or key
    old: str
    new: str
    why: str


RENAMES = (
    Rename("SetupFile", ("steps", "*", "remove"), "count", "each",
           "on `remove` the number is per matched item, like `each` on deal and give; `count` is a total"),
    Rename("LayoutsFile", ("layouts", "*", "fields", "*"), "when", "where",
           "an attribute match is `where` everywhere; `when` is an expression over players in setup.yaml"),
    Rename("LayoutsFile", ("components", "*"), "variants", "item_layouts",
           "`variants` are optional rules in setup.yaml; per-item layouts are `item_layouts`"),
)


def upgrade(model: type, data: Any, locator: Locator) -> list[Problem]:
    """Rename old spellings in `data` (in place) for the file validated by `model`; one note each.
    A mapping with both spellings keeps both, so that validation reports the old one as unknown."""
    notes: list[Problem] = []
    for r in RENAMES:
        if r.model != model.__name__:
            continue
        for loc, mapping in _mappings(data, r.at, ()):
            if r.old in mapping and r.new not in mapping:
                notes.append(locator.problem(loc + (r.old,), f"`{r.old}` here is now spelt `{r.new}` ({r.why})",
                                             f"write `{r.new}:`; the old spelling is read until the next release",
                                             key=True))
                mapping[r.new] = mapping.pop(r.old)
    return notes


def _mappings(node: Any, pattern: tuple[str, ...], loc: tuple) -> list[tuple[tuple, dict]]:
    if not pattern:
        return [(loc, node)] if isinstance(node, dict) else []
    head, rest = pattern[0], pattern[1:]
    if isinstance(node, dict):
        keys = list(node) if head == "*" else [head] if head in node else []
        return [m for k in keys for m in _mappings(node[k], rest, loc + (k,))]
    if isinstance(node, list) and head == "*":
        return [m for i, v in enumerate(node) for m in _mappings(v, rest, loc + (i,))]
    return []


def check_old_spellings(game: Any) -> CheckResult:
    """The CHECKS entry: each old spelling the loader read is a warning at its line."""
    return CheckResult(findings=[Finding("warning", "old-spelling", f"{n.what}; {n.todo}", f"{n.path}:{n.line}")
                                 for n in getattr(game, "notes", [])])
