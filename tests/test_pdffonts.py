"""The fonts-embedded reader (generator/pdffonts.py) on PDFs written by reportlab, by pypdf and by
hand (inherited resources, a form's font, Type0 fonts, escaped names, an incremental update, a
cross-reference stream it leaves to pypdf). Each answer is stated, and checked against pypdf's
own reading of the file's page tree (pypdf resolves inheritance and references its own way)."""
from __future__ import annotations

import io
import zlib
from pathlib import Path

import pypdf
import pytest

from generator import pdffonts
from generator.pdfread import unembedded_fonts
from generator.render import open_surface

EMBEDDED_DESC = b"<< /Type /FontDescriptor /FontName /ABCDEF+Serif /FontFile2 9 0 R >>"


def pypdf_answer(path: Path) -> list[str]:
    """Unembedded fonts as pypdf reads them: every font of every page's and form's resources."""
    bad = set()

    def fonts(res):
        res = res.get_object() if res is not None else {}
        for f in (res.get("/Font") or {}).values():
            yield f.get_object()
        for x in (res.get("/XObject") or {}).values():
            x = x.get_object()
            if x.get("/Subtype") == "/Form":
                yield from fonts(x.get("/Resources"))

    for page in pypdf.PdfReader(path).pages:
        for font in fonts(page.get("/Resources")):
            f = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
            d = f.get("/FontDescriptor")
            d = d.get_object() if d is not None else {}
            if not any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                bad.add(str(font.get("/BaseFont", "?")).lstrip("/"))
    return sorted(bad)


def hand_pdf(path: Path, objects: dict[int, bytes], *, update: dict[int, bytes] | None = None) -> Path:
    """A PDF of the given object bodies with a classic cross-reference table (and, with `update`,
    an incremental update replacing or adding objects, chained by /Prev). Object 1 is the catalogue."""
    out = bytearray(b"%PDF-1.4\n")

    def section(objs: dict[int, bytes], prev: int | None) -> int:
        offsets = {}
        for num, body in sorted(objs.items()):
            offsets[num] = len(out)
            out.extend(b"%d 0 obj\n%s\nendobj\n" % (num, body))
        xref = len(out)
        out.extend(b"xref\n0 1\n0000000000 65535 f \n")
        for num in sorted(offsets):
            out.extend(b"%d 1\n%010d 00000 n \n" % (num, offsets[num]))
        size = max(max(objs), max(objects)) + 1
        out.extend(b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n"
                   % (size, b"" if prev is None else b"/Prev %d " % prev, xref))
        return xref

    first = section(objects, None)
    if update:
        section(update, first)
    path.write_bytes(bytes(out))
    return path


def page_tree(page_extra: bytes, pages_extra: bytes = b"") -> dict[int, bytes]:
    return {1: b"<< /Type /Catalog /Pages 2 0 R >>",
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 " + pages_extra + b">>",
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] " + page_extra + b">>"}


def both(path: Path) -> list[str]:
    answer = pdffonts.unembedded(path)
    assert answer == pypdf_answer(path) == unembedded_fonts(path)
    return answer


