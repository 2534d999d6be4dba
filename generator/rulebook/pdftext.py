"""Where the text of a typeset PDF actually is: every drawn string with its box, read from the PDF.

Used to check a finished book the way a print shop looks at it: no text past the margins, no two
strings on top of each other (a footer over a title, a table cell running into its neighbour).

The page content is interpreted operator by operator (q/Q/cm for the graphics state, Tm/Td/Tf/Tj/TJ
for text), and each string is measured with the /Widths the PDF itself carries, so the boxes are
what a viewer draws, not what the typesetter meant to draw. pypdf's text extractor is not used:
it cuts one drawn string into several pieces that all report the string's start.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.pdfbase.pdfmetrics import stringWidth


@dataclass(frozen=True)
class Run:
    page: int  # 1-based
    text: str
    x0: float  # pt, from the left edge of the page
    x1: float
    y: float  # baseline, pt from the bottom edge
    size: float  # font size as drawn on the page, pt

    def overlaps(self, other: "Run") -> bool:
        """Do the two strings' boxes intersect (same line band, shared horizontal extent)?"""
        close = abs(self.y - other.y) < 0.6 * min(self.size, other.size)
        return close and self.x0 < other.x1 - 0.01 and other.x0 < self.x1 - 0.01


class _Font:
    """Widths and the text of a simple (one byte per glyph) font, as the PDF defines them."""

    def __init__(self, obj) -> None:
        self.first = int(obj.get("/FirstChar", 0))
        self.widths = [float(w) for w in obj.get("/Widths", [])]
        self.base = str(obj.get("/BaseFont", "/Helvetica"))[1:]
        self.unicode: dict[int, str] = {}
        if "/ToUnicode" in obj:
            cmap = obj["/ToUnicode"].get_object().get_data().decode("latin-1")
            for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
                for code, uni in re.findall(r"<([0-9A-Fa-f]{2})>\s*<([0-9A-Fa-f]{4,})>", block):
                    self.unicode[int(code, 16)] = bytes.fromhex(uni).decode("utf-16-be", "replace")

    def width(self, data: bytes, size: float) -> float:
        if not self.widths:  # a standard 14 font: reportlab knows its metrics
            return stringWidth(data.decode("latin-1"), self.base, size)
        return sum(self.widths[b - self.first] for b in data if 0 <= b - self.first < len(self.widths)) * size / 1000

    def text(self, data: bytes) -> str:
        return "".join(self.unicode.get(b, chr(b)) for b in data)


def _mul(a: list[float], b: list[float]) -> list[float]:
    """a then b, PDF matrices [a b c d e f]."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _raw(s) -> bytes:
    """The bytes of a PDF string operand (pypdf decodes text strings; the glyph codes are the bytes)."""
    return bytes(s.original_bytes) if hasattr(s, "original_bytes") else bytes(s)


def _obj(value) -> dict:
    """A dictionary that may be an indirect reference or absent."""
    return value.get_object() if hasattr(value, "get_object") else (value or {})


def _page_runs(page, number: int, reader: PdfReader) -> list[Run]:
    runs: list[Run] = []
    _interpret(page.get_contents(), page.get("/Resources") or {}, [1.0, 0, 0, 1, 0, 0], number, reader, runs)
    return runs


def _interpret(contents, resources, ctm: list[float], number: int, reader: PdfReader, runs: list[Run]) -> None:
    """Run one content stream; a form XObject (`Do`, as in an imposed booklet) is run in place."""
    if contents is None:
        return
    resources = _obj(resources)
    fonts = {name: _Font(ref.get_object()) for name, ref in _obj(resources.get("/Font")).items()}
    xobjects = _obj(resources.get("/XObject"))
    stack: list[list[float]] = []
    tm = line = [1.0, 0, 0, 1, 0, 0]
    font: _Font | None = None
    size = 0.0

    def show(data: bytes) -> None:
        nonlocal tm
        if font is None:
            return
        w = font.width(data, size)
        m = _mul(tm, ctm)
        scale = (m[0] ** 2 + m[1] ** 2) ** 0.5
        text = font.text(data)
        if text.strip():
            x0 = m[4]
            runs.append(Run(number, text, min(x0, x0 + w * m[0]), max(x0, x0 + w * m[0]), m[5], size * scale))
        tm = _mul([1, 0, 0, 1, w, 0], tm)

    ops = contents.operations if isinstance(contents, ContentStream) else ContentStream(contents, reader).operations
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop() if stack else [1.0, 0, 0, 1, 0, 0]
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == b"BT":
            tm = line = [1.0, 0, 0, 1, 0, 0]
        elif op == b"Tm":
            tm = line = [float(v) for v in operands]
        elif op in (b"Td", b"TD"):
            tm = line = _mul([1, 0, 0, 1, float(operands[0]), float(operands[1])], line)
        elif op == b"Tf":
            font, size = fonts.get(operands[0]), float(operands[1])
        elif op == b"Tj":
            show(_raw(operands[0]))
        elif op == b"TJ":
            for part in operands[0]:
                if isinstance(part, (int, float)) or hasattr(part, "as_numeric"):
                    tm = _mul([1, 0, 0, 1, -float(part) * size / 1000, 0], tm)
                else:
                    show(_raw(part))
        elif op == b"Do" and operands[0] in xobjects:
            form = xobjects[operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                matrix = [float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                _interpret(form, form.get("/Resources") or resources, _mul(matrix, ctm), number, reader, runs)


def text_runs(pdf: bytes) -> tuple[list[Run], list[tuple[float, float]]]:
    """Every non-blank string drawn, and each page's (width, height) in pt."""
    reader = PdfReader(io.BytesIO(pdf))
    runs: list[Run] = []
    sizes = []
    for number, page in enumerate(reader.pages, 1):
        sizes.append((float(page.mediabox.width), float(page.mediabox.height)))
        runs += _page_runs(page, number, reader)
    return runs, sizes


def collisions(runs: list[Run]) -> list[tuple[Run, Run]]:
    """Pairs of strings on the same page drawn over each other."""
    out = []
    by_page: dict[int, list[Run]] = {}
    for r in runs:
        by_page.setdefault(r.page, []).append(r)
    for page_runs in by_page.values():
        page_runs.sort(key=lambda r: r.y)
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
