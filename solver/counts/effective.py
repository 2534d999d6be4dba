"""The count a build prints: the stated one, else designed.yaml's, else proposed.yaml's.

Apart from propose.py and design.py so that printing a deck, the manifest or the rulebook's
component table never imports the optimiser (ortools and what it loads cost about 0.4 s of a cold start).
"""
from __future__ import annotations

from typing import Any

from solver.engine.items import owned_counts
from solver.engine.results import ItemKey
from solver.game.designs import DesignFile
from solver.game.loader import Game
from solver.game.proposals import ProposalsFile


def proposals_of(game: Game) -> ProposalsFile | None:
    return game.extras.get("proposed")


def proposed_counts(game: Game) -> dict[ItemKey, int] | None:
    """proposed.yaml's count of every item the data leaves uncounted (its last proposal of an item,
    as `pnp check` reads them), in components.yaml's order; None when the file leaves one out."""
    file = proposals_of(game)
    if file is None:
        return None
    given = {(p.component, p.item): p.count for p in file.proposals}
    unknown = [k for k, v in owned_counts(game).items() if v is None]
    return {k: given[k] for k in unknown} if all(k in given for k in unknown) else None


def design_of(game: Game) -> DesignFile | None:
    return game.extras.get("designed")


def effective_counts(game: Game, stated_only: bool = False) -> dict[ItemKey, tuple[int | None, bool]]:
    """Item -> (copies, not stated?): the stated count, else designed.yaml's, else proposed.yaml's
    (neither with `stated_only`)."""
    files = [] if stated_only else [f for f in (design_of(game), proposals_of(game)) if f is not None]
    out: dict[ItemKey, tuple[int | None, bool]] = {}
    for key, count in owned_counts(game).items():
        chosen = next((c for f in files if (c := f.count_of(*key)) is not None), None) if count is None else None
        out[key] = (count, False) if chosen is None else (chosen, True)
    return out


def component_total(comp: Any, counts: dict[ItemKey, tuple[int | None, bool]]) -> tuple[int | None, bool]:
    """A component's pieces from `effective_counts`: (total or None when one is unknown, any proposed?)."""
    keys = [(comp.id, it.id) for it in comp.items] or [(comp.id, comp.id)]
    values = [counts.get(k, (None, False)) for k in keys]
    proposed = any(p for _, p in values)
    known = [v for v, _ in values if v is not None]
    return (sum(known) if len(known) == len(values) else None), proposed
