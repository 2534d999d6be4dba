"""proposed.yaml: counts the solver proposes where the sources state none (written by `pnp propose`).

A proposal is data beside the stated counts, never mixed into them: components.yaml keeps
`count: null` and the source's word, proposed.yaml holds what solver/counts/propose.py derived, with the
objective it optimised and the rules that bound each count. A user accepts a proposal by writing
the count into components.yaml (the stated count then wins and `pnp check` calls the proposal
stale), overrides one by editing its `count` here, and drops them all by deleting the file.
"""
from __future__ import annotations

from typing import Any

from pydantic import Field

from ..errors import Problem
from .base import Copies, Id, Model, count_in, repeated


# What `pnp propose` writes in `bound_by` when no rule bounds a count (solver/counts/propose.py)
NO_RULE_NAMED = "no rule: one copy, the least a kind the sources name can have"
NO_RULE_REST = "no rule and no stated total: none"


class Proposal(Model):
    """One proposed count: `count` copies of `item` of `component` (item-less components: item = component)."""
    component: Id
    item: Id
    count: Copies
    bound_by: list[str] = Field([], description="the rules, totals and steps that bound this count when it was proposed")

    @property
    def unbounded(self) -> bool:
        """No rule bounds the count: one copy only because the sources name the kind."""
        return self.bound_by == [NO_RULE_NAMED]


class ProposalsFile(Model):
    objective: str = Field(description="what the proposal optimised, in words")
    proposals: list[Proposal] = []

    def count_of(self, component: str, item: str) -> int | None:
        return count_in(self.proposals, component, item)

    def check_references(self, components: list, locator: Any) -> list[Problem]:
        """A second proposal for one item is an error; a proposal for an item that no longer exists
        is only stale (`pnp check` says so and `pnp propose` rewrites the file)."""
        return [locator.problem(("proposals", i), f"a second proposal for {p.component}/{p.item}", "keep one")
                for i in repeated(self.proposals) for p in [self.proposals[i]]]
