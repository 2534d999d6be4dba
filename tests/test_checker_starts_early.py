"""The checker's process (generator/runners.py) starts as soon as the first game is loaded and
planned, and checks it while the build loads the others (generator/incremental.py `_Loading`); a
game loaded after it started goes to it with its unit. A game that cannot be loaded still stops
the build before anything is written, whatever the checker did meanwhile."""
from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from gamefiles import write_game
from generator import runners
from generator.context import BuildContext
from generator.incremental import RECORD, build
from generator.runners import pool, serial
from solver.errors import DataError
from solver.game import loader

forking = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2,
                             reason="the checker's own process needs fork")


def lamps(folder: Path, game_id: str, count: int = 6) -> Path:
    return write_game(folder, {
        "game.yaml": f"id: {game_id}\ntitle: {{en: Lamps}}\nplayers: {{min: 2, max: 3}}\nsource_language: en\n"
                     "languages: [en]\n",
        "components.yaml": "components:\n  - id: deck\n    kind: deck\n    name: {en: Deck}\n    size: poker\n"
                           f"    items:\n      - {{id: lamp, name: {{en: Lamp}}, count: {count}}}\n",
        "setup.yaml": "steps:\n  - use: deck\n  - shuffle: deck\n  - deal: deck\n    each: 2\n",
    })


def files_of(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != RECORD}


@forking
@pytest.mark.parametrize("runner", [serial, pool(2)], ids=["serial", "pool"])
def test_the_checker_starts_after_the_first_game_and_checks_every_game(tmp_path, monkeypatch, runner):
    games = [lamps(tmp_path / "lamps", "lamps"), lamps(tmp_path / "lanterns", "lanterns", count=8),
             lamps(tmp_path / "torches", "torches", count=10)]
    loaded: list[str] = []
    real_load = loader.load_game

    def load_game(folder, *args, **kwargs):
        loaded.append(Path(folder).name)
        return real_load(folder, *args, **kwargs)

    at_fork: list[list[str]] = []
    real_processes = runners._processes

    def processes(workers, method, tasks, ctx, **kwargs):  # the checker's process first, then the pool's
        at_fork.append(list(loaded))
        return real_processes(workers, method, tasks, ctx, **kwargs)

    monkeypatch.setattr(loader, "load_game", load_game)
    monkeypatch.setattr(runners, "_processes", processes)
    monkeypatch.setattr(runners, "_apart_context", runners._fork)  # as in `pnp build` (no other thread)
    ctx = BuildContext(out_root=tmp_path / "out", preflight=False)
    report = build(games, ctx, {"check", "manifest"}, runner=runner)
    assert at_fork[0] == ["lamps"]  # the checker's: forked with the first game only
    assert loaded == ["lamps", "lanterns", "torches"] and report.loaded == loaded
    # each game's report is its own (the two loaded later were sent to the checker's process)
    for folder, dealt in (("lamps", 6), ("lanterns", 8), ("torches", 10)):
        report_json = json.loads((ctx.out_root / folder / "check-report.json").read_text(encoding="utf-8"))
        assert report_json["game"] == folder and report_json["ok"] is True
        assert report_json["player_counts"]["3"]["dealt"]["deck"] == 6
        assert report_json["player_counts"]["2"]["draw_pile"] == dealt - 4
    monkeypatch.setattr(runners, "_apart_context", lambda: None)  # every unit in this process
    alone = BuildContext(out_root=tmp_path / "alone", preflight=False)
    build(games, alone, {"check", "manifest"}, runner=serial)
    assert files_of(ctx.out_root) == files_of(alone.out_root)


@forking
def test_a_game_that_fails_to_load_after_the_checker_started_leaves_nothing_written(tmp_path, monkeypatch):
    monkeypatch.setattr(runners, "_apart_context", runners._fork)
    good = lamps(tmp_path / "lamps", "lamps")
    bad = lamps(tmp_path / "broken", "broken")
    (bad / "components.yaml").write_text("components:\n  - id: deck\n    kind: nonsense\n", encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(DataError):
        build([good, bad], BuildContext(out_root=out, preflight=False), {"check", "manifest"}, runner=pool(2))
    assert not out.exists() or [p for p in out.rglob("*")] == []
