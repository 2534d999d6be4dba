"""Pieces' PNGs are drawn from a recording of their calls and encoded once per process for equal
recordings (generator/render/record.py, issue 26): a replayed face has the pixels of the face
drawn straight onto a PNG surface, an equal face gets the same bytes without being drawn again,
and another ink mode is not served from the cache."""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops

from generator.cards.symbols import SymbolDrawing
from generator.geometry import Box
from generator.render import open_surface, record
from generator.render.ink import ink_mode
from generator.render.record import Recording, png_once

STAR = SymbolDrawing(shapes=(("polygon", ((0.0, 0.0), (4.0, 0.0), (2.0, 4.0)), 0.0, 0.0, 0.0, None, "#aa2200", None, 0.0),),
                     colour="#aa2200")


def face(s, label: str = "Pippin 2-1-6", fill: str = "#9fc5e8") -> None:
    s.begin_page(18.7, 18.7)
    s.rect(Box(0, 0, 18.7, 18.7), fill=fill)
    s.rect(Box(3, 3, 12.7, 12.7), stroke="#553322", width=0.3, radius=1)
    s.line(3, 9, 15, 9, stroke="#000000", width=0.2, dash=(0.6, 0.9))
    s.circle(9.35, 12, 2, fill="#ffffff", stroke="#000000", width=0.2)
    with s.group(dx=1.0, dy=0.5, clip=Box(3, 3, 6, 6)):
        s.polygon([(3, 3), (9, 3), (6, 9)], fill="#00aa00")
    s.text(9.35, 7, label, size_pt=6, colour="#1a1a1a", align="center")
    if not s.has_symbol("star"):
        s.define_symbol("star", 4, 4, STAR)
    s.use_symbol("star", 11, 11, scale=0.8)
    s.end_page()


def pixels(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def direct(draw=face, **kw) -> Image.Image:
    s = open_surface("png", dpi=300)
    draw(s, **kw)
    return pixels(s.png_bytes(0))


def test_a_replayed_face_has_the_pixels_of_the_face_drawn_straight(tmp_path: Path):
    rec = Recording()
    face(rec)
    [path] = png_once(rec, tmp_path / "a.png", 300)
    got, want = pixels(path.read_bytes()), direct()
    assert got.size == want.size == (round(18.7 / 25.4 * 300), round(18.7 / 25.4 * 300))
    assert round(got.info["dpi"][0]) == 300
    assert ImageChops.difference(got.convert("RGB"), want.convert("RGB")).getbbox() is None
    # the text and the symbol are there: dark pixels, and the star's red
    colours = {c for _, c in got.convert("RGB").getcolors(1 << 20)}
    assert (0xaa, 0x22, 0x00) in colours and min(sum(c) for c in colours) < 100


def test_an_equal_face_gets_the_same_bytes_without_being_drawn_again(tmp_path: Path, monkeypatch):
    record._PNGS.clear()
    drawn = []
    import generator.render as render

    def counting(kind, **kw):
        drawn.append(kind)
        return open_surface(kind, **kw)
    monkeypatch.setattr(render, "open_surface", counting)
    for name in ("front.png", "back.png"):
        rec = Recording()
        face(rec)
        png_once(rec, tmp_path / name, 300)
    assert drawn == ["png"]
    assert (tmp_path / "front.png").read_bytes() == (tmp_path / "back.png").read_bytes()
    other = Recording()
    face(other, label="Merry 2-1-6")
    png_once(other, tmp_path / "merry.png", 300)
    assert drawn == ["png", "png"]
    assert ImageChops.difference(pixels((tmp_path / "merry.png").read_bytes()).convert("RGB"),
                                 direct(label="Merry 2-1-6").convert("RGB")).getbbox() is None


def test_another_ink_mode_is_drawn_in_its_own_ink(tmp_path: Path):
    record._PNGS.clear()
    rec = Recording()
    face(rec, fill="#cc0000")
    png_once(rec, tmp_path / "normal.png", 300)
    with ink_mode("mono"):
        again = Recording()
        face(again, fill="#cc0000")
        png_once(again, tmp_path / "mono.png", 300)
    normal = pixels((tmp_path / "normal.png").read_bytes()).convert("RGB")
    mono = pixels((tmp_path / "mono.png").read_bytes()).convert("RGB")
    assert normal.getpixel((5, 5)) == (0xcc, 0, 0)
    r, g, b = mono.getpixel((5, 5))
    assert r == g == b  # a grey for a greyscale printer
