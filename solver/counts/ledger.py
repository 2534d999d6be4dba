"""What a box holds against what a build prints, component by component and item by item.

One reading of the counts for every place that reports them, so they never disagree: the
manifest, `pnp show`, the rulebook's component table, `missing-<lang>.pdf` and `pnp serve`'s page.

- `count`: the stated count, else proposed.yaml's (counts/effective.py); `proposed` marks the
  latter and `unbounded` a proposal no rule bounds (one copy of a kind the sources name, e.g. a
  scoring chip: the rules need some, but say nothing of how many).
- `rest`: an item that stands only for what the sources do not describe (`rest: true`, e.g. War
  of the Ring's counters the rules do not name). It is counted towards the stated total, but a
  build prints only its blank `spares` (data; `pnp build --spares N` overrides): 0 by default.
- `described`: the pieces the sources describe (every item but the rest ones) of a component.
- `placeholder`: an item with no `text` in a component whose `no_text` attribute says what is
  printed instead ("text not given in the source rules"): the piece exists, its words do not.

Apart from propose.py, as effective.py is: the printing path never imports the optimiser.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.game.components import Component, Item
from solver.game.loader import Game

from .effective import component_total, effective_counts, proposals_of

PLACEHOLDER_ATTR = "no_text"  # a component's (or item's) line printed where the sources give no text


@dataclass(frozen=True)
class ItemLine:
    item: Item
    count: int | None  # stated, else proposed; None when neither
    proposed: bool
    unbounded: bool  # proposed, with no rule bounding the count
    printed: int  # copies a build prints
    placeholder: bool  # prints the component's "text not given" line instead of rule text

    @property
    def rest(self) -> bool:
        return self.item.rest


@dataclass(frozen=True)
class ComponentLine:
    component: Component
    total: int | None  # every piece, stated or proposed; None while one count is unknown
    proposed: bool  # the total rests on a proposal (no stated total holds it)
    stated: int | None  # the stated total, when the sources give one
    described: int | None  # pieces the sources describe: all but the rest items
    printed: int  # copies a build prints of its items
    items: tuple[ItemLine, ...]

    @property
    def unbounded(self) -> bool:
        """An item-less component whose one count is a proposal no rule bounds."""
        return not self.component.items and any(i.unbounded for i in self.items)


def rest_copies(item: Item, count: int | None, spares: int | None = None) -> int:
    """Copies to print of an item: all of them, but of a rest item only its blank spares (the
    data's `spares`, or `spares` given to the build), never more than its count."""
    if count is None:
        return 0
    if not item.rest:
        return count
    return min(count, item.spares if spares is None else spares)


def ledger(game: Game, stated_only: bool = False, spares: int | None = None) -> list[ComponentLine]:
    """Every component of the game, in data order, with its items' lines (an item-less
    component gets one line standing for it)."""
    counts = effective_counts(game, stated_only)
    file = None if stated_only else proposals_of(game)
    unbounded = {(p.component, p.item) for p in (file.proposals if file else []) if p.unbounded}
    out = []
    for c in game.components:
        total, proposed = component_total(c, counts)
        lines = []
        for it in c.items or [Item(id=c.id, name=c.name, count=c.count, attrs=dict(c.attrs))]:
            count, item_proposed = counts.get((c.id, it.id), (it.count, False))
            no_text = it.attrs.get(PLACEHOLDER_ATTR) or c.attrs.get(PLACEHOLDER_ATTR)
            lines.append(ItemLine(it, count, item_proposed, item_proposed and (c.id, it.id) in unbounded,
                                  rest_copies(it, count, spares), it.text is None and bool(no_text)))
        stated = c.stated_total.value if c.stated_total else None
        described = None if total is None else total - sum(i.count or 0 for i in lines if i.rest)
        out.append(ComponentLine(c, total, proposed and (stated is None or total != stated), stated, described,
                                 sum(i.printed for i in lines), tuple(lines)))
    return out
