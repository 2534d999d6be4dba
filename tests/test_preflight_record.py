"""A book's preflight from what its drawing pass drew (generator/rulebook/drawn.py; issue 26),
checked against pdfium's reading of the written file: the record holds every character pdfium
finds (text, order, box, size, colour), and the findings from it are the read-back's."""
from __future__ import annotations

import ctypes
from collections import defaultdict
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

import generator.preflight as pf
from generator.cli import main
from generator.context import BuildContext
from generator.drawn_registry import digest
from generator.geometry import MM_PER_PT
from generator.missing import build_missing
from generator.rulebook import drawn
from generator.rulebook.build import rulebook_files
from solver.game.loader import load_game
from tests.preflight_reads import judged


def _books(game: str | Path, out: Path, books: list[tuple[str, bool]], missing: bool = False) -> dict[str, drawn.BookRecord]:
    """The books (language, booklet?) of a game, written under `out`, by file name, with their records."""
    g = load_game(game)
    ctx = BuildContext(out_root=out, preflight=False)
    written = [p for lang, booklet in books for p in rulebook_files(g, ctx, lang, booklet=booklet)]
    written += [p for p in build_missing(g, ctx) if p.suffix == ".pdf"] if missing else []
    records = {p.name: drawn.take(digest(p.read_bytes())) for p in written}
    assert all(records.values()), [n for n, r in records.items() if r is None]
    return {n: r for n, r in records.items() if r is not None}


def _pdfium_chars(page: pdfium.PdfPage) -> list[tuple[str, tuple[float, ...], float, tuple[int, ...]]]:
    """Every non-blank character pdfium finds on the page with a box, in its order: text, box (mm,
    y down from the top), font size and fill colour, asked one character at a time."""
    h = page.get_size()[1]
    tp = page.get_textpage()
    out: list[tuple[str, tuple[float, ...], float, tuple[int, ...]]] = []
    rgba = [ctypes.c_uint() for _ in range(4)]
    for i in range(tp.count_chars()):
        ch = chr(raw.FPDFText_GetUnicode(tp.raw, i))
        if ch.isspace():
            continue
        left, bottom, right, top = tp.get_charbox(i)
        if right <= left or top <= bottom:
            continue
        raw.FPDFText_GetFillColor(tp.raw, i, *(ctypes.byref(c) for c in rgba))
        box = (left * MM_PER_PT, (h - top) * MM_PER_PT, right * MM_PER_PT, (h - bottom) * MM_PER_PT)
        out.append((ch, box, raw.FPDFText_GetFontSize(tp.raw, i), tuple(c.value for c in rgba[:3])))
    tp.close()
    return out


def _differences(path: Path, record: drawn.BookRecord) -> list[str]:
    """Where the record's characters (the whole book's at once, `drawn.book_text`) are not pdfium's, page by page."""
    doc = pdfium.PdfDocument(str(path))
    assert len(doc) == record.pages
    book = drawn.book_text(record)
    assert (np.diff(book.page) >= 0).all()  # page after page
    out = []
    for i in range(len(doc)):
        page = doc[i]
        want = _pdfium_chars(page)
        page.close()
        got = book.read.take(book.page == i)
        if [c[0] for c in want] != got.text:
            out.append(f"{path.name} page {i + 1}: {''.join(c[0] for c in want)[:80]!r} read, "
                       f"{''.join(got.text)[:80]!r} recorded")
            continue
        if not want:
            continue
        box = np.abs(np.array([c[1] for c in want]) - got.box).max()
        size = np.abs(np.array([c[2] for c in want]) - got.size).max()
        if box > 0.3 or size > 0.01 or [c[3] for c in want] != [tuple(c) for c in got.rgb.tolist()]:
            out.append(f"{path.name} page {i + 1}: boxes off by {box:.2f} mm, sizes by {size:.3f} pt, or colours differ")
    doc.close()
    return out


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> tuple[Path, dict[str, drawn.BookRecord]]:
    out = tmp_path_factory.mktemp("books")
    return out, _books("dont-drop-the-ring", out, [("ja+en", False), ("en", True)], missing=True)


