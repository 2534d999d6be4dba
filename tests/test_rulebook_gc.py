"""A game's books are set with the garbage collector run less often (generator/gcpause.py with the
rulebooks' own thresholds, generator/rulebook/build.py), given back after, and once they are written
the line breaker's per-paragraph memory is let go of (generator/text `forget_paragraphs`): its lines
at once, a paragraph's groups and breaks (whatever the width) once two more units have not set it (a
translated book sets the paragraphs of the two units before it; the next game's are others), so a
one-process build does not hold them all to its end."""
from __future__ import annotations

import gc

import pytest

import generator.rulebook.build as books
from generator.context import BuildContext
from generator.rulebook.build import GC_THRESHOLDS, rulebook_files
from generator.rulebook.drawstring import _measured
from generator.text import forget_paragraphs
from generator.text.breaking import _groups, _paragraph
from generator.text.wrap import _wrap_spans
from solver.game.loader import load_game

CACHES = (_groups, _paragraph, _wrap_spans, _measured)
WIDTH_FREE = (_groups, _paragraph)  # kept for the next units' books (text/memo.py)


def test_books_are_set_with_fewer_collections_and_their_paragraphs_let_go(tmp_path, monkeypatch, default_thresholds):
    seen: list[tuple[int, int, int]] = []
    filled: list[bool] = []
    render = books.render

    def rendering(*args, **kwargs):
        out = render(*args, **kwargs)
        seen.append(gc.get_threshold())
        filled.append(all(c.cache_info().currsize for c in CACHES))  # the book used them
        return out

    monkeypatch.setattr(books, "render", rendering)
    files = rulebook_files(load_game("dont-drop-the-ring"), BuildContext(out_root=tmp_path, preflight=False), "en")
    assert [f.name for f in files] == ["rulebook-en.pdf", "print-guide-en.pdf"]
    assert seen == [GC_THRESHOLDS] * 2 and all(filled)
    assert gc.get_threshold() == (700, 10, 10)
    assert [c.cache_info().currsize for c in CACHES if c not in WIDTH_FREE] == [0, 0]
    # a paragraph's groups and breaks stay while the next two units could set it again, then go
    for _ in range(2):
        assert all(c.cache_info().currsize for c in WIDTH_FREE)
        forget_paragraphs()
    assert [c.cache_info().currsize for c in WIDTH_FREE] == [0, 0]


def test_thresholds_are_given_back_when_a_book_fails(tmp_path, monkeypatch, default_thresholds):
    def failing(*args, **kwargs):
        raise RuntimeError("a book failed")

    monkeypatch.setattr(books, "render", failing)
    with pytest.raises(RuntimeError):
        rulebook_files(load_game("dont-drop-the-ring"), BuildContext(out_root=tmp_path, preflight=False), "en")
    assert gc.get_threshold() == (700, 10, 10)
