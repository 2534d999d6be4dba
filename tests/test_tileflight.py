"""A tiled print's preflight beside its full-size twin (generator/tileflight.py): the map's text is
judged on the full-size file; a sheet of the tiled file, when that file has no finding, on its own
text (sheet names, neighbours, title, the overlap strips' names); the tiled file alone, or beside a
twin with a finding, read back whole as before."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator import fonts
from generator import preflight as pf
from generator.hexmap import tiles
from generator.hexmap.draw import draw_map_page
from generator.hexmap.layout import map_page
from generator.hexmap.stage import map_tiles
from generator.render import open_surface
from solver.game.map import MapFile

DARK, PALE = "#3a3a3a", "#f4f4f4"  # under the hex labels (#37352d): unreadable, and clean


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    monkeypatch.setattr(pf, "_CHECKED", {})  # files of the same bytes from another test are not reused


def write(folder: Path, fill: str, twin: bool = True) -> tuple[Path, Path]:
    """A small map (A3, its hexes in `fill`, every hex labelled) as its full-size PDF and its tiles
    on A4, the tiled file told of the full-size one (`twin`) as the map stage tells it."""
    hm = MapFile.model_validate({
        "id": "t", "name": "t", "reconstruction": True, "paper": "a3",
        "grid": {"orientation": "flat", "offset": "odd", "hex_mm": 20, "columns": 14, "rows": 11},
        "labels": {"style": "letter-number", "show": "all"},
        "terrain": {"default": "c", "kinds": {"c": {"name": "c", "fill": fill}}},
        "legend": {"title": "T", "note": "reconstruction"}}).resolve()
    page, faces = map_page(hm), fonts.faces("en")
    surf = open_surface("pdf", title="t")
    draw_map_page(surf, hm, page, "en", faces)
    (full,) = surf.save(folder / "map-t.pdf")
    _, plan = map_tiles(hm, "a4")
    (tiled,) = tiles.draw_tiles(hm, page, plan, "en", faces, folder / "map-t-tiles-a4.pdf",
                                twin=full.name if twin else None)
    return full, tiled


def codes(found: list[pf.Finding], path: Path) -> set[str]:
    return {f.code for f in found if f.path == path.name}


def test_a_fault_in_the_map_is_found_on_the_full_size_file_and_the_tiles(tmp_path):
    full, tiled = write(tmp_path, DARK)
    found = pf.preflight([full, tiled], tmp_path)
    assert "text-unreadable" in codes(found, full)
    # the twin has a finding: the tiled file is read back whole, its sheets' labels among it
    assert "text-unreadable" in codes(found, tiled)
    (f,) = [f for f in found if f.path == tiled.name and f.code == "text-unreadable"]
    assert "pages 1, 2, 3;" in f.message


def test_a_tiled_file_alone_is_read_back_whole(tmp_path):
    full, tiled = write(tmp_path, DARK)
    found = pf.preflight([tiled], tmp_path)
    assert "text-unreadable" in codes(found, tiled)


def test_a_fault_in_a_sheets_own_text_is_found_beside_a_clean_twin(tmp_path, monkeypatch):
    monkeypatch.setattr(tiles, "HIDDEN_NAME", "#c8c8c8")  # the overlap strip's name, pale on its white patch
    full, tiled = write(tmp_path, PALE)
    found = pf.preflight([tiled, full], tmp_path)
    assert codes(found, full) == set()
    (f,) = [f for f in found if f.path == tiled.name]
    assert f.code == "text-contrast" and "#c8c8c8 on #ffffff" in f.message and f.page == 2


def test_beside_a_clean_twin_a_sheet_is_judged_on_its_own_text(tmp_path, monkeypatch):
    """The map's hex labels ("A1") are on every sheet of the tiled file but judged on the full-size
    file: a sheet's judgement is given only the sheet's own characters; the assembly page all."""
    judged: dict[int, str] = {}
    judge = pf._judge

    def spy(name, page_no, sheet, *rest):
        judged[page_no] = "".join(sheet.read.text)
        return judge(name, page_no, sheet, *rest)

    monkeypatch.setattr(pf, "_judge", spy)
    full, tiled = write(tmp_path, PALE)
    assert pf.preflight([full, tiled], tmp_path) == []
    sheets = [t for page, t in judged.items() if page > 1]
    assert len(sheets) == 2 and all("Sheet" in t and "A1" not in t and "B2" not in t for t in sheets)
    assert "A1" in judged[1]  # the assembly page, read back whole
    judged.clear()
    full, tiled = write(tmp_path, PALE, twin=False)  # no twin told: read back whole
    pf._CHECKED.clear()
    pf.preflight([full, tiled], tmp_path)
    assert any("B2" in t for page, t in judged.items() if page > 1)
