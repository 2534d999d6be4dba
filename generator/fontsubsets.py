"""A font subset's PDF objects formatted once per process instead of once per PDF.

reportlab embeds a TrueType font as subsets of at most 256 characters, and for every document
makes each one anew: its font file (TTFontFace.makeSubset, 0.8 ms for a Japanese subset), its
ToUnicode map, both deflated when the document is saved (1.3 ms for that font file), and its
Widths array (0.5 ms to format 256 numbers). Documents embed the same subsets again and again:
a rulebook, its A5 booklet and its print guide; a deck's sheets and its pieces; a game's books in
two languages that start alike. A cold `build --all` of the example games embedded 294 font files
of which 154 distinct, nearly every repeat within a few documents of the one before.

Here a subset's font file stream, its ToUnicode stream and its Widths array are formatted by
reportlab itself the first time (`PDFStream.format`, `PDFArray.format`, which depend on nothing of
the document but its filters and encryption), and the bytes are kept, least recently used first
out, within `BUDGET` for the whole process; a document that embeds the same subset again gets the
kept bytes in place of the object, so what is written is byte for byte what reportlab writes.
"""
from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from typing import Any

from reportlab.pdfbase import pdfdoc, ttfonts

from . import pdfformat

# Bytes held at most (formatted streams, mostly deflated font files: 30 kB for a Japanese subset,
# 8 kB for a Latin one). Repeats come soon: over the example games 0.5 MB would catch 131 of the
# 140 repeated font files and 1 MB 138; peak memory is a concern of the build (issue 26).
BUDGET = 1 << 20


class _Kept:
    """A least-recently-used memo whose entries are charged by their size in bytes."""

    def __init__(self, budget: int):
        self.budget, self.used = budget, 0
        self.items: OrderedDict[Any, tuple[bytes, int]] = OrderedDict()

    def get(self, key: Any) -> bytes | None:
        hit = self.items.get(key)
        if hit is None:
            return None
        self.items.move_to_end(key)
        return hit[0]

    def put(self, key: Any, value: bytes, size: int) -> None:
        if size > self.budget or key in self.items:
            return
        self.items[key] = (value, size)
        self.used += size
        while self.used > self.budget:
            _, (_, dropped) = self.items.popitem(last=False)
            self.used -= dropped

    def clear(self) -> None:
        self.items.clear()
        self.used = 0


_KEPT = _Kept(BUDGET)
_INT = 36  # bytes a key holds for each number of a subset or widths (the object and its slot)


class _GlyfView:
    """A face's glyf table as makeSubset reads it: a slice of a glyph or two at a time, each as
    bytes, cut from the font file without first copying the whole table as `get_table` does (a
    CJK face's is 3 MB: 500 MB copied over a cold `build --all`, 0.09 CPU-s)."""

    def __init__(self, data: bytes, pos: int, length: int):
        self.view = memoryview(data)[pos:pos + length]

    def __getitem__(self, part: slice) -> bytes:
        return self.view[part].tobytes()


class Formatted(pdfdoc.PDFObject):
    """An object of a PDF whose bytes are known: reportlab's own formatting of an equal object in
    an earlier document. The document writes it as it writes any object (`format`)."""

    def __init__(self, data: bytes):
        self.data = data

    def format(self, document: Any) -> bytes:
        return self.data


def _plain(doc: Any) -> bool:
    """A document whose objects format the same in any document: not encrypted (an encrypted
    document's streams and strings are encoded with keys of its own)."""
    return type(doc.encrypt) is pdfdoc.NoEncryption


def _filters(doc: Any) -> tuple[Any, ...]:
    """What a stream's bytes depend on beside its content: the filters reportlab gives it."""
    return (bool(doc.compression), tuple(doc.defaultStreamFilters or ()))


def _kept_stream(doc: Any, name: str, key: Any, held: int, data: bytes | None = None) -> None:
    """Replace the stream `name` of `doc` by its formatted bytes `data`, else those kept under
    `key` (which holds some `held` bytes itself), else reportlab's, then kept."""
    data = data or _KEPT.get(key)
    if data is None:
        data = doc.idToObject[name].format(doc)
        _KEPT.put(key, data, len(data) + held)
    doc.idToObject[name] = Formatted(data)


