"""The items of components: card lists in CSV or XLSX files, and ids unique across the box."""
from __future__ import annotations

from pathlib import Path

from ..errors import Problem
from . import limits
from .components import Component, Item
from .validate import validate
from .yamlsrc import Locator, load_csv


def load_items_file(folder: Path, comp: Component, cloc: tuple, locator: Locator,
                     source_language: str) -> tuple[list[Item], Locator | None, list[Problem]]:
    """The items of a CSV or XLSX card list; what its columns mean is solver/game/columns.py."""
    from .columns import check_header, item_data, source_clashes

    rel = comp.items_file or ""
    path = (folder / rel).resolve()
    if folder.resolve() not in path.parents:
        return [], None, [locator.problem(cloc + ("items_file",), f"items_file {rel!r} leaves the game folder",
                                          "keep card lists inside the game folder")]
    if path.exists() and not path.is_file():  # a folder, a FIFO, a device: reading could block
        return [], None, [locator.problem(cloc + ("items_file",), f"items_file {rel!r} is not a regular file",
                                          "point it at a CSV or XLSX file")]
    if not path.is_file():
        # Named at the `items_file:` key that names it: a typo there is the usual cause.
        near = sorted(p.name for p in folder.iterdir() if p.suffix.lower() in (".csv", ".xlsx"))
        hint = f"files here: {', '.join(near)}" if near else "no CSV or XLSX file is in the game folder"
        return [], None, [locator.problem(cloc + ("items_file",), f"items_file {rel!r} not found",
                                          f"create it or fix the name ({hint})")]
    if path.suffix.lower() == ".xlsx":
        from .sheets import load_xlsx
        rows, rloc = load_xlsx(path, sheet=comp.id)
    else:
        rows, rloc = load_csv(path)
    problems = check_header(rloc.columns, rows, rloc.path) + source_clashes(rloc.columns, source_language, rloc.path)
    if problems:
        return [], rloc, problems
    items = []
    for i, row in enumerate(rows):
        item, probs = validate(Item, item_data(row, source_language), Locator(rloc.path, {(): rloc.at((i,))}))
        problems += probs
        if item:
            items.append(item)
    return items, rloc, problems


def duplicate_ids(components: list[Component], cloc: Locator, item_locators: dict[str, Locator]) -> list[Problem]:
    """Every component and item id is used once in the box; `item_locators` holds the locator of
    each card list (by component id), whose rows carry its items."""
    problems = []
    seen: dict[str, tuple[Locator, tuple]] = {}
    for ci, comp in enumerate(components):
        here = ("components", ci)
        places: list[tuple[str, Locator, tuple[str | int, ...]]] = [(comp.id, cloc, here + ("id",))]
        rloc = item_locators.get(comp.id)
        for ii, it in enumerate(comp.items):
            places.append((it.id, rloc, (ii,)) if rloc else (it.id, cloc, here + ("items", ii, "id")))
        for ref, locator, where in places:
            if ref in seen:
                first_loc, first_where = seen[ref]
                first = f"{first_loc.path}:{first_loc.at(first_where)[0]}"
                problems.append(locator.problem(where, f"duplicate id {ref!r} (first used at {first})",
                                                "give each component and item its own id"))
            else:
                seen[ref] = (locator, where)
    return problems


def too_many_pieces(components: list[Component], cloc: Locator, item_locators: dict[str, Locator]) -> list[Problem]:
    """All the copies in the box (every item's, and each component's without items) stay within
    limits.MAX_PIECES: one problem at the count that passes it, found before anything is drawn."""
    total = 0
    for ci, comp in enumerate(components):
        here = ("components", ci)
        rloc = item_locators.get(comp.id)
        places: list[tuple[int | None, Locator, tuple[str | int, ...]]] = [
            (it.count, rloc, (ii,)) if rloc else (it.count, cloc, here + ("items", ii, "count"))
            for ii, it in enumerate(comp.items)] or [(comp.count, cloc, here + ("count",))]
        for count, locator, where in places:
            total += count or 0
            if total > limits.MAX_PIECES:
                return [locator.problem(where, f"with this count the box holds more than {limits.MAX_PIECES:,} pieces",
                                        "lower the counts; see README, Limits on input files")]
    return []
