"""One page as preflight's checks are given it (generator/preflight.py `_judge`): `Sheet`, and
`_read_sheet`, a page read back with pdfium (its characters, pagetext.py; its pixels, its crop
marks' trims and its symbols' boxes, pdfread.py), a tiled print's sheet on its own text only
(generator/tileflight.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from .geometry import MM_PER_PT
from .pagetext import PageText, Rect, read_page_text
from .pdfread import Image, RunsSeen, crop_mark_trims, form_boxes, render, runs_seen
from .tileflight import own_seen, own_text

if TYPE_CHECKING:
    import pypdfium2 as pdfium

    from .preflight import Slack


@dataclass
class Sheet:
    """One page as the checks are given it, read back or from a book's record: its size (mm), every
    character, those on paper with their runs and the colour under each (`seen`, None for a page with
    no text), its trims, the page rendered (None for a record: nothing clipped), its symbols' boxes."""
    w_mm: float
    h_mm: float
    read: PageText
    seen: RunsSeen | None
    trims: list[Rect]
    image: Image | None
    forms: Callable[[], list[Rect]]
    recorded: Slack | None = None  # from a record, not read back: judged with this slack


def _read_sheet(page: pdfium.PdfPage, own: bool = False) -> Sheet:
    """The page as pdfium reads it and renders it; `own`: only its own text, not its forms' (a tiled
    print's sheet, tileflight.py), unless it has crop marks or that text cannot be told apart."""
    w_mm, h_mm = (v * MM_PER_PT for v in page.get_size())
    trims = crop_mark_trims(page, h_mm)
    # a character off the paper is on no piece when every piece is on it: only the others are read
    on = all(a >= 0 and b >= 0 and c <= w_mm and d <= h_mm for a, b, c, d in trims)
    mine = own_text(page, h_mm, w_mm) if own and not trims else None
    read = mine if mine is not None else read_page_text(page, h_mm, w_mm if on else None)
    image: Image | None
    seen: RunsSeen | None
    if mine is not None and len(mine):  # its few labels' windows drawn, not the map under the whole sheet
        image, seen = own_seen(page, mine, w_mm, h_mm)
    else:
        image = render(page) if len(read) else None
        seen = runs_seen(read, image, w_mm, h_mm) if image is not None else None
    return Sheet(w_mm, h_mm, read, seen, trims, image, lambda: form_boxes(page))
