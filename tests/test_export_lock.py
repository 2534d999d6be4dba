"""`pnp export` is a writer like `pnp build` (issue 30): it holds the output folder's build lock,
so two exports (or an export and a build) into one folder never trip over each other; a killed
export's half-written folder is swept by the next writer; and every file and folder it (or a
build) swaps into place is flushed to the disk first, then its folder."""
from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

from generator import output

ROOT = Path(__file__).resolve().parent.parent


def test_an_export_waits_for_the_writer_holding_the_folder_and_then_completes(tmp_path):
    out = tmp_path / "out"
    with output.build_lock(out):
        export = subprocess.Popen([sys.executable, "-m", "generator.cli", "export", "dont-drop-the-ring", "--to",
                                   "pdf-cards", "--lang", "en", "--out", str(out)], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            ready, _, _ = select.select([export.stderr], [], [], 120)
            assert ready, "the export neither waited nor ended"
            assert "waiting for another build" in export.stderr.readline()
            assert export.poll() is None                      # it waits, writing nothing
            assert not (out / "dont-drop-the-ring").exists()
        except BaseException:
            export.kill()
            raise
    stdout, stderr = export.communicate(timeout=300)
    assert export.returncode == 0, stderr
    assert sorted((out / "dont-drop-the-ring" / "export" / "pdf-cards").glob("*-en.pdf"))


def test_a_killed_exports_folders_are_swept_by_the_next_writer(tmp_path):
    target = tmp_path / "out" / "game" / "export"
    half = target / ".vassal.k2j4.part"           # an export killed while writing
    half.mkdir(parents=True)
    (half / "game-en.vmod").write_bytes(b"PK half")
    aside = target / ".vassal.x81q.old"            # killed between moving the old folder aside and removing it
    (aside / "x").mkdir(parents=True)
    (aside / "x" / "README.txt").write_text("old")
    kept = target / "vassal"
    kept.mkdir()
    (kept / "game-en.vmod").write_bytes(b"PK whole")
    with output.build_lock(tmp_path / "out"):
        pass
    assert not half.exists() and not aside.exists()
    assert (kept / "game-en.vmod").read_bytes() == b"PK whole"


def test_files_and_folders_are_flushed_before_and_after_they_are_swapped_in(tmp_path, monkeypatch):
    events: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst):
        events.append(("replace", str(Path(dst).resolve())))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    target = (tmp_path / "a" / "sheet.pdf")
    output.write_bytes(target, b"%PDF-1.7\n")
    root = str(tmp_path.resolve())
    kinds = [(k, p.replace(root, "")) for k, p in events]
    assert kinds[0][0] == "fsync" and kinds[0][1].startswith("/a/.sheet.pdf.")   # the file's bytes first
    assert kinds[1:] == [("replace", "/a/sheet.pdf"), ("fsync", "/a")]           # then the rename, then its folder

    events.clear()
    with output.atomic_folder(tmp_path / "b" / "vassal", replace=True) as folder:
        (folder / "m.vmod").write_bytes(b"PK")
    kinds = [(k, p.replace(root, "")) for k, p in events]
    swap = kinds.index(("replace", "/b/vassal"))
    before = [p for k, p in kinds[:swap] if k == "fsync"]
    assert any(p.endswith("/m.vmod") for p in before) and any(p.startswith("/b/.vassal.") and p.endswith(".part")
                                                              for p in before)
    assert ("fsync", "/b") in kinds[swap:]
