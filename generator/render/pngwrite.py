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

import deflate
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
    return bytes(deflate.zlib_compress(filtered_rows(img), LEVEL))


# the encoder's pieces (bytes, whole rows): few calls, and no second copy of a big page held at once
PIECE = 1 << 20


def filtered_rows(img: Image.Image) -> bytes:
    """`img`'s rows, each behind filter byte 0: what `tobytes` with a stride one byte longer than
    a row gives (each row followed by a zero byte, the filter byte of the row after it), behind
    one zero byte and without the last. The encoder is asked for pieces of whole rows of about
    PIECE bytes, joined behind the first filter byte in one copy: `tobytes` asks for 64 KB at a
    time and joins the pieces itself, and putting the byte in front and dropping the last made
    two more copies of the page (0.17 of 1.74 CPU-s for the examples' 636 faces); 64 KB pieces
    cost 17470 calls and some 10 % more (0.060 against 0.052 CPU-s for a third of the faces). A
    whole page in one piece cost no less than 1 MB pieces (0.051-0.066 against 0.055-0.073) and
    held a second copy of the largest page at once: a cold build's peak 301 against 290 MB."""
    _, bpp = COLOUR_TYPES[img.mode]
    stride = img.width * bpp + 1
    img.load()
    # Pillow's raw encoder, as `tobytes` drives it (Pillow is pinned: requirements.lock)
    encoder = Image._getencoder(img.mode, "raw", (img.mode, stride))
    pieces: list[bytes | memoryview] = [b"\0"]
    try:
        encoder.setimage(img.im, (0, 0, *img.size))
        bufsize = max(stride, min(stride * img.height, PIECE))  # it writes whole rows only
        while True:
            _, status, data = encoder.encode(bufsize)
            pieces.append(data)
            if status:
                break
    finally:
        encoder.cleanup()
    if status < 0:
        raise RuntimeError(f"encoder error {status} writing a PNG's rows")
    while not pieces[-1]:
        pieces.pop()
    pieces[-1] = memoryview(pieces[-1])[:-1]  # the zero behind the last row, cut without a copy
    return b"".join(pieces)


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
