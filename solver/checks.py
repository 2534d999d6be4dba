"""The checks `pnp check` runs on a game, as one list.

Each entry is a function `check(game) -> CheckResult`: the map checks, the setup/inventory
checker, the odds, the wargame models, the translation QA. A capability that adds a check imports
it here and appends it to CHECKS. The check modules take CheckResult from solver/findings.py, never
from here, so that this list imports them and not the other way round.

Importing this module loads every checker (OR-Tools included): import it when checking runs.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from solver.proof.checker import check_setup
from .findings import CheckResult
from solver.counts.design_check import check_design
from solver.counts.odds import check_odds
from solver.counts.propose import check_proposals
from solver.hexmap.mapcheck import check_map
from .game.renames import check_old_spellings
from .game.usage import check_usage
from .rules.qa import check_rules
from solver.counts.wargame import check_wargame

if TYPE_CHECKING:
    from .game.loader import Game

__all__ = ["CHECKS", "Check", "CheckResult", "check_functions"]


class Check(Protocol):
    """One check of a game; its `__name__` names it in reports and benchmarks."""
    __name__: str

    def __call__(self, game: Game) -> CheckResult: ...


CHECKS: list[Check] = [check_old_spellings, check_usage, check_map, check_setup, check_odds, check_wargame, check_proposals, check_design,
                     check_rules]


def check_functions() -> list[Check]:
    return list(CHECKS)
