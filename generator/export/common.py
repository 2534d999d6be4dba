"""What every export target shares: the pieces of each deck, one face as an image of exact
pixel size, deterministic zip files, and a staged folder that replaces the old export only
when the new one is complete.

The pieces come from the card and counter stages (`cards.deck`): the same items, copies and
chosen layouts as `pnp build`; the faces are drawn by the same `FaceDrawer` on the PNG backend.
Every target writes each language `pnp build` writes (`export_languages`: the source language,
then each complete translation; `--lang` narrows), the language in its file names.
"""
from __future__ import annotations

import dataclasses
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.game.base import pick
from solver.game.components import Component, size_mm
from solver.game.loader import Game

from ..cards.deck import (DEFAULT_CARD, DEFAULT_COUNTER, deck_pieces, layouts_for, layouts_of, piece_size,
                          printable_items, sheet_of)
from ..cards.face import FaceDrawer
from ..cards.facedata import FaceData
from ..pieces.model import Piece
from .. import fonts
from ..context import BuildContext
from ..output import atomic_folder
from ..geometry import MM_PER_INCH, Box
from ..render import open_surface

if TYPE_CHECKING:
    from solver.game.map import HexMap

    from ..hexmap.layout import MapPage

ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can hold: same input, same bytes


@dataclass(frozen=True)
class ExportDeck:
    """One component to export: every copy to print (in deck order) and the trim size in mm."""
    component: Component
    kind: str               # "cards" or "counters" (how `pnp build` prints it)
    pieces: tuple[Piece, ...]
    size: tuple[float, float]
    name: str               # the component's name in the build language

    @property
    def id(self) -> str:
        return self.component.id

    def distinct_fronts(self) -> list[tuple[Piece, int]]:
        """Each distinct item once, in deck order, with its number of copies."""
        seen: dict[str, list] = {}
        for p in self.pieces:
            if p.item.id in seen:
                seen[p.item.id][1] += 1
            else:
                seen[p.item.id] = [p, 1]
        return [(p, n) for p, n in seen.values()]

    @property
    def common_back(self) -> bool:
        """True when every piece shows the same back picture (a deck's card back)."""
        return len({p.back_key for p in self.pieces if p.back_layout}) <= 1 and all(p.back_layout for p in self.pieces)


def export_languages(game: Game, ctx: BuildContext) -> list[str]:
    """The languages an export writes: those `pnp build` writes (generator/languages.py), each
    left out with one warning saying what it lacks."""
    from ..languages import languages_to_build, parse_requested, with_drafts

    return languages_to_build(with_drafts(game, ctx.drafts), parse_requested(ctx.lang), ctx.warn)


def in_language(ctx: BuildContext, lang: str) -> BuildContext:
    """`ctx` drawing in `lang` (its warnings still go to ctx's list)."""
    return dataclasses.replace(ctx, lang=lang)


def export_decks(game: Game, ctx: BuildContext, kinds: tuple[str, ...] = ("cards", "counters")) -> list[ExportDeck]:
    """The printable components of a game, as `pnp build` prints them (same items, copies, layouts)."""
    lang = ctx.language(game.meta.source_language)
    layouts = layouts_of(game)
    decks: list[ExportDeck] = []
    for comp in game.components:
        kind = sheet_of(layouts, comp)
        if kind not in kinds or not printable_items(comp):
            continue
        default = DEFAULT_CARD if kind == "cards" else DEFAULT_COUNTER
        cl = layouts_for(layouts, comp, default)
        pieces = deck_pieces(game, comp, lang, ctx, cl, back_shows_front=(kind == "counters"))
        if not pieces:
            continue
        decks.append(ExportDeck(comp, kind, tuple(pieces), piece_size(comp, kind), pick(comp.name, lang)))
    return decks


def drawer_for(game: Game, ctx: BuildContext) -> FaceDrawer:
    return FaceDrawer(layouts_of(game), game.folder, ctx.warn, game)


def face_image(drawer: FaceDrawer, layout: str, data: FaceData, size_mm_: tuple[float, float], bleed_mm: float,
               pixels: tuple[int, int]):
    """One face (trim `size_mm_` plus `bleed_mm` on every side) as a PIL RGB image of exactly
    `pixels`: drawn by the PNG backend at the dpi that gives that width, then fitted to the last
    pixel (rounding can leave one off)."""
    from PIL import Image

    w, h = size_mm_[0] + 2 * bleed_mm, size_mm_[1] + 2 * bleed_mm
    dpi = pixels[0] * MM_PER_INCH / w
    s = open_surface("png", dpi=dpi)
    s.begin_page(w, h)
    drawer.draw(s, layout, data, Box(bleed_mm, bleed_mm, *size_mm_), bleed_mm)
    s.end_page()
    img = s.pages[0]
    if img.size != pixels:
        img = img.resize(pixels, Image.Resampling.LANCZOS)
    return img


