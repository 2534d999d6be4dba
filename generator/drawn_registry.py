"""The drawing records of files a build has just written, by the files' bytes, for preflight to take
(issue 26): a book's (generator/rulebook/drawn.py `BookRecord`), a sheet of pieces'
(generator/pieces/drawn.py `SheetRecord`) or a tiled print's (generator/tileflight.py `TiledRecord`:
no drawing, only the name of its full-size twin). A writer offers the record with the bytes it wrote;
preflight, given a file, takes the record whose bytes are the file's, and judges the file from it
first (generator/preflight.py). Keyed by the bytes, not the path, so that a record can only ever
speak for the very file it was drawn for.

    offer(data, record)        keep `record` for the file whose bytes are `data`
    take_record(digest(data))  the record of those bytes (let go of here), or None
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from .pieces.drawn import SheetRecord
    from .rulebook.drawn import BookRecord
    from .tileflight import TiledRecord

Record = Union["BookRecord", "SheetRecord", "TiledRecord"]

# the records of files just written, by their bytes' digest, taken by preflight; a few at most (a
# unit writes a book, its print guide and its booklet, or a deck's sheets and its calibration page,
# or a game's counters, tokens and tiles, before preflight takes their records; a build without
# preflight never takes them: the oldest go)
_OFFERED: OrderedDict[str, Record] = OrderedDict()
KEEP = 16


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def offer(data: bytes, record: Record) -> None:
    _OFFERED[digest(data)] = record
    while len(_OFFERED) > KEEP:
        _OFFERED.popitem(last=False)


def take_record(data_digest: str) -> Record | None:
    """The record of the file whose bytes have this digest, a book's, a sheet's or a tiled print's (let go of here), or None."""
    return _OFFERED.pop(data_digest, None)


