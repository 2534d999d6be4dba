"""Item selection and counting: the copies of each item in the box, and which items a selector matches."""
from __future__ import annotations

from typing import Any, Iterable

from ..game.components import Component
from ..game.loader import Game
from .results import ItemKey

def item_keys(comp: Component) -> list[ItemKey]:
    if comp.items:
        return [(comp.id, i.id) for i in comp.items]
    return [(comp.id, comp.id)]


def owned_counts(game: Game) -> dict[ItemKey, int | None]:
    """Copies of each item in the box; None when the data does not know."""
    out: dict[ItemKey, int | None] = {}
    for comp in game.components:
        if comp.items:
            for it in comp.items:
                out[(comp.id, it.id)] = it.count
        else:
            out[(comp.id, comp.id)] = comp.count
    return out


def rest_kinds(game: Game) -> set[ItemKey]:
    """The items marked `rest` (they stand for the pieces the sources do not name), which need not
    exist: every other item is named by the sources, so at least one copy of it does."""
    return {(c.id, i.id) for c in game.components for i in c.items if i.rest}


UNCOUNTED = "(uncounted)"


def counting_stock(game: Game) -> dict[ItemKey, int]:
    """What the engine counts with: known counts as they are, unknown ones as 0, except that a
    component with a stated total gets the copies its counted items do not explain as one
    anonymous item `(component, "(uncounted)")`: the Saboteur deck is 40 + 23 cards even
    though no kind's count is known, so hands and the draw pile still come out right."""
    stock = {k: v or 0 for k, v in owned_counts(game).items()}
    for comp in game.components:
        if comp.stated_total is None or not comp.items or all(i.count is not None for i in comp.items):
            continue
        rest = comp.stated_total.value - sum(i.count or 0 for i in comp.items)
        if rest > 0:
            stock[(comp.id, UNCOUNTED)] = rest
    return stock


def matches(attrs: dict[str, Any], where: dict[str, Any]) -> bool:
    """Does an item with `attrs` match a selector (a value, or a list of accepted values)?"""
    for key, want in where.items():
        have = attrs.get(key)
        wants = want if isinstance(want, list) else [want]
        haves = have if isinstance(have, list) else [have]
        if not any(_same(h, w) for h in haves for w in wants):
            return False
    return True


def _same(a: Any, b: Any) -> bool:
    return a == b or (a is not None and b is not None and str(a) == str(b))


def select_items(game: Game, component: str, where: dict[str, Any] | None = None,
                 ids: Iterable[str] = ()) -> list[ItemKey]:
    comp = game.component(component)
    wanted = set(ids)
    if not comp.items:
        return [(comp.id, comp.id)]
    out = []
    for it in comp.items:
        attrs = {**it.attrs, "id": it.id}
        if wanted and it.id not in wanted:
            continue
        if where and not matches(attrs, where):
            continue
        out.append((comp.id, it.id))
    return out
