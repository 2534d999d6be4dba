"""The PNG backend's files are written by generator/render/pngwrite.py (issue 26) instead of
Pillow's `save`: other bytes, the same pixels. Each file is read back by Pillow and by a small
decoder here (chunk CRCs with zlib.crc32, the zlib stream inflated, filters 0-2 undone with
numpy), and a small game's PNGs are compared with those Pillow's `save` writes for the same pages."""
from __future__ import annotations

import io
import shutil
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from generator.render import png as png_backend
from generator.render.pngwrite import png_bytes

FIXTURE = Path(__file__).parent / "fixtures" / "cards-with-images"
BANDS = {0: 1, 2: 3, 4: 2, 6: 4}  # PNG colour type -> samples per pixel


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The file's chunks, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, i = [], 8
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + n]
        assert struct.unpack(">I", data[i + 8 + n:i + 12 + n])[0] == zlib.crc32(kind + body), kind
        out.append((kind, body))
        i += 12 + n
    assert out[0][0] == b"IHDR" and out[-1] == (b"IEND", b"") and i == len(data)
    return out


def decode(data: bytes) -> np.ndarray:
    """The pixels as an (h, w, samples) array; only 8-bit files with filters none, sub and up."""
    parts = chunks(data)
    w, h, bits, colour, _, _, interlace = struct.unpack(">IIBBBBB", parts[0][1])
    assert bits == 8 and interlace == 0
    bpp = BANDS[colour]
    raw = np.frombuffer(zlib.decompress(b"".join(b for k, b in parts if k == b"IDAT")), np.uint8)
    raw = raw.reshape(h, w * bpp + 1)
    rows, prev = raw[:, 1:].copy(), np.zeros(w * bpp, np.uint8)
    for y in range(h):
        kind = raw[y, 0]
        if kind == 1:
            rows[y] = np.cumsum(rows[y].reshape(w, bpp), axis=0, dtype=np.uint8).reshape(-1)
        elif kind == 2:
            rows[y] = rows[y] + prev
        else:
            assert kind == 0, f"row {y}: filter {kind} (not decoded here)"
        prev = rows[y]
    return rows.reshape(h, w, bpp)


def noise(mode: str, size: tuple[int, int], seed: int) -> Image.Image:
    bands = len(mode)
    data = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], bands), dtype=np.uint8)
    data[: size[1] // 2] //= 64  # half of it in few values, as a page's flat colours
    return Image.frombytes(mode, size, data.tobytes())


def pillow_png(img: Image.Image, dpi: int | None) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1, **({"dpi": (dpi, dpi)} if dpi else {}))
    return buf.getvalue()


@pytest.mark.parametrize("mode", ["L", "LA", "RGB", "RGBA"])
@pytest.mark.parametrize("size", [(1, 1), (3, 2), (37, 5), (220, 301)])
def test_a_page_reads_back_with_its_pixels_and_dpi(mode, size):
    img = noise(mode, size, seed=size[0] * 7 + len(mode))
    data = png_bytes(img, 300)
    back = Image.open(io.BytesIO(data))
    assert (back.mode, back.size) == (mode, size)
    assert back.tobytes() == img.tobytes()
    assert back.info == Image.open(io.BytesIO(pillow_png(img, 300))).info  # the dpi, as Pillow writes it
    Image.open(io.BytesIO(data)).verify()
    assert decode(data).tobytes() == img.tobytes()
    assert png_bytes(img, 300) == data


def test_without_a_dpi_no_phys_chunk():
    img = noise("RGB", (40, 30), seed=3)
    plain = png_bytes(img)
    assert [k for k, _ in chunks(plain)] == [b"IHDR", b"IDAT", b"IEND"]
    assert "dpi" not in Image.open(io.BytesIO(plain)).info
    assert decode(plain).tobytes() == img.tobytes()


def test_other_modes_are_written_by_pillow():
    img = noise("L", (9, 4), seed=5).convert("P")
    back = Image.open(io.BytesIO(png_bytes(img, 300)))
    assert back.mode == "P" and back.tobytes() == img.tobytes() and back.getpalette() == img.getpalette()


def build(game: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    from generator.cli import main
    from generator.render import record

    monkeypatch.setattr(record, "_PNGS", {})  # no face served from an earlier build of this process
    main(["build", str(game), "--only", "cards", "--only", "counters", "--no-preflight", "--out", str(out)])
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.suffix in (".png", ".svg", ".pdf")}


def test_a_small_games_pngs_have_the_pixels_pillow_wrote(tmp_path, monkeypatch):
    game = tmp_path / "elsewhere" / "game"
    shutil.copytree(FIXTURE, game)
    new = build(FIXTURE, tmp_path / "a", monkeypatch)
    assert build(game, tmp_path / "b", monkeypatch) == new  # the same bytes twice, and from another folder
    with monkeypatch.context() as m:  # the pages as Pillow's save wrote them before
        m.setattr(png_backend.PngSurface, "png_bytes",
                  lambda self, page=0: pillow_png(self.pages[page], self.dpi))
        old = build(FIXTURE, tmp_path / "c", monkeypatch)
    assert new.keys() == old.keys() and sum(name.endswith(".png") for name in new) >= 5
    for name, data in new.items():
        if not name.endswith(".png"):
            assert data == old[name], name  # the PDFs and SVGs unchanged
            continue
        was, now = Image.open(io.BytesIO(old[name])), Image.open(io.BytesIO(data))
        assert (now.mode, now.size, now.info) == (was.mode, was.size, was.info), name
        assert now.tobytes() == was.tobytes(), name
        assert decode(data).tobytes() == was.tobytes(), name
        assert [c for c in chunks(data) if c[0] != b"IDAT"] == [c for c in chunks(old[name]) if c[0] != b"IDAT"]
