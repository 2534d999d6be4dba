"""solver/game/objmemo.py: an answer kept while its object lives, per key, and never a failed one."""
from __future__ import annotations

import gc
import weakref

import pytest

from solver.game.objmemo import kept_for


class Held:
    """A stand-in for a loaded game: compared by value (as a dataclass is), so unhashable."""
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, n: int) -> None:
        self.n = n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Held) and other.n == self.n


class Answer:
    pass


def test_once_per_object_and_key_and_equal_objects_apart():
    made: list[tuple[int, str]] = []

    def make(obj: Held, key: str) -> Answer:
        made.append((obj.n, key))
        return Answer()

    a, b = Held(1), Held(1)  # equal, yet two loads: each its own answers
    first = kept_for(a, "x", lambda: make(a, "x"))
    assert kept_for(a, "x", lambda: make(a, "x")) is first
    assert kept_for(a, "y", lambda: make(a, "y")) is not first
    assert kept_for(b, "x", lambda: make(b, "x")) is not first
    assert made == [(1, "x"), (1, "y"), (1, "x")]


def test_a_failure_is_not_kept_and_a_gone_object_keeps_nothing():
    obj = Held(2)

    def fail() -> Answer:
        raise ValueError("broken file")

    with pytest.raises(ValueError):
        kept_for(obj, "k", fail)
    answer = kept_for(obj, "k", Answer)  # asked again after the failure: worked out now
    ref = weakref.ref(answer)
    del obj, answer
    gc.collect()
    assert ref() is None
