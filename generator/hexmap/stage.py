"""Build stage "maps": each game's map.yaml as a full-size page (PDF, SVG) and tiled onto A4/Letter.

Writes output/<game>/map-<id>.pdf, map-<id>.svg, png/map-<id>.png (a 100 dpi screen preview;
`--map-dpi 300` for a print-quality image) and, only when the map's page is larger than that
paper, map-<id>-tiles-<paper>.pdf (paper: the build's --paper when it is a4 or letter, else a4;
`map_tiles` is the plan, which the print guide counts too). A language other than the game's source language adds
`-<lang>` to the names, so builds in two languages sit side by side.
"""
from __future__ import annotations

from pathlib import Path

from solver.game.loader import Game

from solver.game.map import HexMap
from solver.game.objmemo import kept_for

from .. import fonts
from ..context import PAPER_MM, BuildContext
from ..pieces.draft import DraftNote, note_for
from ..render import open_surface
from ..render.record import Recording
from .draw import draw_map_page, draw_page_content
from .layout import MapPage, map_page
from .symbols import define_symbols
from .tiles import draw_tiles
from .tiling import TilePlan, tile_plan, tiles_paper


def map_tiles(hm: HexMap, paper: str) -> tuple[str, TilePlan] | None:
    """The paper the map is tiled onto in a build on `paper` and the tiling, or None when its page
    is no larger than `paper`. Worked out once per map.yaml model and paper (solver/game/objmemo.py;
    the page depends on the model alone): each language's map and each book's print guide ask (16
    times in a build of the examples, 2 ms each)."""
    return kept_for(hm.data, ("tiles", paper), lambda: _map_tiles(hm, paper))


def _map_tiles(hm: HexMap, paper: str) -> tuple[str, TilePlan] | None:
    page = map_page(hm)
    onto = tiles_paper((page.width, page.height), paper)
    if onto is None:
        return None
    return onto, tile_plan(page.extent, PAPER_MM[onto], content=page.content)


def record_tells(hm: HexMap) -> bool:
    """Whether preflight may judge the map's page from its record (pieces/drawn.py) rather than read
    it back: not where a text stands on the hexes, whose symbols' fills the record's walk does not
    follow (a hex's label, a place's or a region's name; each one's patch, if any, is narrower than
    the window round the text the read-back reads), so that it cannot tell and the page is read back
    anyway: walking it first cost 20-40 ms a file for nothing."""
    d = hm.data
    return d.labels.show in ("none", []) and not d.places and not d.regions


def record_map_page(hm: HexMap, page: MapPage, lang: str, faces: fonts.Faces,
                    note: DraftNote | None) -> tuple[Recording, Recording, Recording]:
    """The calls `draw_map_page` makes (the whole page), and apart the two parts the tiled print
    draws again, its symbols' definitions and its content: replaying them there instead of drawing
    the map a second time makes the same calls (any_surface: a definition is made only where the
    surface has none yet, as `define_symbols` asks)."""
    symbols, content = Recording(any_surface=True), Recording(any_surface=True)
    define_symbols(symbols, hm)
    draw_page_content(content, hm, page, lang, faces, note)
    whole = Recording(any_surface=True)
    whole.begin_page(page.width, page.height)
    whole.calls += symbols.calls + content.calls
    whole.end_page()
    return whole, symbols, content


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
    note = note_for(game, lang)  # a translation draft says so under the map's title
    written: list[Path] = []
    kinds = [k for k in ("pdf", "svg", "png") if k in ctx.formats]
    # the page laid out once (its hexes, labels, rivers, names placed) and its calls replayed on
    # each format's surface: the calls drawing on each directly would make (render/record.py)
    rec, parts = None, None
    if len(kinds) > 1:
        rec, *parts = record_map_page(hm, page, lang, faces, note)
    for kind in kinds:  # the PNG: a screen preview unless --map-dpi asks for more; print from the PDF
        surf = open_surface(kind, title=f"{game.id} {stem}", **({"dpi": ctx.map_dpi} if kind == "png" else {}))
        if rec is not None:
            rec.replay(surf)
        else:
            draw_map_page(surf, hm, page, lang, faces, note)
        if kind == "pdf" and ctx.preflight:  # its recorded calls go to preflight with it where they can tell (pieces/drawn.py)
            from ..pieces.drawn import save_pdf  # numpy: imported only for a build that preflights

            written += save_pdf(surf, rec if record_tells(hm) else None, out / f"{stem}.pdf")
        else:
            written += surf.save(out / "png" / f"{stem}.png" if kind == "png" else out / f"{stem}.{kind}")
    tiled = map_tiles(hm, ctx.paper)
    if tiled is not None:
        paper, plan = tiled
        # the full-size PDF draws the same page: preflight judges the map's text there (tileflight.py)
        twin = f"{stem}.pdf" if "pdf" in kinds and ctx.preflight else None
        written += draw_tiles(hm, page, plan, lang, faces, out / f"{stem}-tiles-{paper}.pdf", note,
                              recorded=(parts[0], parts[1]) if parts else None, twin=twin)
    return written
