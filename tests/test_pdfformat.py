"""reportlab's formatting made faster (generator/pdfformat.py, issue 26) gives reportlab's own
results: element by element against the functions it replaces, and a whole document saved with
either."""
from __future__ import annotations

import io

import pytest
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from generator import fonts, pdfformat

OWN = pdfformat.ORIGINAL


def _outcome(f, *args):
    """What a call gives: its result, or the kind of error it raises."""
    try:
        return f(*args)
    except Exception as e:  # the same refusal is part of the same behaviour
        return type(e)


TEXTS = [chr(c) for c in range(256)] + ["", "Type", "F1+0", "12.5", "Don’t — 指輪", "a\x1fb", "plain ascii"]


@pytest.mark.parametrize("text", TEXTS)
def test_encoding_is_reportlab_s_for_every_character(text):
    assert _outcome(pdfformat.pdfdoc_enc, text) == _outcome(OWN["pdfdocEnc"], text)
    assert pdfformat.pdfdoc_enc(text.encode("utf-8")) == text.encode("utf-8")  # bytes pass as they are


@pytest.mark.parametrize("name", ["Type", "F1+0", "FormXob.3f2a", "a b", "x#y", "(paren)", "Ünïcode", "", "Type"])
def test_names_are_reportlab_s(name):
    assert pdfformat.pdf_name(name) == OWN["PDFName"](name)


@pytest.mark.parametrize("element", [b"raw", "text", "Don’t", 0, 7, -3, 0.5, 419.52756, 1e-7, True, None,
                                     pdfdoc.PDFArray([1, 2.5, "x"]), pdfdoc.PDFString("a(b)")])
def test_elements_are_formatted_as_reportlab_formats_them(element):
    doc = pdfdoc.PDFDocument(invariant=1)
    assert _outcome(pdfformat.format_element, element, doc) == _outcome(OWN["format"], element, doc)


def _document() -> bytes:
    """A document with what the build's hold: an embedded TrueType font, forms, links, an
    outline, an image, a title with characters beyond ASCII."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    font = fonts.register()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(400, 300), invariant=1, pageCompression=1, initialFontName=font)
    c.setTitle("Don’t Drop the Ring — 指輪")
    c.beginForm("mark")
    c.circle(5, 5, 4, fill=1)
    c.endForm()
    for i in range(3):
        c.setFont(font, 11)
        c.drawString(20, 200, f"Page {i}: 1.5 gold, 指輪")
        c.bookmarkPage(f"p{i}")
        c.addOutlineEntry(f"Section {i} “quoted”", f"p{i}")
        c.linkAbsolute("", "p0", (20, 100, 80, 120))
        c.doForm("mark")
        c.drawImage(ImageReader(Image.new("RGB", (3, 2), (200, 30, 30 + i))), 30, 30, 9, 6)
        c.showPage()
    c.save()
    return buf.getvalue()


def test_a_document_saved_with_them_is_byte_for_byte_reportlab_s(monkeypatch):
    fonts.register()  # registering a project font installs them: done before they are taken out
    for name, own in OWN.items():
        monkeypatch.setattr(pdfdoc, name, own)
    own = _document()
    monkeypatch.undo()
    pdfformat.install()
    assert pdfdoc.format is pdfformat.format_element
    assert _document() == own


def test_a_reportlab_that_formats_otherwise_keeps_its_own(monkeypatch):
    """pyproject admits any reportlab 4: where its functions answer a sampled case otherwise than
    ours (a later release that writes numbers or names another way), install() leaves them in place."""
    for name, value in OWN.items():
        monkeypatch.setattr(pdfdoc, name, value)
    monkeypatch.setitem(OWN, "PDFName", lambda s: b"/" + s.encode() + b"_")
    pdfformat.install()
    assert pdfdoc.PDFName is not pdfformat.pdf_name and pdfdoc.format is OWN["format"]


def test_the_installed_reportlab_takes_the_faster_functions(monkeypatch):
    for name, value in OWN.items():
        monkeypatch.setattr(pdfdoc, name, value)
    pdfformat.install()
    assert pdfdoc.format is pdfformat.format_element and pdfdoc.PDFName is pdfformat.pdf_name
