"""`fewer_collections`: Python's garbage collector run less often while pieces, sheets and books are drawn.

Drawing a sheet makes hundreds of thousands of short-lived tuples (a recording's calls, the
backends' operators, the faces' boxes) while the build holds as many long-lived objects (game
data, fonts, caches). At Python's default thresholds the collector walks those long-lived ones
whole every few hundred thousand allocations: some eight times over the example games' cards,
counters, pieces and missing-content leaflets, 0.2-0.3 CPU-s of the cold build. The rulebook
stage asks for a higher first threshold while a book is set (rulebook/build.py). Cycles (a canvas,
a surface) are still collected, only later.

`collected_at_end`: the collector off while a unit of a build runs, and its two young generations
collected once when the unit is done (generator/units.py). What a unit makes and holds till its end
(a book's drawn strings, paragraphs, reportlab's page objects) survived every collection made while
it ran (some two thirds of what a book's walked: 470,000 objects) and was walked again by the
next gen1 collection, or, freed only with a cycle (the document and its canvas), stayed for the rest
of the build in the oldest generation, which a build never collects; at the unit's end it is
mostly gone, and what is left is walked once.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

# the third: a build's units each end with a collection of generations 0 and 1 (`collected_at_end`),
# and every 100 of those Python's own would walk the oldest generation, everything the build holds
THRESHOLDS = (5000, 20, 1000)


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


@contextmanager
def collected_at_end() -> Iterator[None]:
    """No automatic collection inside, and the young generations (0 and 1) collected once after, an
    error too; left alone when the caller had the collector off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(1)
