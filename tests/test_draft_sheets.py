"""A translation draft's sheets say they are a draft: every page of every sheet PDF (cards,
standees, tuck box) and every SVG page carries one line in its margin, at least 5 mm from the
paper's edge, clear of the crop marks and of every piece's art; a build that is not a draft
carries none. Read back with pdfplumber and an XML parser from a game written as a newcomer
would (`pnp new`), built with `--draft de --lang de`."""
from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import pdfplumber
import pytest

from generator.cli import main
from tests.pdf_units import MM_PER_PT

LINE = {"de": "Translation draft (de): untranslated text in English.",  # de has no catalogue: English
        "fr": "Brouillon de traduction (fr) — non traduit : Anglais"}  # spaces compared as spaces
EDGE_MM = 5.0
SVG = "{http://www.w3.org/2000/svg}"


def _build(tmp_path: Path, lang: str, draft: bool) -> Path:
    folder = tmp_path / "lanterns"
    if not folder.exists():
        assert main(["new", str(folder)]) == 0
    out = tmp_path / f"out-{lang}-{draft}"
    args = ["build", str(folder), "--out", str(out), "--only", "cards", "--only", "pieces", "--no-preflight",
            "--lang", lang] + (["--draft", lang] if draft else [])
    assert main(args) == 0
    return out / "lanterns"


def _sheets(game: Path, lang: str) -> list[Path]:
    found = sorted(p for p in game.glob(f"*-{lang}.pdf") if p.name.split("-")[0] in ("cards", "standees", "tuckbox"))
    assert {p.name.split("-")[0] for p in found} == {"cards", "standees", "tuckbox"}
    return found


def _overlaps(a: tuple[float, float, float, float], b: dict) -> bool:
    """Whether box a (x0, top, x1, bottom, pt) and object b's bounding box share any area."""
    return a[0] < b["x1"] and b["x0"] < a[2] and a[1] < b["bottom"] and b["top"] < a[3]


@pytest.fixture(scope="module")
def draft_game(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("draft"), "de", True)


def test_every_sheet_page_says_it_is_a_draft_in_its_margin(draft_game):
    pages = 0
    for pdf_path in _sheets(draft_game, "de"):
        with pdfplumber.open(pdf_path) as pdf:
            for n, page in enumerate(pdf.pages, 1):
                where = f"{pdf_path.name} page {n}"
                hits = page.search(re.escape(LINE["de"]), regex=True, return_chars=True)
                assert len(hits) == 1, f"{where}: {len(hits)} draft lines"
                hit = hits[0]
                box = (hit["x0"], hit["top"], hit["x1"], hit["bottom"])
                margins = [box[0], box[1], float(page.width) - box[2], float(page.height) - box[3]]
                assert min(margins) * MM_PER_PT >= EDGE_MM - 0.01, f"{where}: {min(margins) * MM_PER_PT:.2f} mm from the edge"
                assert all(c["size"] >= 6 for c in hit["chars"]), f"{where}: type under 6 pt"
                assert {tuple(c["non_stroking_color"] or (0,)) for c in hit["chars"]} <= {(0,), (0, 0, 0), (0.0,)}
                marks = [o for o in page.lines if _overlaps(box, o)]
                assert not marks, f"{where}: the line crosses a crop mark or fold line at {marks[0]['x0'] * MM_PER_PT:.1f} mm"
                art = [o for o in [*page.rects, *page.curves, *page.images] if _overlaps(box, o)]
                assert not art, f"{where}: the line lies over a piece's art"
                others = [c for c in page.chars if c not in hit["chars"] and not c["text"].isspace() and _overlaps(box, c)]
                assert not others, f"{where}: the line runs into text on a piece"
                pages += 1
    assert pages >= 6  # the card fronts and backs, the standees, the tuck box


def test_every_svg_page_of_a_sheet_carries_it(draft_game):
    svgs = sorted(p for p in draft_game.glob("*-de*.svg") if p.name.split("-")[0] in ("cards", "standees", "tuckbox"))
    assert len(svgs) >= 6
    for svg in svgs:
        root = ElementTree.parse(svg).getroot()
        width, height = (float(v) for v in root.attrib["viewBox"].split(",")[2:])
        lines = [g for g in root.iter(f"{SVG}g") if (g.findtext(f"{SVG}title") or "") == LINE["de"]]
        assert len(lines) == 1, f"{svg.name}: {len(lines)} draft lines"
        x, baseline = (float(v) for v in re.match(r"translate\(([\d.]+) ([\d.]+)\)", lines[0].attrib["transform"]).groups())
        assert EDGE_MM <= x < width - EDGE_MM and EDGE_MM < baseline < height - EDGE_MM, svg.name


def test_a_french_draft_says_it_in_french(tmp_path):
    game = _build(tmp_path, "fr", True)
    with pdfplumber.open(game / "cards-lantern-cards-fr.pdf") as pdf:
        assert all(LINE["fr"] in re.sub(r"\s+", " ", page.extract_text() or "") for page in pdf.pages)


def test_a_build_that_is_not_a_draft_says_nothing_of_the_kind(tmp_path):
    game = _build(tmp_path, "en", False)
    for pdf_path in _sheets(game, "en"):
        with pdfplumber.open(pdf_path) as pdf:
            assert not any("draft" in (page.extract_text() or "").lower() for page in pdf.pages), pdf_path.name
    for svg in game.glob("*.svg"):
        assert "Translation draft" not in svg.read_text(encoding="utf-8"), svg.name


@pytest.mark.parametrize("draft", [True, False])
def test_a_drafts_map_says_so_under_its_title_inside_the_title_band(tmp_path, draft):
    """The map page (PDF, SVG) of a draft carries the line under the map's name, between the title and
    the grid's frame, crossing no other text; a map that is not a draft carries none."""
    folder = tmp_path / "lanterns"
    assert main(["new", str(folder)]) == 0
    out = tmp_path / "out"
    lang = "de" if draft else "en"  # not a draft: the game's own source language
    assert main(["build", str(folder), "--out", str(out), "--only", "maps", "--no-preflight", "--lang", lang]
                + (["--draft", "de"] if draft else [])) == 0
    stem = "map-harbour-de" if draft else "map-harbour"
    pdf = out / "lanterns" / f"{stem}.pdf"
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        lines = [ln for ln in page.extract_text_lines() if ln["text"] == LINE["de"]]
        assert len(lines) == (1 if draft else 0)
        if draft:
            line = lines[0]
            frame_top = min(r["top"] for r in page.rects if r["width"] > page.width / 2)  # the grid's frame
            assert line["bottom"] <= frame_top and line["top"] * MM_PER_PT >= EDGE_MM
            others = [w for w in page.extract_words() if w["top"] < line["top"] - 1 or w["bottom"] > line["bottom"] + 1]
            box = (line["x0"], line["top"], line["x1"], line["bottom"])
            assert not any(_overlaps(box, w) for w in others)
    svg = ElementTree.parse(out / "lanterns" / f"{stem}.svg").getroot()
    lines = [g for g in svg.iter(f"{SVG}g") if (g.findtext(f"{SVG}title") or "") == LINE["de"]]  # a string's glyphs, titled
    assert len(lines) == (1 if draft else 0)
