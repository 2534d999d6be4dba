"""What a face's templates can name: `FaceData` is the item, its component and the side (front or
back) being drawn, in one language; `lookup` answers `{name}`, `{attrs.1}`, `{face.label|name}`...
(the template vocabulary of solver/game/layouts.py), `matches` a field's or a layout's `where`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from solver.game.base import pick
from solver.game.components import Component, Face, Item
from solver.errors import DataError, Problem
from solver.game.layouts import ATTR_SPAN, TEMPLATE_KEY, ListSpec



@dataclass(frozen=True)
class FaceData:
    """What templates can name: the item, its component and the face (front/back) being drawn."""
    item: Item | None
    component: Component
    face: Face | None
    lang: str
    where: str  # names the card in messages, e.g. "saboteur-the-lost-mines/mine-cards/mine-gold"
    # What `lookup`, `fill` and `matches` answered, kept: a face is drawn for each copy on the sheet,
    # for its PNG and its back, each time asking the same questions of the same (unchanging) data,
    # some 27,000 `fill`s and 13,000 `matches` in a build of the examples.
    _looked: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _filled: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    # by the `where` mapping's identity, kept beside its answer (a layout's field holds it for the build)
    _matched: dict[int, tuple[dict[str, Any], bool]] = field(default_factory=dict, init=False, repr=False,
                                                             compare=False)

    def lookup(self, key: str) -> str:
        """`a|b|c`: the first alternative that is not empty."""
        known = self._looked.get(key)
        if known is None:
            known = self._looked[key] = self._lookup(key)
        return known

    def _lookup(self, key: str) -> str:
        for alt in key.split("|"):
            v = self._one(alt.strip())
            if v:
                return v
        return ""

    def _one(self, key: str) -> str:
        it, comp, face = self.item, self.component, self.face
        if key == "id":
            return it.id if it else comp.id
        if key == "name":
            return pick(it.name if it and it.name else comp.name, self.lang)
        if key == "text":
            return pick(it.text, self.lang) if it else ""
        if key == "note":
            return pick(it.note if it and it.note else comp.note, self.lang)
        if key == "count":
            return "" if not it or it.count is None else str(it.count)
        if key == "component":
            return pick(comp.name, self.lang)
        if key == "component_id":
            return comp.id
        if key.startswith("face."):
            sub = key[5:]
            if face is None:
                return ""
            if sub == "label":
                return pick(face.label, self.lang)
            if sub in ("values", "colour"):
                return getattr(face, sub) or ""
            return _show(face.attrs.get(sub), self.lang)
        if key == "attrs":
            return self._all_attrs()
        if key.startswith("attrs."):
            key = key[6:]
            span = ATTR_SPAN.match(key)
            if span:
                return self._attr_span(span)
        if it and key in it.attrs:
            return _show(it.attrs[key], self.lang)
        return _show(comp.attrs.get(key), self.lang)

    def _attr_span(self, span: re.Match) -> str:
        """`{attrs.1}`: the first attribute written, whatever its name; `{attrs.1-}` every value
        from the first on, joined by '-' (a counter's factors, `4-3`); `{attrs.2-3}` a range."""
        values = [_show(v, self.lang) for v in (self.item.attrs.values() if self.item else [])]
        first = int(span.group(1))
        last = first if span.group(2) is None else int(span.group(3) or len(values))
        if first < 1:
            return ""
        return "-".join(v for v in values[first - 1:last] if v)

    def _all_attrs(self) -> str:
        """`{attrs}`: every attribute of the item as `name value`, in the order written (what a
        default face prints, so a card made from a plain CSV shows all it knows)."""
        if not self.item:
            return ""
        shown = ((k, _show(v, self.lang)) for k, v in self.item.attrs.items())
        return " · ".join(f"{k} {v}" for k, v in shown if v)

    def fill(self, template: str | dict[str, str] | None) -> str:
        if template is None:
            return ""
        if isinstance(template, dict):
            template = pick(template, self.lang)
        known = self._filled.get(template)
        if known is None:
            known = self._filled[template] = TEMPLATE_KEY.sub(lambda m: self.lookup(m.group(1)), template).strip()
        return known

    def matches(self, where: dict[str, Any]) -> bool:
        known = self._matched.get(id(where))
        if known is None or known[0] is not where:
            known = self._matched[id(where)] = (where, self._matches(where))
        return known[1]

    def _matches(self, where: dict[str, Any]) -> bool:
        for key, want in where.items():
            have = self.lookup(key)
            if want == "*":
                if not have:
                    return False
                continue
            options = want if isinstance(want, list) else [want]
            if have not in {_show(o, self.lang) for o in options}:
                return False
        return True


def _show(v: Any, lang: str) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return pick(v, lang)
    if isinstance(v, list):
        return " ".join(_show(x, lang) for x in v)
    return str(v)


def list_text(game: Any, spec: ListSpec, template: str | dict[str, str] | None, data: FaceData) -> str:
    """A `list` field's text: one line per item of the component `spec.of` names that matches
    `spec.where` (templates filled from the sheet's own data), each line `template` filled from the item."""
    cid = data.fill(spec.of)
    every = [] if game is None else game.extras.get("all_components") or game.components  # a unit's game keeps them all
    comp = next((c for c in every if c.id == cid), None)
    if comp is None:
        raise DataError([Problem(data.where, 0, 0, f"a list field names {cid!r}, which is no component",
                                 "name a component id from components.yaml in the field's `lists: {of: ...}`")])
    where = {k: data.fill(v) if isinstance(v, str) else v for k, v in spec.where.items()}
    where = {k: v for k, v in where.items() if v != ""}
    rows = (FaceData(item, comp, item.front, data.lang, data.where) for item in comp.items)
    return "\n".join(line for row in rows if row.matches(where) and (line := row.fill(template)))
