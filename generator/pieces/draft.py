"""A translation draft's sheets say so: one short line in the margin of every sheet page (cards,
counters, tokens, tiles, standees, boards, dice, tuck boxes) of a language built as a draft
(generator/languages.py `is_draft`), in the words of the catalogue's `pieces.draft`, in the draft
language where the catalogue has it, else English, as the rulebook's draft label. A map says it
under its title (generator/hexmap/draw.py, `note_for`).

Where: the top margin, else the bottom one, in a stretch free of every crop mark, fold line, cut
tick and piece's bleed (kept `CLEAR` mm away), never nearer than `EDGE` mm to the paper's edge,
at 7 pt, shrunk down to 6 pt to fit; a page with no such stretch (a piece printed to the paper's
edge) goes without. Pure geometry in mm: `render.draw_pages` draws what `place` returns.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from .. import catalogue, fonts
from ..geometry import MM_PER_PT, Box
from ..render.base import text_width
from .model import SheetPage

EDGE = 5.0     # mm from the paper's edge at least (preflight's text-near-edge rule for home paper)
CLEAR = 1.0    # mm kept from a crop mark, a fold line, a cut tick or a piece's bleed
SIZES = (7.0, 6.5, 6.0)  # pt: the first that fits
STEP = 0.5     # mm between the bands tried, from the paper's edge towards the pieces
COLOUR = "#000000"


@dataclass(frozen=True)
class DraftNote:
    """The line a draft's sheet pages carry, and the font it is set in."""
    text: str
    font: str


def draft_note(game: Any, pages: list[SheetPage]) -> DraftNote | None:
    """The note for `pages` of `game` when their language is a draft, else None."""
    return note_for(game, next((pl.piece.front.lang for page in pages for pl in page.placements), None))


def note_for(game: Any, lang: str | None) -> DraftNote | None:
    """The note a draft's printed page in `lang` carries (a sheet's margin, a map's title band),
    or None when `lang` is not a draft of `game`."""
    from ..languages import is_draft, language_name

    if game is None or lang is None or not is_draft(game, lang):
        return None
    own = catalogue.lang_of("pieces.draft", lang)  # the language the line comes in
    source = language_name(game.meta.source_language, own)
    return DraftNote(catalogue.text("pieces.draft", lang, code=lang, source=source),
                     fonts.text_font(own, "regular", game))


def place(page: SheetPage, note: DraftNote) -> tuple[float, float, float] | None:
    """(x of the line's left end, its baseline, its size in pt) on `page`, or None: no room."""
    info = fonts.font_info(note.font)
    blocks = obstacles(page)
    left = min((pl.trim.x for pl in page.placements), default=EDGE)
    for top_margin in (True, False):
        for size in SIZES:
            em = size * MM_PER_PT
            height, width = (info.ascent + info.descent) * em, text_width(note.text, size, note.font)
            for band in bands(page, height, top_margin):
                x = free_x(band, blocks, width, left)
                if x is not None:
                    return x, band.y + info.ascent * em, size
    return None


def obstacles(page: SheetPage) -> list[Box]:
    """What the line keeps `CLEAR` of: each piece with its bleed, each stroke and cut tick."""
    boxes = [pl.trim.outset(pl.bleed) for pl in page.placements]
    boxes += [_bounds([(k.x1, k.y1), (k.x2, k.y2)]).outset(k.width / 2) for k in page.strokes]
    boxes += [_bounds(list(w.points)).outset(w.width / 2) for w in page.overlay]
    return [b.outset(CLEAR) for b in boxes]


def bands(page: SheetPage, height: float, top_margin: bool) -> Iterator[Box]:
    """Strips `height` tall across the page inside `EDGE`, from the paper's edge towards the
    pieces, stopping at the first piece's bleed (`CLEAR` kept)."""
    pieces = [pl.trim.outset(pl.bleed + CLEAR) for pl in page.placements]
    if top_margin:
        y, stop = EDGE, min((b.y for b in pieces), default=page.height - EDGE) - height
        while y <= stop + 1e-9:
            yield Box(EDGE, y, page.width - 2 * EDGE, height)
            y += STEP
    else:
        y, stop = page.height - EDGE - height, max((b.bottom for b in pieces), default=EDGE)
        while y >= stop - 1e-9:
            yield Box(EDGE, y, page.width - 2 * EDGE, height)
            y -= STEP


def free_x(band: Box, blocks: list[Box], width: float, left: float) -> float | None:
    """The left end of a `width` stretch of `band` no block crosses: at `left` (the pieces' left
    edge) if it fits there, else as far left as it fits; None when none is wide enough."""
    cuts = sorted((b.x, b.right) for b in blocks if b.y < band.bottom and band.y < b.bottom)
    lo = band.x
    for a, b in [*cuts, (band.right, band.right)]:
        if a > lo:
            hi = min(a, band.right)
            x = min(max(lo, left), hi - width)
            if x >= lo - 1e-9:
                return x
        lo = max(lo, b)
    return None


def _bounds(points: list[tuple[float, float]]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
