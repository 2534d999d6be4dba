"""generator/pdfplain.py: a PDF's forms handed to pdfium decoded read back exactly as the file
itself does (pdfium reading the file as written is the oracle), and what is not surely decoded
the same is left as written."""
from __future__ import annotations

import base64
import random
import re
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator import pdffonts
from generator.geometry import MM_PER_PT, Box
from generator.pagetext import read_page_text
from generator.pdfplain import _a85, _Skip, plain_forms
from generator.pdfread import crop_mark_trims, form_boxes, render
from generator.render import open_surface

A4 = (210.0, 297.0)


def tiled_pdf(tmp_path: Path) -> bytes:
    """A big drawing defined once as a form (shapes, words, a nested symbol) and drawn on three
    sheets, each shifted and clipped to its window, as a tiled map's sheets draw their map."""
    s = open_surface("pdf", title="t")
    s.begin_page(*A4)

    def hex_(t):
        t.polygon([(2, 0), (8, 0), (10, 5), (8, 10), (2, 10), (0, 5)], fill="#6a8f3c", stroke="#333333", width=0.3)

    def big(t):
        for i in range(12):
            for j in range(8):
                t.use_symbol("hex", 12 * i, 11 * j + (5 if i % 2 else 0))
        t.rect(Box(30, 40, 60, 12), fill="#f2e8c9")
        for k in range(9):
            t.use_symbol("tree", 14 * k + 3, 70)
        for k, word in enumerate(["Mirkwood", "Rohan", "Gondor", "Mordor"]):
            t.text(20 + 35 * k, 47 + 20 * (k % 2), word, size_pt=9, colour="#101010")
    s.define_symbol("hex", 10, 10, hex_)
    s.define_symbol("tree", 6, 6, lambda t: t.circle(3, 3, 2.5, fill="#2e5a1c"))
    s.define_symbol("page", 150, 100, big)
    s.use_symbol("page", 10, 20, scale=0.5)
    s.end_page()
    for x in (0.0, 55.3, 101.7):
        s.begin_page(*A4)
        window = Box(x, 3.1, 60, 80)
        with s.group(dx=8 - x, dy=8 - 3.1, clip=window):
            s.use_symbol("page", 0, 0)
        s.text(8, 6, f"Sheet at {x}", size_pt=7)
        s.end_page()
    (path,) = s.save(tmp_path / "tiles.pdf")
    return path.read_bytes()


def read_back(data: bytes) -> list:
    """Every page as preflight reads it: pixels, characters (all, and those on the paper), trims, symbols."""
    doc = pdfium.PdfDocument(data)
    pages = []
    for i in range(len(doc)):
        page = doc[i]
        w, h = (v * MM_PER_PT for v in page.get_size())
        texts = [read_page_text(page, h, width) for width in (None, w)]
        pages.append((render(page).tobytes(), [(t.text, t.box.tolist(), t.size.tolist(), t.rgb.tolist()) for t in texts],
                      crop_mark_trims(page, h), form_boxes(page)))
        page.close()
    doc.close()
    return pages


def forms(data: bytes) -> list[dict]:
    objs = pdffonts.Objects(data)
    found = [objs.get(pdffonts.Ref((n, 0))) for n in sorted(objs.offsets)]
    return [d for d in found if isinstance(d, dict) and d.get("/Subtype") == "/Form"]


def test_forms_are_stored_decoded_and_read_back_the_same(tmp_path):
    data = tiled_pdf(tmp_path)
    plain = plain_forms(data)
    assert plain != data
    assert len(forms(plain)) == len(forms(data)) == 3
    assert all("/Filter" in d for d in forms(data)) and not any("/Filter" in d for d in forms(plain))
    assert read_back(plain) == read_back(data)


def test_ascii85_decodes_as_the_standard_library():
    rng = random.Random(7)
    for n in [0, 1, 2, 3, 4, 5, 8, 13, 64, 1001]:
        raw = bytes(4) + bytes(rng.choice([0, rng.randrange(256)]) for _ in range(n))  # a group of zeros: "z"
        text = base64.a85encode(raw, wrapcol=40) + b"~>"
        assert text.startswith(b"z")
        assert _a85(text) == raw
    for bad in [b"9jqoz^~>", b"9jqo^{Bl~>", b"9jqo^s8W-!", b"9jqo^~>x"]:  # z inside a group, a stray
        with pytest.raises(_Skip):  # character, no end, something after the end: left to pdfium
            _a85(bad)


def form_streams(data: bytes) -> list[tuple[int, int]]:
    """Where each form's stream data lies in the file, in the file's order."""
    objs = pdffonts.Objects(data)
    out = []
    for n, at in objs.offsets.items():
        d = objs.get(pdffonts.Ref((n, 0)))
        if isinstance(d, dict) and d.get("/Subtype") == "/Form":
            start = data.index(b"stream", at) + len(b"stream\n")
            out.append((start, start + int(d["/Length"])))
    return sorted(out)


def test_what_is_not_surely_decoded_is_left_as_written(tmp_path):
    data = tiled_pdf(tmp_path)
    (a, b), (c, d), (e, f) = form_streams(data)
    # one form's ASCII85 with a character it does not know, another's Flate data cut short
    bad_a85 = b"{" + data[a + 1:b]
    cut = (base64.a85encode(zlib.compress(b"0.5 g 0 0 5 5 re f")[:-3]) + b"~>").ljust(d - c, b"\n")
    edited = data[:a] + bad_a85 + data[b:c] + cut + data[d:]
    plain = plain_forms(edited)
    assert plain != edited and bad_a85 in plain and cut in plain  # the third form decoded, these two as written
    assert data[e:f] not in plain
    assert read_back(plain) == read_back(edited)


def test_a_file_without_forms_or_not_followed_is_given_back_as_it_is(tmp_path):
    s = open_surface("pdf", title="t")
    s.begin_page(*A4)
    s.text(20, 20, "no symbol here", size_pt=10)
    s.end_page()
    (path,) = s.save(tmp_path / "plain.pdf")
    data = path.read_bytes()
    assert plain_forms(data) is data
    broken = tiled_pdf(tmp_path).replace(b"startxref", b"startxrof")
    assert plain_forms(broken) is broken
