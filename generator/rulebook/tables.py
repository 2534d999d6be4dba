"""Rulebook tables: columns fitted to the width (a short column keeps its width, wide ones share
the rest), cells typeset as paragraphs, a header row repeated after a page break."""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, Spacer, TableStyle
from reportlab.platypus.tables import CellStyle

from generator import fonts

from .blocks import TableBlock
from .flowables import ACCENT, KPara, Recorder, RowTable, Style


def column_widths(natural: list[float], width: float) -> list[float]:
    """Widths of table columns that want `natural` widths (their longest text on one line).

    A table that fits keeps its natural widths. One that does not takes the full `width`: columns
    narrower than an equal share of what is left keep their natural width (a count, a short name),
    and the wide ones (descriptions) share the rest equally, so their text wraps as little as it
    can and no space is left empty beside a column that wraps."""
    if sum(natural) <= width:
        return list(natural)
    wide = set(range(len(natural)))
    while True:
        share = (width - sum(natural[i] for i in range(len(natural)) if i not in wide)) / len(wide)
        keep = {i for i in wide if natural[i] <= share}
        if not keep:
            return [share if i in wide else natural[i] for i in range(len(natural))]
        wide -= keep


ACCENT_RGB = (0x7a, 0x2e, 0x1d)  # ACCENT: the band a header's text stands on, for preflight's record
CELL_PAD = 3.0  # pt, left and right inside a table cell
CRAMPED = 0.3  # a wrapping column narrower than this share of the width reads one word per line


Faces = Callable[[str], str]  # language -> the font it is set in, in this book


def _column(b: TableBlock, c: int, lang: str, cell: Style, faces: Faces | None) -> tuple[Style, str]:
    """The style and language of column `c`'s cells: the book's, unless the column holds one
    language whatever the book's (the glossary's English column in a Japanese book)."""
    if faces is None or c >= len(b.column_langs) or not b.column_langs[c]:
        return cell, lang
    own = b.column_langs[c]
    return Style(faces(own), cell.size, cell.leading), own


@lru_cache(maxsize=16384)
def _text_width(text: str, font: str, size: float) -> float:
    # remembered: a table is measured in each pass of each book it is in, and for `cramped`
    return fonts.string_width(text, font, size)


def _natural_widths(b: TableBlock, lang: str, cell: Style, faces: Faces | None = None) -> list[float]:
    """Each column's width with its longest text on one line."""
    header, rows = b.header.get(lang, []), b.rows[lang]
    ncols = max([len(header)] + [len(r) for r in rows])
    natural = []
    for c in range(ncols):
        style = _column(b, c, lang, cell, faces)[0]
        widths = [_text_width(header[c].text, cell.font, cell.size) if c < len(header) else 0.0]
        widths += [_text_width(r[c].text, style.font, style.size) for r in rows if c < len(r)]
        natural.append(max(widths) + 2 * CELL_PAD + 1)
    return natural


def cramped(b: TableBlock, lang: str, cell: Style, width: float, faces: Faces | None = None) -> bool:
    """Would some column whose text must wrap get less than CRAMPED of `width` (the names column
    of a setup table with a column per player count, in half an A5 page)?"""
    natural = _natural_widths(b, lang, cell, faces)
    return any(w < n and w < CRAMPED * width for w, n in zip(column_widths(natural, width), natural))


def _cell_style(font: str, pad: float) -> CellStyle:
    """The style of every cell of a table: what the commands FONTNAME, VALIGN and the four paddings
    over all its cells make of each cell's own CellStyle, as one object all the cells share
    (reportlab's `cellStyles`). The cells are our own flowables, but reportlab still selects the
    cell style's font (Helvetica by default, never embedded) around each cell: it is ours. A style
    per cell and six commands walked over each (19 thousand cells over the example books, at
    every table's making) gave the same bytes: reportlab's _drawCell writes a cell's fill and
    font when they differ from the cell's before, and they never do."""
    style = CellStyle("cell")
    style.fontname, style.valign = font, "TOP"
    style.leftPadding = style.rightPadding = pad
    style.topPadding = style.bottomPadding = 1.5
    return style


def table(b: TableBlock, lang: str, cell: Style, rec: Recorder, width: float, faces: Faces | None = None) -> Flowable:
    """The table of `b` in `lang`, its columns fitted to `width` (column_widths), its header row in
    the accent; `faces` sets a column of one language (TableBlock.column_langs) in that language's face."""
    header = b.header.get(lang, [])
    rows = b.rows[lang]
    pad = CELL_PAD
    natural = _natural_widths(b, lang, cell, faces)
    ncols = len(natural)
    widths = column_widths(natural, width)
    columns = [_column(b, c, lang, cell, faces) for c in range(ncols)]
    data = []
    if header:
        on_accent = Style(cell.font, cell.size, cell.leading, HexColor("#ffffff"), ground=ACCENT_RGB)
        data.append([KPara(t, on_accent, rec, lang=lang, role="cell") for t in header])
    for r in rows:
        data.append([KPara(t, columns[c][0], rec, lang=columns[c][1], role="cell") for c, t in enumerate(r)]
                    + [Spacer(1, 1)] * (ncols - len(r)))
    shared = _cell_style(cell.font, pad)
    out = RowTable(data, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT",
                   cellStyles=[[shared] * ncols for _ in data])
    style: list[tuple] = [("GRID", (0, 0), (-1, -1), 0.3, HexColor("#999999"))]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), ACCENT))
    out.setStyle(TableStyle(style))
    return out
