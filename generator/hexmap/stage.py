"""Build stage "maps": each game's map.yaml as a full-size page (PDF, SVG) and tiled onto A4/Letter.

Writes output/<game>/map-<id>.pdf, map-<id>.svg, png/map-<id>.png (a 100 dpi screen preview;
`--map-dpi 300` for a print-quality image) and
map-<id>-tiles-<paper>.pdf (paper: the build's
--paper when it is a4 or letter, else a4). A language other than the game's source language adds
`-<lang>` to the names, so builds in two languages sit side by side.
"""
from __future__ import annotations

from pathlib import Path

from solver.game.loader import Game

from .. import fonts
from ..context import BuildContext
from ..render import open_surface
from .draw import draw_map_page
from ..context import PAPER_MM
from .layout import map_page, tile_plan
from .tiles import draw_tiles

OVERLAP_MM = 10.0


def build_maps(game: Game, ctx: BuildContext) -> list[Path]:
    mapfile = game.extras.get("map")
    if mapfile is None:
        return []
    hm = mapfile.resolve(game.locators.get("map.yaml"))
    lang = ctx.language(game.meta.source_language)
    suffix = "" if lang == game.meta.source_language else f"-{lang}"
    out = ctx.out_dir(game.id)
    page = map_page(hm)
    stem = f"map-{hm.data.id}{suffix}"
    faces = fonts.faces(lang, game)
    written: list[Path] = []
    for kind in ("pdf", "svg"):
        if kind in ctx.formats:
            surf = open_surface(kind, title=f"{game.id} {stem}")
            draw_map_page(surf, hm, page, lang, faces)
            written += surf.save(out / f"{stem}.{kind}")
    if "png" in ctx.formats:  # a screen preview unless --map-dpi asks for more; print from the PDF
        surf = open_surface("png", dpi=ctx.map_dpi, title=f"{game.id} {stem}")
        draw_map_page(surf, hm, page, lang, faces)
        written += surf.save(out / "png" / f"{stem}.png")
    paper = ctx.paper if ctx.paper in ("a4", "letter") else "a4"
    plan = tile_plan(page.width, page.height, PAPER_MM[paper], overlap=OVERLAP_MM)
    written += draw_tiles(hm, page, plan, lang, faces, out / f"{stem}-tiles-{paper}.pdf")
    return written