def png_bytes(img, dpi: float | None = None) -> bytes:
    buf = io.BytesIO()
    kw = {"dpi": (dpi, dpi)} if dpi else {}
    img.save(buf, format="PNG", optimize=False, compress_level=6, **kw)
    return buf.getvalue()


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    """A zip of `entries` in name order with a fixed timestamp: the same entries, the same bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, entries[name])
    return buf.getvalue()


def export_dir(ctx: BuildContext, game: Game, target: str) -> Path:
    return ctx.out_dir(game.id) / "export" / target


def staged_folder(target: Path):
    """An empty folder beside `target` that replaces it when the block succeeds (the old folder is
    removed only after the new one is in place), else is deleted: generator/output.py's writer."""
    return atomic_folder(target, replace=True)


def write_file(folder: Path, name: str, data: bytes | str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def safe_name(s: str) -> str:
    """A file-name-safe form of an id (ids are kebab-case already; this guards odd input)."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in s)


@dataclass(frozen=True)
class MapImage:
    """The game's full-size map page as one image, and where its hex grid lies in pixels."""
    hexmap: "HexMap"
    page: "MapPage"         # where the grid and the boxes sit on the page (mm)
    image: Any              # PIL image of the whole page
    dpi: float
    name: str               # the map's id

    @property
    def px_per_mm(self) -> float:
        return self.dpi / MM_PER_INCH

    def hex_centre_px(self, label: str) -> tuple[float, float]:
        """Pixel centre of hex `label` (as the map prints it) on `image`."""
        x, y = self.page.hex_centre(self.hexmap, self.hexmap.hex(label))
        return (x * self.px_per_mm, y * self.px_per_mm)

    def spot(self, on: str) -> tuple[str, float, float] | None:
        """Where a setup step's `on:` lies on the map image: a place (its hex), a hex label, a box
        or area beside the grid, or a track cell `<track>-<n>`; as (what, x px, y px). None when
        `on` is not on the map (a player's hand, a cup, an off-map holding place)."""
        d = self.hexmap.data
        place = next((p for p in d.places if p.id == on), None)
        if place is not None:
            return (place.hex, *self.hex_centre_px(place.hex))
        if self.hexmap.find(on) is not None:
            return (on, *self.hex_centre_px(on))
        k = self.px_per_mm
        for item in self.page.items:
            if item.ref == on:
                return (on, item.box.center[0] * k, item.box.center[1] * k)
            head, _, n = on.rpartition("-")
            if head == item.ref and n.isdigit():
                cell = self.track_cells(item.ref).get(int(n))
                if cell is not None:
                    return (on, *cell)
        return None

    def track_cells(self, ref: str) -> dict[int, tuple[float, float]]:
        """The cells of track `ref` beside the map: number -> centre (px); empty when `ref` is no
        track. As the map draws a track: equal cells under a 5.5 mm title line."""
        box = next((b for b in self.hexmap.data.boxes if b.id == ref), None)
        item = next((i for i in self.page.items if i.ref == ref), None)
        if box is None or item is None or box.kind != "track" or not box.cells:
            return {}
        b, k = item.box, self.px_per_mm
        cw = b.w / box.cells
        return {box.first + i: ((b.x + (i + 0.5) * cw) * k, (b.y + 5.5 + (b.h - 5.5) / 2) * k)
                for i in range(box.cells)}


def map_image(game: Game, ctx: BuildContext, max_px: int = 4096, max_dpi: float = 150.0) -> MapImage | None:
    """The map page drawn by the map stage's own drawing code on the PNG backend, at the highest
    dpi (up to `max_dpi`) whose longer side stays within `max_px` pixels. None when the game has no map."""
    mapfile = game.extras.get("map")
    if mapfile is None:
        return None
    from ..hexmap.draw import draw_map_page
    from ..hexmap.layout import map_page

    hm = mapfile.resolve(game.locators.get("map.yaml"))
    page = map_page(hm)
    dpi = min(max_dpi, max_px * MM_PER_INCH / max(page.width, page.height))
    dpi = float(int(dpi))  # a whole dpi keeps the numbers in the exports readable
    s = open_surface("png", dpi=dpi)
    lang = ctx.language(game.meta.source_language)
    draw_map_page(s, hm, page, lang, fonts.faces(lang, game))
    return MapImage(hm, page, s.pages[0], dpi, hm.data.id)
