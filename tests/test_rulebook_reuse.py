"""Work a rulebook used to do again is done once (issue 26): a table measured again at the width it
had keeps its measures, read against reportlab's own Table. (A font subset embedded again:
tests/test_fontsubsets.py.)"""
from __future__ import annotations

from reportlab.platypus import Table

from generator import fonts
from generator.rulebook.content import Text
from generator.rulebook.flowables import KPara, Recorder, RowTable, Style

WORDS = "Each player draws two cards, then passes one to the left; the ring moves on."
STYLE = [("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
         ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
         ("VALIGN", (0, 0), (-1, -1), "TOP")]


def _cells() -> list[list[KPara]]:
    font = fonts.register_face(fonts.face_of("en").id)
    style, rec = Style(font, 8.5, 11.5), Recorder(keep_lines=False)
    return [[KPara(Text(WORDS[: 12 + 9 * i]), style, rec, lang="en", role="cell"),
             KPara(Text(str(i)), style, rec, role="cell")] for i in range(6)]


def _measures(t: Table) -> tuple:
    return t._width, t._height, list(t._rowHeights), list(t._rowpositions), list(t._colpositions)


def test_a_table_measured_again_at_its_width_keeps_its_measures(monkeypatch):
    """Wrapped twice at one width and split there, the table's rows are measured once; wrapped at
    another width and back, its measures are those of reportlab's own Table, fresh, at each width."""
    calls = []
    measure = Table._calc_height

    def counted(self, *args, **kwargs):
        calls.append(self)
        return measure(self, *args, **kwargs)

    monkeypatch.setattr(Table, "_calc_height", counted)
    ours = RowTable(_cells(), colWidths=[70, 40], hAlign="LEFT")
    ours.setStyle(STYLE)
    ours.wrap(110, 400)
    ours.wrap(110, 300)
    parts = ours.split(110, 60)
    assert calls.count(ours) == 1
    assert len(parts) == 2  # it did split there, from the measures it kept
    reference = Table(_cells(), colWidths=[70, 40], hAlign="LEFT")
    reference.setStyle(STYLE)
    assert ours.wrap(110, 200) == reference.wrap(110, 200)
    assert _measures(ours) == _measures(reference)


def test_a_table_of_book_cells_draws_reportlabs_own_operators(monkeypatch):
    """RowTable draws a cell of one KPara without reportlab's calls for any flowable
    (drawstring.draw_cell): the page is the bytes reportlab's Table draws, with cells aligned at
    the top, middle and bottom, colours and fonts changing from cell to cell, and the cells it
    leaves to reportlab (right-aligned, a plain string) among them."""
    import io

    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    bold = fonts.register_face(fonts.face_of("en").id, "bold")
    style = STYLE[:-1] + [("VALIGN", (0, 1), (-1, 1), "MIDDLE"), ("VALIGN", (0, 2), (-1, 2), "BOTTOM"),
                          ("TEXTCOLOR", (0, 0), (-1, 0), HexColor("#7a2e1d")), ("FONT", (1, 3), (1, 4), bold, 7),
                          ("ALIGN", (1, 5), (1, 5), "RIGHT"), ("BACKGROUND", (0, 0), (-1, 0), HexColor("#eeeeee")),
                          ("GRID", (0, 0), (-1, -1), 0.3, HexColor("#999999"))]

    def page(kind) -> bytes:
        cells = _cells()
        cells[4][1] = "plain"
        table = kind(cells, colWidths=[70, 40], hAlign="LEFT")
        table.setStyle(style)
        buf = io.BytesIO()
        canvas = Canvas(buf, pagesize=(300, 400), invariant=1)
        table.wrapOn(canvas, 110, 380)
        table.drawOn(canvas, 20.25, 10.5)
        canvas.showPage()
        canvas.save()
        return buf.getvalue()

    from generator.rulebook import flowables

    fast: list = []
    draw_cell = flowables.draw_cell
    monkeypatch.setattr(flowables, "draw_cell", lambda *args: fast.append(draw_cell(*args)) or fast[-1])
    assert page(RowTable) == page(Table)
    assert fast.count(True) == 10 and len(fast) == 12  # the right-aligned cell and the string: reportlab's
