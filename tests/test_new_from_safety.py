"""`pnp new --from` over a stranger's folder copies no link, FIFO or device; the folders a killed
`pnp new` or `pnp export` left are swept by the next run; a full or read-only disk is one line
(issue 31, items 2 and 5)."""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from generator import output
from generator.cli import main
from solver.game.loader import load_game

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"


def run(argv: list[str], capsys) -> tuple[int, list[str]]:
    """main(argv) in a thread, so a copy that blocks on a FIFO or never ends fails the test."""
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(main(argv)), daemon=True)
    worker.start()
    worker.join(120)
    assert result, f"`pnp {' '.join(argv)}` did not finish"
    return result[0], capsys.readouterr().err.strip().splitlines()


@pytest.fixture
def hostile(tmp_path) -> Path:
    """A copy of an example game with links out of it, a link loop, a FIFO and a link to a device."""
    source = tmp_path / "stranger" / "ring"
    shutil.copytree(GAMES / "dont-drop-the-ring", source)
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "diary.txt").write_text("mine", encoding="utf-8")
    (source / "passwd.txt").symlink_to("/etc/passwd")
    (source / "notes").symlink_to(outside)
    (source / "art.png").symlink_to("/dev/zero")
    (source / "loop").symlink_to(".")
    os.mkfifo(source / "pipe.csv")
    return source


def test_new_from_copies_no_link_fifo_or_device(hostile, tmp_path, capsys):
    target = tmp_path / "mine"
    status, err = run(["new", str(target), "--from", str(hostile)], capsys)
    assert status == 0 and "Traceback" not in "\n".join(err)
    skipped = {"passwd.txt", "notes", "art.png", "loop", "pipe.csv"}
    assert len(err) == len(skipped), err  # one line each
    assert {next(n for n in skipped if f"{n}:" in line) for line in err} == skipped
    copied = {p.relative_to(target).as_posix() for p in target.rglob("*")}
    assert not copied & skipped and not any(p.is_symlink() for p in target.rglob("*"))
    regular = {p.relative_to(hostile).as_posix() for p in hostile.rglob("*")
               if not p.is_symlink() and (p.is_file() or p.is_dir()) and p.name not in skipped}
    assert copied == regular
    assert load_game(target).id == "mine"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no .part left


def test_a_file_over_its_limit_is_skipped_with_a_line(tmp_path, capsys, monkeypatch):
    from solver.game import limits

    source = tmp_path / "ring"
    shutil.copytree(GAMES / "dont-drop-the-ring", source)
    (source / "big.txt").write_bytes(b"x" * 2000)
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1000)
    monkeypatch.setattr(limits, "MAX_IMAGE_BYTES", 1000)
    status, err = run(["new", str(tmp_path / "mine"), "--from", str(source)], capsys)
    assert status == 0
    assert any("big.txt:" in line and "over the limit" in line for line in err), err
    assert not (tmp_path / "mine" / "big.txt").exists()


def test_folders_a_killed_run_left_are_swept(tmp_path, capsys):
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f".mine.{dead.pid}.x1y2.part"
    (stale / "rules").mkdir(parents=True)
    (stale / "rules" / "half.yaml").write_text("a: [", encoding="utf-8")
    alive = tmp_path / f".mine.{os.getppid()}.a1b2.part"  # a running process's: left alone
    alive.mkdir()
    status, _ = run(["new", str(tmp_path / "mine")], capsys)
    assert status == 0
    assert not stale.exists() and alive.is_dir()


def test_export_sweeps_what_a_killed_export_left(tmp_path, capsys):
    out = tmp_path / "out"
    status, err = run(["export", "dont-drop-the-ring", "--to", "pdf-cards", "--out", str(out)], capsys)
    assert status == 0, err
    dead = subprocess.Popen(["true"])
    dead.wait()
    target = out / "dont-drop-the-ring" / "export"
    assert (target / "pdf-cards").is_dir()
    stale = [target / f".pdf-cards.{dead.pid}.k1ll.part", target / f".pdf-cards.{dead.pid}.k2ll.old"]
    for p in stale:
        (p / "x").mkdir(parents=True)
    status, err = run(["export", "dont-drop-the-ring", "--to", "pdf-cards", "--out", str(out)], capsys)
    assert status == 0, err
    assert not any(p.exists() for p in stale)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_new_on_a_full_or_read_only_disk_is_one_line(tmp_path, capsys, monkeypatch, code):
    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code), str(tmp_path / "x"))

    monkeypatch.setattr(output.os, "replace", refuse)
    for argv in (["new", str(tmp_path / "a")], ["new", str(tmp_path / "b"), "--from", "dont-drop-the-ring"],
                 ["export", "dont-drop-the-ring", "--to", "pdf-cards", "--out", str(tmp_path / "out")]):
        status, err = run(argv, capsys)
        assert status == 2 and len(err) == 1 and "Traceback" not in err[0], (argv, err)
        assert "cannot write the output" in err[0] and os.strerror(code) in err[0], err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_export_keeps_the_builds_warnings_file(tmp_path, capsys):
    out = tmp_path / "out"
    (out).mkdir()
    (out / "build-warnings.txt").write_text("the build's own\n", encoding="utf-8")
    status, err = run(["export", "riddle-of-the-ring", "--to", "tgc", "--out", str(out)], capsys)
    assert status == 0, err
    assert (out / "build-warnings.txt").read_text(encoding="utf-8") == "the build's own\n"
    assert "play-cards" in (out / "export-warnings.txt").read_text(encoding="utf-8")
