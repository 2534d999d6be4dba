"""The duplex calibration page, which every deck's unit writes, is drawn once per process for equal
pages (generator/render/record.py `pdf_once`, issue 26): the file has the bytes of the page drawn
straight on a PDF surface, a second equal page opens no surface, and a page that differs (another
back offset, flip, language or ink) is drawn again, with what makes it differ."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

import generator.render as render
from generator import catalogue, fonts
from generator.cards.calibration import draw_calibration, write_calibration
from generator.context import BuildContext
from generator.render import open_surface, record
from generator.render.ink import ink_mode


@pytest.fixture
def surfaces(monkeypatch) -> list[str]:
    """The kinds of surface opened from now on (the cache emptied first)."""
    record._PDFS.clear()
    opened: list[str] = []

    def counting(kind, **kw):
        opened.append(kind)
        return open_surface(kind, **kw)
    monkeypatch.setattr(render, "open_surface", counting)
    return opened


def straight(ctx: BuildContext, lang: str) -> bytes:
    """The page drawn on a PDF surface of its own, as before pdf_once."""
    s = open_surface("pdf", title=catalogue.text("calibration.pdf_title", lang))
    draw_calibration(s, ctx, lang, fonts.faces(lang))
    return bytes(s.getvalue())


def ruler_label(path: Path, label: str) -> tuple[float, float]:
    """Where the back page's ruler label `label` (e.g. '+5') starts, in mm from the top left."""
    with pdfplumber.open(path) as pdf:
        words = pdf.pages[1].extract_words()
    x0, top = next((w["x0"], w["top"]) for w in words if w["text"] == label)
    return x0 * 25.4 / 72, top * 25.4 / 72


def test_the_page_has_the_bytes_of_the_page_drawn_straight(tmp_path: Path, surfaces: list[str]):
    ctx = BuildContext(out_root=tmp_path, back_offset_mm=(1.2, -0.8))
    [path] = write_calibration(tmp_path / "a", ctx, "en", "", fonts.faces("en"))
    assert surfaces == ["pdf"]
    assert path.read_bytes() == straight(ctx, "en")
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 2
        assert pdf.metadata["Title"] == catalogue.text("calibration.pdf_title", "en")


def test_an_equal_page_is_not_drawn_again_and_another_is(tmp_path: Path, surfaces: list[str]):
    ctx = BuildContext(out_root=tmp_path)
    [a] = write_calibration(tmp_path / "a", ctx, "en", "", fonts.faces("en"))
    [b] = write_calibration(tmp_path / "b", ctx, "en", "", fonts.faces("en"))
    assert surfaces == ["pdf"]
    assert a.read_bytes() == b.read_bytes()
    # another back offset: drawn again, its rulers moved by the offset
    moved = BuildContext(out_root=tmp_path, back_offset_mm=(2.0, 1.5))
    [c] = write_calibration(tmp_path / "c", moved, "en", "", fonts.faces("en"))
    assert surfaces == ["pdf", "pdf"]
    (x0, y0), (x1, y1) = ruler_label(a, "+5"), ruler_label(c, "+5")
    assert (x1 - x0, y1 - y0) == (pytest.approx(2.0, abs=0.05), pytest.approx(1.5, abs=0.05))
    # another language (its own words and title), another flip edge: each drawn again
    [d] = write_calibration(tmp_path / "d", ctx, "fr", "", fonts.faces("fr"))
    [e] = write_calibration(tmp_path / "e", BuildContext(out_root=tmp_path, flip="short"), "en", "",
                            fonts.faces("en"))
    assert surfaces == ["pdf"] * 4
    assert len({p.read_bytes() for p in (a, c, d, e)}) == 4
    with pdfplumber.open(d) as pdf:
        assert pdf.metadata["Title"] == catalogue.text("calibration.pdf_title", "fr") != \
            catalogue.text("calibration.pdf_title", "en")


def test_another_ink_mode_is_drawn_again_in_its_own_ink(tmp_path: Path, surfaces: list[str]):
    ctx = BuildContext(out_root=tmp_path)
    write_calibration(tmp_path / "a", ctx, "en", "", fonts.faces("en"))
    with ink_mode("mono"):
        [mono] = write_calibration(tmp_path / "b", ctx, "en", "", fonts.faces("en"))
        assert surfaces == ["pdf", "pdf"]  # not served from the normal ink's page
        assert mono.read_bytes() == straight(ctx, "en")


def test_the_same_pages_under_another_title_are_drawn_again(tmp_path: Path, surfaces: list[str]):
    def page() -> record.Recording:
        rec = record.Recording()
        rec.begin_page(100, 50)
        rec.text(10, 20, "Frodo", size_pt=12)
        rec.end_page()
        return rec
    [a] = record.pdf_once(page(), tmp_path / "a.pdf", "Sheet of Frodo")
    [b] = record.pdf_once(page(), tmp_path / "b.pdf", "Sheet of Sam")
    assert surfaces == ["pdf", "pdf"]
    with pdfplumber.open(a) as one, pdfplumber.open(b) as two:
        assert (one.metadata["Title"], two.metadata["Title"]) == ("Sheet of Frodo", "Sheet of Sam")
        assert one.pages[0].extract_text() == two.pages[0].extract_text() == "Frodo"