def _glyf_viewed(face: Any, make: Any) -> Any:
    """The face's makeSubset `make`, which reads the glyf table through a `_GlyfView` while it
    runs (only then: glyphmetrics.py reads the table as bytes); a makeSubset that reads it other
    than by slices (another reportlab 4 release) runs again on the table itself."""
    get_table = face.get_table

    def viewed(tag: str) -> Any:
        if tag != "glyf":
            return get_table(tag)
        pos, length = face.get_table_pos(tag)
        return _GlyfView(face._ttf_data, pos, length)

    def made(subset: list[int]) -> bytes:
        face.get_table = viewed
        try:
            return make(subset)
        except (TypeError, AttributeError):  # a reportlab that reads the table otherwise than by slices
            face.__dict__.pop("get_table", None)
            return make(subset)
        finally:
            face.__dict__.pop("get_table", None)

    return made


# reportlab's own, before install_cmaps()
REPORTLAB_CMAP = ttfonts.makeToUnicodeCMap


@lru_cache(maxsize=64)  # 64 texts of up to 4 kB: a build's repeats come within a few documents
def _cmap_text(fontname: str, subset: tuple[int, ...]) -> str:
    return REPORTLAB_CMAP(fontname, list(subset))


def to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's makeToUnicodeCMap(fontname, subset): the text of a subset's ToUnicode map,
    which depends on nothing else, made once for the documents that embed the subset again (256
    lines formatted, 0.17 ms, for each of a cold build's 368 embedded subsets, 154 distinct) and the
    same str, whose hash is kept, looked up in `_KEPT`."""
    return _cmap_text(fontname, tuple(subset))


def keep_subsets(font: Any) -> None:
    """Make `font` (a reportlab TTFont) reuse its subsets' formatted objects (see the module
    doc): its face's makeSubset and addSubsetObjects and its own addObjects, replaced on these
    instances only. Every document of the project embeds such a font, so reportlab's formatting of
    small objects is made faster here too (pdfformat.py: the same bytes)."""
    pdfformat.install()
    ttfonts.makeToUnicodeCMap = to_unicode_cmap  # TTFont.addObjects calls it by its module's name
    face = font.face
    make, add, add_fonts = _glyf_viewed(face, face.makeSubset), face.addSubsetObjects, font.addObjects
    # this face's own token, not its file's name (a game's font file edited while `pnp serve` runs
    # is registered again, as another face) nor its id (a face registered over is let go, and its
    # id may be the next face's): a key holds its token, which no other face can have
    token = object()
    known = [False]  # the subset being added has its font file kept: reportlab need not make it

    def make_subset(subset: list[int]) -> bytes:
        # reportlab's addSubsetObjects makes the font file first and then the objects naming it;
        # when the file's formatted stream is kept, an empty one stands in and is replaced (below)
        return b"" if known[0] else make(subset)

    def add_subset_objects(doc: Any, fontname: str, subset: list[int]) -> Any:
        if not _plain(doc):
            return add(doc, fontname, subset)
        key = ("file", token, tuple(subset), _filters(doc))
        kept = _KEPT.get(key)
        known[0] = kept is not None
        try:
            ref = add(doc, fontname, subset)
        finally:
            known[0] = False
        # the bytes looked up before, never the empty stand-in's
        _kept_stream(doc, f"fontFile:{face.filename}({fontname})", key, _INT * len(subset), kept)
        # made by the caller (TTFont.addObjects) just before: its text names the subset's font
        cmap = f"toUnicodeCMap:{fontname}"
        text = doc.idToObject[cmap].content
        _kept_stream(doc, cmap, ("cmap", text, _filters(doc)), len(text))
        return ref

    def add_objects(doc: Any) -> None:
        fonts = doc.idToObject[pdfdoc.BasicFonts].dict
        before = set(fonts)
        add_fonts(doc)
        if not _plain(doc):
            return
        for name in fonts.keys() - before:  # this font's subsets, just added
            widths = fonts[name].Widths
            key = ("widths", tuple(widths.sequence))
            data = _KEPT.get(key)
            if data is None:
                data = widths.format(doc)
                _KEPT.put(key, data, len(data) + _INT * len(key[1]))
            fonts[name].Widths = Formatted(data)

    face.makeSubset = make_subset
    face.addSubsetObjects = add_subset_objects
    font.addObjects = add_objects
