"""A symbol drawn into many PNGs (a deck's PNG per card) is rendered once per process and shared:
each image is pixel for pixel what it is when the symbol is rendered afresh, a symbol defined
with another drawing function, or placed at another scale, gets a tile of its own, and the tiles
go when their drawing function does.
Images are read back with Pillow."""
from __future__ import annotations

import gc
import io

from PIL import Image

from generator.geometry import Box
from generator.render import png as png_backend
from generator.render import open_surface


def star(t) -> None:
    t.polygon([(5, 0.3), (9.7, 3.7), (7.9, 9.4), (2.1, 9.4), (0.3, 3.7)], fill="#c9a227", stroke="#1a1a1a", width=0.4)


RENDERS: list[str] = []  # each time a symbol's drawing function runs


def counted(name: str, draw):
    def run(t) -> None:
        RENDERS.append(name)
        draw(t)
    return run


def card(draw, scale: float = 1.0) -> tuple[bytes, int]:
    """A 30 x 20 mm PNG at 300 dpi with the symbol placed twice: its bytes and how often a
    symbol was rendered for it."""
    before = len(RENDERS)
    s = open_surface("png", dpi=300)
    s.begin_page(30, 20)
    s.rect(Box(0, 0, 30, 20), fill="#f2f2ee")
    s.define_symbol("star", 10, 10, draw)
    s.use_symbol("star", 2, 2, scale=scale)
    s.use_symbol("star", 16, 4, scale=scale)
    s.end_page()
    return s.png_bytes(0), len(RENDERS) - before


def test_a_symbol_is_rendered_once_for_many_images_with_the_same_pixels():
    png_backend._TILES.clear()
    draw = counted("star", star)  # one drawing function per symbol, as generator/cards/face.py keeps them
    first, renders_first = card(draw)
    second, renders_second = card(draw)
    assert (renders_first, renders_second) == (1, 0) and first == second
    png_backend._TILES.clear()  # afresh: the same pixels
    fresh, renders_fresh = card(draw)
    assert renders_fresh == 1 and fresh == first
    img = Image.open(io.BytesIO(first)).convert("RGB")
    assert img.size == (354, 236)  # 30 x 20 mm at 300 dpi
    centre = round(7 * 300 / 25.4)  # the first star's middle, 7 mm from the corner
    assert img.getpixel((centre, centre)) == (0xc9, 0xa2, 0x27)
    # the tiles go with the drawing function (a deck's drawer done): a long process keeps none
    assert len(png_backend._TILES) == 1
    del draw
    gc.collect()
    assert len(png_backend._TILES) == 0


def test_another_scale_or_drawing_function_gets_its_own_tile():
    png_backend._TILES.clear()
    draw = counted("star", star)
    small, renders_small = card(draw, scale=0.5)
    large, renders_large = card(draw, scale=1.0)
    assert (renders_small, renders_large) == (1, 1) and small != large

    def red_star(t) -> None:
        t.polygon([(5, 0.3), (9.7, 3.7), (7.9, 9.4), (2.1, 9.4), (0.3, 3.7)], fill="#b8432f")
    red, renders_red = card(counted("star", red_star))  # same name, another function: not the gold tile
    assert renders_red == 1
    img = Image.open(io.BytesIO(red)).convert("RGB")
    centre = round(7 * 300 / 25.4)
    assert img.getpixel((centre, centre)) == (0xb8, 0x43, 0x2f)


def test_equal_symbol_drawings_from_two_drawers_share_one_tile(monkeypatch):
    """A face drawer hands the backends a `SymbolDrawing` (cards/symbols.py): the symbol's shapes
    with their colours resolved. Two drawers (another language, another build unit) make equal
    drawings and get one object, so the second image pastes the first one's tile: the same pixels,
    one render, even after the first drawer is gone. Another colour is another drawing, with its
    own tile in its own colour; a drawing no drawer uses leaves once `KEEP` newer ones were made."""
    from solver.game.layouts import Symbol
    from generator.cards import symbols
    from generator.cards.symbols import SymbolDrawing

    renders: list[float] = []
    render_tile = png_backend.PngSurface._render_tile

    def counting(self, w, h, draw, scale):
        renders.append(scale)
        return render_tile(self, w, h, draw, scale)

    monkeypatch.setattr(png_backend.PngSurface, "_render_tile", counting)
    png_backend._TILES.clear()
    symbols._RECENT.clear()
    sym = Symbol.model_validate({"id": "star", "size": [10, 10], "shapes": [
        {"kind": "polygon", "points": [[5, 0.3], [9.7, 3.7], [7.9, 9.4], [2.1, 9.4], [0.3, 3.7]],
         "fill": "current", "stroke": "ink", "width": 0.4}]})
    named = {"ink": "#1a1a1a"}.get
    first, _ = card(SymbolDrawing.of(sym, "#c9a227", named))  # the first drawer's, not kept by the test
    gc.collect()
    assert len(renders) == 1
    second, _ = card(SymbolDrawing.of(sym, "#c9a227", named))  # the next unit's drawer
    assert len(renders) == 1 and second == first
    png_backend._TILES.clear()
    fresh, _ = card(SymbolDrawing.of(sym, "#c9a227", named))  # rendered afresh: the same pixels
    assert len(renders) == 2 and fresh == first
    red, _ = card(SymbolDrawing.of(sym, "#b8432f", named))
    assert len(renders) == 3
    centre = round(7 * 300 / 25.4)
    assert Image.open(io.BytesIO(first)).convert("RGB").getpixel((centre, centre)) == (0xc9, 0xa2, 0x27)
    assert Image.open(io.BytesIO(red)).convert("RGB").getpixel((centre, centre)) == (0xb8, 0x43, 0x2f)
    # a long process: drawings nobody holds leave with their tiles once KEEP newer ones were made
    for i in range(symbols.KEEP):
        SymbolDrawing.of(sym, f"#{i:06x}", named)
    gc.collect()
    assert len(symbols._RECENT) == symbols.KEEP and len(png_backend._TILES) == 0


