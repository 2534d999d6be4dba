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


def test_a_paragraph_is_drawn_from_the_sums_it_was_broken_with(monkeypatch):
    """The running sums of a paragraph's advances are made once, by the line breaker, and kept for
    its drawing, also after fonts.advances' own cache is emptied (as after each rulebooks unit);
    the page's bytes are those of sums made afresh."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.text import forget_paragraphs

    font = fonts.register_face(fonts.face_of("en").id)
    text = Text("Sauron's hunters search the regions adjacent to the ring-bearer, one region a turn: " * 3)

    def page() -> bytes:
        para = KPara(text, Style(font, 9.5, 13.3, justify=True), Recorder(keep_lines=False), lang="en")
        buf = io.BytesIO()
        canvas = Canvas(buf, invariant=1)
        para.wrap(200, 500)
        para.drawOn(canvas, 50, 300)
        canvas.save()
        return buf.getvalue()

    forget_paragraphs()
    fresh = page()  # sums made for this paragraph, in fonts.advances' cache too
    made = []
    real = fonts.advances.__wrapped__

    def counted(s: str, f: str):
        made.append(s)
        return real(s, f)

    monkeypatch.setattr(fonts, "advances", counted)
    for _ in range(3):  # three more units, each emptying fonts.advances' cache (rulebook/build.py)
        forget_paragraphs()
        assert page() == fresh
    assert made == []
