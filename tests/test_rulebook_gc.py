"""The rulebooks stage sets its books with fewer garbage collections (generator/rulebook/build.py,
`fewer_collections`): the thresholds are raised inside and given back after, even when a book fails."""
from __future__ import annotations

import gc

import pytest

from generator.rulebook.build import GC_THRESHOLDS, fewer_collections


def test_thresholds_are_raised_inside_and_restored_after():
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with fewer_collections():
            inside = gc.get_threshold()
        assert inside == GC_THRESHOLDS
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(100_000, 5, 1000)  # a caller's own higher threshold is never lowered
        with fewer_collections():
            assert gc.get_threshold() == (100_000, GC_THRESHOLDS[1], 1000)
        assert gc.get_threshold() == (100_000, 5, 1000)
    finally:
        gc.set_threshold(*before)


def test_thresholds_are_restored_when_a_book_fails():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError):
        with fewer_collections():
            raise RuntimeError("a book failed")
    assert gc.get_threshold() == before
