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
_TRAVELS: dict[int, set[Hashable]] = {}  # the keys of each object's answers that go with it (`travelling`)


def kept_for(obj: object, key: Hashable, make: Callable[[], T], *, travels: bool = False) -> T:
    """`make()`, worked out once for the live object `obj` and `key`. With `travels`, the answer
    (plain data, true of the object wherever it is: what else it depends on is in `key`) goes with
    the object to another process (`travelling`)."""
    held = _KEPT.get(id(obj))
    if held is None:
        held = _KEPT[id(obj)] = {}
        weakref.finalize(obj, _forget, id(obj))
    if key not in held:
        held[key] = make()
        if travels:
            _TRAVELS.setdefault(id(obj), set()).add(key)
    return held[key]


def _forget(ident: int) -> None:
    _KEPT.pop(ident, None)
    _TRAVELS.pop(ident, None)


def travelling(obj: object) -> dict[Hashable, Any]:
    """The answers kept for `obj` that go with it when it is sent to another process (pickled: the
    checker's process is given a game loaded after it forked), for `adopt` there: that process
    would otherwise work them out again (a cold `build --all`: four games' translations, their PO
    files parsed again)."""
    held = _KEPT.get(id(obj), {})
    return {key: held[key] for key in _TRAVELS.get(id(obj), ()) if key in held}


def adopt(obj: object, answers: dict[Hashable, Any]) -> None:
    """Keep for `obj` (a copy of an object sent from another process) the answers `travelling` gave
    there, as if worked out here."""
    for key, value in answers.items():
        kept_for(obj, key, lambda: value, travels=True)
