"""What the line breaker remembers of a paragraph whatever the width (its groups, its breaks, its
words' hyphen points, its characters' advances), kept across a build's rulebook units while they
use it.

A game's books are set unit by unit, one language after another, and a translated book sets both
languages side by side: its paragraphs are those the two units before it set alone (every one of
them in the example games). `UnitMemo` keeps a result while one of the last `units` units asked
for it (`age()` at a unit's end, `text.forget_paragraphs`): the next game's units find the last
game's entries gone after two units of their own, so what is held stays about one game's
paragraphs, as forgetting everything after each unit held at the end of a game's last unit.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, NamedTuple, TypeVar

V = TypeVar("V")


_ABSENT: Any = object()  # what a generation holds for arguments it has no value of


class MemoInfo(NamedTuple):
    currsize: int  # entries held (as functools' cache_info says it)


class UnitMemo(Generic[V]):
    """`fn(*args)` remembered by `args` (hashable), by generations: a unit's own, then the units'
    before it, `units` in all; an entry found in an older one is moved to the current one."""

    def __init__(self, fn: Callable[..., V], units: int = 3, most: int = 8192):
        self.fn = fn
        # a process that sets no book (cards, maps, `pnp serve` rebuilding) never calls age():
        # a generation that reaches its share of `most` entries ages by itself
        self.share = max(1, most // units)
        self.__wrapped__ = fn
        self.__doc__ = fn.__doc__
        self.units = units
        self.generations: list[dict[tuple[Hashable, ...], V]] = [{} for _ in range(units)]

    def __call__(self, *args: Hashable) -> V:
        current = self.generations[0]
        value = current.get(args, _ABSENT)  # not try/except: a quarter of the calls miss, and a raise costs 1 µs
        if value is not _ABSENT:
            return value
        for older in self.generations[1:]:
            if args in older:
                value = current[args] = older.pop(args)
                return value
        value = current[args] = self.fn(*args)
        if len(current) >= self.share:
            self.age()
        return value

    def age(self) -> None:
        """A unit has ended: what none of the last `units` units asked for is let go."""
        self.generations = [{}, *self.generations[:-1]]

    def cache_clear(self) -> None:
        self.generations = [{} for _ in range(self.units)]

    def cache_info(self) -> MemoInfo:
        return MemoInfo(sum(map(len, self.generations)))


def unit_memo(most: int) -> Callable[[Callable[..., V]], UnitMemo[V]]:
    """Decorator: the function remembered for the units that use it, `most` entries at most (UnitMemo)."""
    return lambda fn: UnitMemo(fn, most=most)
