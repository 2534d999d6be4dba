"""The PNG files of the PNG backend (card, counter and piece faces, map previews), written by hand:
IHDR, pHYs (the dpi), one IDAT, IEND.

Why not Pillow's `save`: at compress_level 1 it spent some 4.4 CPU-s of a cold `build --all` on
the 636 faces, some 3 of them choosing a filter for each row (it tries all five), the rest in
zlib. Here every row gets filter 0 (none): the pages are flat colour with anti-aliased text and
shapes, where the filters gain nothing, and the rows come out of Pillow with their filter byte
already in place (`tobytes` with a stride one byte longer than a row pads each row with a zero,
which is the next row's filter byte). The rows are deflated by libdeflate (`deflate`, level 1):
1.3 CPU-s for the 636 faces, files a quarter smaller than Pillow's. ISA-L was faster still (0.4
CPU-s) but picks its code by the processor, so its bytes could differ between machines (a Dask
worker of another kind); libdeflate's output depends only on the pixels, the dpi and its version.
"""
from __future__ import annotations

import io
import struct
import zlib
from typing import TYPE_CHECKING

import deflate

if TYPE_CHECKING:
    from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # libdeflate's fastest: 1.3 CPU-s and 18.8 MB for the examples' PNGs, level 6 1.9 and 16.9
# Pillow mode -> (PNG colour type, bytes per pixel), 8 bits per sample; other modes go to Pillow.
COLOUR_TYPES = {"L": (0, 1), "LA": (4, 2), "RGB": (2, 3), "RGBA": (6, 4)}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def ppm(dpi: float) -> int:
    """Pixels per metre for `dpi`, rounded as Pillow rounds it, so a file reads back the dpi it did."""
    return int(dpi / 0.0254 + 0.5)


def idat_data(img: Image.Image) -> bytes:
    """The zlib stream of `img`'s rows, each behind filter byte 0."""
    _, bpp = COLOUR_TYPES[img.mode]
    width, height = img.size
    # each row followed by a zero byte: the filter byte of the row after it (the last one is dropped)
    rows = img.tobytes("raw", img.mode, width * bpp + 1)
    return bytes(deflate.zlib_compress(b"\0" + rows[:-1], LEVEL))


def png_bytes(img: Image.Image, dpi: float | None = None) -> bytes:
    """`img` as a PNG file, with `dpi` in a pHYs chunk when given. Modes other than L, LA, RGB and RGBA (which the backend does not draw in)
    and empty images are written by Pillow, as before."""
    if img.mode not in COLOUR_TYPES or 0 in img.size:
        buf = io.BytesIO()
        img.save(buf, format="PNG", compress_level=1, **({"dpi": (dpi, dpi)} if dpi else {}))
        return buf.getvalue()
    colour_type, _ = COLOUR_TYPES[img.mode]
    parts = [SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", *img.size, 8, colour_type, 0, 0, 0))]
    if dpi:
        parts.append(_chunk(b"pHYs", struct.pack(">IIB", ppm(dpi), ppm(dpi), 1)))
    parts += [_chunk(b"IDAT", idat_data(img)), _chunk(b"IEND", b"")]
    return b"".join(parts)