@pytest.fixture(scope="module")
def newcomer(tmp_path_factory) -> tuple[Path, dict[str, drawn.BookRecord]]:
    folder = tmp_path_factory.mktemp("new") / "my-game"
    assert main(["new", str(folder)]) == 0
    out = tmp_path_factory.mktemp("new-books")
    return out, _books(folder, out, [("en", False), ("en+ja", True)])


def _paths(books: tuple[Path, dict[str, drawn.BookRecord]]) -> list[tuple[Path, drawn.BookRecord]]:
    out, records = books
    return [(next(out.glob(f"*/{name}")), r) for name, r in sorted(records.items())]


def test_the_record_holds_every_character_pdfium_reads_in_its_order(example, newcomer):
    """Every page of a game's side-by-side rulebook, its A5 booklet on A4 sheets (backs turned
    180°), its print guide and missing list, and a newcomer's book: the record's characters are
    pdfium's, in pdfium's order, boxes within 0.3 mm, sizes and colours the same."""
    found = [(p.name, r) for p, r in _paths(example) + _paths(newcomer)]
    names = {n.split("-")[0] for n, _ in found}
    assert {"rulebook", "booklet", "missing", "print"} <= names
    assert sum(r.pages for _, r in found) > 20
    assert [d for p, r in _paths(example) + _paths(newcomer) for d in _differences(p, r)] == []


def test_a_book_the_checks_find_nothing_on_is_not_read_back(example, monkeypatch):
    """Under a build's options the example books have no findings: from the record, without
    reading a page back, as read back."""
    for path, record in _paths(example):
        mine, read = judged(monkeypatch, path, record)
        theirs, _ = judged(monkeypatch, path, None)
        assert (mine, read) == (theirs, 0) == ([], 0), path.name


@pytest.mark.parametrize("strict", ["contrast", "edge"])
def test_stricter_checks_find_the_same_from_the_record_as_read_back(newcomer, monkeypatch, strict):
    """A newcomer's books under stricter checks (grey text, #555555 at 7.5:1, under an 8:1
    threshold; text within 15 mm of the paper's edge: every footer): findings from the record
    are the read-back's, and there are some."""
    if strict == "contrast":
        monkeypatch.setattr(pf, "MIN_CONTRAST", 8.0)
        monkeypatch.setattr(pf, "MIN_CONTRAST_LARGE", 8.0)
    else:
        monkeypatch.setattr(pf, "PRINTER_MARGIN_MM", 15.0)
    for path, record in _paths(newcomer):
        mine, _ = judged(monkeypatch, path, record)
        theirs, _ = judged(monkeypatch, path, None)
        assert mine == theirs and any(f"text-{'contrast' if strict == 'contrast' else 'near-edge'}" in f for f in mine), path.name


def test_the_contents_dot_leaders_are_decoration(example, monkeypatch):
    """The contents' grey dot leaders (#aaaaaa, 2.3:1) are in the record as decoration: judged
    at 2.4:1, which every other colour of the book passes, the record finds nothing to read back."""
    path, record = next((p, r) for p, r in _paths(example) if p.name.startswith("rulebook"))
    dots = [s for s in record.strings if s[7].strip(".") == "" and s[7]]
    assert dots and all(s[9] and s[6] == (0xAA, 0xAA, 0xAA) for s in dots)
    monkeypatch.setattr(pf, "MIN_CONTRAST", 2.4)
    assert judged(monkeypatch, path, record) == ([], 0)


def test_a_record_that_does_not_describe_the_file_is_not_trusted(example, monkeypatch):
    """A record of another page count or page size: the file is read back, every page."""
    path, record = next((p, r) for p, r in _paths(example) if p.name.startswith("rulebook"))
    monkeypatch.setattr(pf, "MIN_CONTRAST", 8.0)  # grey text found: a record taken at its word would say nothing
    short = drawn.BookRecord(record.strings, record.pages - 1, record.size, record.places)
    wide = drawn.BookRecord(record.strings, record.pages, (record.size[0] + 1, record.size[1]), record.places)
    theirs = judged(monkeypatch, path, None)
    empty = drawn.BookRecord([], record.pages, record.size)
    assert judged(monkeypatch, path, short) == judged(monkeypatch, path, wide) == theirs
    assert theirs[0] and theirs[1] == record.pages
    assert judged(monkeypatch, path, empty) == ([], 0)  # the record is what is judged when it fits


