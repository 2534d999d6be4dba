"""Units and boxes: the layout works in millimetres, y growing downwards from a page's top-left.

Points appear only inside renderers (1 pt = 25.4/72 mm). A `Box` is immutable, so layout code
passes boxes around as plain values that tests compare directly.
"""
from __future__ import annotations

from dataclasses import dataclass

MM_PER_PT = 25.4 / 72.0
PT_PER_MM = 72.0 / 25.4
MM_PER_INCH = 25.4


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    return pt * MM_PER_PT


def mm_to_px(mm: float, dpi: float) -> float:
    return mm * dpi / MM_PER_INCH


@dataclass(frozen=True)
class Box:
    """A rectangle in mm: top-left corner (x, y), width w, height h; y grows downwards."""
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def inset(self, d: float, dy: float | None = None) -> "Box":
        """Shrink by d on every side (or d left/right and dy top/bottom); negative grows."""
        dy = d if dy is None else dy
        return Box(self.x + d, self.y + dy, self.w - 2 * d, self.h - 2 * dy)

    def outset(self, d: float) -> "Box":
        return self.inset(-d)

    def moved(self, dx: float, dy: float) -> "Box":
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def contains(self, other: "Box", tol: float = 1e-6) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.right <= self.right + tol and other.bottom <= self.bottom + tol)

    def overlaps(self, other: "Box", tol: float = 1e-6) -> bool:
        return (self.x < other.right - tol and other.x < self.right - tol
                and self.y < other.bottom - tol and other.y < self.bottom - tol)

    def rounded(self, nd: int = 4) -> tuple[float, float, float, float]:
        return (round(self.x, nd), round(self.y, nd), round(self.w, nd), round(self.h, nd))
