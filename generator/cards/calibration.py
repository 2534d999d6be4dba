"""The duplex calibration page: measure how far a printer shifts the back side.

Front: a cross through the page centre. Back: two rulers (mm) centred where the cross should
land after the flip, shifted by the current back offset. Held against the light, the cross
crosses each ruler at a reading; adding the readings to the current offset gives the offset to
use (`--back-offset x,y`). The reading is in the axes of this portrait page, the paper as it
leaves the printer; card sheets printed landscape turn it into their own axes (sheet.py).
"""
from __future__ import annotations

from pathlib import Path

from ..context import BuildContext
from ..render import open_surface
from ..render.base import Surface

RULER_MM = 10  # ticks from -10 to +10 mm
LABEL_MM = 7.5  # distance of the ruler labels from the other ruler's axis


def calibration_points(ctx: BuildContext) -> tuple[tuple[float, float], tuple[float, float]]:
    """(front cross centre, back ruler zero) in mm on their pages."""
    w, h = ctx.paper_mm
    dx, dy = ctx.back_offset_mm
    return (w / 2, h / 2), (w / 2 + dx, h / 2 + dy)


def draw_calibration(s: Surface, ctx: BuildContext) -> None:
    w, h = ctx.paper_mm
    (fx, fy), (bx, by) = calibration_points(ctx)
    s.begin_page(w, h)
    s.line(fx - 60, fy, fx + 60, fy, width=0.2)
    s.line(fx, fy - 60, fx, fy + 60, width=0.2)
    s.circle(fx, fy, 3, stroke="#000000", width=0.2)
    lines = [
        "Duplex calibration (front)",
        f"Print both sides with flip: {ctx.flip} edge, scale 100%.",
        "Hold the sheet against the light: where the cross meets each ruler of",
        "the back is the correction. Add it to the current offset",
        f"(now {ctx.back_offset_mm[0]:+.1f}, {ctx.back_offset_mm[1]:+.1f} mm) and build with --back-offset x,y.",
        "The offset is in this page's axes; landscape sheets get it turned to theirs.",
        "両面印刷の較正: 100%で両面印刷し、光に透かして十字が裏の目盛りと交わる値を読み、",
        "現在のオフセットに足して --back-offset x,y に指定してください。",
        "オフセットはこのページの向きで測ります。横向きのシートには向きを変えて適用します。",
    ]
    for i, t in enumerate(lines):
        s.text(15, 20 + i * 6, t, size_pt=10 if i else 13)
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
            s.text(bx + t, by + LABEL_MM + 1.0, f"{t:+d}", size_pt=6, align="center")
            s.text(bx + LABEL_MM - 1.0, by + t + 0.8, f"{t:+d}", size_pt=6)
    s.text(bx, by - RULER_MM - 5, "x: horizontal ruler, y: vertical ruler (mm, back side)", size_pt=8, align="center")
    s.end_page()


def write_calibration(out_dir: Path, ctx: BuildContext) -> list[Path]:
    """calibration-<paper>-<flip>.pdf beside the card sheets."""
    s = open_surface("pdf", title="Duplex calibration")
    draw_calibration(s, ctx)
    return s.save(out_dir / f"calibration-{ctx.paper}-{ctx.flip}.pdf")
