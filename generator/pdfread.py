"""What a PDF page shows, read back from the file as a print shop's preflight reads it (pdfium,
pypdf): its characters with their boxes, sizes and colours, whether the rendered page shows each,
the colour behind a run of text, the trims its crop marks stand for, the boxes of its symbols and
the fonts it does not embed. Lengths in mm, y down from the page's top-left.

generator/preflight.py judges what this reads.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import numpy as np

from .pieces.plan import MARK_WIDTH
from .pieces.grid import MARK_LEN_MM, MARK_MIN_LEN_MM
from .geometry import MM_PER_PT

if TYPE_CHECKING:
    import pypdfium2 as pdfium  # imported where it is used: `pnp --help` stays fast

RENDER_DPI = 100
# Crop marks are short strokes in the margin (pieces/grid.py draws them MARK_MIN_LEN_MM to MARK_LEN_MM
# long, MARK_WIDTH wide). pdfium's bounds of a stroked line reach a stroke width past each end and
# side (a 3 mm mark reads 0.4 x 3.4 mm), so a mark reads up to these sizes:
MARK_READ_SLACK_MM = 2 * MARK_WIDTH + 0.1
MARK_MAX_MM = MARK_LEN_MM + MARK_READ_SLACK_MM
MARK_THICK_MAX_MM = MARK_READ_SLACK_MM

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, y down from the page top
Image = np.ndarray  # a page rendered at RENDER_DPI: rows x columns x RGB


@dataclass(frozen=True)
class Char:
    text: str
    box: Rect
    size_pt: float
    rgb: tuple[int, int, int]


def unembedded_fonts(path: Path) -> list[str]:
    """BaseFont names of the fonts used by pages or forms that carry no font file."""
    import pypdf

    bad: set[str] = set()
    seen: set[int] = set()

    def walk(resources) -> Iterator:
        if resources is None:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            yield ref.get_object()
        for ref in (resources.get("/XObject") or {}).values():
            key = getattr(ref, "idnum", id(ref))
            if key in seen:
                continue
            seen.add(key)
            x = ref.get_object()
            if x.get("/Subtype") == "/Form":
                yield from walk(x.get("/Resources"))

    for page in pypdf.PdfReader(path).pages:
        for font in walk(page.get("/Resources")):
            f = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
            desc = f.get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            if not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                bad.add(str(font.get("/BaseFont", "?")).lstrip("/"))
    return sorted(bad)


def page_chars(page: pdfium.PdfPage, h_mm: float) -> list[Char]:
    """Every non-blank character pdfium finds on the page with its box, size and fill colour."""
    import pypdfium2.raw as raw

    tp = page.get_textpage()
    out = []
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    for j in range(tp.count_chars()):
        ch = chr(raw.FPDFText_GetUnicode(tp.raw, j))
        if not ch.strip():
            continue
        left, bottom, right, top = tp.get_charbox(j)
        if right <= left or top <= bottom:
            continue
        raw.FPDFText_GetFillColor(tp.raw, j, r, g, b, a)
        box = (left * MM_PER_PT, h_mm - top * MM_PER_PT, right * MM_PER_PT, h_mm - bottom * MM_PER_PT)
        out.append(Char(ch, box, raw.FPDFText_GetFontSize(tp.raw, j), (r.value, g.value, b.value)))
    tp.close()
    return out


def crop_mark_trims(page: pdfium.PdfPage, h_mm: float) -> list[Rect]:
    """Trim boxes (mm, y down) read from the crop marks: short lines in the margin in line with the
    trim edges. Pairs of mark positions are a piece; the shorter gaps between pieces are bleed."""
    import pypdfium2.raw as raw

    xs, ys = set(), set()
    for obj in page.get_objects(max_depth=1):
        if obj.type != raw.FPDF_PAGEOBJ_PATH:
            continue
        x0, y0, x1, y1 = (v * MM_PER_PT for v in obj.get_bounds())
        w, h = x1 - x0, y1 - y0
        if w < MARK_THICK_MAX_MM and MARK_MIN_LEN_MM <= h <= MARK_MAX_MM:
            xs.add(round((x0 + x1) / 2, 1))
        elif h < MARK_THICK_MAX_MM and MARK_MIN_LEN_MM <= w <= MARK_MAX_MM:
            ys.add(round(h_mm - (y0 + y1) / 2, 1))
    cols, rows = _trim_spans(sorted(xs)), _trim_spans(sorted(ys))
    return [(a, b, c, d) for a, c in cols for b, d in rows]


def _trim_spans(edges: list[float]) -> list[tuple[float, float]]:
    """Trim intervals from sorted trim edges: the long intervals are pieces, short ones gutters."""
    spans = list(zip(edges, edges[1:]))
    if not spans:
        return []
    longest = max(b - a for a, b in spans)
    return [(a, b) for a, b in spans if b - a > longest / 2]


@dataclass(frozen=True)
class Run:
    """Characters of one colour and size side by side on one line: a word or a label."""
    chars: tuple[Char, ...]

    @property
    def text(self) -> str:
        return "".join(c.text for c in self.chars)

    @property
    def rgb(self) -> tuple[int, int, int]:
        return self.chars[0].rgb

    @property
    def size_pt(self) -> float:
        return self.chars[0].size_pt

    @property
    def box(self) -> Rect:
        return (min(c.box[0] for c in self.chars), min(c.box[1] for c in self.chars),
                max(c.box[2] for c in self.chars), max(c.box[3] for c in self.chars))


def text_runs(chars: list[Char]) -> list[Run]:
    """Consecutive characters (in the file's order) of one colour and size, on one baseline and
    less than an em apart, as runs: contrast is judged per run, on the paper round it."""
    runs: list[list[Char]] = []
    for c in chars:
        if runs:
            last = runs[-1][-1]
            em = c.size_pt * MM_PER_PT
            if (c.rgb == last.rgb and abs(c.size_pt - last.size_pt) < 0.01 and abs(c.box[3] - last.box[3]) < em
                    and -0.2 * em < c.box[0] - last.box[2] < em):
                runs[-1].append(c)
                continue
        runs.append([c])
    return [Run(tuple(r)) for r in runs]


def window(box: Rect, image: Image, pad_mm: float = 0.0) -> Image | None:
    k = RENDER_DPI / 25.4
    x0, y0 = max(0, int((box[0] - pad_mm) * k)), max(0, int((box[1] - pad_mm) * k))
    x1 = min(image.shape[1], int((box[2] + pad_mm) * k) + 1)
    y1 = min(image.shape[0], int((box[3] + pad_mm) * k) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return image[y0:y1, x0:x1].reshape(-1, 3)


def visible(c: Char, image: Image, w_mm: float, h_mm: float) -> bool:
    """True when the character is on the paper and the rendered page shows its colour as a glyph
    inside its box (at least three pixel rows and, unless the glyph is narrow, two columns: a line
    of the same colour crossing the box is not a glyph). A clip hides the rest: a tiled map's sheets clip one big drawing."""
    cx, cy = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
    if not (0 <= cx <= w_mm and 0 <= cy <= h_mm):
        return False
    k = RENDER_DPI / 25.4
    x0, y0 = max(0, int(c.box[0] * k)), max(0, int(c.box[1] * k))
    x1, y1 = min(image.shape[1], int(c.box[2] * k) + 1), min(image.shape[0], int(c.box[3] * k) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    mask = np.abs(image[y0:y1, x0:x1] - np.array(c.rgb)).sum(axis=2) < 120
    narrow = c.box[2] - c.box[0] < 0.6  # an "l" or "i" may be one pixel wide
    return int(mask.any(axis=1).sum()) >= 3 and (narrow or int(mask.any(axis=0).sum()) >= 2)


def background(r: Run, image: Image) -> tuple[int, int, int] | None:
    """The commonest colour round the run that is clearly not the text's own (anti-aliased edges
    mix the two): the paper, band or picture the text is read against."""
    px = window(r.box, image, pad_mm=0.25 * r.size_pt * MM_PER_PT)
    if px is None:
        return None
    far = px[np.abs(px - np.array(r.rgb)).sum(axis=1) > 120]
    if len(far) < 0.15 * len(px):
        return None
    keys = (far[:, 0] // 16) * 256 + (far[:, 1] // 16) * 16 + far[:, 2] // 16
    values, counts = np.unique(keys, return_counts=True)
    pick = far[keys == values[counts.argmax()]]
    red, green, blue = (int(v) for v in pick.mean(axis=0).round())
    return red, green, blue


def form_boxes(page: pdfium.PdfPage) -> list[Rect]:
    """Boxes of the form XObjects placed on the page (our symbols are drawn as forms)."""
    import pypdfium2.raw as raw

    h = page.get_size()[1] * MM_PER_PT
    boxes = []
    for obj in page.get_objects(max_depth=1):
        if obj.type == raw.FPDF_PAGEOBJ_FORM:
            x0, y0, x1, y1 = (v * MM_PER_PT for v in obj.get_bounds())
            boxes.append((x0, h - y1, x1, h - y0))
    return boxes


def render(page: pdfium.PdfPage) -> Image:
    """The page at RENDER_DPI, text drawn without anti-aliasing: its pixels have exactly its colour."""
    return np.asarray(page.render(scale=RENDER_DPI / 72, no_smoothtext=True).to_pil().convert("RGB"), dtype=np.int16)
