"""Preflight: read the PDFs a build wrote back, as a print shop's preflight would, and report
what would go wrong on paper. It trusts no layout object of ours: fonts come from the file's
resources (pypdf), characters, colours and crop marks from pdfium's reading of the page, the
colours behind the text from the page rendered at 100 dpi.

Checks (error findings make `pnp preflight` exit 1; the build reports every finding as a warning):
- fonts-embedded (error): every font any page or form uses is embedded in the file;
- text-near-edge: on pages printed at home (A4, Letter, A5) no visible text within 5 mm of the
  paper edge, where home printers do not print;
- text-safe-zone: on sheets with crop marks, text inside a piece stays inside its safe zone
  (`safe_mm`, 3 mm by default, at most a tenth of the piece's short side for small counters);
- text-contrast: small text (under 18 pt) at least 4.5:1 against what is behind it, larger text 3:1
  (the WCAG ratios);
- symbols-overlap: two symbols (form XObjects) on one piece of a sheet with crop marks placed on
  top of each other by more than a fifth of the smaller one.

Text that a clip hides (a tiled map's sheets clip one big drawing) is not on paper: a character
counts only when the rendered page shows its colour inside its box.
"""
from __future__ import annotations

import ctypes
import itertools
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Literal

import numpy as np

from .cards.printing import MARK_WIDTH
from .cards.sheet import MARGIN_MM, MARK_LEN_MM, MARK_MIN_LEN_MM
from .context import PAPER_MM
from .geometry import MM_PER_PT
from .rulebook.typeset import PAGE_SIZES_MM

if TYPE_CHECKING:
    import pypdfium2 as pdfium  # imported where it is used: `pnp --help` stays fast

EDGE_MM = MARGIN_MM  # the strip home printers leave blank, which the sheets keep free
SAFE_MM = 3.0
MIN_CONTRAST, MIN_CONTRAST_LARGE, LARGE_PT = 4.5, 3.0, 18.0
RENDER_DPI = 100
HOME_PAPER_MM = [PAPER_MM["a4"], PAPER_MM["letter"], PAGE_SIZES_MM["a5"]]
# Crop marks are short strokes in the margin (sheet.py draws them MARK_MIN_LEN_MM to MARK_LEN_MM
# long, MARK_WIDTH wide). pdfium's bounds of a stroked line reach a stroke width past each end and
# side (a 3 mm mark reads 0.4 x 3.4 mm), so a mark reads up to these sizes:
MARK_READ_SLACK_MM = 2 * MARK_WIDTH + 0.1
MARK_MAX_MM = MARK_LEN_MM + MARK_READ_SLACK_MM
MARK_THICK_MAX_MM = MARK_READ_SLACK_MM
OVERLAP_SHARE = 0.2
EXAMPLES = 3

Level = Literal["error", "warning"]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, y down from the page top
Image = np.ndarray  # a page rendered at RENDER_DPI: rows x columns x RGB


@dataclass(frozen=True)
class Finding:
    level: Level
    path: str
    page: int  # 1-based; 0 for the whole file
    code: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}: page {self.page}" if self.page else self.path
        return f"{where}: {self.code}: {self.message}"


@dataclass(frozen=True)
class Char:
    text: str
    box: Rect
    size_pt: float
    rgb: tuple[int, int, int]


def preflight(paths: Iterable[Path], root: Path | None = None, safe_mm: float = SAFE_MM) -> list[Finding]:
    """Findings for every PDF among `paths` (other files are skipped), paths shown relative to `root`."""
    out: list[Finding] = []
    for p in sorted(Path(x) for x in paths):
        if p.suffix.lower() == ".pdf":
            name = str(p.relative_to(root)) if root and p.is_relative_to(root) else str(p)
            out += preflight_pdf(p, name, safe_mm)
    return out


def preflight_pdf(path: Path, name: str, safe_mm: float = SAFE_MM) -> list[Finding]:
    import pypdfium2 as pdfium

    findings = [Finding("error", name, 0, "fonts-embedded", f"font {f} is not embedded; embed it (or draw with "
                        "the project font) so the printer does not substitute another")
                for f in unembedded_fonts(path)]
    contrast: dict[tuple[str, str], list] = defaultdict(list)
    doc = pdfium.PdfDocument(str(path))
    try:
        for i in range(len(doc)):
            page = doc[i]
            w_mm, h_mm = (v * MM_PER_PT for v in page.get_size())
            chars = page_chars(page, h_mm)
            if chars:
                # Text drawn without anti-aliasing: its pixels have exactly its colour.
                image = np.asarray(page.render(scale=RENDER_DPI / 72, no_smoothtext=True).to_pil().convert("RGB"),
                                   dtype=np.int16)
                chars = [c for c in chars if _visible(c, image, w_mm, h_mm)]
                runs = text_runs(chars)
            else:
                runs = []
            if _home_paper(w_mm, h_mm):
                findings += _edge(name, i + 1, chars, w_mm, h_mm)
            trims = crop_mark_trims(page, h_mm)
            findings += _safe_zone(name, i + 1, chars, trims, safe_mm)
            findings += _overlaps(name, i + 1, page, trims)
            for r in runs:
                bg = _background(r, image)
                if bg is None:
                    continue
                ratio = contrast_ratio(r.rgb, bg)
                need = MIN_CONTRAST_LARGE if r.size_pt >= LARGE_PT else MIN_CONTRAST
                if ratio < need:
                    contrast[(_hex(r.rgb), _hex(bg))].append((i + 1, r, ratio))
            page.close()
    finally:
        doc.close()
    for (fg, back), hits in sorted(contrast.items()):
        pages = sorted({p for p, _, _ in hits})
        worst = min(r for _, _, r in hits)
        sample = " / ".join(dict.fromkeys(r.text for _, r, _ in hits))[:40]
        sizes = sorted({round(r.size_pt, 1) for _, r, _ in hits})
        findings.append(Finding("warning", name, pages[0], "text-contrast",
                                f"{len(hits)} text runs {fg} on {back} at {worst:.1f}:1 (need {MIN_CONTRAST:g}:1 "
                                f"under {LARGE_PT:g} pt, {MIN_CONTRAST_LARGE:g}:1 above; "
                                f"{', '.join(f'{s:g}' for s in sizes)} pt; pages {_span(pages)}; e.g. {sample!r}); "
                                f"darken the text or lighten the background"))
    return findings


