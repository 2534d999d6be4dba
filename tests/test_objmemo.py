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


def test_answers_marked_to_travel_go_with_a_pickled_object_and_are_not_worked_out_again():
    """What a process worked out for an object and marked `travels` goes with the object to another
    process (pickled: the checker's process given a game loaded after it forked); the answers not
    so marked stay behind, and the copy works those out itself."""
    import pickle

    from solver.game.objmemo import adopt, travelling

    made: list[str] = []
    here = Held(3)
    kept_for(here, "languages", lambda: (made.append("languages"), ["en", "fr"])[1], travels=True)
    kept_for(here, "drawn", lambda: (made.append("drawn"), Answer())[1])
    there, answers = pickle.loads(pickle.dumps((here, travelling(here))))
    adopt(there, answers)
    assert kept_for(there, "languages", lambda: (made.append("again"), [])[1]) == ["en", "fr"]
    assert isinstance(kept_for(there, "drawn", lambda: (made.append("drawn there"), Answer())[1]), Answer)
    assert made == ["languages", "drawn", "drawn there"]
    assert list(travelling(there)) == ["languages"]  # and on from there, as from here
