"""Preflight sees what a reader sees (issue 29): contrast is measured against the colour under each
text run (a band, a plate, a disc), text in the colour under it is an error naming the file, the
page and the piece, and `colour: contrast` picks black or white against the band under the text,
not the card's background.

The game is a newcomer's, started with `pnp new` and its layouts edited as a designer would;
the PDFs are read back with pdfplumber (the colour of each character) and through `pnp preflight`.
"""
from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest

from generator.cli import main
from generator.geometry import Box
from generator.preflight import preflight_pdf
from generator.render import open_surface

SLATE = "#2f3e46"
# the newcomer's card front: a slate band behind the title (contrast), and the value printed on a
# plate of the card's own colour in that same colour: nobody can read it
FRONT = f"""\
  - id: lantern-front
    extends: card-basic
    drop: [attrs, title-beside-corner, footer]
    fields:
      - {{name: frame, kind: rect, box: [3, 3, 57, 82], stroke: {{by: colour, palette: lantern}}, width: 1.5, radius: 3}}
      - {{name: band, kind: rect, box: [18, 4, 41, 15], fill: "{SLATE}"}}
      - {{name: heading, kind: text, box: [19, 6, 38, 12], text: "{{name}}", weight: bold, size_pt: 12, colour: contrast}}
      - {{name: plate, kind: rect, box: [6, 72, 51, 10], fill: {{by: colour, palette: lantern}}}}
      - {{name: worth, kind: text, box: [6, 72, 51, 10], text: "{{value}}", size_pt: 22, colour: {{by: colour, palette: lantern}}}}
"""


def newcomer_game(tmp_path: Path, plate_text: str | None = None) -> Path:
    game = tmp_path / "lantern-band"
    assert main(["new", str(game)]) == 0
    layouts = game / "layouts.yaml"
    text = layouts.read_text(encoding="utf-8")
    start, end = text.index("  - id: lantern-front"), text.index("  - id: lantern-back")
    front = FRONT if plate_text is None else FRONT.replace("size_pt: 22, colour: {by: colour, palette: lantern}",
                                                           f'size_pt: 22, colour: "{plate_text}"')
    layouts.write_text(text[:start] + front + text[end:], encoding="utf-8")
    return game


def build(game: Path, out: Path) -> Path:
    assert main(["build", str(game), "--out", str(out), "--only", "cards", "--lang", "en", "--no-preflight"]) == 0
    (pdf,) = sorted((out / game.name).glob("cards-*en*.pdf"))
    return pdf


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, Path]:
    tmp = tmp_path_factory.mktemp("reader")
    game = newcomer_game(tmp)
    out = tmp / "out"
    return game, out, build(game, out)


def test_text_in_the_colour_under_it_is_an_error_naming_file_page_and_piece(built, capsys):
    game, out, pdf = built
    capsys.readouterr()
    assert main(["preflight", str(game), "--out", str(out)]) == 1
    report = capsys.readouterr().out
    lines = [ln for ln in report.splitlines() if "text-unreadable" in ln]
    assert lines, report
    # the red plate's value in red, say: every colour of the palette is a finding of its own
    assert len(lines) == 4, lines
    for ln in lines:
        assert re.match(rf"error: {game.name}/{re.escape(pdf.name)}: page \d+: text-unreadable: ", ln), ln
        assert "1.0:1" in ln and re.search(r"first on page \d+, piece \d+ \(at \d+, \d+ mm\)", ln), ln
    assert any("#b8432f on #b8432f" in ln for ln in lines)  # red on red, as the palette says


def test_the_title_on_a_dark_band_is_white_with_contrast(built):
    _game, _out, pdf = built
    with pdfplumber.open(pdf) as doc:
        chars = doc.pages[0].chars
    title = [c for c in chars if c["size"] > 11 and c["size"] < 13 and c["text"] in "Red lantern"]
    assert len(title) >= 9, [c["text"] for c in chars][:40]
    for c in title:  # white, read back as the fill colour of the glyph
        assert tuple(round(float(v), 2) for v in c["non_stroking_color"]) in ((1.0, 1.0, 1.0), (1.0,)), c
    # and preflight finds nothing wrong with it: no finding names the title's white
    found = preflight_pdf(pdf, pdf.name)
    assert not [f for f in found if "#ffffff on" in f.message]


def test_a_readable_plate_passes(tmp_path, capsys):
    game = newcomer_game(tmp_path, plate_text="#ffffff")
    pdf = build(game, tmp_path / "out")
    found = preflight_pdf(pdf, pdf.name)
    assert [f for f in found if f.level == "error"] == []
    assert not [f for f in found if f.code == "text-contrast" and "#ffffff on" in f.message]


def test_near_background_text_on_a_shape_is_an_error_and_plain_low_contrast_a_warning(tmp_path):
    def page(draw) -> Path:
        s = open_surface("pdf", title="t")
        s.begin_page(210.0, 297.0)
        draw(s)
        s.end_page()
        (path,) = s.save(tmp_path / f"p{len(list(tmp_path.iterdir()))}.pdf")
        return path

    def grey_on_grey(s):  # 1.1:1, text a shade off the disc it stands on
        s.circle(60, 60, 20, fill="#555555")
        s.text(50, 62, "Gate", size_pt=10, colour="#4a4a4a")
    (f,) = preflight_pdf(page(grey_on_grey), "x.pdf")
    assert (f.level, f.code) == ("error", "text-unreadable") and "#4a4a4a on #555555" in f.message

    def faint(s):  # 2.4:1: hard, not impossible, to read
        s.rect(Box(30, 30, 60, 20), fill="#c9a227")
        s.text(35, 42, "Coin 10", size_pt=9, colour="#ffffff")
    (f,) = preflight_pdf(page(faint), "x.pdf")
    assert (f.level, f.code) == ("warning", "text-contrast")
