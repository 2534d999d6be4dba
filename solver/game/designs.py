"""designed.yaml: the counts `pnp design` chose to meet targets.yaml, with every target's exact value.

Like proposed.yaml it is data beside components.yaml, never mixed into it: a build prints a count
the sources leave open from here first, then from proposed.yaml (solver/counts/effective.py), and
`pnp check` computes every target again at these counts with the odds code of solver/counts/odds.py.
Accept a count by writing it into components.yaml; drop the design by deleting the file.
"""
from __future__ import annotations

from typing import Any

from pydantic import Field

from ..errors import Problem
from .base import Count, Id, Model, count_in, repeated


class DesignedCount(Model):
    """`count` copies of `item` of `component`, chosen by the design."""
    component: Id
    item: Id
    count: Count


class DesignedAmount(Model):
    """How many copies of each matched item a `remove` step with `each: free` takes at one count."""
    step: int = Field(ge=0, description="the step's position in setup.yaml `steps`, from 0")
    players: int
    variant: Id | None = Field(None, description="the optional rule played, if any")
    each: Count
    label: str = Field("", description="the step in words, for a reader (not read back)")


class TargetValue(Model):
    """One target's value at the designed counts: at one player count (`players`), or for the box."""
    target: Id
    players: int | None = Field(None, description="the player count; absent for a target on the box")
    variant: Id | None = Field(None, description="the optional rule played, if any")
    part: str | None = Field(None, description="which part of a `per` range, e.g. clan=blue")
    value: str = Field(description='the exact value: "p/q" for a probability, a share or an expectation; '
                                   'an integer for a count')
    bound: str = Field(description="what the target asks, in words")
    slack: str | None = Field(None, description="a soft target's distance from what it asks, exact")


class DesignFile(Model):
    objective: str = Field(description="what the design optimised, in words")
    counts: list[DesignedCount] = []
    amounts: list[DesignedAmount] = []
    values: list[TargetValue] = []

    def amount_of(self, step: int, players: int, variant: str | None) -> int | None:
        for a in self.amounts:
            if (a.step, a.players, a.variant) == (step, players, variant):
                return a.each
        return None

    def count_of(self, component: str, item: str) -> int | None:
        return count_in(self.counts, component, item)

    def check_references(self, components: list, locator: Any) -> list[Problem]:
        """Each count names an item of components.yaml, once."""
        items = {(c.id, i.id) for c in components for i in c.items} | {(c.id, c.id) for c in components if not c.items}
        again = set(repeated(self.counts))
        problems: list[Problem] = []
        for ci, c in enumerate(self.counts):
            if (c.component, c.item) not in items:
                problems.append(locator.problem(("counts", ci), f"no item {c.component}/{c.item} in components.yaml",
                                                "run `pnp design` again"))
            elif ci in again:
                problems.append(locator.problem(("counts", ci), f"a second count for {c.component}/{c.item}", "keep one"))
        return problems
