"""The duplex calibration page: measure how far a printer shifts the back side.

Front: a cross through the page centre. Back: two rulers (mm) centred where the cross should
land after the flip, shifted by the current back offset. Held against the light, the cross
crosses each ruler at a reading; adding the readings to the current offset gives the offset to
use (`--back-offset x,y`). The reading is in the axes of this portrait page, the paper as it
leaves the printer; card sheets printed landscape turn it into their own axes (pieces/grid.py).
"""
from __future__ import annotations

from pathlib import Path

from .. import catalogue, fonts
from ..context import BuildContext
from ..render.base import Surface
from ..render.record import Recording, pdf_once

RULER_MM = 10  # ticks from -10 to +10 mm
LABEL_MM = 7.5  # distance of the ruler labels from the other ruler's axis


def calibration_points(ctx: BuildContext) -> tuple[tuple[float, float], tuple[float, float]]:
    """(front cross centre, back ruler zero) in mm on their pages."""
    w, h = ctx.paper_mm
    dx, dy = ctx.back_offset_mm
    return (w / 2, h / 2), (w / 2 + dx, h / 2 + dy)


def draw_calibration(s: Surface, ctx: BuildContext, lang: str, faces: fonts.Faces) -> None:
    w, h = ctx.paper_mm
    (fx, fy), (bx, by) = calibration_points(ctx)
    s.begin_page(w, h)
    s.line(fx - 60, fy, fx + 60, fy, width=0.2)
    s.line(fx, fy - 60, fx, fy + 60, width=0.2)
    s.circle(fx, fy, 3, stroke="#000000", width=0.2)
    x, y = ctx.back_offset_mm
    flip = catalogue.text(f"calibration.flip.{ctx.flip}", lang)
    lines = [catalogue.text(key, lang, flip=flip, x=x, y=y) for key in (
        "calibration.title", "calibration.print", "calibration.hold", "calibration.add", "calibration.build",
        "calibration.axes")]
    for i, line in enumerate(lines):
        s.text(15, 20 + i * 6, line, size_pt=10 if i else 13, font=faces.regular if i else faces.bold)
    s.end_page()
    s.begin_page(w, h)
    s.line(bx - RULER_MM - 2, by, bx + RULER_MM + 2, by, width=0.15)
    s.line(bx, by - RULER_MM - 2, bx, by + RULER_MM + 2, width=0.15)
    for t in range(-RULER_MM, RULER_MM + 1):
        long_tick = t % 5 == 0
        L = 3.0 if long_tick else 1.5
        s.line(bx + t, by - L, bx + t, by + L, width=0.1)
        s.line(bx - L, by + t, bx + L, by + t, width=0.1)
        if long_tick and t:
            # x labels under the ruler, y labels to its right, both beyond the ±5 ticks' reach
            # (7.5 mm from the axes), so no label of one ruler meets a label of the other.
            s.text(bx + t, by + LABEL_MM + 1.0, f"{t:+d}", size_pt=6, align="center", font=faces.regular)
            s.text(bx + LABEL_MM - 1.0, by + t + 0.8, f"{t:+d}", size_pt=6, font=faces.regular)
    s.text(bx, by - RULER_MM - 5, catalogue.text("calibration.rulers", lang), size_pt=8, align="center",
           font=faces.regular)
    s.end_page()


def write_calibration(out_dir: Path, ctx: BuildContext, lang: str = "en", suffix: str = "",
                      faces: fonts.Faces | None = None) -> list[Path]:
    """calibration-<paper>-<flip><suffix>.pdf beside the card sheets, its words in `lang` set in
    `faces` (the game's fonts of `lang`; None: the default faces of `lang`)."""
    # every deck's unit writes it: drawn once per process for each language, paper and offset
    rec = Recording()
    draw_calibration(rec, ctx, lang, faces or fonts.faces(lang))
    return pdf_once(rec, out_dir / f"calibration-{ctx.paper}-{ctx.flip}{suffix}.pdf",
                    catalogue.text("calibration.pdf_title", lang), preflight=ctx.preflight)
