"""Flowables that place others: `SideBySide` puts two flowables next to each other (ja | en) and
splits them together; `Indented` moves one to the right (a clause's table under its text). Both
are imported from flowables.py, where they were."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable

from .drawstring import draw_on, set_stroke

if TYPE_CHECKING:
    from .flowables import Recorder

_RULE = HexColor("#cccccc")  # between the columns


class SideBySide(Flowable):
    """Two flowables in two columns, top-aligned; split together across a page break."""

    def __init__(self, left: Flowable | None, right: Flowable | None, gap: float):
        super().__init__()
        self.left, self.right, self.gap = left, right, gap

    def _col(self, avail_w: float) -> float:
        return (avail_w - self.gap) / 2

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        col = self._col(avail_w)
        hs = [f.wrap(col, avail_h)[1] for f in (self.left, self.right) if f is not None]
        self.width, self.height = avail_w, max(hs or [0.0])
        return self.width, self.height

    def split(self, avail_w: float, avail_h: float) -> list[Flowable]:
        col = self._col(avail_w)
        parts = []
        for f in (self.left, self.right):
            if f is None or f.wrap(col, avail_h)[1] <= avail_h:
                parts.append([f, None])
                continue
            s = f.split(col, avail_h)
            if not s:
                return []
            parts.append([s[0], s[1] if len(s) > 1 else None])
        (l0, l1), (r0, r1) = parts
        return [SideBySide(l0, r0, self.gap), SideBySide(l1, r1, self.gap)]

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        if self._layout_only():
            # a layout pass's canvas is never saved: the columns are placed for their destinations'
            # pages, without the state, translation and rule a drawing pass writes (2712 pairs
            # over the example books)
            col = self._col(self.width)
            for f, dx in ((self.left, 0.0), (self.right, col + self.gap)):
                if f is not None:
                    f.drawOn(canvas, x + dx, y + self.height - f.wrap(col, self.height)[1])
            return
        draw_on(self, canvas, x, y, _sW)  # Flowable.drawOn's bytes and state

    def _layout_only(self) -> bool:
        """Whether this is a layout pass: its columns' recorder says so (a KPara's, an Indented's)."""
        for f in (self.left, self.right):
            rec = getattr(f, "rec", None)
            if rec is not None:
                return bool(rec.layout_only)
        return False

    def draw(self) -> None:
        col = self._col(self.width)
        for f, x in ((self.left, 0.0), (self.right, col + self.gap)):
            if f is not None:
                _, h = f.wrap(col, self.height)
                f.drawOn(self.canv, x, self.height - h)
        set_stroke(self.canv, _RULE)
        self.canv.setLineWidth(0.3)
        mid = col + self.gap / 2
        self.canv.line(mid, 0, mid, self.height)


class Indented(Flowable):
    """A flowable moved `dx` to the right, in the width that leaves (a clause's table under its text).
    While `rec` is in a layout pass (one that only finds where headings land) it is not drawn (a
    table holds no destination)."""

    def __init__(self, inner: Flowable, dx: float, rec: Recorder | None = None):
        super().__init__()
        self.inner, self.dx, self.rec = inner, dx, rec

    def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
        _, self.height = self.inner.wrap(avail_w - self.dx, avail_h)
        self.width = avail_w
        return self.width, self.height

    def split(self, avail_w: float, avail_h: float) -> list[Flowable]:
        return [Indented(part, self.dx, self.rec) for part in self.inner.split(avail_w - self.dx, avail_h)]

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        if self.rec is not None and self.rec.layout_only:
            return  # a layout pass's canvas is never saved, and a table holds no destination
        draw_on(self, canvas, x, y, _sW)  # Flowable.drawOn's bytes and state

    def draw(self) -> None:
        if self.rec is None or not self.rec.layout_only:
            self.inner.drawOn(self.canv, self.dx, 0)
