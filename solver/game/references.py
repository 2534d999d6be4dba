"""Every id the data names must exist: run once after a game's files are loaded and validated.

A misspelt reference (`layout: no-such-layout`, `on: brie` for `bree`) would otherwise pass
`pnp check` and show up, if at all, as a quietly wrong card or setup. Each unresolved reference
becomes a located problem that suggests the nearest existing id (difflib), or lists the choices
when there are few.

The checks of one file against itself live beside its model (`check_references` of the layouts
and map models, the setup checks of the loader); this module resolves what crosses files:
components.yaml -> layouts.yaml, setup.yaml -> components, items, the map and its own `locations:`,
proposed.yaml -> components and items.
"""
from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Iterable

from ..errors import Problem
from .setup import GiveStep, PlaceStep

if TYPE_CHECKING:  # the loader imports this module
    from .loader import Game

# Where a setup step may put things besides the map's places, boxes and regions and the game's
# components: the table in front of the players (PlaceStep's default).
TABLE = "table"


def suggest(ref: str, known: Iterable[str], what: str) -> str:
    """What to do about an unknown id: the nearest existing one, or the choices when they are few."""
    known = sorted(set(known))
    close = difflib.get_close_matches(ref, known, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    if not known:
        return f"no {what} is defined yet"
    if len(known) <= 8:
        return f"use one of: {', '.join(known)}"
    return f"use one of the {len(known)} {what} ids (e.g. {', '.join(known[:4])})"


def check_references(game: "Game") -> list[Problem]:
    problems: list[Problem] = []
    problems += _component_layouts(game)
    problems += _setup_targets(game)
    problems += _proposals(game)
    return problems


def _proposals(game: "Game") -> list[Problem]:
    """proposed.yaml (`pnp propose`) names a component and one of its items (or the component
    itself when it has no items) for every proposed count."""
    proposed, locator = game.extras.get("proposed"), game.locators.get("proposed.yaml")
    if proposed is None or locator is None:
        return []
    problems = []
    by_id = {c.id: c for c in game.components}
    for pi, prop in enumerate(proposed.proposals):
        comp = by_id.get(prop.component)
        if comp is None:
            problems.append(locator.problem(("proposals", pi, "component"), f"unknown component {prop.component!r}",
                                            suggest(prop.component, by_id, "component")))
            continue
        items = {i.id for i in comp.items} or {comp.id}
        if prop.item not in items:
            problems.append(locator.problem(("proposals", pi, "item"), f"unknown item {prop.item!r} of {comp.id!r}",
                                            f"{suggest(prop.item, items, 'item')} (or run `pnp propose` again)"))
    return problems


def _layout_ids(game: "Game") -> set[str] | None:
    layouts = game.extras.get("layouts")
    if layouts is None:
        return None
    from .layouts import _builtin_ids  # the built-in card-basic, back-basic, ...
    return {lay.id for lay in layouts.layouts} | _builtin_ids()


def _component_layouts(game: "Game") -> list[Problem]:
    """`layout:` of a component or an item names a layout of layouts.yaml or a built-in one."""
    known = _layout_ids(game)
    locator = game.locators.get("components.yaml")
    if locator is None:
        return []
    if known is None:
        from .layouts import _builtin_ids
        known = _builtin_ids()
    problems = []
    for ci, comp in enumerate(game.components):
        refs: list[tuple[tuple[Any, ...], str | None]] = [(("components", ci, "layout"), comp.layout)]
        if not comp.items_file:  # items of a CSV/XLSX are located in that file, below
            refs += [(("components", ci, "items", ii, "layout"), it.layout) for ii, it in enumerate(comp.items)]
        for loc, lid in refs:
            if lid and lid not in known:
                problems.append(locator.problem(loc, f"unknown layout {lid!r}",
                                                f"{suggest(lid, known, 'layout')} (layouts.yaml `layouts:` "
                                                "or a built-in one)"))
        if comp.items_file and comp.items_file in game.locators:
            sheet = game.locators[comp.items_file]
            for ii, it in enumerate(comp.items):
                if it.layout and it.layout not in known:
                    problems.append(sheet.problem((ii,), f"unknown layout {it.layout!r} in column layout",
                                                  suggest(it.layout, known, "layout")))
    return problems


def _places(game: "Game") -> set[str]:
    """Ids a setup step may put pieces `on`: the table, the map's places, boxes and regions, the
    setup's declared `locations`, components, items and combined piles."""
    ids = {TABLE}
    m = game.extras.get("map")
    if m is not None:
        for group in ("places", "regions", "boxes"):
            ids |= {x.id for x in getattr(m, group, [])}
    ids |= {c.id for c in game.components} | {i.id for c in game.components for i in c.items}
    if game.setup:
        ids |= {loc.id for loc in game.setup.locations}
        ids |= {s.into for s in game.setup.steps if hasattr(s, "into")}
    return ids


def _setup_targets(game: "Game") -> list[Problem]:
    """`on:` of a place or give step names a place, box or region of the map (or a component, or
    the table); `items:` of a place step are items of its component."""
    setup, locator = game.setup, game.locators.get("setup.yaml")
    if setup is None or locator is None:
        return []
    problems = []
    places = _places(game)
    by_id = {c.id: c for c in game.components}
    for si, step in enumerate(setup.steps):
        if not isinstance(step, (PlaceStep, GiveStep)):
            continue
        on = step.on
        if on and on not in places:
            problems.append(locator.problem(("steps", si, "on"), f"unknown place {on!r}",
                                            f"{suggest(on, places, 'place')} (a place, box or region of "
                                            "map.yaml, an id under setup.yaml `locations:`, a component, or table)"))
        if isinstance(step, PlaceStep) and step.place in by_id:
            items = {i.id for i in by_id[step.place].items}
            for ii, iid in enumerate(step.items):
                if iid not in items:
                    problems.append(locator.problem(("steps", si, "items", ii),
                                                    f"unknown item {iid!r} of {step.place!r}",
                                                    suggest(iid, items, "item")))
    return problems
