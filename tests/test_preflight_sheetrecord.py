"""Sheets of pieces preflighted from their recorded drawing calls (generator/pieces/drawn.py; issue
26), checked against pdfium's reading of the written files: the record's characters, the colours
under them, the trims and the symbols' boxes are the read-back's, a sheet with nothing to report is
not read back, and the findings are the read-back's whenever the record finds anything or cannot tell."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage

import generator.preflight as pf
from generator import drawn_registry as registry
from generator.cli import main
from generator.geometry import MM_PER_PT, Box
from generator.pagetext import read_page_text
from generator.pdfread import crop_mark_trims, form_boxes, render, runs_seen
from generator.pieces import drawn as sheets
from generator.render import open_surface
from generator.render.base import ImageSource
from generator.render.record import Recording
from tests.preflight_reads import judged

A4 = (210.0, 297.0)


def _build(game: str | Path, out: Path, stages: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[Path, sheets.SheetRecord]:
    """The sheets a build of `stages` writes, with the records it offers (every one kept here: the
    build's own preflight, which asks for them, reads its files back)."""
    kept: dict[str, object] = {}
    with monkeypatch.context() as m:
        m.setattr(sheets, "offer", lambda data, record: kept.__setitem__(registry.digest(data), record))
        args = ["build", str(game), "--jobs", "1", "--out", str(out)]
        assert main(args + [a for s in stages for a in ("--only", s)]) == 0
    found = {p: kept.get(registry.digest(p.read_bytes())) for p in sorted(out.rglob("*.pdf"))}
    return {p: r for p, r in found.items() if isinstance(r, sheets.SheetRecord)}


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> dict[Path, sheets.SheetRecord]:
    with pytest.MonkeyPatch.context() as m:
        return _build("saboteur-the-lost-mines", tmp_path_factory.mktemp("sheets"), ["cards", "pieces", "counters"], m)


def _differences(path: Path, pages: list[sheets.Page]) -> list[str]:
    """Where a record's pages are not what pdfium reads of the file: characters (text in order, box
    within 0.1 mm, size, colour), the colour under each run the read-back judges, the trims (0.11 mm)
    and the symbols' boxes (each read back inside one recorded, 0.05 mm)."""
    out = []
    doc = pdfium.PdfDocument(str(path))
    for i, (read, seen, trims, forms) in enumerate(pages):
        page, where = doc[i], f"{path.name} page {i + 1}"
        w, h = (v * MM_PER_PT for v in page.get_size())
        theirs = read_page_text(page, h)
        if theirs.text != read.text:
            out.append(f"{where}: {''.join(theirs.text)[:60]!r} read, {''.join(read.text)[:60]!r} recorded")
        elif len(read) and (np.abs(theirs.box - read.box).max() > 0.1 or (theirs.rgb != read.rgb).any()
                            or np.abs(theirs.size - read.size).max() > 0.01):
            out.append(f"{where}: characters' boxes, sizes or colours differ")
        elif len(read) and seen is not None:
            shown = runs_seen(theirs, render(page), w, h)
            under = np.repeat(seen.under, seen.ends - seen.starts, axis=0)  # the record's, per character
            for a, u in zip(shown.starts.tolist(), shown.under.tolist()):  # the recorded character nearest
                mine = under[int(np.abs(read.box - shown.chars.box[a]).max(axis=1).argmin())].tolist()
                if mine != u:
                    out.append(f"{where}: {shown.chars.text[a]!r} on {u} read back, on {mine} recorded")
        t = crop_mark_trims(page, h)
        if len(t) != len(trims) or (t and np.abs(np.array(t) - np.array(trims)).max() > 0.11):
            out.append(f"{where}: trims {t[:2]} read back, {trims[:2]} recorded")
        for b in form_boxes(page):
            if not any(f[0] - 0.05 <= b[0] and f[1] - 0.05 <= b[1] and b[2] <= f[2] + 0.05 and b[3] <= f[3] + 0.05 for f in forms):
                out.append(f"{where}: symbol {b} read back in none recorded")
        page.close()
    doc.close()
    return out


def test_the_record_holds_what_pdfium_reads(example):
    """A game's card sheets, tuck boxes, tokens, tiles, boards and calibration pages: on
    every page the record can tell, its characters, the colours under them, its trims and symbols
    are pdfium's reading of the file."""
    told = {p: sheets.sheet_pages(r) for p, r in example.items()}
    kinds = {p.name.split("-")[0] for p, pages in told.items() if pages is not None}
    assert {"cards", "calibration", "tuckbox", "tokens", "boards"} <= kinds
    assert sum(len(pages) for pages in told.values() if pages is not None) > 40
    assert [d for p, pages in told.items() if pages is not None for d in _differences(p, pages)] == []


def test_a_sheet_with_nothing_to_report_is_not_read_back(example, monkeypatch):
    """Under a build's options the example sheets have no findings; most are judged from their
    record, no page read back (those it cannot tell are read back whole)."""
    read_back = 0
    for path, record in example.items():
        mine, read = judged(monkeypatch, path, record)
        assert mine == judged(monkeypatch, path, None)[0] == [], path.name
        read_back += read > 0
    assert read_back < len(example) / 4


@pytest.mark.parametrize("options", [{"safe_mm": 8.0, "min_type_pt": 9.0}, {"contrast": 7.0}])
def test_stricter_checks_find_the_same_from_the_record_as_read_back(example, monkeypatch, options):
    """The example sheets under stricter checks (an 8 mm safe zone and 9 pt type; contrast 7:1):
    the findings from the record are the read-back's, and there are some."""
    if "contrast" in options:
        monkeypatch.setattr(pf, "MIN_CONTRAST", options["contrast"])
        monkeypatch.setattr(pf, "MIN_CONTRAST_LARGE", options["contrast"])
        options = {}
    found = 0
    for path, record in example.items():
        mine, _ = judged(monkeypatch, path, record, **options)
        assert mine == judged(monkeypatch, path, None, **options)[0], path.name
        found += bool(mine)
    assert found > 5


def _sheet(tmp_path: Path, draw, name: str, *more) -> tuple[Path, sheets.SheetRecord]:
    """An A4 PDF drawn from a recording as the pieces' printers draw one, a page by each of `draw`
    and `more`, with its record."""
    rec = Recording(any_surface=True)
    for page in (draw, *more):
        rec.begin_page(*A4)
        page(rec)
        rec.end_page()
    s = open_surface("pdf", title="t")
    rec.replay(s)
    (path,) = sheets.save_pdf(s, rec, tmp_path / name)
    record = registry.take_record(registry.digest(path.read_bytes()))
    assert isinstance(record, sheets.SheetRecord)
    return path, record


def _piece(s, trim: Box) -> None:
    """Crop marks round `trim` (3 mm, in line with its edges) and a white card on it."""
    for x in (trim.x, trim.right):
        s.line(x, trim.y - 6, x, trim.y - 3, width=0.2)
    for y in (trim.y, trim.bottom):
        s.line(trim.x - 6, y, trim.x - 3, y, width=0.2)
    s.rect(trim, fill="#ffffff")


def _white_on_picture(tmp_path: Path):
    """A page's drawing: white text on a pale picture (#ebe6dc), whose colour a record cannot tell."""
    buf = io.BytesIO()
    PILImage.new("RGB", (40, 20), (235, 230, 220)).save(buf, "PNG")
    picture = ImageSource(tmp_path / "p.png", "raster", (40, 20), buf.getvalue())

    def draw(s):
        s.image(Box(30, 30, 80, 40), picture, fit="fill")
        s.text(40, 50, "Cavern", size_pt=10, colour="#ffffff")
    return draw


def test_text_on_a_picture_is_read_back(tmp_path, monkeypatch):
    """White text on a pale picture: the record cannot tell the colour under it, the file is read
    back and the read-back's finding (white on the picture's #ebe6dc) is the one given."""
    path, record = _sheet(tmp_path, _white_on_picture(tmp_path), "picture.pdf")
    assert sheets.sheet_pages(record) is None
    mine, read = judged(monkeypatch, path, record)
    assert read == 1 and mine == judged(monkeypatch, path, None)[0] and any("#ffffff on #ebe6dc" in f for f in mine)


def test_small_type_on_a_piece_is_read_back(tmp_path, monkeypatch):
    """5 pt type on a piece with crop marks: the record finds it, the file is read back, and the
    type-size error is the read-back's."""
    trim = Box(40, 40, 60, 80)

    def draw(s):
        _piece(s, trim)
        s.text(50, 70, "Tiny print", size_pt=5)
    path, record = _sheet(tmp_path, draw, "small.pdf")
    assert sheets.sheet_pages(record) is not None
    mine, read = judged(monkeypatch, path, record)
    assert read == 1 and mine == judged(monkeypatch, path, None)[0] and any("type-size" in f for f in mine)


def test_a_label_in_a_pale_data_colour_is_read_back(tmp_path_factory, monkeypatch):
    """A `pnp new` game whose grey lanterns are made pale (#d8d4cc, 1.5:1 on the white card): its
    card sheets' record finds the footer's contrast, they are read back, and the findings are the
    read-back's; its sheets without that colour are not read back."""
    folder = tmp_path_factory.mktemp("new") / "my-game"
    assert main(["new", str(folder)]) == 0
    layouts = folder / "layouts.yaml"
    layouts.write_text(layouts.read_text(encoding="utf-8").replace("#77736b", "#d8d4cc"), encoding="utf-8")
    built = _build(folder, tmp_path_factory.mktemp("new-out"), ["cards"], monkeypatch)
    cards = [(p, r) for p, r in built.items() if p.name.startswith("cards-")]
    assert cards
    for path, record in cards:
        mine, read = judged(monkeypatch, path, record)
        assert mine == judged(monkeypatch, path, None)[0] and any("#d8d4cc" in f for f in mine) and read > 0
    calibration = [(p, r) for p, r in built.items() if p.name.startswith("calibration")]
    assert calibration and all(judged(monkeypatch, p, r) == ([], 0) for p, r in calibration)


def test_text_crowded_by_other_text_is_read_back(tmp_path, monkeypatch):
    """Dark grey text drawn over big black squares (text too) on white paper: the read-back takes
    the colour under the grey run from its window, where the squares' glyphs outnumber the paper,
    and finds too little contrast; the record, whose fill under it is the paper, must not call the
    sheet clean: the file is read back and the finding is the read-back's."""
    def draw(s):
        s.text(30, 80, "\u25a0\u25a0\u25a0\u25a0", size_pt=60, colour="#202020")
        s.text(34, 74, "mmmmmmmm", size_pt=9, colour="#404040")
    path, record = _sheet(tmp_path, draw, "crowded.pdf")
    back, _ = judged(monkeypatch, path, None)
    assert any("text-unreadable" in f or "text-contrast" in f for f in back), back
    assert sheets.sheet_pages(record) is None
    mine, read = judged(monkeypatch, path, record)
    assert read == 1 and mine == back


def test_only_the_pages_a_record_cannot_tell_are_read_back(tmp_path, monkeypatch):
    """Two pages, the second white text on a pale picture (the record cannot tell the colour under
    it): when the first, which the record tells, finds nothing, only the second is read back, and
    the findings are the whole file's read back; when the first finds something (5 pt type on a
    piece), both are read back."""
    on_picture = _white_on_picture(tmp_path)

    def clean(s):
        s.text(40, 50, "Plain words", size_pt=10)

    def tiny(s):
        _piece(s, Box(40, 40, 60, 80))
        s.text(50, 70, "Tiny print", size_pt=5)
    path, record = _sheet(tmp_path, clean, "half.pdf", on_picture)
    pages = sheets.sheet_pages_each(record)
    assert pages[0] is not None and pages[1] is None and sheets.sheet_pages(record) is None
    mine, read = judged(monkeypatch, path, record)
    assert read == 1 and mine == judged(monkeypatch, path, None)[0] and any("#ffffff on #ebe6dc" in f for f in mine)
    path, record = _sheet(tmp_path, tiny, "both.pdf", on_picture)
    mine, read = judged(monkeypatch, path, record)
    assert read == 2 and mine == judged(monkeypatch, path, None)[0] and any("type-size" in f for f in mine)


def test_of_a_sheet_only_the_pages_the_record_finds_on_are_read_back(tmp_path, monkeypatch):
    """Four pages: 5 pt type on a piece (the record finds it), plain words (it finds nothing), the
    5 pt page again (a deck's repeated page: found on as the first) and plain words again. Only the
    two pages with the small type are read back, and the findings are the whole file's read back;
    with the small type's page alone among clean ones, that page alone."""
    def clean(s):
        s.text(40, 50, "Plain words", size_pt=10)

    def tiny(s):
        _piece(s, Box(40, 40, 60, 80))
        s.text(50, 70, "Tiny print", size_pt=5)
    path, record = _sheet(tmp_path, tiny, "mixed.pdf", clean, tiny, clean)
    mine, read = judged(monkeypatch, path, record)
    whole, _ = judged(monkeypatch, path, None)
    assert read == 2 and mine == whole and sum("type-size" in f for f in mine) == 2, mine
    path, record = _sheet(tmp_path, clean, "one.pdf", clean, tiny)
    mine, read = judged(monkeypatch, path, record)
    assert read == 1 and mine == judged(monkeypatch, path, None)[0] and any("page 3: type-size" in f for f in mine), mine
