"""The tiled print (a map's, a board's: `draw_tiled` takes any big page): the full-size page cut into A4/Letter sheets that overlap, plus an assembly page.

The whole page is defined once as a symbol (a PDF form XObject) and each sheet places it shifted
and clipped to its window (tiling.py chooses the windows), so the file holds the map's drawing
once however many sheets there are. Every sheet shows its name ("Sheet 3 of 6, row 1, column 3")
and its neighbours' in the margin, a dashed trim line round its window, and, only inside the
strips its right and lower neighbours cover, its number and a guide line where their cut edges
go: once glued, nothing of the assembly shows on the map. The margin texts sit between the paper's 5 mm
unprintable edge and the window (the plan's margin is 8 mm). Words are set in the map's language's
fonts (`fonts.faces`), the assembly page's heading in its bold.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from solver.game.map import HexMap

from .. import catalogue, fonts
from ..context import PRINTER_MARGIN_MM
from ..geometry import MM_PER_PT, Box
from ..render import open_surface
from ..render.base import Surface, text_width
from ..render.record import Recording
from ..text.typography import printed
from ..pieces.draft import DraftNote
from .draw import draw_page_content
from .layout import MapPage
from .tiling import Tile, TilePlan, assembly_scale
from .symbols import GRID, INK, define_symbols

MARK_W = 0.25  # mm: the guide line a neighbour's cut edge is laid on
MARK_INSET = 0.3  # mm the guide sits inside the strip, so the neighbour laid on it hides it whole
MARK_COLOUR = "#000000"
# under the guide, a white edge on either side, so it shows on a dark board as on a pale one; still
# inside the strip (MARK_INSET - HALO_W / 2 > 0), where the neighbour laid on it hides it whole
HALO_W, HALO_COLOUR = 0.55, "#ffffff"
TRIM_DASH = (2.0, 1.5)  # mm on, mm off: the line the assembly page tells the user to cut at
HEAD_PT, FOOT_PT = 7, 6
HIDDEN_NAME = "#767676"  # grey that still reads at 4.5:1 on white


def alignment_marks(plan: TilePlan) -> dict[int, list[tuple[float, float, float, float]]]:
    """Per sheet number, the guide lines (big-page x1, y1, x2, y2) printed on it: along the edge
    where its right and lower neighbours' cut edges go, just inside the strip they cover. Only
    the sheet beneath carries them (the neighbour laid on top covers them once glued); a sheet
    no neighbour covers carries none."""
    out: dict[int, list[tuple[float, float, float, float]]] = {}
    for t in plan.tiles:
        w, marks = t.window, []
        right, below = plan.at(t.row, t.col + 1), plan.at(t.row + 1, t.col)
        if right:
            x = right.window.x + MARK_INSET
            marks.append((x, w.y, x, w.bottom - (plan.overlap if below else 0.0)))
        if below:
            y = below.window.y + MARK_INSET
            marks.append((w.x, y, w.right - (plan.overlap if right else 0.0), y))
        out[t.number] = marks
    return out


def sheet_name(t: Tile, lang: str) -> str:
    return catalogue.text("tiles.sheet", lang, n=t.number)


def _neighbours(plan: TilePlan, t: Tile, lang: str) -> dict[str, str]:
    out = {}
    for side, (dr, dc) in {"left": (0, -1), "right": (0, 1), "up": (-1, 0), "down": (1, 0)}.items():
        n = plan.at(t.row + dr, t.col + dc)
        if n:
            out[side] = sheet_name(n, lang)
    return out


def draw_tiles(hm: HexMap, page: MapPage, plan: TilePlan, lang: str, faces: fonts.Faces,
               target: Path, note: DraftNote | None = None,
               recorded: tuple[Recording, Recording] | None = None, twin: str | None = None) -> list[Path]:
    """The map's tiled print: the map's symbols and page (with a draft's `note`), under its legend's title;
    `recorded`: the calls of both as the full-size page made them (stage.py `record_map_page`),
    replayed rather than drawn again; `twin`: see `draw_tiled`."""
    define: Callable[[Surface], None] = lambda s: define_symbols(s, hm)
    draw: Callable[[Surface], None] = lambda s: draw_page_content(s, hm, page, lang, faces, note)
    if recorded is not None:
        define, draw = recorded[0].replay, recorded[1].replay
    return draw_tiled(TiledPage(page.width, page.height, printed(hm.data.legend.title, lang), define, draw),
                      plan, lang, faces, target, f"{printed(hm.data.name, lang)} — tiles", twin)


@dataclass(frozen=True)
class TiledPage:
    """Any big page to tile (a map, a board): its size, its title (the footer and the assembly
    heading), what it defines once (`define`: symbols) and how it draws (`draw`, in page mm)."""
    width: float
    height: float
    title: str
    define: Callable[[Surface], None]
    draw: Callable[[Surface], None]


def draw_tiled(big: TiledPage, plan: TilePlan, lang: str, faces: fonts.Faces, target: Path, doc_title: str,
               twin: str | None = None) -> list[Path]:
    """The tiled file, written to `target`. `twin`: the name of the full-size PDF of the same page
    written beside it for preflight to judge (a build that preflights): preflight is told so with the
    file's bytes (generator/tileflight.py) and judges the sheets' own text only when the twin has no
    finding."""
    surf = open_surface("pdf", title=doc_title)
    pw, ph = plan.paper
    font = faces.regular
    info = fonts.font_info(font)
    surf.begin_page(pw, ph)
    big.define(surf)
    surf.define_symbol("page", big.width, big.height, big.draw)
    _assembly_page(surf, big, plan, lang, faces)
    surf.end_page()
    marks = alignment_marks(plan)
    for t in plan.tiles:
        surf.begin_page(pw, ph)
        m, w = plan.margin, t.window
        with surf.group(dx=m - w.x, dy=m - w.y, clip=w):
            surf.use_symbol("page", 0, 0)
            for x1, y1, x2, y2 in marks[t.number]:
                surf.line(x1, y1, x2, y2, stroke=HALO_COLOUR, width=HALO_W)
                surf.line(x1, y1, x2, y2, stroke=MARK_COLOUR, width=MARK_W)
            _overlap_labels(surf, plan, t, str(t.number), font)
        x0, y0, x1, y1 = m, m, m + w.w, m + w.h
        surf.polyline([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], stroke=GRID, width=0.2,
                      dash=TRIM_DASH)  # trim line
        nb = _neighbours(plan, t, lang)
        head = catalogue.text("tiles.head", lang, n=t.number, total=len(plan.tiles), row=t.row + 1, col=t.col + 1,
                              overlap=plan.overlap)
        head_y = PRINTER_MARGIN_MM + info.ascent * HEAD_PT * MM_PER_PT + 0.2  # glyph tops inside the printable area
        foot_y = ph - PRINTER_MARGIN_MM - info.descent * FOOT_PT * MM_PER_PT - 0.2
        surf.text(m, head_y, head, size_pt=HEAD_PT, colour=INK, font=font)
        arrows = {"left": "←", "right": "→", "up": "↑", "down": "↓"}
        tail = "  ".join(f"{arrows[k]} {v}" for k, v in nb.items())
        surf.text(pw - m, head_y, tail, size_pt=HEAD_PT, colour=INK, align="right", font=font)
        surf.text(m, foot_y, big.title, size_pt=FOOT_PT, colour=INK, font=font)
        surf.end_page()
    # the big page's text inks no printer's strip only where the window lies inside it (tileflight.py)
    if twin is None or plan.margin < PRINTER_MARGIN_MM:
        return surf.save(target)
    from ..drawn_registry import offer
    from ..output import write_bytes
    from ..tileflight import TiledRecord

    data = surf.getvalue()
    offer(data, TiledRecord(twin, 1 + len(plan.tiles)))
    return [write_bytes(target, data)]


def _overlap_labels(surf: Surface, plan: TilePlan, t: Tile, name: str, font: str) -> None:
    """The sheet's name inside its right and bottom overlap strips: the neighbours laid over it
    cover those strips, so the name confirms the order while gluing and is hidden afterwards."""
    w = t.window
    spots = []
    if t.col + 1 < plan.cols:
        spots.append((w.right - plan.overlap / 2, w.y + w.h / 2))
    if t.row + 1 < plan.rows:
        spots.append((w.x + w.w / 2, w.bottom - plan.overlap / 2 + 1.5))
    for x, y in spots:
        # on a white patch, so the name reads on any terrain
        width = text_width(name, 9, font) + 1.6
        surf.rect(Box(x - width / 2, y - 3.9, width, 5.0), fill="#ffffff", radius=0.8)
        surf.text(x, y, name, size_pt=9, colour=HIDDEN_NAME, align="center", font=font)


def _assembly_page(surf: Surface, page: TiledPage, plan: TilePlan, lang: str, faces: fonts.Faces) -> None:
    pw, ph = plan.paper
    m = plan.margin
    surf.text(m, m + 5, catalogue.text("tiles.assembly", lang, title=page.title), size_pt=12,
              colour=INK, font=faces.bold)
    sheet = Box(m, m + 12, pw - 2 * m, ph - 2 * m - 50)
    s = assembly_scale(page.width, page.height, sheet)
    x0 = sheet.x + (sheet.w - page.width * s) / 2
    y0 = sheet.y
    surf.use_symbol("page", x0, y0, scale=s)
    surf.rect(Box(x0, y0, page.width * s, page.height * s), stroke=INK, width=0.3)
    colours = ["#b83b0b", "#1864ab"]  # orange and blue dark enough for 4.5:1 on white
    for t in plan.tiles:
        b = Box(x0 + t.window.x * s, y0 + t.window.y * s, t.window.w * s, t.window.h * s)
        c = colours[(t.row + t.col) % 2]
        surf.rect(b, stroke=c, width=0.5)
        cx, cy = b.center
        surf.circle(cx, cy - 1.2, 3.6, fill="#ffffff", stroke=c, width=0.3)
        surf.text(cx, cy, str(t.number), size_pt=8, colour=c, align="center", font=faces.regular)
    y = y0 + page.height * s + 7
    lines = [catalogue.text(key, lang, n=len(plan.tiles), rows=plan.rows, cols=plan.cols, overlap=plan.overlap)
             for key in ("tiles.count", "tiles.step1", "tiles.step2", "tiles.step3")]
    for i, line in enumerate(lines):
        surf.text(m, y + i * 5, line, size_pt=7.5, colour=INK, font=faces.regular)
