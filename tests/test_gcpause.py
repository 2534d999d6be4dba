"""Sheets, pieces and the missing-content leaflet are drawn with Python's garbage collector run
less often (generator/gcpause.py, issue 26): drawing makes hundreds of thousands of short-lived tuples
while a build holds as many long-lived objects, which each full collection walks again. The
thresholds are raised only while drawing, never lowered, and restored after, an error too."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest

from generator.cards.deck import build_cards
from generator.context import BuildContext
from generator.gcpause import THRESHOLDS, fewer_collections
from solver.game.loader import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "cards-with-images"


def test_raised_inside_restored_after_an_error_too(default_thresholds):
    with pytest.raises(RuntimeError):
        with fewer_collections():
            assert gc.get_threshold() == THRESHOLDS
            raise RuntimeError("a drawing that fails")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_is_kept(default_thresholds):
    gc.set_threshold(9000, 5, 5000)
    with fewer_collections():
        assert gc.get_threshold() == (9000, 20, 5000)
    assert gc.get_threshold() == (9000, 5, 5000)


def test_faces_and_pngs_are_drawn_with_fewer_collections(tmp_path, monkeypatch, default_thresholds):
    """Every face of a deck's sheets and PNGs, and the PNGs' pixels, drawn with the raised
    thresholds; the build's own restored after."""
    from generator.cards.face import FaceDrawer
    from generator.render import pngwrite

    seen: list[tuple[str, tuple[int, int, int]]] = []
    draw, png_bytes = FaceDrawer.draw, pngwrite.png_bytes

    def drawing(self, *args, **kwargs):
        seen.append(("face", gc.get_threshold()))
        return draw(self, *args, **kwargs)

    def encoding(*args, **kwargs):
        seen.append(("png", gc.get_threshold()))
        return png_bytes(*args, **kwargs)

    monkeypatch.setattr(FaceDrawer, "draw", drawing)
    monkeypatch.setattr(pngwrite, "png_bytes", encoding)
    files = build_cards(load_game(FIXTURE), BuildContext(out_root=tmp_path, formats=("pdf", "svg", "png"),
                                                         preflight=False))
    assert any(f.suffix == ".png" for f in files) and any(f.suffix == ".svg" for f in files)
    assert {kind for kind, _ in seen} == {"face", "png"}
    assert {thresholds for _, thresholds in seen} == {THRESHOLDS}
    assert gc.get_threshold() == (700, 10, 10)


def test_the_missing_content_leaflet_is_set_with_fewer_collections(tmp_path, monkeypatch, default_thresholds):
    import generator.rulebook.typeset as typeset
    from generator.missing import build_missing

    seen: list[tuple[int, int, int]] = []
    render = typeset.render

    def rendering(*args, **kwargs):
        seen.append(gc.get_threshold())
        return render(*args, **kwargs)

    monkeypatch.setattr(typeset, "render", rendering)
    files = build_missing(load_game(FIXTURE), BuildContext(out_root=tmp_path, preflight=False))
    assert [f.suffix for f in files] == [".pdf", ".txt"]
    assert seen == [THRESHOLDS]
    assert gc.get_threshold() == (700, 10, 10)
