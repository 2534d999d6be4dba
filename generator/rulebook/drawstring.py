"""Drawing a line of book text on a reportlab canvas, run by run in the faces `fonts.runs` chooses:
`draw_string` prints the bytes `canvas.drawString` prints for each run, without its text object per
run, remembering each run's operators per canvas (the rulebook draws the same words many times)."""
from __future__ import annotations

from itertools import repeat
from typing import Any

from .. import fonts


def draw_string(canvas: Any, x: float, y: float, s: str, font: str, size_pt: float) -> float:
    """Draw `s` on a reportlab canvas from (x, y) run by run (see `runs`); returns the end x.
    A TrueType run prints the bytes `canvas.drawString` prints, without its text object: the
    operators after the origin are remembered per canvas (once its document has given a character
    a code, the same text in the same font and size prints the same operators), with the run's
    advance (stringWidth's own sum, in font units)."""
    from reportlab.lib.rl_accel import fp_str
    from reportlab.pdfbase.pdfmetrics import stringWidth

    shown = canvas.__dict__.setdefault("_pnp_shown", {})
    for text, f in fonts.runs(s, font):
        canvas.setFont(f, size_pt)
        table = fonts._advance_table(f)
        if table is None or not canvas.bottomup:
            canvas.drawString(x, y, text)
            x += stringWidth(text, f, size_pt)
            continue
        known = shown.get(key := (f, size_pt, text))
        if known is None:
            widths, default, _ = table
            known = shown[key] = (_text_operators(canvas, f, text), sum(map(widths.get, map(ord, text), repeat(default))))
        canvas._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {known[0]} T* ET")
        x += 0.001 * size_pt * known[1]
    return x


def _text_operators(canvas: Any, font: str, text: str) -> str:
    """What reportlab's PDFTextObject._formatText writes for `text` in an unshaped TrueType font:
    each glyph subset's font and size, then its string."""
    from reportlab.lib.rl_accel import fp_str
    from reportlab.pdfbase.pdfmetrics import getFont

    face, doc, parts, current = getFont(font), canvas._doc, [], -1
    for subset, chunk in face.splitString(text, doc):
        if subset != current:
            parts.append(f"{face.getSubsetInternalName(subset, doc)} {fp_str(canvas._fontsize)} Tf {fp_str(canvas._leading)} TL")
            current = subset
        parts.append(f"({canvas._escape(chunk)}) Tj")
    return " ".join(parts)
