"""A sheet's pages that repeat (a deck's backs, a sheet of the same tokens) are worked out and
judged once from the record (generator/pieces/drawn.py `sheet_pages`, preflight._record_finds),
and still found as the read-back finds them."""
from __future__ import annotations

from pathlib import Path

import generator.preflight as pf
from generator import drawn_registry as registry
from generator.geometry import Box
from generator.pieces import drawn as sheets
from generator.render import open_surface
from generator.render.record import Recording
from tests.preflight_reads import judged

A4 = (210.0, 297.0)


def _piece(s, trim: Box, label: str, size_pt: float) -> None:
    """Crop marks round `trim`, a white card on it and a label."""
    for x in (trim.x, trim.right):
        s.line(x, trim.y - 6, x, trim.y - 3, width=0.2)
    for y in (trim.y, trim.bottom):
        s.line(trim.x - 6, y, trim.x - 3, y, width=0.2)
    s.rect(trim, fill="#ffffff")
    s.text(trim.x + 10, trim.y + 30, label, size_pt=size_pt)


def _sheets(tmp_path: Path, labels: list[tuple[str, float]]) -> tuple[Path, sheets.SheetRecord]:
    """A PDF of one card a page (each page's label and its size), with its record."""
    rec = Recording(any_surface=True)
    for label, size_pt in labels:
        rec.begin_page(*A4)
        _piece(rec, Box(40, 40, 60, 80), label, size_pt)
        rec.end_page()
    s = open_surface("pdf", title="t")
    rec.replay(s)
    (path,) = sheets.save_pdf(s, rec, tmp_path / "deck.pdf")
    record = registry.take_record(registry.digest(path.read_bytes()))
    assert isinstance(record, sheets.SheetRecord)
    return path, record


def test_a_repeated_page_is_worked_out_and_judged_once(tmp_path, monkeypatch):
    """Pages 1, 3 and 4 draw alike: the record's pages 3 and 4 are page 1's, and the checks judge
    two pages, finding nothing."""
    path, record = _sheets(tmp_path, [("Back", 10), ("Front", 10), ("Back", 10), ("Back", 10)])
    pages = sheets.sheet_pages(record)
    assert pages is not None and pages[2] is pages[0] and pages[3] is pages[0] and pages[1] is not pages[0]
    judged_pages = []
    judge = pf._judge
    monkeypatch.setattr(pf, "_judge", lambda name, page_no, *a: judged_pages.append(page_no) or judge(name, page_no, *a))
    assert not pf._record_finds(path.name, record, pf.SAFE_MM, pf.MIN_TYPE_PT)
    assert judged_pages == [1, 2]


def test_small_type_on_repeated_pages_is_found_on_each(tmp_path, monkeypatch):
    """5 pt type on the repeated pages: the record finds it, those two pages are read back (not
    the clean one between them), and both pages' type-size errors are the whole file's read back."""
    path, record = _sheets(tmp_path, [("Tiny", 5), ("Front", 10), ("Tiny", 5)])
    mine, read = judged(monkeypatch, path, record)
    assert read == 2 and mine == judged(monkeypatch, path, None)[0]
    assert sorted(f.split(": ")[1] for f in mine if "type-size" in f) == ["page 1", "page 3"], mine


def _square(side: float):
    return lambda s: s.rect(Box(0, 0, side, side), fill="#000000")


def test_a_page_using_a_symbol_drawn_anew_is_worked_out_anew():
    """Pages 2 and 4 place the symbol "s" with equal calls, but page 3 gave it another drawing
    (10 mm square, 5 mm before): page 4's symbol box is the new drawing's, not page 2's."""
    page = [("begin_page", A4, (("bleed", None), ("trim", None)))]
    use = [("use_symbol", ("s", 50.0, 60.0), (("scale", 1.0),)), ("end_page", (), ())]
    calls = (page + [("define_symbol", ("s", 5.0, 5.0, _square(5.0)), ()), ("end_page", (), ())] + page + use
             + page + [("define_symbol", ("s", 10.0, 10.0, _square(10.0)), ()), ("end_page", (), ())] + page + use)
    pages = sheets.sheet_pages(sheets.SheetRecord(calls, [A4] * 4))
    assert pages is not None
    assert pages[1][3] == [(50.0, 60.0, 55.0, 65.0)] and pages[3][3] == [(50.0, 60.0, 60.0, 70.0)]
