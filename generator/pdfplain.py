"""A PDF's form XObjects handed to pdfium decoded, so that it does not decode them again for every
use: the file preflight reads back, the same but for its forms' streams, stored unfiltered.

pdfium decodes a form's stream each time a page draws the form, as it loads that page: a tiled
map's sheet draws the whole map's form, which draws its hexes' 400-odd symbol forms, each decoded
(ASCII85, then Flate) on every sheet. That was a third of the time pdfium took to load a map's
sheets. Decoded here once per file, they give pdfium the very bytes its own filters would, so the
pages it parses from them, and all that preflight reads of them, are the same (every page of the
examples' PDFs with forms rendered and read the same either way; tests/test_pdfplain.py checks
it on a tiled drawing).

Only what is surely decoded the same is rewritten: a form whose stream is Flate or ASCII85 then
Flate, without /DecodeParms, with a direct /Length, whose data decodes whole (nothing after the
Flate data, no character ASCII85 does not know). Anything else, and any file this reader does not
follow (generator/pdffonts.py `Objects`: a cross-reference stream, object streams, encryption),
is left as it is.

    plain_forms(data) -> bytes      `data` with its forms' streams decoded, or `data` itself
"""
from __future__ import annotations

import bisect
import re
import zlib

import numpy as np

from . import pdffonts
from .pdffonts import Unsupported

_WS = re.compile(rb"[\x00\t\n\x0c\r ]+")
_STREAM = re.compile(rb"[\x00\t\n\x0c\r ]*stream(?:\r\n|\n)")
_FILTER = re.compile(rb"/Filter[\x00\t\n\x0c\r ]*(?:\[[^\]]*\]|/[^\x00\t\n\x0c\r ()<>\[\]{}/%]+)")
_LENGTH = re.compile(rb"/Length[\x00\t\n\x0c\r ]+[0-9]+(?![0-9]|[\x00\t\n\x0c\r ]+[0-9]+[\x00\t\n\x0c\r ]+R)")
_SUBTYPE_FORM = re.compile(rb"/Subtype[\x00\t\n\x0c\r ]*/Form(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")
_A85_POWERS = np.array([85 ** 4, 85 ** 3, 85 ** 2, 85, 1], dtype=np.uint64)
_FILTERS = (["/ASCII85Decode", "/FlateDecode"], "/FlateDecode")


class _Skip(Exception):
    """A stream not surely decoded as pdfium would: left as it is."""


def plain_forms(data: bytes) -> bytes:
    """`data` with every form XObject's stream stored decoded (`/Filter` dropped, `/Length` the
    decoded length) and its cross-reference table moved to match; `data` itself when it has no
    form to decode or is not a file this reader follows."""
    marks = [m.start() for m in _SUBTYPE_FORM.finditer(data)]
    if not marks:  # most books: nothing to do
        return data
    try:
        objs = pdffonts.Objects(data)
        if "/Prev" in objs.trailer:  # an updated file: its older tables would point at old places
            return data
        parts, last, moved, delta = [], 0, {}, 0
        places = sorted(objs.offsets.items(), key=lambda item: item[1])
        # only the objects a "/Subtype /Form" lies in are parsed: the others are moved as they are
        starts = [at for _, at in places]
        forms = {places[i][0] for i in (bisect.bisect_right(starts, m) - 1 for m in marks) if i >= 0}
        for num, at in places:
            moved[num] = at + delta
            head = pdffonts._OBJ.match(data, at)
            if head is None or int(head.group(1)) != num or int(head.group(2)):
                raise Unsupported(f"object {num} is not where the table says")
            found = _form_stream(data, head.end()) if num in forms else None
            if found is None:
                continue
            start, end, stream_at, body = found
            old = data[head.end():start]
            new = _LENGTH.sub(b"/Length %d" % len(body), _FILTER.sub(b"", old))
            parts += [data[last:head.end()], new, data[start:stream_at], body]
            delta += len(new) - len(old) + len(body) - (end - stream_at)
            last = end
        if not parts:
            return data
        return _with_table(data, parts, last, moved)
    except (Unsupported, LookupError, TypeError, ValueError, RecursionError):
        return data