def bar(t) -> None:
    """A black bar a quarter of a pixel wide at 254 dpi (10 px/mm; the tile is drawn at 40 px/mm):
    the tile's column 1.0-1.025 mm, all of its height."""
    t.rect(Box(1.0, 0, 0.025, 2), fill="#000000")


def test_a_tile_pixel_is_the_share_of_it_a_shape_covers():
    """Supersampling shrunk by the box average: a shape covering a quarter of a pixel gives that
    pixel a quarter of the shape's opacity and its neighbours none (a LANCZOS shrink spreads it
    over the neighbours and gives the pixel itself less)."""
    png_backend._TILES.clear()
    s = open_surface("png", dpi=254)
    s.begin_page(4, 2)
    s.rect(Box(0, 0, 4, 2), fill="#ffffff")
    s.define_symbol("bar", 2, 2, bar)
    s.use_symbol("bar", 1, 0)  # the bar at 2.0 mm: page column 20
    s.end_page()
    img = Image.open(io.BytesIO(s.png_bytes(0))).convert("L")
    assert img.size == (40, 20)
    row = [img.getpixel((x, 10)) for x in range(40)]
    assert abs(row[20] - (255 - 255 / 4)) <= 1, row[16:25]  # white under a quarter of black
    assert row[:20] == [255] * 20 and row[21:] == [255] * 19, row[16:25]


def placed(shrunk, size: tuple[int, int]) -> Image.Image:
    """A shrunk tile (`_shrink`: a part and its place, or None) as the whole tile."""
    tile = Image.new("RGBA", size, (0, 0, 0, 0))
    if shrunk is not None:
        tile.paste(shrunk[0], shrunk[1])
    return tile


def test_a_tile_shrunk_around_its_drawing_equals_the_whole_tile_shrunk():
    """`_shrink` reduces only the blocks around what was drawn: the same pixels as Pillow's
    `reduce` of the whole tile, shapes at any offset from the blocks' grid and at the edges."""
    from PIL import ImageDraw

    for box in [(5, 7, 30, 13), (0, 0, 3, 2), (61, 70, 64, 80), (13, 1, 14, 79)]:
        big = Image.new("RGBA", (64, 80), (0, 0, 0, 0))
        ImageDraw.Draw(big).ellipse(box, fill=(200, 30, 90, 255))
        ImageDraw.Draw(big).line([(box[0], box[3]), (box[2], box[1])], fill=(10, 120, 250, 180))
        assert placed(png_backend._shrink(big), (16, 20)).tobytes() == big.reduce(4).tobytes(), box
    empty = Image.new("RGBA", (64, 80), (0, 0, 0, 0))
    assert png_backend._shrink(empty) is None


def test_a_tile_of_opaque_shapes_is_averaged_without_premultiplying(monkeypatch):
    """A tile drawn by shapes in opaque colours only is its own premultiplied form: it is shrunk
    without Pillow's premultiplied copy (`Image.reduce` is not asked), to the pixels Pillow's
    `reduce` gives. A shape in a colour with transparency, text or a nested symbol makes the
    tile shrink the usual way, to Pillow's pixels too."""
    from generator.render.png import PngSurface

    def drawn(draw) -> Image.Image:
        sub = PngSurface(dpi=round(300 * 4 * png_backend.SUPERSAMPLE))
        sub._canvas(Image.new("RGBA", (32 * 4, 40 * 4), (0, 0, 0, 0)))
        sub._plain = True
        draw(sub)
        return sub

    def opaque(t) -> None:
        t.circle(1.1, 1.3, 0.7, fill="#c9a227", stroke="#1a1a1a", width=0.1)
        t.polygon([(0.3, 0.2), (2.4, 0.9), (1.0, 3.1)], fill="#2456a8", stroke="#ffffff", width=0.05)
        t.polyline([(0.1, 3.3), (2.6, 0.1)], stroke="#7d4fa8", width=0.07)
        t.rect(Box(1.6, 2.2, 0.9, 0.6), fill="#1e8558", radius=0.2)

    def veiled(t) -> None:  # a transparent stroke with a colour under it: not its own premultiplied form
        opaque(t)
        t.polyline([(0.1, 0.1), (2.6, 3.3)], stroke="#ff000000", width=0.1)
        t.rect(Box(0.2, 2.0, 0.8, 0.5), fill="#00ff0080")

    def lettered(t) -> None:
        opaque(t)
        t.text(0.3, 2.5, "Ag", size_pt=5)

    asked: list[str] = []
    reduce = Image.Image.reduce

    def counting(self, factor, box=None):
        asked.append(self.mode)
        return reduce(self, factor, box)

    monkeypatch.setattr(Image.Image, "reduce", counting)
    for draw, plain in [(opaque, True), (veiled, False), (lettered, False)]:
        sub = drawn(draw)
        assert sub._plain is plain, draw.__name__
        want = reduce(sub.img, 4).tobytes()
        asked.clear()
        assert placed(png_backend._shrink(sub.img, sub._plain), (32, 40)).tobytes() == want, draw.__name__
        assert asked[:1] == ([] if plain else ["RGBA"]), draw.__name__
    # the veiled tile averaged as it is would be wrong: the guard is needed
    sub = drawn(veiled)
    assert placed(png_backend._shrink(sub.img, True), (32, 40)).tobytes() != reduce(sub.img, 4).tobytes()
