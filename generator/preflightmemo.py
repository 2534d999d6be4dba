"""Preflight's memo (generator/preflight.py): a file's findings are kept by its bytes, its name, the
options and the reader's code (preflight.file_key: the reader's code is READER_CODE's files), in
this process and in the build record (`Memo`, generator/incremental.py), so that a file known that
way is not read again.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Mapping, Sequence

# what the findings of a file depend on besides its bytes: the reader's code and the libraries it reads with
READER_CODE = ("preflight.py", "preflightmemo.py", "preflightsheet.py", "tileflight.py", "contrast.py", "rulebook/drawn.py", "rulebook/bookclear.py", "rulebook/readorder.py", "pieces/drawn.py", "pieces/sheettext.py", "drawn_registry.py", "glyphmetrics.py", "pieces/shapes.py", "pdfread.py", "pdfplain.py", "pdffonts.py", "pageink.py", "pagetext.py", "typesize.py", "context.py", "geometry.py", "pieces/plan.py", "pieces/grid.py")
READER_LIBRARIES = ("pypdfium2", "pypdf", "numpy")


@dataclass
class Memo:
    """Findings kept from earlier checks, so that a file whose bytes did not change is not read
    again: `known` (a build record's, by `file_key`) in, and out the findings of every PDF met
    (`seen`, the same way, for the next record) and the names of those read anew (`read`)."""
    known: Mapping[str, Sequence[Sequence]] = dataclasses.field(default_factory=dict)
    seen: dict[str, list[list]] = dataclasses.field(default_factory=dict)
    read: list[str] = dataclasses.field(default_factory=list)


def _rows_ok(rows: Sequence[Sequence]) -> bool:
    """Whether kept findings read as findings (a build record edited by hand may hold anything)."""
    return isinstance(rows, list) and all(
        isinstance(r, list) and len(r) == 5 and r[0] in ("error", "warning") and isinstance(r[2], int)
        and all(isinstance(r[i], str) for i in (1, 3, 4)) for r in rows)
