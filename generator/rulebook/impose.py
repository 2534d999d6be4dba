"""Saddle-stitch imposition: A5 pages, two per side of a landscape A4 sheet, printed duplex.

For N pages (padded to a multiple of 4), sheet s (from 0) carries on its front the pages
(N-2s, 2s+1) left to right and on its back (2s+2, N-2s-1). Folded and nested, the sheets read
1..N. Padding blanks go before the back cover (the typesetter ends every booklet with one), so the
cover stays the outside of the last sheet; a PDF without a back cover is padded at its end. With a
short-edge flip the backs print as they are; with a long-edge flip they are turned 180° so they land upright.
"""
from __future__ import annotations

import io
from typing import Any
from dataclasses import dataclass

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, IndirectObject, NameObject

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


def impose(pdf: bytes, flip: str = "short", back_cover: bool = False) -> bytes:
    """The booklet PDF: every A5 page of `pdf` placed on landscape A4 sheets, fronts and backs alternating.

    Each source page becomes a form XObject drawn with one `cm ... Do` on its sheet. pypdf's
    merge_transformed_page would parse and rewrite every operator of every page instead, which
    took most of the booklet's time; the XObject also clips a page to its own half of the sheet.
    Links are not carried over: a booklet is for printing."""
    reader = PdfReader(io.BytesIO(pdf))
    order = padded_order(len(reader.pages), back_cover)
    sheet_w, sheet_h = A4_LANDSCAPE_PT
    writer = PdfWriter()
    forms: dict[int, IndirectObject] = {}
    for front, back in saddle_sides(len(order)):
        for side, is_back in ((front, False), (back, True)):
            sheet = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
            xobjects = DictionaryObject()
            ops = []
            for slot, booklet_page in ((0, side.left), (1, side.right)):
                src = order[booklet_page - 1] if booklet_page else None
                if src is None:
                    continue
                page = reader.pages[src - 1]
                if src not in forms:
                    forms[src] = _form(writer, page)
                pw, ph = float(page.mediabox.width), float(page.mediabox.height)
                scale = min((sheet_w / 2) / pw, sheet_h / ph)
                x = slot * sheet_w / 2 + (sheet_w / 2 - pw * scale) / 2
                y = (sheet_h - ph * scale) / 2
                t = Transformation().scale(scale, scale).translate(x, y)
                if is_back and flip == "long":
                    t = t.rotate(180).translate(sheet_w, sheet_h)
                name = f"/P{src}"
                xobjects[NameObject(name)] = forms[src]
                ops.append("q " + " ".join(_num(v) for v in t.ctm) + f" cm {name} Do Q")
            sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
            content = DecodedStreamObject()
            content.set_data("\n".join(ops).encode("ascii"))
            sheet[NameObject("/Contents")] = writer._add_object(content)
            writer.add_page(sheet)
    title = reader.metadata.get("/Title", "") if reader.metadata else ""
    writer.add_metadata({"/Producer": "pnp-forge", "/Title": str(title)})
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
