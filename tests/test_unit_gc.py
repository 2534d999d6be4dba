"""A unit runs with the garbage collector off and is collected once when it is done (generator/
units.py `execute`, gcpause.py `collected_at_end`; issue 26): what a unit makes and holds till its
end was walked by every collection made while it ran, and what only a cycle held (a document and
its canvas) could reach the oldest generation, which a build never collects. No cycle a unit
leaves is kept past its end, an error's too, and a caller that turned the collector off keeps it off."""
from __future__ import annotations

import gc
import weakref
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

from generator import units
from generator.context import BuildContext
from generator.gcpause import collected_at_end
from generator.output import write_bytes
from solver.errors import DataError, Problem


class Node:
    """A cycle: what a document and its canvas are to each other."""
    def __init__(self) -> None:
        self.me = self
        self.items = [(i, [i]) for i in range(50)]  # containers the collector must walk


@contextmanager
def collections_noted() -> Iterator[list[int]]:
    """The generations of the collections that start inside, in order."""
    ran: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            ran.append(info["generation"])

    gc.callbacks.append(note)
    try:
        yield ran
    finally:
        gc.callbacks.remove(note)


def drawing_stage(made: list, fail: bool = False):
    """A stage that makes some 200,000 containers and leaves cycles behind, as drawing does; it
    notes the collections that ran while it drew."""
    def stage(game, ctx: BuildContext) -> list[Path]:
        with collections_noted() as ran:
            for _ in range(4000):
                node = Node()
                made.append(weakref.ref(node))
            del node
        made.append(ran)
        if fail:
            raise DataError([Problem("components.yaml", 1, 1, "unusable", "fix it")])
        return [write_bytes(ctx.out_dir(game.id) / "a.pdf", b"%PDF")]
    return stage


@pytest.mark.parametrize("fail", [False, True])
def test_a_unit_draws_with_no_collection_and_leaves_no_cycle(tmp_path, monkeypatch, default_thresholds, fail):
    made: list = []
    monkeypatch.setattr(units, "stage_named", lambda name: drawing_stage(made, fail))
    game, ctx = SimpleNamespace(id="g"), BuildContext(out_root=tmp_path, preflight=False)
    result = units.execute(game, units.Unit("g", "cards", None, "en"), ctx, tmp_path)
    ran = made.pop()
    assert ran == []  # at Python's thresholds some 280 collections would have run
    assert len(made) == 4000 and all(ref() is None for ref in made)  # every cycle gone by the unit's end
    assert bool(result.problems) == fail
    assert gc.isenabled() and gc.get_threshold() == (700, 10, 10)


def test_collected_at_the_end_an_error_too():
    with collections_noted() as ran:
        with pytest.raises(RuntimeError):
            with collected_at_end():
                assert not gc.isenabled()
                raise RuntimeError("a unit that fails")
    assert gc.isenabled() and ran == [1]


def test_left_off_when_the_caller_had_it_off():
    gc.disable()
    try:
        node = Node()
        ref = weakref.ref(node)
        with collected_at_end():
            del node
        assert not gc.isenabled() and ref() is not None  # no collection the caller did not ask for
    finally:
        gc.enable()
        gc.collect()


def test_a_build_of_hundreds_of_units_never_walks_the_oldest_generation(default_thresholds):
    """Each unit's end is a collection of generations 0 and 1; at a threshold of 100 such, Python's
    next automatic collection would walk everything the build holds (0.14 CPU-s in a cold build)."""
    from generator.gcpause import fewer_collections

    ran: list[int] = []
    kept: list[list[int]] = []  # what units leave for later ones (memos, caches): the oldest generation grows

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            ran.append(info["generation"])

    gc.collect()  # the generations' counts from zero, whatever ran in this process before
    gc.callbacks.append(note)
    try:
        with fewer_collections():
            for _ in range(200):
                with collected_at_end():
                    kept += [[i] for i in range(2000)]
            garbage = [[i] for i in range(20_000)]  # between units: the build's own automatic collections
            del garbage
    finally:
        gc.callbacks.remove(note)
    assert ran.count(1) >= 200 and 2 not in ran


def test_what_pnp_build_does_after_its_units_never_walks_the_oldest_generation(tmp_path, monkeypatch, default_thresholds):
    """`pnp build` writes the gallery's index after the build at the build's thresholds: at Python's
    own, the first collection there would walk everything the process holds, since every unit's end
    counted towards the oldest generation's threshold."""
    from generator import gallery, incremental
    from generator.cli import main
    from generator.gcpause import fewer_collections
    from generator.incremental import BuildReport

    kept: list[list[int]] = []

    def build(*args, **kwargs) -> BuildReport:  # 200 units, as incremental.build runs them in one process
        with fewer_collections():
            for _ in range(200):
                with collected_at_end():
                    kept.extend([i] for i in range(2000))
        return BuildReport()

    def write_index(root: Path) -> None:  # as reading the games' reports does
        garbage = [[i] for i in range(20_000)]
        del garbage

    ran: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            ran.append(info["generation"])

    monkeypatch.setattr(incremental, "build", build)
    monkeypatch.setattr(gallery, "write_index", write_index)
    gc.collect()  # the generations' counts from zero, whatever ran in this process before
    gc.callbacks.append(note)
    try:
        assert main(["build", "dont-drop-the-ring", "--out", str(tmp_path / "out"), "--jobs", "1"]) == 0
    finally:
        gc.callbacks.remove(note)
    assert ran.count(1) >= 200 and 2 not in ran