def _line(pages: tuple[int, int], grounds: tuple[tuple[int, int, int] | None, ...]) -> drawn.BookRecord:
    """An A4 book of two pages with "Grey" then "words" right after it on one baseline, dark grey,
    the first on page pages[0] and the second on pages[1], each on its ground (None: the paper)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator import fonts

    font = fonts.register()
    x, after = 100.0, 100.0 + stringWidth("Grey", font, 10)
    strings: list[drawn.Drawn] = [(page, at, 400.0, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), font, 10.0, (0x40, 0x40, 0x40), text,
                                   ground, False, False) for page, at, text, ground in zip(pages, (x, after), ("Grey", "words"), grounds)]
    return drawn.BookRecord(strings, 2, (595.28, 841.89))


def test_a_books_runs_are_judged_not_its_strings_and_none_across_pages():
    """A book is judged string by string first, each string a run on its own ground: what that finds
    is judged from the runs, whose ground is their first string's (as the read-back takes one colour
    round a run). "words" on a band of nearly its colour after "Grey" on paper: one run, on paper,
    nothing found (though the strings' pass finds "words"); the band under "Grey": found. The book
    is judged as one page: "words" at the same place on the next page is a run of its own, found."""
    band = (0x30, 0x30, 0x30)
    on_paper, on_band, next_page = _line((1, 1), (None, band)), _line((1, 1), (band, None)), _line((1, 2), (None, band))
    low: dict = defaultdict(list)
    assert pf._judge("book.pdf", 1, pf.recorded_sheet(on_paper, next(next(drawn.seen_of(on_paper)))), pf.SAFE_MM, pf.MIN_TYPE_PT, low) or low
    found = [pf._record_finds("book.pdf", r, pf.SAFE_MM, pf.MIN_TYPE_PT) for r in (on_paper, on_band, next_page)]
    assert found == [False, True, True]


def test_a_book_whose_strings_pass_is_judged_whole_without_its_parts(example, newcomer, monkeypatch):
    """A book whose strings, each a run, pass the checks over the whole book at once has no part
    worked out (`drawn.seen_of` is never asked); one whose strings' view finds something ("words"
    on a band of nearly its colour) still goes on to its runs."""
    def parts(record: drawn.BookRecord):
        raise AssertionError("a part worked out")
    with monkeypatch.context() as m:
        m.setattr(pf, "seen_of", parts)
        assert [pf._record_finds(p.name, r, pf.SAFE_MM, pf.MIN_TYPE_PT) for p, r in _paths(example) + _paths(newcomer)] == [
            False] * len(_paths(example) + _paths(newcomer))
    asked: list[int] = []
    monkeypatch.setattr(pf, "seen_of", lambda r: (asked.append(1), drawn.seen_of(r))[1])
    assert pf._record_finds("book.pdf", _line((1, 1), (None, (0x30, 0x30, 0x30))), pf.SAFE_MM, pf.MIN_TYPE_PT) is False
    assert asked


def test_the_whole_books_strings_are_its_parts_strings(example, newcomer):
    """`bookclear.strings_judged` of a whole book: to the bit the boxes of the characters on paper and
    each string's colour, fill under it and size that `drawn.seen_of`'s first view gives part by part."""
    from generator.rulebook.bookclear import strings_judged

    counted = 0
    for path, record in _paths(example) + _paths(newcomer):
        views = [next(v) for v in drawn.seen_of(record)]
        seen = [s for _, s in views if s is not None]
        whole = strings_judged(record)
        counted += len(whole.box)
        assert np.array_equal(whole.box, np.concatenate([s.chars.box for s in seen])), path.name
        assert np.array_equal(whole.fg, np.concatenate([s.chars.rgb[s.starts] for s in seen])), path.name
        assert np.array_equal(whole.under, np.concatenate([s.under for s in seen])), path.name
        assert np.array_equal(whole.size, np.concatenate([s.chars.size[s.starts] for s in seen])), path.name
        assert (whole.w_mm, whole.h_mm) == (record.size[0] * MM_PER_PT, record.size[1] * MM_PER_PT)
    assert counted > 10000
