"""Naming and guarding setup steps: what a finding calls a step, where it is, what `when:` may call."""
from __future__ import annotations

from typing import Any

from ..game.loader import Game
from ..game.setup import CombineStep, RemoveStep, step_kind


def when_functions(variant: str | None) -> dict[str, Any]:
    """The functions a `when:` may call: `variant(id)` is true only for the variant being run.
    The loader has already refused ids that setup.yaml's `variants:` does not declare."""
    return {"variant": lambda vid: vid == variant}


def step_location(game: Game, index: int) -> str:
    return game.where("setup.yaml", ("steps", index))


def step_label(game: Game, index: int) -> str:
    """A short human name of a step: its kind and target, e.g. `remove dwarf-cards {role: loyal}`."""
    step = game.step(index)
    kind = step_kind(step)
    if isinstance(step, RemoveStep):
        target = step.remove.component
        sel: dict[str, Any] = step.remove.where or ({"items": step.remove.items} if step.remove.items else {})
        if sel:
            target += " " + ", ".join(f"{k}={v}" for k, v in sel.items())
        if step.remove.each is not None:
            target += f" ×{step.remove.each}"
    elif isinstance(step, CombineStep):
        target = "+".join(step.combine) + f" into {step.into}"
    else:
        target = str(getattr(step, kind))
    guard = f" when {step.when}" if step.when else ""
    return f"{kind} {target}{guard}"
