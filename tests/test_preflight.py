"""Preflight on PDFs made for the purpose, each with one known fault (or none), and `pnp preflight`
on a real build: exit 1 on an unembedded font, 0 with warnings, 2 with nothing to check."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from generator.cli import main
from generator.geometry import Box
from generator.preflight import contrast_ratio, preflight_pdf
from generator.render import open_surface

A4 = (210.0, 297.0)


def surface_pdf(tmp_path: Path, draw, name: str = "x.pdf") -> Path:
    s = open_surface("pdf", title="t")
    s.begin_page(*A4)
    draw(s)
    s.end_page()
    (path,) = s.save(tmp_path / name)
    return path


def codes(path: Path) -> list[str]:
    return [f.code for f in preflight_pdf(path, path.name)]


def test_contrast_ratio_matches_wcag_examples():
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((0x76, 0x76, 0x76), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert contrast_ratio((255, 255, 255), (0xc9, 0xa2, 0x27)) == pytest.approx(2.4, abs=0.05)


def test_a_clean_page_has_no_finding(tmp_path):
    path = surface_pdf(tmp_path, lambda s: s.text(30, 40, "Clean text 清書", size_pt=10))
    assert preflight_pdf(path, "x.pdf") == []


def test_unembedded_helvetica_is_an_error(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(595, 842), invariant=1)
    c.drawString(100, 700, "Helvetica, not embedded")
    c.save()
    path = tmp_path / "helv.pdf"
    path.write_bytes(buf.getvalue())
    found = preflight_pdf(path, "helv.pdf")
    errors = [f for f in found if f.level == "error"]
    assert [f.code for f in errors] == ["fonts-embedded"] and "Helvetica" in errors[0].message


def test_text_near_the_paper_edge_on_home_paper(tmp_path):
    near = surface_pdf(tmp_path, lambda s: s.text(2.5, 150, "edge", size_pt=9), "near.pdf")
    assert codes(near) == ["text-near-edge"]
    far = surface_pdf(tmp_path, lambda s: s.text(6, 150, "edge", size_pt=9), "far.pdf")
    assert codes(far) == []


def test_low_contrast_small_text(tmp_path):
    def draw(s, colour):
        s.rect(Box(30, 30, 60, 20), fill="#c9a227")
        s.text(35, 42, "Coin 10", size_pt=9, colour=colour)
    bad = surface_pdf(tmp_path, lambda s: draw(s, "#ffffff"), "bad.pdf")
    (f,) = preflight_pdf(bad, "bad.pdf")
    assert f.code == "text-contrast" and "#ffffff on #c9a227" in f.message and "2.4:1" in f.message
    good = surface_pdf(tmp_path, lambda s: draw(s, "#1a1a1a"), "good.pdf")
    assert codes(good) == []


def crop_marks(s, trim: Box) -> None:
    for x in (trim.x, trim.right):
        s.line(x, trim.y - 7, x, trim.y - 4, width=0.2)
        s.line(x, trim.bottom + 4, x, trim.bottom + 7, width=0.2)
    for y in (trim.y, trim.bottom):
        s.line(trim.x - 7, y, trim.x - 4, y, width=0.2)
        s.line(trim.right + 4, y, trim.right + 7, y, width=0.2)


def test_text_outside_the_safe_zone_of_a_piece(tmp_path):
    trim = Box(40, 40, 63, 88)

    def draw(s, footer_y):
        crop_marks(s, trim)
        s.text(50, footer_y, "footer", size_pt=6)
    bad = surface_pdf(tmp_path, lambda s: draw(s, trim.bottom - 1.5), "bad.pdf")
    (f,) = preflight_pdf(bad, "bad.pdf")
    assert f.code == "text-safe-zone" and "3 mm safe zone" in f.message
    good = surface_pdf(tmp_path, lambda s: draw(s, trim.bottom - 4), "good.pdf")
    assert codes(good) == []


def test_symbols_drawn_over_each_other_on_a_piece(tmp_path):
    trim = Box(40, 40, 63, 88)

    def draw(s, second_x):
        crop_marks(s, trim)
        s.define_symbol("eye", 10, 10, lambda t: t.circle(5, 5, 4, fill="#333333"))
        s.define_symbol("tree", 10, 10, lambda t: t.polygon([(5, 1), (9, 9), (1, 9)], fill="#2e8a3a"))
        s.use_symbol("eye", 60, 80)
        s.use_symbol("tree", second_x, 80)
    bad = surface_pdf(tmp_path, lambda s: draw(s, 63), "bad.pdf")
    assert codes(bad) == ["symbols-overlap"]
    good = surface_pdf(tmp_path, lambda s: draw(s, 75), "good.pdf")
    assert codes(good) == []


def test_pnp_preflight_exit_status(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["preflight", "dont-drop-the-ring", "--out", str(out)]) == 2  # nothing built yet
    assert main(["build", "dont-drop-the-ring", "--out", str(out), "--only", "cards", "--no-preflight"]) == 0
    capsys.readouterr()
    assert main(["preflight", "dont-drop-the-ring", "--out", str(out)]) == 0
    report = capsys.readouterr().out
    assert ": 0 error(s), " in report and "fonts-embedded" not in report
    from reportlab.pdfgen.canvas import Canvas
    c = Canvas(str(out / "dont-drop-the-ring" / "stray.pdf"), invariant=1)
    c.drawString(100, 100, "Helvetica")
    c.save()
    assert main(["preflight", "dont-drop-the-ring", "--out", str(out)]) == 1
    assert "error: dont-drop-the-ring/stray.pdf: fonts-embedded" in capsys.readouterr().out


@pytest.mark.parametrize("paper, mark_mm", [(A4, 3.0), ((83.0, 102.0), 1.0)])  # the longest marks, the shortest
def test_a_sheets_crop_marks_read_back_as_its_trims(tmp_path, paper, mark_mm):
    """Preflight reads a card sheet's trims from the crop marks pieces/grid.py places, at every mark length
    it draws (the margin decides): the two modules agree on what a crop mark is."""
    import math

    import pypdfium2 as pdfium

    from generator.pieces.plan import MARK_WIDTH
    from generator.pieces.grid import plan_sheet
    from generator.pdfread import crop_mark_trims

    grid = plan_sheet(paper, (63.0, 88.0), 3.0)
    marks = grid.crop_marks()
    assert {round(math.hypot(x2 - x1, y2 - y1), 3) for x1, y1, x2, y2 in marks} == {mark_mm}

    def draw(s):
        for x1, y1, x2, y2 in marks:
            s.line(x1, y1, x2, y2, width=MARK_WIDTH)
    s = open_surface("pdf", title="t")
    s.begin_page(grid.page_w, grid.page_h)
    draw(s)
    s.end_page()
    (path,) = s.save(tmp_path / "sheet.pdf")
    page = pdfium.PdfDocument(path)[0]
    read = sorted(crop_mark_trims(page, grid.page_h))
    want = sorted((b.x, b.y, b.right, b.bottom) for b in map(grid.slot, range(grid.per_page)))
    assert len(read) == len(want) == grid.per_page
    assert all(abs(a - b) <= 0.1 for r, w in zip(read, want) for a, b in zip(r, w))


def test_type_under_six_points_on_a_piece_is_an_error(tmp_path):
    trim = Box(40, 40, 63, 88)

    def draw(s, size):
        crop_marks(s, trim)
        s.text(46, 52, "Gandalf", size_pt=12)
        s.text(46, 70, "Ring-bearer moves", size_pt=size)
    bad = surface_pdf(tmp_path, lambda s: draw(s, 3), "bad.pdf")
    (f,) = preflight_pdf(bad, "bad.pdf")
    assert (f.level, f.code, f.page) == ("error", "type-size", 1)
    # names the piece (its place and its largest words) and the text set too small, with its size
    assert "piece 1 (at 40, 40 mm, 'Gandalf')" in f.message and "'Ring-bearer moves' at 3.0 pt" in f.message
    assert codes(surface_pdf(tmp_path, lambda s: draw(s, 6), "good.pdf")) == []
    # a game that lowers the minimum (game.yaml min_type) accepts what it allows, and no less
    assert [x.code for x in preflight_pdf(bad, "bad.pdf", min_type_pt=3)] == []
    assert [x.code for x in preflight_pdf(bad, "bad.pdf", min_type_pt=4)] == ["type-size"]


def test_text_off_the_pieces_is_not_judged_by_size(tmp_path):
    # a rulebook's or a map's small print is no piece: only text inside a trim counts
    path = surface_pdf(tmp_path, lambda s: s.text(40, 100, "legend note", size_pt=4))
    assert codes(path) == []


def test_pnp_preflight_takes_the_games_lowered_minimum(tmp_path, game_copy, capsys):
    game = game_copy("dont-drop-the-ring")
    layouts = game / "layouts.yaml"
    out = tmp_path / "out"
    text = layouts.read_text(encoding="utf-8")
    assert "size_pt: " in text
    # every text of the game's faces asked at 4 pt: the faces keep 6 pt, the game's minimum
    import re
    layouts.write_text(re.sub(r"(min_)?size_pt: [0-9.]+", lambda m: f"{m.group(1) or ''}size_pt: 4", text), encoding="utf-8")
    assert main(["build", str(game), "--out", str(out), "--only", "cards", "--no-preflight"]) == 0
    capsys.readouterr()
    assert main(["preflight", str(game), "--out", str(out)]) == 0
    assert smallest(out) >= 6 - 0.01
    # lowered with a reason, the faces set 4 pt and preflight accepts it
    meta = game / "game.yaml"
    meta.write_text(meta.read_text(encoding="utf-8") + "min_type: {pt: 4, reason: {en: a test of small type}}\n",
                    encoding="utf-8")
    assert main(["build", str(game), "--out", str(out), "--only", "cards", "--no-preflight"]) == 0
    capsys.readouterr()
    assert main(["preflight", str(game), "--out", str(out)]) == 0
    report = capsys.readouterr().out
    assert "type-size" not in report
    assert smallest(out) < 5


def smallest(out: Path) -> float:
    """The smallest glyph size of a build's card sheets, as pdfplumber reads it."""
    import pdfplumber

    sizes = []
    for pdf in out.rglob("cards-*.pdf"):
        with pdfplumber.open(pdf) as doc:
            sizes += [c["size"] for page in doc.pages for c in page.chars if not c["text"].isspace()]
    return min(sizes)