def _form_stream(data: bytes, pos: int) -> tuple[int, int, int, bytes] | None:
    """For the object whose value starts at `pos`, if it is a form to decode: where its dictionary
    ends, where its stream's data ends, where that data starts, and the data decoded."""
    value, end = pdffonts.parse(data, pos)
    if not isinstance(value, dict) or value.get("/Subtype") != "/Form" or "/DecodeParms" in value:
        return None
    kind, length = value.get("/Filter"), value.get("/Length")
    if kind not in _FILTERS or not isinstance(length, bytes):
        return None
    stream = _STREAM.match(data, end)
    raw = data[stream.end():stream.end() + int(length)] if stream else b""
    if stream is None or len(raw) != int(length) or not data.startswith(b"endstream", _skip_ws(data, stream.end() + len(raw))):
        return None
    old = data[pos:end]
    if len(_FILTER.findall(old)) != 1 or len(_LENGTH.findall(old)) != 1 or old.count(b"/Length") != 1:
        return None  # the entries to rewrite are not plainly the dictionary's own
    try:
        body = _inflate(_a85(raw) if isinstance(kind, list) else raw)
    except _Skip:
        return None
    return end, stream.end() + len(raw), stream.end(), body


def _skip_ws(data: bytes, pos: int) -> int:
    m = _WS.match(data, pos)
    return m.end() if m else pos


def _inflate(raw: bytes) -> bytes:
    """Flate data decoded, only when it is whole: one zlib stream, ended, with nothing after it."""
    d = zlib.decompressobj()
    try:
        out = d.decompress(raw) + d.flush()
    except zlib.error as e:
        raise _Skip(str(e)) from e
    if not d.eof or d.unused_data.strip(b"\x00\t\n\x0c\r "):
        raise _Skip("Flate data not whole")
    return out


def _a85(raw: bytes) -> bytes:
    """ASCII85 decoded (white space ignored, "z" for four zero bytes, "~>" its end), all groups at
    once; anything else in it is not decoded here."""
    end = raw.find(b"~>")
    if end < 0 or raw[end + 2:].strip(b"\x00\t\n\x0c\r "):
        raise _Skip("ASCII85 without its end")
    body = _WS.sub(b"", raw[:end])
    if b"z" in body:  # four zero bytes, standing for a whole group: a "z" inside a group is not decoded here
        chars = np.frombuffer(body, dtype=np.uint8)
        z = chars == ord("z")
        if (np.cumsum(~z)[z] % 5).any():
            raise _Skip("a z inside an ASCII85 group")
        body = body.replace(b"z", b"!!!!!")
    pad = -len(body) % 5
    if pad == 4:
        raise _Skip("a lone ASCII85 character")
    digits = np.frombuffer(body + b"u" * pad, dtype=np.uint8).astype(np.uint64) - 33
    if (digits > 84).any():
        raise _Skip("a character ASCII85 does not know")
    groups = digits.reshape(-1, 5) @ _A85_POWERS
    if (groups >= 1 << 32).any():
        raise _Skip("an ASCII85 group past 32 bits")
    out = groups.astype(">u4").tobytes()
    return out[:len(out) - pad]


def _with_table(data: bytes, parts: list[bytes], last: int, moved: dict[int, int]) -> bytes:
    """The file's parts, its rest up to its cross-reference table, a table of the objects' new
    places (one subsection, every number up to the highest, the others free) and its trailer."""
    tail = data.rfind(b"startxref")
    xref = data.rfind(b"xref", 0, tail)
    trailer = data.find(b"trailer", xref)
    if xref < last or trailer < 0:
        raise Unsupported("not one cross-reference table at the end")
    head = b"".join(parts) + data[last:xref]
    size = max(moved) + 1
    rows = [b"%010d 00000 n \n" % moved[i] if i in moved else b"0000000000 65535 f \n" for i in range(1, size)]
    return b"".join([head, b"xref\n0 %d\n0000000000 65535 f \n" % size, *rows, data[trailer:tail],
                     b"startxref\n%d\n%%%%EOF\n" % len(head)])
