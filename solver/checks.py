"""The checks `pnp check` runs on a game, as one list.

Each entry is `function(game) -> CheckResult`: the setup/inventory checker, the map checks, the
translation QA. A capability that adds a check registers it here by import path.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from .findings import Finding

CHECKS: list[str] = [
    "solver.mapcheck:check_map",
    "solver.checker:check_setup",
    "solver.odds:check_odds",
    "solver.wargame:check_wargame",
    "solver.propose:check_proposals",
    "solver.rules.qa:check_rules",
]


@dataclass
class CheckResult:
    findings: list[Finding] = field(default_factory=list)
    derived: dict[str, Any] = field(default_factory=dict)
    player_counts: dict[str, dict[str, Any]] = field(default_factory=dict)


def check_functions() -> list[Callable[[Any], CheckResult]]:
    out = []
    for target in CHECKS:
        module, func = target.split(":")
        out.append(getattr(importlib.import_module(module), func))
    return out
