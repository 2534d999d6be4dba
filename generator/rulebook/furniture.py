"""What a book prints round its text: the contents' lines (number and heading, dot leaders, the
page number, a link) and each page's footer (page number and running title)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from generator import fonts
from generator.text import fit_line

from .drawstring import draw_on, draw_string, set_fill
from .flowables import Recorder, Style

if TYPE_CHECKING:
    from .typeset import Geometry

GREY = HexColor("#555555")
DOTS = HexColor("#aaaaaa")  # the contents' leaders: one colour object, so its figures are remembered


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

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        if self.rec is not None and self.rec.layout_only:
            return  # a layout pass's canvas is never saved: not even the state a drawing pass saves
        draw_on(self, canvas, x, y, _sW)  # Flowable.drawOn's bytes and state

    def draw(self) -> None:
        if self.rec is not None and self.rec.layout_only:
            return
        c, st = self.canv, self.style
        c.setFont(st.font, st.size)
        set_fill(c, st.colour)
        x = self.level * st.size * 1.5
        y = (st.leading - st.size) / 2 + st.size * 0.12
        head = f"{self.number}  {self.title}" if self.number else self.title
        page = self.pages.get(self.anchor)
        num = str(page) if page else "–"
        head = fit_line(head, st.font, st.size, self.width - x - stringWidth(num + "   ", st.font, st.size))
        end = draw_string(c, x, y, head + " ", st.font, st.size)
        # the bytes drawRightString and drawString write, each string noted for preflight as it is drawn
        draw_string(c, self.width - stringWidth(num, st.font, st.size), y, num, st.font, st.size)
        set_fill(c, DOTS)
        dots = max(0, int((self.width - stringWidth(num + " ", st.font, st.size) - end) // stringWidth(".", st.font, st.size)))
        draw_string(c, end, y, "." * dots, st.font, st.size, decoration=True)  # 2.3:1, a guide for the eye: never judged
        c.linkRect("", self.anchor, (0, 0, self.width, self.height), relative=1, thickness=0)


FOOTER_GAP_MM = 6  # at least this much paper between the running title and the page number


def draw_footer(canv: Any, geo: Geometry, font: str, title: str, page: int) -> None:
    """Page number on the outer edge (right on odd pages, left on even ones, as in a bound book),
    the running title from the other edge, cut with "…" where it would come near the number."""
    size = geo.base * 0.8
    number = str(page)
    y = geo.margin * 0.6
    room = geo.width - 2 * geo.margin - stringWidth(number, font, size) - FOOTER_GAP_MM * mm
    head = fit_line(title, font, size, room)
    canv.saveState()
    canv.setFont(font, size)
    set_fill(canv, GREY)
    if page % 2:  # the number as drawRightString draws it
        draw_string(canv, geo.width - geo.margin - stringWidth(number, font, size), y, number, font, size)
        draw_string(canv, geo.margin, y, head, font, size)
    else:
        draw_string(canv, geo.margin, y, number, font, size)
        draw_string(canv, geo.width - geo.margin - fonts.string_width(head, font, size), y, head, font, size)
    canv.restoreState()
