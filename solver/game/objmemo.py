"""What a process works out from a loaded object (a game, its map.yaml), kept while that object lives
(issue 26).

A build asks the same question of the same game many times: planning, the fingerprints and each
unit that prints a language ask which languages are complete; the setup proof, the proposals'
check and their joint model each ask for the worst deals; each language's map draws the same
symbols. A loaded game is never changed (an edit is a new load, a new object), so an answer is
kept by the object's identity and dropped when the object is collected: a process that loads game
after game (`pnp serve`) keeps nothing of the ones it let go. A forked pool's workers inherit what
the build worked out before forking them. An answer that also depends on a file the object does
not hold (a PO file read at the time) takes that file's text in its `key`. A value is shared by
every caller, so a caller reads it and never changes it (or is handed a copy). A `make` that
raises keeps nothing.
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Hashable, TypeVar

T = TypeVar("T")

_KEPT: dict[int, dict[Hashable, Any]] = {}


def kept_for(obj: object, key: Hashable, make: Callable[[], T]) -> T:
    """`make()`, worked out once for the live object `obj` and `key`."""
    held = _KEPT.get(id(obj))
    if held is None:
        held = _KEPT[id(obj)] = {}
        weakref.finalize(obj, _KEPT.pop, id(obj), None)
    if key not in held:
        held[key] = make()
    return held[key]
