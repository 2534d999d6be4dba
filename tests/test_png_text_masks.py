"""A string drawn into many PNGs (a deck's name on each of its cards) is rendered once per face,
size and sub-pixel position and its rendering kept (render/png.py `_Face`): every image is pixel for
pixel what Pillow draws with a face of its own opened afresh, the same string at another sub-pixel
position or size is rendered anew, and no more than KEEP_MASKS renderings are kept.
Images are read back with Pillow; the oracle is Pillow's ImageDraw with ImageFont.truetype."""
from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from generator import fonts
from generator.geometry import MM_PER_INCH, PT_PER_MM, Box
from generator.render import open_surface
from generator.render import png as png_backend

DPI = 300
S = DPI / MM_PER_INCH  # px per mm
LINES = [(3.0, 6.0, "Gem cards"), (3.0, 12.0, "宝石カード"), (3.07, 18.0, "Gem cards")]  # the third: another x


def ours(size_pt: float = 9.0) -> Image.Image:
    s = open_surface("png", dpi=DPI)
    s.begin_page(40, 22)
    s.rect(Box(0, 0, 40, 22), fill="#2c2a3a")
    for x, y, text in LINES:
        s.text(x, y, text, size_pt=size_pt, colour="#ffffff")
    s.end_page()
    return Image.open(io.BytesIO(s.png_bytes(0))).convert("RGB")


def pillow_alone(size_pt: float = 9.0) -> Image.Image:
    """The same page drawn with Pillow only: a face opened afresh for every string."""
    img = Image.new("RGB", (round(40 * S), round(22 * S)), "white")
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, round(40 * S) - 1, round(22 * S) - 1], fill="#2c2a3a")
    px = max(1, round(size_pt / PT_PER_MM * S))
    for x, y, text in LINES:
        face = ImageFont.truetype(str(fonts.font_file(fonts.register())), px)
        d.text((x * S, y * S), text, font=face, fill="#ffffff", anchor="ls")
    return img


def test_kept_renderings_give_the_pixels_of_a_fresh_rendering():
    png_backend._MASKS.clear()
    first = ours()
    kept_after_first = len(png_backend._MASKS)
    second = ours()  # every string's rendering now comes from the kept ones
    assert kept_after_first == 3  # "Gem cards" at two sub-pixel positions is two renderings
    assert len(png_backend._MASKS) == 3
    oracle = pillow_alone()
    assert first.tobytes() == oracle.tobytes() and second.tobytes() == oracle.tobytes()
    # the text is there: white pixels on the dark band along the first line's baseline
    row = [second.getpixel((x, round(6 * S) - 5)) for x in range(round(3 * S), round(20 * S))]
    assert sum(1 for p in row if p[0] > 200) > 10


def test_another_size_is_rendered_anew_and_the_kept_renderings_are_bounded(monkeypatch):
    png_backend._MASKS.clear()
    nine, ten = ours(9.0), ours(10.0)
    assert len(png_backend._MASKS) == 6 and nine.tobytes() != ten.tobytes()
    assert ten.tobytes() == pillow_alone(10.0).tobytes()
    monkeypatch.setattr(png_backend, "KEEP_MASKS", 2)
    ours(11.0)
    assert len(png_backend._MASKS) == 2
    assert ours(11.0).tobytes() == pillow_alone(11.0).tobytes()  # with some kept and some evicted


def test_a_line_is_painted_from_its_mask_without_imagedraw_text(monkeypatch):
    """A line of text is painted from its mask by pillowfast.paint_text, the calls ImageDraw.text
    makes for one line, without ImageDraw.text itself: the pixels of Pillow alone, and none of its
    calls. A string with a newline, which ImageDraw.text sets as two lines, still goes to it."""
    from generator.render import pillowfast

    png_backend._MASKS.clear()
    oracle = pillow_alone()
    assert pillowfast.text_agrees()  # tried once, on the locked Pillow
    calls: list[str] = []
    public = ImageDraw.ImageDraw.text

    def counted(self, xy, text, *args, **kwargs):
        calls.append(text)
        return public(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", counted)
    assert ours().tobytes() == oracle.tobytes()
    assert calls == []
    s = open_surface("png", dpi=DPI)
    s.begin_page(40, 22)
    s.text(3.0, 6.0, "two\nlines", size_pt=9.0)
    s.end_page()
    assert calls == ["two\nlines"]


def test_a_pillow_whose_internals_differ_gets_imagedraw_text(monkeypatch):
    """Where paint_text does not paint what ImageDraw.text paints (another Pillow's internals:
    here a core draw_bitmap that paints nothing), text_agrees says so and ImageDraw.text draws,
    with Pillow's pixels."""
    from generator.render import pillowfast

    class Nothing:  # the core draw object of a Pillow whose draw_bitmap paints nothing
        def draw_bitmap(self, *args: object) -> None:
            pass

    real = pillowfast.paint_text

    def other(draw, *args, **kwargs):
        core, draw.draw = draw.draw, Nothing()
        try:
            real(draw, *args, **kwargs)
        finally:
            draw.draw = core

    png_backend._MASKS.clear()
    monkeypatch.setattr(pillowfast, "paint_text", other)
    monkeypatch.setattr(png_backend, "paint_text", other)
    pillowfast.text_agrees.cache_clear()
    try:
        assert not pillowfast.text_agrees()
        assert ours().tobytes() == pillow_alone().tobytes()
    finally:
        pillowfast.text_agrees.cache_clear()


def test_a_request_that_cannot_be_kept_is_rendered_with_no_kept_renderings_yet():
    """A request with an unhashable argument (a list of features, as some Pillow releases pass
    one) is rendered and not kept, also when nothing is kept yet: the mask is Pillow's own."""
    png_backend._MASKS.clear()
    font = fonts.register()
    ours_face = png_backend.pil_font(40, font)
    mask, offset = ours_face.getmask2("Gem", "L", features=["kern"])
    fresh = ImageFont.truetype(str(fonts.font_file(font)), 40)
    theirs, their_offset = fresh.getmask2("Gem", "L", features=["kern"])
    assert (mask.size, offset) == (theirs.size, their_offset)
    assert bytes(mask) == bytes(theirs)
    assert png_backend._MASKS == {}
