"""Embedded font subsets made once per process instead of once per PDF.

reportlab embeds a TrueType font as subsets of at most 256 characters, made and compressed anew
for every document: a font file (TTFontFace.makeSubset) and its ToUnicode map, each deflated when
the document is saved. A rulebook and its A5 booklet, a deck's sheets in one language, a game's
leaflets give the same characters the same codes in the same order, so they embed the same
subsets: the rulebooks stage of the example games made 165, of which 51 distinct. Here, while a
`kept()` block is open (a book, its booklet and its print guide), a face's subset, and the deflated
bytes of each font file and map, are kept for the next document that embeds the same one; what is
written is byte for byte what reportlab writes (the same bytes go into zlib.compress with its
defaults, and the same subset list into makeSubset).
"""
from __future__ import annotations

import zlib
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Iterator

from reportlab.pdfbase import pdfdoc

# Bytes held at most (subsets as made plus their deflated streams): a book's and its booklet's
# subsets are a few hundred kB.
BUDGET = 8 << 20


class _Kept:
    """A least-recently-used memo whose entries are charged by their size in bytes."""

    def __init__(self, budget: int):
        self.budget, self.used = budget, 0
        self.items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()

    def get(self, key: Any) -> Any:
        hit = self.items.get(key)
        if hit is None:
            return None
        self.items.move_to_end(key)
        return hit[0]

    def put(self, key: Any, value: Any, size: int) -> None:
        if size > self.budget or not _OPEN:
            return
        self.items[key] = (value, size)
        self.used += size
        while self.used > self.budget:
            _, (_, dropped) = self.items.popitem(last=False)
            self.used -= dropped

    def clear(self) -> None:
        self.items.clear()
        self.used = 0


_SUBSETS = _Kept(BUDGET // 2)  # (the face's token, codes) -> the subset font file
_DEFLATED = _Kept(BUDGET // 2)  # stream content -> zlib.compress(content)


_OPEN = 0  # `kept()` blocks open: subsets are kept only inside one


@contextmanager
def kept() -> Iterator[None]:
    """Inside, a subset embedded again is reused (see the module doc); when the outermost block
    ends, every kept subset is let go: held through the rest of a build they raised its peak by
    7 MB (the build's process, near 300 MB), for no later PDF that needed them."""
    global _OPEN
    _OPEN += 1
    try:
        yield
    finally:
        _OPEN -= 1
        if not _OPEN:
            _SUBSETS.clear()
            _DEFLATED.clear()


class KeptFlate(pdfdoc.PDFStreamFilterZCompress):
    """reportlab's FlateDecode filter, remembering what it compressed (font files and maps only:
    pages are never the same twice)."""

    def encode(self, text: str | bytes) -> bytes:
        data = text.encode("utf8") if isinstance(text, str) else text
        out = _DEFLATED.get(data)
        if out is None:
            out = zlib.compress(data)
            _DEFLATED.put(data, out, len(data) + len(out))
        return out


KEPT_FLATE = KeptFlate()


def keep_subsets(face: Any) -> None:
    """Make `face` (a reportlab TTFontFace) reuse its subsets and their compressed streams (see
    the module doc): its makeSubset and addSubsetObjects, replaced on this instance only."""
    make, add = face.makeSubset, face.addSubsetObjects
    # this face's own token, not its file's name (a game's font file edited while `pnp serve` runs
    # is registered again, as another face) nor its id (a face registered over is let go, and its
    # id may be the next face's): a key holds its token, which no other face can have
    token = object()

    def make_subset(subset: list[int]) -> bytes:
        key = (token, tuple(subset))
        out = _SUBSETS.get(key)
        if out is None:
            out = make(subset)
            _SUBSETS.put(key, out, len(out))
        return out

    def add_subset_objects(doc: Any, fontname: str, subset: list[int]) -> Any:
        ref = add(doc, fontname, subset)
        # the streams reportlab has just named for this subset: its font file and (made by the
        # caller, TTFont.addObjects, just before) its ToUnicode map
        for name in (f"fontFile:{face.filename}({fontname})", f"toUnicodeCMap:{fontname}"):
            stream = doc.idToObject.get(name)
            if stream is not None and stream.filters == [pdfdoc.PDFZCompress]:
                stream.filters = [KEPT_FLATE]
        return ref

    face.makeSubset = make_subset
    face.addSubsetObjects = add_subset_objects
