"""Every CP-SAT solve made the usual way: solver/proof/cpsat.py `solve` lets a caller that prints no
solution ask for a verdict alone (`verdict_only`: faster, the same verdict, maybe another
solution). A report made under `usual_solves` is what the checker printed before that shortcut, on
whatever OR-Tools is installed: the tests compare the report as made with it, so that no shortcut
changes a deal or a choice the user is shown."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import pytest

from solver.proof import cpsat

CALLERS = ("solver.proof.constraints", "solver.proof.feasibility", "solver.counts.propose")


@contextmanager
def usual_solves(verdict_only: bool = False) -> Iterator[None]:
    """Within: every solve made with `verdict_only` as given here, whatever its caller asks
    (`verdict_only=True`: the shortcut everywhere, to see that the tests notice it)."""
    def solve(*args: Any, **kwargs: Any) -> Any:
        return cpsat.solve(*args, **{**kwargs, "verdict_only": verdict_only})
    with pytest.MonkeyPatch.context() as m:
        for name in CALLERS:
            m.setattr(f"{name}.solve", solve)
        yield
