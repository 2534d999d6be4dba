"""A PNG page is made when something is drawn on it: in the colour of a first rectangle that covers
it (a face's background with its bleed), which then needs no drawing, else white (render/png.py
`_open_page`). Each page has the pixels Pillow alone gives for the same drawing: the page made white
and the rectangle drawn over it. Read back with Pillow."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from generator.geometry import MM_PER_INCH, Box
from generator.render import open_surface

S = 300 / MM_PER_INCH  # px per mm at 300 dpi
W, H = 69.0, 94.0  # a poker card with 3 mm bleed


def ours(first: Box | None, fill: str, stroke: str | None = None) -> Image.Image:
    s = open_surface("png", dpi=300)
    s.begin_page(W, H)
    if first is not None:
        s.rect(first, fill=fill, stroke=stroke, width=0.5)
    s.circle(34.5, 47, 10, fill="#1a1a1a")
    s.end_page()
    return Image.open(io.BytesIO(s.png_bytes(0))).convert("RGB")


def pillow_alone(first: Box | None, fill: str, stroke: str | None = None) -> Image.Image:
    img = Image.new("RGB", (round(W * S), round(H * S)), "white")
    d = ImageDraw.Draw(img)
    if first is not None:
        d.rectangle([round(first.x * S), round(first.y * S), round(first.right * S) - 1, round(first.bottom * S) - 1],
                    fill=fill, outline=stroke, width=max(1, round(0.5 * S)) if stroke else 0)
    r = 10 * S
    d.ellipse([34.5 * S - r, 47 * S - r, 34.5 * S + r, 47 * S + r], fill="#1a1a1a")
    return img


@pytest.mark.parametrize("first, fill, stroke", [
    (Box(0, 0, W, H), "#f6f0e0", None),            # covers the page: the page is made in its colour
    (Box(-1, -1, W + 2, H + 2), "#2C2A3A", None),  # larger than the page
    (Box(0, 0, W, H), "#f6f0e0", "#553322"),       # with a stroke: drawn over white
    (Box(0.5, 0, W - 0.5, H), "#f6f0e0", None),    # short of the left edge: drawn over white
    (Box(0, 0, W, H), "#abc", None),               # another way of writing a colour: drawn over white
    (None, "", None),                              # nothing but the disc: white around it
])
def test_a_page_has_the_pixels_of_its_drawing_over_white(first, fill, stroke):
    got, want = ours(first, fill, stroke), pillow_alone(first, fill, stroke)
    assert got.size == want.size == (round(W * S), round(H * S))
    assert got.tobytes() == want.tobytes()
    corner = got.getpixel((0, 0))
    if first is None or first.x > 0:
        assert corner == (255, 255, 255)
    else:
        assert corner == Image.new("RGB", (1, 1), stroke or fill).getpixel((0, 0))
    assert got.getpixel((round(34.5 * S), round(47 * S))) == (0x1a, 0x1a, 0x1a)


def test_a_page_with_nothing_drawn_is_white():
    s = open_surface("png", dpi=100)
    s.begin_page(10, 20)
    s.end_page()
    img = Image.open(io.BytesIO(s.png_bytes(0))).convert("RGB")
    assert img.size == (round(10 * 100 / MM_PER_INCH), round(20 * 100 / MM_PER_INCH))
    assert img.getcolors() == [(img.size[0] * img.size[1], (255, 255, 255))]


def test_wide_polygon_outlines_have_pillows_pixels_and_one_mask_for_equal_polygons(monkeypatch):
    """A polygon's outline wider than a pixel is drawn through a mask of the polygon filled, as
    ImageDraw.polygon draws it (so the outline does not spread outwards): the same pixels as
    ImageDraw.polygon, and the mask is made once for equal polygons on equal pages (a card's
    rounded border on each face of a deck)."""
    from generator.render import png as png_backend
    from generator.render.base import rounded_rect_points

    made: list[str] = []
    ours = 0  # masks made while our surface drew
    new = Image.new

    def counting(mode, size, *args, **kwargs):
        made.append(mode)
        return new(mode, size, *args, **kwargs)

    from generator.render import pillowfast

    assert pillowfast.internals_agree()  # (tried once, before masks are counted) on the locked Pillow
    pillowfast._inside.cache_clear()
    monkeypatch.setattr(Image, "new", counting)
    cases = [(Box(7, 7, 55, 80), 3.0, "#2b2440", "#c9a227", 0.7), (Box(7, 7, 55, 80), 3.0, None, "#c9a227", 0.7),
             (Box(2.3, 2.3, 14.3, 14.3), 1.0, "#f2f2ee", "#1a1a1a", 0.25), (Box(7, 7, 55, 80), 3.0, "#c9a227", "#c9a227", 0.7)]
    for box, radius, fill, stroke, width in cases * 2:
        pts = rounded_rect_points(box, radius)
        s = open_surface("png", dpi=300)
        s.begin_page(W, H)
        before = made.count("1")
        s.polygon(pts, fill=fill, stroke=stroke, width=width)
        ours += made.count("1") - before
        s.end_page()
        got = Image.open(io.BytesIO(s.png_bytes(0))).convert("RGB")
        want = new("RGB", (round(W * S), round(H * S)), "white")
        ImageDraw.Draw(want).polygon([(x * S, y * S) for x, y in pts], fill=fill, outline=stroke,
                                     width=max(1, round(width * S)))
        assert got.tobytes() == want.tobytes(), (box, fill, stroke)
    assert ours == 2  # one mask each for the two polygons with an outline of its own (ImageDraw: 6)


def test_a_pillow_without_the_internals_gets_the_public_calls_and_the_same_pixels(monkeypatch):
    """pyproject admits any Pillow from 10, whose internals differ from the locked one's: where
    `ImageDraw._getink` or the core's `draw_polygon` signature is not what pillowfast.py calls, the
    wide outline and the plain tile are drawn by the public calls, with the same pixels, and no
    error reaches the build (here: a core whose draw_polygon takes no mask)."""
    from generator.render import pillowfast
    from generator.render.base import rounded_rect_points

    pts = rounded_rect_points(Box(7, 7, 55, 80), 3.0)
    want = Image.new("RGB", (round(W * S), round(H * S)), "white")
    ImageDraw.Draw(want).polygon([(x * S, y * S) for x, y in pts], fill="#2b2440", outline="#c9a227",
                                 width=max(1, round(0.7 * S)))
    def older(*args: object) -> None:  # the core's draw_polygon of a Pillow with another signature
        raise TypeError("function takes at most 4 arguments (5 given)")

    monkeypatch.setattr(pillowfast, "wide_outline", older)
    pillowfast.internals_agree.cache_clear()
    try:
        assert not pillowfast.internals_agree()
        s = open_surface("png", dpi=300)
        s.begin_page(W, H)
        s.polygon(pts, fill="#2b2440", stroke="#c9a227", width=0.7)
        s.end_page()
        got = Image.open(io.BytesIO(s.png_bytes(0))).convert("RGB")
        assert got.tobytes() == want.tobytes()
    finally:
        pillowfast.internals_agree.cache_clear()


def test_a_page_covered_twice_is_made_in_the_second_colour_with_no_rectangle_drawn(monkeypatch):
    """A counter's face: its background with the bleed, then its side's colour over all of it. The
    page is made in the second colour and neither rectangle is drawn: the same pixels as both
    drawn over white by Pillow."""
    drawn: list[object] = []
    rectangle = ImageDraw.ImageDraw.rectangle
    monkeypatch.setattr(ImageDraw.ImageDraw, "rectangle", lambda self, *a, **k: drawn.append(a) or rectangle(self, *a, **k))
    s = open_surface("png", dpi=300)
    s.begin_page(W, H)
    s.rect(Box(0, 0, W, H), fill="#4a3434")
    s.rect(Box(-1, 0, W + 1, H), fill="#5a2a4a")
    assert drawn == []
    s.rect(Box(2, 2, 11.5, 11.5), fill="#ffffff")
    s.end_page()
    got = Image.open(io.BytesIO(s.png_bytes(0))).convert("RGB")
    want = Image.new("RGB", (round(W * S), round(H * S)), "white")
    d = ImageDraw.Draw(want)
    for box, fill in [(Box(0, 0, W, H), "#4a3434"), (Box(-1, 0, W + 1, H), "#5a2a4a"), (Box(2, 2, 11.5, 11.5), "#ffffff")]:
        d.rectangle([round(box.x * S), round(box.y * S), round(box.right * S) - 1, round(box.bottom * S) - 1], fill=fill)
    assert got.tobytes() == want.tobytes()
    assert len(drawn) == 4  # the small square on our page, then the three on Pillow's


def test_a_big_pages_outline_masks_are_not_kept():
    """A map's page (millions of pixels, a byte each in a mask) draws many different hexes: their
    outlines' masks are made and let go, not kept (8 of them held 31 MB through the build); a
    face-sized page's are kept, with the same pixels either way."""
    from generator.render import pillowfast
    from generator.render.base import rounded_rect_points

    assert pillowfast.internals_agree()
    for w_mm, h_mm, kept in ((W, H, 1), (400.0, 300.0, 0)):  # a card's face; a map at 300 dpi
        pillowfast._inside.cache_clear()
        pts = rounded_rect_points(Box(7, 7, 40, 60), 3.0)
        s = open_surface("png", dpi=300)
        s.begin_page(w_mm, h_mm)
        s.polygon(pts, fill="#2b2440", stroke="#c9a227", width=0.7)
        s.end_page()
        assert pillowfast._inside.cache_info().currsize == kept, (w_mm, h_mm)
        got = Image.open(io.BytesIO(s.png_bytes(0))).convert("RGB")
        want = Image.new("RGB", got.size, "white")
        ImageDraw.Draw(want).polygon([(x * S, y * S) for x, y in pts], fill="#2b2440", outline="#c9a227",
                                     width=max(1, round(0.7 * S)))
        assert got.tobytes() == want.tobytes()


