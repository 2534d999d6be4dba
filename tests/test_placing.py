"""A build puts its units' files in place from a few threads (generator/placing.py), so that their
flushes to the disk overlap, and still records every unit and its files; a file that cannot be
written still stops the build with its DataError."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from gamefiles import write_game
from generator import incremental
from generator.context import BuildContext
from generator.incremental import RECORD, build, read_record
from generator.placing import concurrently
from generator.runners import serial
from solver.errors import DataError, Problem

GAME = {
    "game.yaml": "id: lamps\ntitle: {en: Lamps}\nplayers: {min: 2, max: 3}\nsource_language: en\nlanguages: [en]\n",
    "components.yaml": "components:\n  - id: deck\n    kind: deck\n    name: {en: Deck}\n    size: poker\n"
                       "    items:\n      - {id: lamp, name: {en: Lamp}, count: 6}\n"
                       "  - id: tiles\n    kind: deck\n    name: {en: Tiles}\n    size: poker\n"
                       "    items:\n      - {id: tile, name: {en: Tile}, count: 4}\n",
}


def files_of(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != RECORD}


def test_two_units_files_are_placed_at_once_and_recorded(tmp_path, monkeypatch):
    """The first unit's files are still being placed when the second's are: both wait for each
    other (one after the other, the first would wait alone till the barrier breaks)."""
    game = write_game(tmp_path / "lamps", GAME)
    both = threading.Barrier(2, timeout=20)
    real = incremental.write_files
    calls: list[int] = []

    def meeting(root, files):
        calls.append(threading.get_ident())
        if len(calls) <= 2:
            both.wait()
        return real(root, files)

    monkeypatch.setattr(incremental, "write_files", meeting)
    ctx = BuildContext(out_root=tmp_path / "out", preflight=False)
    report = build([game], ctx, {"cards"}, runner=serial)
    assert len(report.built) == 2 and len(set(calls[:2])) == 2
    record = read_record(ctx.out_dir("lamps"))
    assert set(record["units"]) == {"cards:deck:en", "cards:tiles:en"}
    assert record["last"]["inputs"] is not None and "pending" not in record
    monkeypatch.setattr(incremental, "write_files", real)
    alone = BuildContext(out_root=tmp_path / "alone", preflight=False)
    build([game], alone, {"cards"}, runner=serial)
    assert files_of(ctx.out_root) == files_of(alone.out_root)


def test_a_file_that_cannot_be_written_stops_the_build_with_its_problem(tmp_path, monkeypatch):
    game = write_game(tmp_path / "lamps", GAME)

    def full(root, files):
        raise DataError([Problem(str(root), 0, 0, "cannot write the output (No space left on device)", "free some")])

    monkeypatch.setattr(incremental, "write_files", full)
    with pytest.raises(DataError, match="No space left"):
        build([game], BuildContext(out_root=tmp_path / "out", preflight=False), {"cards"}, runner=serial)


def test_calls_not_started_are_dropped_when_the_block_raises():
    """Ctrl-C while files are being placed: the build's record is written once the calls running
    end, not after every queued one (five calls of a second each, on one thread)."""
    started: list[int] = []
    never = threading.Event()

    def slow(i: int) -> None:
        started.append(i)
        never.wait(1)

    with pytest.raises(KeyboardInterrupt):
        with concurrently(threads=1) as submit:
            for i in range(5):
                submit(slow, i)
            raise KeyboardInterrupt
    assert started in ([], [0])


def test_the_files_of_results_queued_behind_are_entered_with_the_first(tmp_path, monkeypatch):
    """The names of a game's results already handed to the placing threads go into the one pending
    record the first of them writes, and the others' own entries write nothing: every name is on
    record before its file is placed, with fewer records flushed."""
    ctx = BuildContext(out_root=tmp_path / "out", preflight=False)
    gp = incremental._GamePlan(tmp_path / "lamps", "lamps", "digest", {})
    gp.queued = {"lamps/tiles-en.pdf"}
    incremental._enter_pending(gp, ctx, {"lamps/deck-en.pdf"})
    assert read_record(ctx.out_dir("lamps"))["pending"] == ["lamps/deck-en.pdf", "lamps/tiles-en.pdf"]
    written: list[Path] = []
    monkeypatch.setattr(incremental, "write_text", lambda path, text: written.append(path))
    incremental._enter_pending(gp, ctx, {"lamps/tiles-en.pdf"})
    assert written == [] and gp.queued == set()
    incremental._enter_pending(gp, ctx, {"lamps/tiles-en.pdf", "lamps/box-en.pdf"})
    assert len(written) == 1
