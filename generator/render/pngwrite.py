"""The PNG files of the PNG backend (card, counter and piece faces, map previews), written by hand:
IHDR, pHYs (the dpi), one IDAT, IEND.

Why not Pillow's `save`: at compress_level 1 it spent some 4.4 CPU-s of a cold `build --all` on
the 636 faces, some 3 of them choosing a filter for each row (it tries all five), the rest in
zlib. Here every row gets filter 0 (none): the pages are flat colour with anti-aliased text and
shapes, where the filters gain nothing, and the rows come out of Pillow with their filter byte
already in place (`tobytes` with a stride one byte longer than a row pads each row with a zero,
which is the next row's filter byte). The rows are deflated by ISA-L (`isal`, level 1), some eight
times faster than zlib at level 1 for files of about the same size; where it is not installed,
by the standard library's zlib (the same pixels, other bytes). Same pixels, same dpi; the bytes
depend on the pixels, the dpi and the deflate library's version, and as ISA-L picks its code by the
processor, perhaps on the kind of processor too (x86-64 with or without SSE4.2, ARM): a build gives
the same bytes on one machine, the same pixels anywhere.
"""
from __future__ import annotations

import io
import struct
import zlib
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

_deflater: ModuleType
try:
    from isal import isal_zlib as _deflater
except ImportError:  # no wheel for this platform: the standard library's zlib, slower
    _deflater = zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # ISA-L's and zlib's fastest matching level; ISA-L's 0 writes files a third larger
# Pillow mode -> (PNG colour type, bytes per pixel), 8 bits per sample; other modes go to Pillow.
COLOUR_TYPES = {"L": (0, 1), "LA": (4, 2), "RGB": (2, 3), "RGBA": (6, 4)}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def ppm(dpi: float) -> int:
    """Pixels per metre for `dpi`, rounded as Pillow rounds it, so a file reads back the dpi it did."""
    return int(dpi / 0.0254 + 0.5)


def idat_data(img: Image.Image, deflater: ModuleType | None = None) -> bytes:
    """The zlib stream of `img`'s rows, each behind filter byte 0."""
    _, bpp = COLOUR_TYPES[img.mode]
    width, height = img.size
    # each row followed by a zero byte: the filter byte of the row after it (the last one is dropped)
    rows = memoryview(img.tobytes("raw", img.mode, width * bpp + 1))
    comp = (deflater or _deflater).compressobj(LEVEL)
    return comp.compress(b"\0") + comp.compress(rows[:-1]) + comp.flush()


def png_bytes(img: Image.Image, dpi: float | None = None, *, deflater: ModuleType | None = None) -> bytes:
    """`img` as a PNG file, with `dpi` in a pHYs chunk when given; `deflater`: a zlib-like module
    (default: ISA-L's). Modes other than L, LA, RGB and RGBA (which the backend does not draw in)
    and empty images are written by Pillow, as before."""
    if img.mode not in COLOUR_TYPES or 0 in img.size:
        buf = io.BytesIO()
        img.save(buf, format="PNG", compress_level=1, **({"dpi": (dpi, dpi)} if dpi else {}))
        return buf.getvalue()
    colour_type, _ = COLOUR_TYPES[img.mode]
    parts = [SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", *img.size, 8, colour_type, 0, 0, 0))]
    if dpi:
        parts.append(_chunk(b"pHYs", struct.pack(">IIB", ppm(dpi), ppm(dpi), 1)))
    parts += [_chunk(b"IDAT", idat_data(img, deflater)), _chunk(b"IEND", b"")]
    return b"".join(parts)
