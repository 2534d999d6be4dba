"""Encode the pages of a build's PNGs again, with Pillow's `save` at compress_level 1 (the PNG
backend's writer before issue 26's change) and with generator/render/pngwrite.py, alternating,
and print each one's CPU seconds and total size; each page is decoded from the new bytes and
compared with the old (mode, size, dpi, every pixel). With `--against DIR`, also the pngwrite.py
of another checkout (e.g. main's), in the same rounds, and its bytes compared with this one's.

    python3 bench/bench_png.py BUILD_FOLDER [--rounds 2] [--against DIR]

BUILD_FOLDER: the output of `pnp build --all` (any version: only the decoded pixels are used;
files with equal bytes are encoded once, as a build does).
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import io
import sys
import time
from pathlib import Path
from typing import Callable

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.render.pngwrite import png_bytes  # noqa: E402


def pillow(img: Image.Image, dpi: int) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", dpi=(dpi, dpi), compress_level=1)
    return buf.getvalue()


def other_writer(checkout: Path) -> Callable[[Image.Image, int], bytes]:
    """`png_bytes` of the pngwrite.py in another checkout."""
    spec = importlib.util.spec_from_file_location("other_pngwrite", checkout / "generator/render/pngwrite.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.png_bytes


def pages(folder: Path) -> list[tuple[Image.Image, int]]:
    seen: set[bytes] = set()
    out: list[tuple[Image.Image, int]] = []
    for path in sorted(folder.rglob("*.png")):
        data = path.read_bytes()
        if hashlib.sha256(data).digest() in seen:
            continue
        seen.add(hashlib.sha256(data).digest())
        img = Image.open(io.BytesIO(data))
        img.load()
        out.append((img, round(img.info.get("dpi", (300, 300))[0])))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--against", type=Path, help="another checkout whose pngwrite.py to time beside")
    a = ap.parse_args()
    todo = pages(a.folder)
    new: list[bytes] = []
    writers: list[tuple[str, Callable[[Image.Image, int], bytes]]] = [("Pillow save, level 1", pillow), ("pngwrite", png_bytes)]
    if a.against:
        writers.append(("pngwrite --against", other_writer(a.against)))
    print(f"{len(todo)} distinct pages, {sum(i.width * i.height for i, _ in todo) / 1e6:.0f} M pixels")
    for _ in range(a.rounds):
        for name, write in writers:
            t = time.process_time()
            written = [write(img, dpi) for img, dpi in todo]
            t = time.process_time() - t
            print(f"{name:22} {t:6.2f} CPU-s  {sum(map(len, written)) / 1e6:7.2f} MB", flush=True)
            if write is png_bytes:
                new = written
            elif write is not pillow:
                assert written == new, "the other checkout's pngwrite writes other bytes"
    for (img, dpi), data in zip(todo, new):
        back = Image.open(io.BytesIO(data))
        want = Image.open(io.BytesIO(pillow(img, dpi)))
        assert (back.mode, back.size, back.info) == (want.mode, want.size, want.info)
        assert back.tobytes() == img.tobytes()
    print("every page decodes to the same mode, size, dpi and pixels" + (
        f"; {a.against}'s pngwrite wrote the same bytes" if a.against else ""))


if __name__ == "__main__":
    main()
