"""Drawing a line of book text on a reportlab canvas, run by run in the faces `fonts.runs` chooses:
`draw_string` prints the bytes `canvas.drawString` prints for each run, without its text object per
run, remembering each string's operators per canvas (the rulebook draws the same words many times)."""
from __future__ import annotations

from itertools import repeat
from typing import Any

from .. import fonts

# per canvas: (font, size, string) -> its runs as (font, operators after the origin or None for a
# run reportlab draws itself, text, advance in font units); tuples, which the garbage collector
# stops tracking (a book remembers tens of thousands)
_Runs = tuple[tuple[str, "str | None", str, float], ...]


def draw_string(canvas: Any, x: float, y: float, s: str, font: str, size_pt: float) -> float:
    """Draw `s` on a reportlab canvas from (x, y) run by run (see `runs`); returns the end x.
    A TrueType run prints the bytes `canvas.drawString` prints, without its text object: the
    operators after the origin are remembered per canvas (once its document has given a character
    a code, the same text in the same font and size prints the same operators), with the run's
    advance (stringWidth's own sum, in font units)."""
    from reportlab.lib.rl_accel import fp_str
    from reportlab.pdfbase.pdfmetrics import stringWidth

    shown = canvas.__dict__.get("_pnp_shown")
    if shown is None:
        shown = canvas._pnp_shown = {}
    known: _Runs | None = shown.get(key := (font, size_pt, s))
    if known is None:
        known = shown[key] = _runs(canvas, s, font, size_pt)
    for f, operators, text, advance in known:
        canvas.setFont(f, size_pt)
        if operators is None:
            canvas.drawString(x, y, text)
            x += stringWidth(text, f, size_pt)
            continue
        canvas._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {operators} T* ET")
        x += 0.001 * size_pt * advance
    return x


def _runs(canvas: Any, s: str, font: str, size_pt: float) -> _Runs:
    """The runs of `s` with their operators, worked out (and the characters given codes in the
    document's subsets) in the order they are drawn."""
    out: list[tuple[str, str | None, str, float]] = []
    for text, f in fonts.runs(s, font):
        table = fonts._advance_table(f)
        if table is None or not canvas.bottomup:
            out.append((f, None, text, 0.0))
            continue
        canvas.setFont(f, size_pt)
        widths, default, _ = table
        out.append((f, _text_operators(canvas, f, text), text, sum(map(widths.get, map(ord, text), repeat(default)))))
    return tuple(out)


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
