"""Saddle-stitch imposition: A5 pages, two per side of a landscape A4 sheet, printed duplex.

For N pages (padded to a multiple of 4), sheet s (from 0) carries on its front the pages
(N-2s, 2s+1) left to right and on its back (2s+2, N-2s-1). Folded and nested, the sheets read
1..N. Padding blanks go before the back cover (the typesetter ends every booklet with one), so the
cover stays the outside of the last sheet; a PDF without a back cover is padded at its end. With a
short-edge flip the backs print as they are; with a long-edge flip they are turned 180° so they land upright.

The booklet is what pypdf writes when it clones the book's pages into form XObjects (`_by_pypdf`).
A book reportlab wrote (every book of the build) is not parsed and cloned by pypdf: its objects are
found by its cross-reference table and the few the sheets need are written out as pypdf would write
them (rawpdf.py), byte for byte the same file at a tenth of the CPU (issue 26).
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Iterator

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, IndirectObject, NameObject

from . import rawpdf

A4_LANDSCAPE_PT = (841.8898, 595.2756)


@dataclass(frozen=True)
class Side:
    left: int | None  # 1-based page of the booklet, None for a blank
    right: int | None


def padded_order(n_pages: int, back_cover: bool = False) -> list[int | None]:
    """Booklet page i (1-based) -> source page or None (blank). The padding goes before the last
    page when it is a back cover, else at the end."""
    if n_pages < 1:
        raise ValueError("a booklet needs at least one page")
    total = -(-n_pages // 4) * 4
    blanks = [None] * (total - n_pages)
    if back_cover and n_pages > 1:
        return list(range(1, n_pages)) + blanks + [n_pages]
    return list(range(1, n_pages + 1)) + blanks


def saddle_sides(n_pages: int) -> list[tuple[Side, Side]]:
    """(front, back) of each sheet, as booklet page numbers 1..N (N a multiple of 4)."""
    if n_pages % 4:
        raise ValueError(f"{n_pages} pages: pad to a multiple of 4 first")
    n = n_pages
    return [(Side(n - 2 * s, 2 * s + 1), Side(2 * s + 2, n - 2 * s - 1)) for s in range(n // 4)]


# one sheet side: (source page (1-based), its XObject's name, the operators placing it), left to right
Placed = list[tuple[int, str, str]]


def placements(n_pages: int, size_of: Any, flip: str, back_cover: bool) -> Iterator[Placed]:
    """Each sheet side in order, fronts and backs alternating; `size_of(src)`: the source page's
    (width, height) in pt."""
    order = padded_order(n_pages, back_cover)
    sheet_w, sheet_h = A4_LANDSCAPE_PT
    for front, back in saddle_sides(len(order)):
        for side, is_back in ((front, False), (back, True)):
            placed: Placed = []
            for slot, booklet_page in ((0, side.left), (1, side.right)):
                src = order[booklet_page - 1] if booklet_page else None
                if src is None:
                    continue
                pw, ph = size_of(src)
                scale = min((sheet_w / 2) / pw, sheet_h / ph)
                x = slot * sheet_w / 2 + (sheet_w / 2 - pw * scale) / 2
                y = (sheet_h - ph * scale) / 2
                t = Transformation().scale(scale, scale).translate(x, y)
                if is_back and flip == "long":
                    t = t.rotate(180).translate(sheet_w, sheet_h)
                name = f"/P{src}"
                placed.append((src, name, "q " + " ".join(_num(v) for v in t.ctm) + f" cm {name} Do Q"))
            yield placed


def impose(pdf: bytes, flip: str = "short", back_cover: bool = False) -> bytes:
    """The booklet PDF: every A5 page of `pdf` placed on landscape A4 sheets, fronts and backs alternating.

    Each source page becomes a form XObject drawn with one `cm ... Do` on its sheet. pypdf's
    merge_transformed_page would parse and rewrite every operator of every page instead, which
    took most of the booklet's time; the XObject also clips a page to its own half of the sheet.
    Links are not carried over: a booklet is for printing."""
    try:
        return _by_xref(rawpdf.Book(pdf), flip, back_cover)
    except rawpdf.NotPlain:  # not as reportlab writes a book: pypdf reads it
        return _by_pypdf(pdf, flip, back_cover)


def _by_xref(book: rawpdf.Book, flip: str, back_cover: bool) -> bytes:
    """`impose` of a book read by its cross-reference table: the objects pypdf's writer would hold,
    numbered as it numbers them (its Info, Pages and Catalog first, then each clone as it is made)."""
    out = rawpdf.Output(book)
    forms: dict[int, int] = {}
    kids = []
    for placed in placements(len(book.pages), book.size, flip, back_cover):
        xobjects = []
        for src, name, _ in placed:
            if src not in forms:
                forms[src] = out.form(src)
            xobjects.append(b"%s %d 0 R" % (name.encode("ascii"), forms[src]))
        ops = "\n".join(op for _, _, op in placed).encode("ascii")
        content = out.add(b"<<\n/Length %d\n>>\nstream\n%s\nendstream" % (len(ops), ops))
        kids.append(out.add(rawpdf.sheet(xobjects, content, A4_LANDSCAPE_PT)))
    return out.finish(kids)


def _by_pypdf(pdf: bytes, flip: str, back_cover: bool) -> bytes:
    reader = PdfReader(io.BytesIO(pdf))
    sheet_w, sheet_h = A4_LANDSCAPE_PT
    writer = PdfWriter()
    forms: dict[int, IndirectObject] = {}

    def size_of(src: int) -> tuple[float, float]:
        box = reader.pages[src - 1].mediabox
        return float(box.width), float(box.height)

    for placed in placements(len(reader.pages), size_of, flip, back_cover):
        sheet = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
        xobjects = DictionaryObject()
        for src, name, _ in placed:
            if src not in forms:
                forms[src] = _form(writer, reader.pages[src - 1])
            xobjects[NameObject(name)] = forms[src]
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        content = DecodedStreamObject()
        content.set_data("\n".join(op for _, _, op in placed).encode("ascii"))
        sheet[NameObject("/Contents")] = writer._add_object(content)
        writer.add_page(sheet)
    title = reader.metadata.get("/Title", "") if reader.metadata else ""
    writer.add_metadata({"/Producer": rawpdf.PRODUCER, "/Title": str(title)})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _num(v: float) -> str:
    return f"{v:.6f}".rstrip("0").rstrip(".") or "0"


def _form(writer: PdfWriter, page: PageObject) -> IndirectObject:
    """The page as a form XObject: its content stream as it is (still compressed), its resources."""
    contents: Any = page["/Contents"].get_object()
    stream: Any
    if isinstance(contents, ArrayObject):  # several streams: join them into one
        joined = DecodedStreamObject()
        joined.set_data(b"\n".join(c.get_object().get_data() for c in contents))
        stream = joined.flate_encode()
    else:
        stream = contents.clone(writer)  # the encoded bytes and their /Filter, copied, not decoded
    stream.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject(FloatObject(v) for v in page.mediabox),
        NameObject("/Resources"): page["/Resources"].clone(writer),
    })
    return writer._add_object(stream)
