"""A line of a book's contents: number and heading, dot leaders, the page number, a link."""
from __future__ import annotations

from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from generator.text import fit_line

from .drawn import note
from .drawstring import draw_string
from .flowables import Recorder, Style


class ContentsLine(Flowable):
    """A line of the contents page: number and heading, leader dots, the page number, a link to the heading
    (none of it drawn while `rec` is in a layout pass: its height is one line whatever it says). Its
    page is looked up in `pages` when it is drawn (the layout pass fills them in before)."""

    def __init__(self, level: int, number: str, title: str, anchor: str, pages: dict[str, int], style: Style,
                 rec: Recorder | None = None):
        super().__init__()
        self.level, self.number, self.title, self.anchor, self.pages, self.style = level, number, title, anchor, pages, style
        self.rec = rec

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        self.width, self.height = aw, self.style.leading
        return aw, self.height

    def draw(self) -> None:
        if self.rec is not None and self.rec.layout_only:
            return
        c, st = self.canv, self.style
        c.setFont(st.font, st.size)
        c.setFillColor(st.colour)
        x = self.level * st.size * 1.5
        y = (st.leading - st.size) / 2 + st.size * 0.12
        head = f"{self.number}  {self.title}" if self.number else self.title
        page = self.pages.get(self.anchor)
        num = str(page) if page else "–"
        head = fit_line(head, st.font, st.size, self.width - x - stringWidth(num + "   ", st.font, st.size))
        end = draw_string(c, x, y, head + " ", st.font, st.size)
        c.setFont(st.font, st.size)
        c.drawRightString(self.width, y, num)
        note(c, self.width - stringWidth(num, st.font, st.size), y, num, st.font, st.size)
        c.setFillColor(HexColor("#aaaaaa"))
        dots = max(0, int((self.width - stringWidth(num + " ", st.font, st.size) - end) // stringWidth(".", st.font, st.size)))
        c.drawString(end, y, "." * dots)
        note(c, end, y, "." * dots, st.font, st.size, decoration=True)  # 2.3:1, a guide for the eye: never judged
        c.linkRect("", self.anchor, (0, 0, self.width, self.height), relative=1, thickness=0)
