"""A unit's files are written flat into one scratch folder of the process that runs it (generator/
units.py `execute`, output.py `FlatScratch`): no copy of the output's tree of folders is made for
each unit and deleted once its files are placed (some 720 folders a cold `build --all`, each an inode
allocated and freed). The units of one process share the folder without meeting, a failed unit's
files are deleted with it, and no folder is left once a build, in one process or a pool, is done."""
from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from generator import units
from generator.cli import main
from generator.context import BuildContext
from generator.incremental import build
from generator.output import write_bytes, write_text
from generator.runners import pool
from solver.errors import DataError, Problem

forking = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2,
                             reason="a forked pool of two processes needs fork and two cores")


def fake_stage(fail: bool = False):
    """A stage that writes a deck's files as the cards stage does (the calibration page, which every
    card unit writes, among them), then, with `fail`, finds the input unusable."""
    def stage(game, ctx: BuildContext) -> list[Path]:
        out = ctx.out_dir(game.id)
        written = [write_bytes(out / "png" / "deck" / f"{i}.png", f"{ctx.lang} {i}".encode()) for i in range(3)]
        written.append(write_text(out / f"calibration-{ctx.lang}.pdf", f"calibration {ctx.lang}"))
        if fail:
            raise DataError([Problem("components.yaml", 1, 1, "unusable", "fix it")])
        return written
    return stage


def scratch_folders(root: Path) -> list[Path]:
    return [p for p in root.iterdir() if p.name.startswith(f".{units.SCRATCH}.")]


def test_units_of_a_process_write_flat_into_its_one_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(units, "stage_named", lambda name: fake_stage())
    game, ctx = SimpleNamespace(id="g"), BuildContext(out_root=tmp_path, preflight=False)
    first = units.execute(game, units.Unit("g", "cards", None, "en"), ctx, tmp_path)
    second = units.execute(game, units.Unit("g", "cards", None, "fr"), ctx, tmp_path)
    folders = scratch_folders(tmp_path)
    assert len(folders) == 1 and folders[0].name.startswith(f".{units.SCRATCH}.{os.getpid()}.")
    assert all(p.is_file() for p in folders[0].iterdir())  # no folder made in it
    assert list(first.files) == ["g/calibration-en.pdf"] + [f"g/png/deck/{i}.png" for i in range(3)]
    for result, lang in ((first, "en"), (second, "fr")):
        assert all(isinstance(p, Path) and p.parent == folders[0] for p in result.files.values())
        assert result.files[f"g/png/deck/1.png"].read_bytes() == f"{lang} 1".encode()  # not the other unit's
        assert result.files[f"g/calibration-{lang}.pdf"].suffix == ".pdf"


def test_a_failed_unit_leaves_none_of_its_files(tmp_path, monkeypatch):
    monkeypatch.setattr(units, "stage_named", lambda name: fake_stage())
    game, ctx = SimpleNamespace(id="g"), BuildContext(out_root=tmp_path, preflight=False)
    done = units.execute(game, units.Unit("g", "cards", None, "en"), ctx, tmp_path)
    monkeypatch.setattr(units, "stage_named", lambda name: fake_stage(fail=True))
    failed = units.execute(game, units.Unit("g", "cards", None, "fr"), ctx, tmp_path)
    assert failed.problems and failed.files == {}
    [folder] = scratch_folders(tmp_path)
    assert sorted(folder.iterdir()) == sorted(done.files.values())  # the first unit's, still to be placed


def test_away_from_the_output_disk_the_files_come_back_as_bytes_and_nothing_is_left(tmp_path, monkeypatch):
    monkeypatch.setattr(units, "stage_named", lambda name: fake_stage())
    made: list[Path] = []
    real = units.scratch_folder
    monkeypatch.setattr(units, "scratch_folder", lambda parent, name: (made.append(real(parent, name)), made[-1])[1])
    result = units.execute(SimpleNamespace(id="g"), units.Unit("g", "cards", None, "en"),
                           BuildContext(out_root=tmp_path, preflight=False))
    assert result.files["g/png/deck/2.png"] == b"en 2" and len(result.files) == 4
    assert len(made) == 1 and not made[0].exists()


@pytest.fixture(scope="module")
def newgame(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("new") / "lanterns"
    assert main(["new", str(folder)]) == 0
    return folder


@forking
def test_no_scratch_folder_is_left_after_a_pooled_build(newgame, tmp_path):
    """The pool's workers' folders (and the checker's process's) are removed once those processes are gone."""
    ctx = BuildContext(out_root=tmp_path / "out", preflight=False)
    report = build([newgame], ctx, runner=pool(2))
    assert len(report.built) >= 6 and report.written
    assert not [p for p in ctx.out_root.rglob("*") if p.name.endswith(".part")]