# --------------------------------------------------------------------------- reading the file

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
    cols, rows = _pieces(sorted(xs)), _pieces(sorted(ys))
    return [(a, b, c, d) for a, c in cols for b, d in rows]


def _pieces(edges: list[float]) -> list[tuple[float, float]]:
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
    def box(self) -> tuple[float, float, float, float]:
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


def _window(box: Rect, image: Image, pad_mm: float = 0.0) -> Image | None:
    k = RENDER_DPI / 25.4
    x0, y0 = max(0, int((box[0] - pad_mm) * k)), max(0, int((box[1] - pad_mm) * k))
    x1 = min(image.shape[1], int((box[2] + pad_mm) * k) + 1)
    y1 = min(image.shape[0], int((box[3] + pad_mm) * k) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return image[y0:y1, x0:x1].reshape(-1, 3)


def _visible(c: Char, image: Image, w_mm: float, h_mm: float) -> bool:
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


def _background(r: Run, image: Image) -> tuple[int, int, int] | None:
    """The commonest colour round the run that is clearly not the text's own (anti-aliased edges
    mix the two): the paper, band or picture the text is read against."""
    px = _window(r.box, image, pad_mm=0.25 * r.size_pt * MM_PER_PT)
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


# --------------------------------------------------------------------------- the checks

def _edge(name: str, page: int, chars: list[Char], w: float, h: float) -> list[Finding]:
    near = [(min(c.box[0], c.box[1], w - c.box[2], h - c.box[3]), c) for c in chars]
    near = [(d, c) for d, c in near if d < EDGE_MM]
    if not near:
        return []
    d = min(d for d, _ in near)
    sample = "".join(c.text for _, c in near[:12])
    return [Finding("warning", name, page, "text-near-edge",
                    f"{len(near)} characters within {EDGE_MM:g} mm of the paper edge (closest {d:.1f} mm, "
                    f"e.g. {sample!r}); home printers leave that strip blank: move the text inwards")]


def _safe_zone(name: str, page: int, chars: list[Char], trims: list[Rect], safe_mm: float) -> list[Finding]:
    hits = []
    for c in chars:
        cx, cy = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
        for x0, y0, x1, y1 in trims:
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                safe = min(safe_mm, 0.1 * min(x1 - x0, y1 - y0))
                d = min(c.box[0] - x0, c.box[1] - y0, x1 - c.box[2], y1 - c.box[3])
                if d < safe - 0.05:
                    hits.append((d, safe, c))
                break
    if not hits:
        return []
    d, safe, _ = min(hits, key=lambda t: t[0])
    sample = "".join(c.text for _, _, c in hits[:12])
    return [Finding("warning", name, page, "text-safe-zone",
                    f"{len(hits)} characters outside the {safe:g} mm safe zone inside the trim (closest "
                    f"{d:.1f} mm from the cut, e.g. {sample!r}); a cut that drifts would clip them: move "
                    f"them inwards in layouts.yaml")]


def _overlaps(name: str, page_no: int, page: pdfium.PdfPage, trims: list[Rect]) -> list[Finding]:
    """Symbols (form XObjects) on one piece that cover each other by more than OVERLAP_SHARE."""
    import pypdfium2.raw as raw

    h = page.get_size()[1] * MM_PER_PT
    boxes = []
    for obj in page.get_objects(max_depth=1):
        if obj.type == raw.FPDF_PAGEOBJ_FORM:
            x0, y0, x1, y1 = (v * MM_PER_PT for v in obj.get_bounds())
            boxes.append((x0, h - y1, x1, h - y0))
    hits = []
    for t in trims:
        inside = [b for b in boxes if t[0] <= (b[0] + b[2]) / 2 <= t[2] and t[1] <= (b[1] + b[3]) / 2 <= t[3]]
        for a, b in itertools.combinations(inside, 2):
            ix = min(a[2], b[2]) - max(a[0], b[0])
            iy = min(a[3], b[3]) - max(a[1], b[1])
            small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
            if ix > 0 and iy > 0 and small > 0 and ix * iy > OVERLAP_SHARE * small:
                hits.append(b)
    if not hits:
        return []
    x, y = hits[0][0], hits[0][1]
    return [Finding("warning", name, page_no, "symbols-overlap",
                    f"{len(hits)} symbols drawn over another symbol on the same piece (first at {x:.0f}, {y:.0f} mm "
                    f"from the page's top-left); give each its own box in layouts.yaml")]


# --------------------------------------------------------------------------- colour

def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""
    la, lb = _luminance(a), _luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def _luminance(rgb: tuple[int, int, int]) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def _home_paper(w: float, h: float) -> bool:
    a, b = sorted((w, h))
    return any(abs(a - pw) < 1 and abs(b - ph) < 1 for pw, ph in HOME_PAPER_MM)


def _span(pages: list[int]) -> str:
    return str(pages[0]) if len(pages) == 1 else f"{pages[0]}-{pages[-1]}" if len(pages) > 3 else ", ".join(map(str, pages))
