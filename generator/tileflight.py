"""Preflight of a tiled print (generator/hexmap/tiles.py: a map's or a board's full-size page cut
onto A4/Letter sheets) beside its full-size file, its twin (issue 26).

    TiledRecord(twin, pages)     what the tiled file's writer offers preflight with its bytes: the
                                 name of the full-size file in the same folder drawing the same page
    own_text(page, h_mm, w_mm)   a sheet's own characters (its page-level text objects'), not the
                                 big page's form's, or None where they cannot be told apart
    own_seen(page, chars, ...)   their runs as the rendered page shows them, the page drawn only
                                 round their windows (pdfread.render's clips: the same pixels there)

Every sheet draws the big page as one form, placed 1:1 and clipped to the sheet's window, and its
own furniture on top (the sheet's name, its neighbours', the title, the names in the overlap strips
on white patches, guide and trim lines). The twin draws the same page, whole, at the same scale, in
the same unit. So when preflight has judged the twin in the same call and found nothing, a sheet's
read-back judges only the sheet's own characters, on the page rendered as before (their colours
under them are the real pixels: a name's patch is only 0.8 mm past it, the read-back's window up to
a pixel wider, so no record of the furniture can tell it; #767676 on white is 4.54:1, too near 4.5:1
for any bound on what the map shows round the patch). What the sheet's read-back of the big page's
characters could find that the twin's cannot, and why it is not reported:

- text-near-edge: the window lies at least the sheet's margin (8 mm) inside the paper and the clip
  hides the rest, so no character of the big page inks the 5 mm strip (`inks_strip`); the writer
  offers a record only where the margin is at least that strip;
- text-contrast, text-unreadable: the same text on the same fills at the same scale as the twin's
  page, which is judged whole; on a sheet, a run the window cuts is read against the margin's paper
  round it (its whole is on the twin, and on the neighbour once glued), the pixel grid's phase
  differs (the twin's read-back is the judge of anti-aliased edges), and the guide lines and the
  names' patches lie in the strips the neighbours cover once glued;
- type-size, text-safe-zone, symbols-overlap: judged only on a page with crop marks, which are read
  from the page's own paths (the furniture's; the big page's are inside the form): a sheet with any
  is read back whole.

A run joining a character of the big page to one of the sheet's own (one colour, size and baseline,
less than an em apart) is judged as the sheet's part alone. The assembly page (the big page scaled
down, where 18 pt type becomes small type, and the sheets' outlines and number discs over it) is
read back whole, as is every page of a tiled file whose twin has any finding or is not among the
files checked, and a sheet whose own characters cannot be told apart (`own_text` None).
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np

from .geometry import MM_PER_PT
from .pageink import window_places
from .pagetext import PageText, _centred_on, _not_blank, _page_text, _styles, raw_call, run_spans, span_boxes
from .pdfread import WIDE, Image, RunsSeen, pixels_of, render, runs_seen

if TYPE_CHECKING:
    import pypdfium2 as pdfium


@dataclass(frozen=True)
class TiledRecord:
    """A tiled print's file: its twin (the full-size file's name, in the same folder) and its
    number of pages (the assembly page, then one per sheet)."""
    twin: str
    pages: int


def own_text(page: pdfium.PdfPage, h_mm: float, w_mm: float) -> PageText | None:
    """The characters on the paper of the page's own text objects (pagetext.read_page_text's
    reading of them), not those of the forms it places: pdfium's text page holds a form's characters
    where the form is drawn, and a sheet draws its big page first, so its own text is the tail.
    None when that tail does not hold every page-level text object but blank ones (the whole page is
    read back)."""
    import pypdfium2.raw as raw

    V, I = ctypes.c_void_p, ctypes.c_int
    get, kind_of = raw_call(raw.FPDFPage_GetObject, V, V, I), raw_call(raw.FPDFPageObj_GetType, I, V)
    handle = ctypes.cast(page.raw, V).value
    mine = {o for o in map(get, repeat(handle), range(raw.FPDFPage_CountObjects(page.raw)))
            if kind_of(o) == raw.FPDF_PAGEOBJ_TEXT}
    tp = page.get_textpage()
    try:
        n, th = tp.count_chars(), ctypes.cast(tp.raw, V).value
        text_object = raw_call(raw.FPDFText_GetTextObject, V, V, I)
        first, met = n, set()
        while first > 0 and ((o := text_object(th, first - 1)) is None or o in mine):  # None: a space pdfium adds
            met.add(o)
            first -= 1
        if any(not _blank(o, tp.raw) for o in mine - met):  # pdfium gives a lone space no character of its own
            return None
        whole = _page_text(tp.raw, n)
        at = [j for j in _not_blank(whole) if j >= first]
        charbox = raw_call(raw.FPDFText_GetCharBox, I, V, I, V, V, V, V)
        lrbt = np.zeros((m := len(at), 4), dtype=np.float64)  # pdfium writes each box into its row: l r b t
        a = lrbt.ctypes.data
        got = list(map(charbox, repeat(th, m), at, *(range(a + 8 * c, a + 32 * m, 32) for c in range(4))))
        x0, x1, y0, y1 = lrbt.T
        box = np.stack([x0 * MM_PER_PT, h_mm - y1 * MM_PER_PT, x1 * MM_PER_PT, h_mm - y0 * MM_PER_PT], axis=1)
        kept = np.flatnonzero(np.array(got, dtype=bool) & (x1 > x0) & (y1 > y0) & _centred_on(box, w_mm, h_mm))
        where = [at[k] for k in kept.tolist()]
        # a character with no colour of its own would take the one before it, maybe a form's: read back
        styles = _styles(tp.raw, where, list(map(text_object, repeat(th, len(where)), where)))
    finally:
        tp.close()
    return None if styles is None else PageText([whole[at[i]] for i in kept.tolist()], box[kept], *styles)


CLIP_MARGIN = 4  # pixels drawn round each window: a clip's outermost two are anti-aliased (pdfread.render)


def own_seen(page: pdfium.PdfPage, chars: PageText, w_mm: float, h_mm: float) -> tuple[Image, RunsSeen]:
    """`runs_seen` of a sheet's own characters (`own_text`: a few labels) on the page drawn only
    round their runs' windows (pdfread.render's `clips`; drawing the whole map under them was most of
    a sheet's read), whose pixels are the whole render's. The page is drawn whole where the windows
    cover much of it (`runs_seen` then reads its ink whole), where a run seen (less the glyphs the
    render drops) reaches outside what was drawn, and on a page not upright at the origin."""
    shape = pixels_of(page)
    starts, _ = run_spans(chars)
    places = window_places(shape, span_boxes(chars, starts), 0.25 * chars.size[starts] * MM_PER_PT)
    upright = page.get_rotation() == 0 and page.get_bbox() == (0.0, 0.0, page.get_width(), page.get_height())
    if upright and places.area.sum() <= WIDE * shape[0] * shape[1]:
        clips = _merged([(x, y, x + w, y + h) for x, y, w, h in zip(places.x0.tolist(), places.y0.tolist(),
                                                                     places.w.tolist(), places.h.tolist()) if w and h], shape)
        image = render(page, clips)
        seen = runs_seen(chars, image, w_mm, h_mm)
        if len(seen.chars) == len(chars) or _inside(seen, shape, clips):
            return image, seen
    image = render(page)
    return image, runs_seen(chars, image, w_mm, h_mm)


def _merged(rects: list[tuple[int, int, int, int]], shape: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """The rectangles widened by CLIP_MARGIN (on the page), those that meet made one (their bounds)."""
    m, (rows, cols) = CLIP_MARGIN, shape
    out = [(max(0, a - m), max(0, b - m), min(cols, c + m), min(rows, d + m)) for a, b, c, d in rects]
    i = 0
    while i < len(out):
        a = out[i]
        j = next((j for j, b in enumerate(out) if j != i and a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]), None)
        if j is None:
            i += 1
            continue
        b = out.pop(j)
        out[i if j > i else i - 1] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
        i = 0
    return out


def _inside(seen: RunsSeen, shape: tuple[int, int], clips: list[tuple[int, int, int, int]]) -> bool:
    """Whether every window of the runs seen lies inside a clip, CLIP_MARGIN off its edge."""
    chars, starts, m = seen.chars, seen.starts, CLIP_MARGIN
    p = window_places(shape, span_boxes(chars, starts), 0.25 * chars.size[starts] * MM_PER_PT)
    return all(not w or not h or any(a + m <= x and b + m <= y and x + w + m <= c and y + h + m <= d for a, b, c, d in clips)
               for x, y, w, h in zip(p.x0.tolist(), p.y0.tolist(), p.w.tolist(), p.h.tolist()))


def _blank(obj: int, text: object) -> bool:
    """Whether a text object's text is blank (pdfium's FPDFTextObj_GetText, UTF-16 with its end)."""
    import pypdfium2.raw as raw

    handle = ctypes.cast(obj, raw.FPDF_PAGEOBJECT)
    size = raw.FPDFTextObj_GetText(handle, text, None, 0)
    buf = ctypes.create_string_buffer(size)
    raw.FPDFTextObj_GetText(handle, text, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)), size)
    return not buf.raw.decode("utf-16-le", "replace").rstrip("\x00").strip()
