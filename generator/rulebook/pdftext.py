"""Where the text of a typeset PDF actually is: every drawn string with its box, read back with pypdf.

Used to check a finished book the way a print shop looks at it: no text past the margins, no two
strings on top of each other (a footer over a title, a table cell running into its neighbour).
Widths come from the font metrics of the one font our books use, so a run is measured exactly as
the typesetter measured it.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator import fonts


@dataclass(frozen=True)
class Run:
    page: int  # 1-based
    text: str
    x0: float  # pt, from the left edge of the page
    x1: float
    y: float  # baseline, pt from the bottom edge
    size: float

    def overlaps(self, other: "Run") -> bool:
        """Do the two strings' boxes intersect (same line band, shared horizontal extent)?"""
        close = abs(self.y - other.y) < 0.6 * min(self.size, other.size)
        return close and self.x0 < other.x1 - 0.01 and other.x0 < self.x1 - 0.01


def text_runs(pdf: bytes) -> tuple[list[Run], list[tuple[float, float]]]:
    """Every non-empty string drawn, and each page's (width, height) in pt."""
    font = fonts.register()
    reader = PdfReader(io.BytesIO(pdf))
    runs: list[Run] = []
    sizes = []
    for number, page in enumerate(reader.pages, 1):
        sizes.append((float(page.mediabox.width), float(page.mediabox.height)))

        def visit(text: str, cm: list[float], tm: list[float], _font: object, size: float, number: int = number) -> None:
            text = text.rstrip("\n")
            if not text.strip():
                return
            scale = tm[0] * cm[0]  # our pages only translate and scale uniformly
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            w = stringWidth(text, font, size) * scale
            runs.append(Run(number, text, x, x + w, y, size * scale))

        page.extract_text(visitor_text=visit)
    return runs, sizes


def collisions(runs: list[Run]) -> list[tuple[Run, Run]]:
    """Pairs of strings on the same page drawn over each other."""
    out = []
    by_page: dict[int, list[Run]] = {}
    for r in runs:
        by_page.setdefault(r.page, []).append(r)
    for page_runs in by_page.values():
        page_runs.sort(key=lambda r: (round(r.y), r.x0))
        for i, a in enumerate(page_runs):
            for b in page_runs[i + 1:]:
                if b.y - a.y > a.size:  # sorted by baseline: nothing further up can touch a
                    break
                if a.overlaps(b):
                    out.append((a, b))
    return out


def outside(runs: list[Run], sizes: list[tuple[float, float]], margin: float) -> list[Run]:
    """Strings that reach past the left or right margin of their page (0.5 pt tolerance)."""
    return [r for r in runs if r.x0 < margin - 0.5 or r.x1 > sizes[r.page - 1][0] - margin + 0.5]