def test_reportlab_helvetica_on_a_page_and_in_a_form(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    for in_form in (False, True):
        buf = io.BytesIO()
        c = Canvas(buf, pagesize=(595, 842), invariant=1)
        if in_form:
            c.beginForm("f")
            c.drawString(100, 700, "in a form")
            c.endForm()
            c.doForm("f")
        else:
            c.drawString(100, 700, "on the page")
        c.save()
        path = tmp_path / f"helv{in_form}.pdf"
        path.write_bytes(buf.getvalue())
        assert both(path) == ["Helvetica"]


def test_project_fonts_are_embedded_and_pypdf_rewrite_reads_the_same(tmp_path):
    s = open_surface("pdf", title="t")
    s.begin_page(210, 297)
    s.text(30, 40, "Clean text 清書", size_pt=10)
    s.end_page()
    (path,) = s.save(tmp_path / "x.pdf")
    assert both(path) == []
    writer = pypdf.PdfWriter(clone_from=str(path))  # pypdf's own serialisation of the same objects
    rewritten = tmp_path / "rewritten.pdf"
    writer.write(rewritten)
    assert both(rewritten) == []


def test_resources_inherited_from_the_page_tree(tmp_path):
    objs = page_tree(b"", b"/Resources << /Font << /F1 4 0 R >> >>")
    objs[4] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Times#20Roman /Widths [1 2.5 -3 4] >>"
    assert both(hand_pdf(tmp_path / "inherit.pdf", objs)) == ["Times Roman"]
    objs[3] = objs[3].replace(b">>", b"/Resources << >> >>")  # the page's own (empty) resources win
    assert both(hand_pdf(tmp_path / "own.pdf", objs)) == []


def test_type0_fonts_judged_by_their_descendant(tmp_path):
    objs = page_tree(b"/Resources << /Font << /F1 4 0 R /F2 7 0 R >> /ProcSet [/PDF /Text] >>")
    objs[4] = b"<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Serif /DescendantFonts [5 0 R] >>"
    objs[5] = b"<< /Type /Font /Subtype /CIDFontType2 /FontDescriptor 6 0 R /W [0 [500 600] 3 9 700] >>"
    objs[6] = EMBEDDED_DESC
    objs[7] = b"<< /Type /Font /Subtype /Type0 /BaseFont /Gothic /Note (a string (nested) \\) here) /DescendantFonts 8 0 R >>"
    objs[8] = b"[ << /Type /Font /Subtype /CIDFontType0 /FontDescriptor << /FontName /Gothic >> >> ]"
    objs[9] = b"<< /Length 0 >>\nstream\n\nendstream"
    assert both(hand_pdf(tmp_path / "type0.pdf", objs)) == ["Gothic"]


def test_an_incremental_update_replaces_the_font(tmp_path):
    objs = page_tree(b"/Resources << /Font << /F1 4 0 R >> >>")
    objs[4] = b"<< /Type /Font /Subtype /TrueType /BaseFont /Plain >>"
    path = hand_pdf(tmp_path / "before.pdf", objs)
    assert both(path) == ["Plain"]
    fixed = {4: b"<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Serif /FontDescriptor 5 0 R >>",
             5: EMBEDDED_DESC, 9: b"<< /Length 0 >>\nstream\n\nendstream"}
    assert both(hand_pdf(tmp_path / "after.pdf", objs, update=fixed)) == []


def test_a_cross_reference_stream_is_left_to_pypdf(tmp_path):
    objs = page_tree(b"/Resources << /Font << /F1 4 0 R >> >>")
    objs[4] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"
    out = bytearray(b"%PDF-1.5\n")
    offsets = {}
    for num, body in sorted(objs.items()):
        offsets[num] = len(out)
        out.extend(b"%d 0 obj\n%s\nendobj\n" % (num, body))
    xref_at = len(out)
    offsets[5] = xref_at
    rows = b"\x00" + b"\x00\x00\x00\x00" + b"\xff\xff"
    rows += b"".join(b"\x01" + offset.to_bytes(4, "big") + b"\x00\x00" for _, offset in sorted(offsets.items()))
    data = zlib.compress(rows)
    out.extend(b"5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length %d >>\n"
               b"stream\n%s\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % (len(data), data, xref_at))
    path = tmp_path / "xrefstream.pdf"
    path.write_bytes(bytes(out))
    with pytest.raises(pdffonts.Unsupported):
        pdffonts.unembedded(path)
    assert unembedded_fonts(path) == pypdf_answer(path) == ["Courier"]


def test_a_missing_object_is_left_to_pypdf(tmp_path):
    objs = page_tree(b"/Resources << /Font << /F1 4 0 R /F2 8 0 R >> >>")
    objs[4] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"
    path = hand_pdf(tmp_path / "missing.pdf", objs)
    with pytest.raises(pdffonts.Unsupported):
        pdffonts.unembedded(path)
    with pytest.raises(AttributeError):  # pypdf reads object 8 as null, which has no /Subtype
        unembedded_fonts(path)
