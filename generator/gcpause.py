"""`fewer_collections`: Python's garbage collector run less often while pieces, sheets and books are drawn.

Drawing a sheet makes hundreds of thousands of short-lived tuples (a recording's calls, the
backends' operators, the faces' boxes) while the build holds as many long-lived objects (game
data, fonts, caches). At Python's default thresholds the collector walks those long-lived ones
whole every few hundred thousand allocations: some eight times over the example games' cards,
counters, pieces and missing-content leaflets, 0.2-0.3 CPU-s of the cold build. The rulebook
stage asks for a higher first threshold while a book is set (rulebook/build.py). Cycles (a canvas,
a surface) are still collected, only later.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

THRESHOLDS = (5000, 20, 100)


@contextmanager
def fewer_collections(thresholds: tuple[int, int, int] = THRESHOLDS) -> Iterator[None]:
    """Python's garbage-collection thresholds raised to at least `thresholds` inside, restored after
    (usable as a decorator too)."""
    old = gc.get_threshold()
    gc.set_threshold(*(max(a, b) for a, b in zip(old, thresholds)))
    try:
        yield
    finally:
        gc.set_threshold(*old)