def test_a_rounded_rectangle_in_a_moved_group_has_pillows_pixels():
    """A rounded rectangle's outline in pixels is worked out once for equal rectangles on equal
    pages (png.py `_rounded_px`): drawn at the page's origin and in a group moved by (dx, dy), each
    has the pixels of ImageDraw.polygon through its points at its own place."""
    from generator.render.base import rounded_rect_points

    box = Box(4, 5, 50, 70)
    s = open_surface("png", dpi=300)
    want = []
    for dx, dy in ((0.0, 0.0), (3.25, 1.5), (0.0, 0.0)):
        s.begin_page(W, H)
        with s.group(dx=dx, dy=dy):
            s.rect(box, fill="#2b2440", stroke="#c9a227", width=0.7, radius=3.0)
        s.end_page()
        img = Image.new("RGB", (round(W * S), round(H * S)), "white")
        ImageDraw.Draw(img).polygon([((x + dx) * S, (y + dy) * S) for x, y in rounded_rect_points(box, 3.0)],
                                    fill="#2b2440", outline="#c9a227", width=max(1, round(0.7 * S)))
        want.append(img.tobytes())
    got = [Image.open(io.BytesIO(s.png_bytes(i))).convert("RGB").tobytes() for i in range(3)]
    assert got == want and want[0] != want[1]
