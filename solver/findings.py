"""Findings: what the checkers report, in the shape of DESIGN.md's checker report."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning", "assumption", "info"]
SEVERITY_ORDER = {"error": 0, "warning": 1, "assumption": 2, "info": 3}


@dataclass
class Finding:
    severity: Severity
    code: str  # kebab-case, stable: tests and users grep for it
    message: str  # one line a person can act on
    source: str  # "data/games/<id>/setup.yaml:12" or "seed 001, ドワーフカード"
    player_counts: list[int] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"severity": self.severity, "code": self.code, "message": self.message,
                "player_counts": list(self.player_counts), "source": self.source}


@dataclass
class CheckResult:
    """What one check returns to `pnp check` (the list is solver/checks.py's CHECKS)."""
    findings: list[Finding] = field(default_factory=list)
    derived: dict[str, Any] = field(default_factory=dict)
    player_counts: dict[str, dict[str, Any]] = field(default_factory=dict)


def cite(where: str, source: str | None) -> str:
    """`setup.yaml:17 (seed 002, setup 5)`: where a rule is written, and the clause of a source text
    it follows, if the game has sources (an original game's rules cite none)."""
    return f"{where} ({source})" if source else where
