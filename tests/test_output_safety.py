"""Nothing escapes and faults lose nothing (issue 14): hostile names reach SVG and HTML escaped,
an unwritable output folder is one line, a killed build's temporary files are swept, and two
builds into one folder at once both succeed with the output of a lone build."""
from __future__ import annotations

import errno
import hashlib
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest

from generator import cli, output
from generator.incremental import RECORD
from solver.errors import DataError

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = '<script>&"x'


def _digest(out: Path) -> dict[str, str]:
    # the lock, and the incremental build's record (it keeps the outputs' mtimes), are bookkeeping
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name not in (output.LOCK_NAME, RECORD)}


def test_hostile_names_reach_svg_and_html_escaped(game_copy, tmp_path):
    folder = game_copy()
    csv = folder / "gem-cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Amethyst 1", HOSTILE.replace('"', '""').join('""')),
                   encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["build", str(folder), "--out", str(out), "--only", "cards", "--only", "manifest",
                     "--lang", "en"]) == 0
    svgs = sorted(out.rglob("*.svg"))
    assert svgs
    texts = []
    for svg in svgs:
        root = ElementTree.parse(svg).getroot()  # well-formed: the name did not break the markup
        assert not any(el.tag.endswith("script") for el in root.iter())
        texts.append("".join(root.itertext()))
    # glyphs are drawn as paths; the name reaches the SVG as character data (a <title>), unescaped here
    # (its straight quote printed as the closing quote English sets after a letter)
    assert any(HOSTILE.replace('"', "”") in t for t in texts), "the hostile name is in the SVG as text"

    class Tags(HTMLParser):
        found: list[str] = []

        def handle_starttag(self, tag, attrs):
            self.found.append(tag)

    index = (out / "index.html").read_text(encoding="utf-8")
    parser = Tags()
    parser.feed(index)
    assert "script" not in parser.found


def test_full_output_folder_is_one_line_and_keeps_the_previous_file(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    assert cli.main(["build", "dont-drop-the-ring", "--out", str(out), "--only", "manifest"]) == 0
    before = _digest(out)

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output.os, "replace", full)
    capsys.readouterr()
    assert cli.main(["build", "dont-drop-the-ring", "--out", str(out), "--only", "manifest", "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write the output (No space left on device); free some space" in err[0], err
    assert _digest(out) == before  # nothing replaced, no temporary file left
    assert not output.stale_temp_files(out)


def test_output_path_under_a_file_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert cli.main(["build", "dont-drop-the-ring", "--out", str(blocker / "sub"), "--only", "manifest"]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "cannot write the output" in line and "--out" in line


def test_build_sweeps_temporary_files_a_killed_build_left(tmp_path):
    out = tmp_path / "out"
    stale = out / "dont-drop-the-ring" / ".manifest.json.k1ll3d.part"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"half a manif")
    assert cli.main(["build", "dont-drop-the-ring", "--out", str(out), "--only", "manifest"]) == 0
    assert not stale.exists() and (out / "dont-drop-the-ring" / "manifest.json").is_file()


def test_two_builds_into_one_folder_at_once(tmp_path):
    lone, shared = tmp_path / "lone", tmp_path / "shared"
    argv = [sys.executable, "-m", "generator.cli", "build", "dont-drop-the-ring", "--only", "manifest"]
    subprocess.run(argv + ["--out", str(lone)], cwd=ROOT, check=True, capture_output=True)
    procs = [subprocess.Popen(argv + ["--out", str(shared)], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert [rc for rc, _ in results] == [0, 0], results
    assert _digest(shared) == _digest(lone)
    assert not output.stale_temp_files(shared)


def test_a_units_files_are_flushed_before_their_rename_and_each_folder_once(tmp_path, monkeypatch):
    """`write_files` (the output folder's writer): every file flushed to the disk before it is
    renamed over its target (a power loss leaves the old file or the new one, never an empty one),
    then each folder once, not once per file. Under `scratch_writes()` (a unit's scratch folder,
    moved or read back, then deleted) nothing is flushed nor renamed, and the files are whole."""
    events: list[tuple[str, str]] = []
    real_sync, real_replace = output.sync, output.os.replace
    monkeypatch.setattr(output, "sync", lambda p: (events.append(("sync", Path(p).name)), real_sync(p)))
    monkeypatch.setattr(output.os, "replace", lambda a, b: (events.append(("replace", Path(b).name)), real_replace(a, b)))
    files = {"cards.pdf": b"%PDF-1 cards", "png/deck/a.png": b"a" * 5000, "png/deck/b.png": b"b" * 7000}
    written = output.write_files(tmp_path, files)
    assert [p.read_bytes() for p in written] == list(files.values())
    for name in ("cards.pdf", "a.png", "b.png"):  # the file's own flush comes right before its rename
        i = events.index(("replace", name))
        assert events[i - 1][0] == "sync" and events[i - 1][1].startswith(f".{name}.")
    folder_syncs = [n for kind, n in events if kind == "sync" and not n.startswith(".")]
    assert sorted(folder_syncs) == sorted([tmp_path.name, "deck"])  # each folder once, after its files
    assert events.index(("sync", "deck")) > events.index(("replace", "b.png"))
    events.clear()
    (tmp_path / "flat").mkdir()
    with output.scratch_writes(output.FlatScratch(tmp_path / "scratch", tmp_path / "flat")) as scratch:
        output.write_files(tmp_path / "scratch", files)
        output.write_bytes(tmp_path / "scratch" / "one.svg", b"<svg/>")
    assert events == []
    assert {rel: p.read_bytes() for rel, p in scratch.files.items()} == {**files, "one.svg": b"<svg/>"}
    events.clear()
    output.write_bytes(tmp_path / "one.svg", b"<svg/>")  # outside: flushed, and its folder
    assert [kind for kind, _ in events] == ["sync", "replace", "sync"]


def test_a_finished_file_is_flushed_and_renamed_onto_its_target_with_no_copy_beside_it(tmp_path, monkeypatch):
    """A unit's finished file (a Path, in its scratch folder on the output's disk) is whole: it is
    flushed, then renamed over its target, made readable as a file written here is; no temporary
    file is created beside the target (a file creation, and one rename, fewer per output file)."""
    events: list[tuple[str, str]] = []
    opened: dict[int, str] = {}
    real_open, real_fsync = output.os.open, output.os.fsync
    real_replace, real_mkstemp = output.os.replace, output.tempfile.mkstemp

    def spied_open(path, *args, **kw):
        fd = real_open(path, *args, **kw)
        opened[fd] = Path(path).name
        return fd

    monkeypatch.setattr(output.os, "open", spied_open)
    monkeypatch.setattr(output.os, "fsync", lambda fd: (events.append(("sync", opened[fd])), real_fsync(fd)))
    monkeypatch.setattr(output.os, "replace", lambda a, b: (events.append(("replace", Path(b).name)), real_replace(a, b)))
    monkeypatch.setattr(output.tempfile, "mkstemp", lambda *a, **k: (events.append(("mkstemp", "")), real_mkstemp(*a, **k))[1])
    scratch = tmp_path / ".pnp-unit.part"
    (scratch / "png").mkdir(parents=True)
    finished = scratch / "png" / "a.png"
    finished.write_bytes(b"new")
    finished.chmod(0o600)  # as mkstemp leaves a file
    out = tmp_path / "out"
    (out / "png").mkdir(parents=True)
    (out / "png" / "a.png").write_bytes(b"old")
    written = output.write_files(out, {"png/a.png": finished})
    assert written == [out / "png" / "a.png"] and written[0].read_bytes() == b"new" and not finished.exists()
    assert events == [("sync", "a.png"), ("replace", "a.png"), ("sync", "png")]
    umask = os.umask(0)
    os.umask(umask)
    assert written[0].stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_finished_files_folder_is_made_only_when_missing(tmp_path, monkeypatch):
    """A unit's finished file is renamed into its folder, which is made only when the rename finds
    it missing (its first file): not asked again for every file. A finished file that is gone is one
    DataError line, with no folder made for it."""
    scratch = tmp_path / ".pnp-unit.part"
    scratch.mkdir()
    finished = {"png/a.png": scratch / "a.png", "new/deep/b.png": scratch / "b.png"}
    for path in finished.values():
        path.write_bytes(path.name.encode())
    out = tmp_path / "out"
    (out / "png").mkdir(parents=True)
    made: list[Path] = []
    real_mkdir = Path.mkdir
    monkeypatch.setattr(Path, "mkdir", lambda self, *a, **k: (made.append(self), real_mkdir(self, *a, **k))[1])
    written = output.write_files(out, finished)
    assert [p.read_bytes() for p in written] == [b"a.png", b"b.png"]
    assert set(made) == {out / "new" / "deep", out / "new"}  # (mkdir makes a missing parent by a call of its own)
    with pytest.raises(DataError, match="cannot write the output"):
        output.write_files(out, {"gone/c.png": scratch / "c.png"})
    assert not (out / "gone").exists()


def test_a_folder_made_by_another_placing_thread_meanwhile_is_no_error(tmp_path, monkeypatch):
    """The units' files are placed from several threads: a file's rename can find its folder
    missing and another thread make that folder before this one looks. The file is still placed."""
    scratch = tmp_path / ".pnp-unit.part"
    scratch.mkdir()
    (scratch / "a.png").write_bytes(b"a")
    out = tmp_path / "out"
    out.mkdir()
    real_replace = output.os.replace
    raced: list[Path] = []

    def replace(a, b):
        if not raced:  # the folder is missing now, and made (by "another thread") just after
            raced.append(Path(b))
            Path(b).parent.mkdir()
            raise FileNotFoundError(2, "No such file or directory")
        return real_replace(a, b)

    monkeypatch.setattr(output.os, "replace", replace)
    written = output.write_files(out, {"png/a.png": scratch / "a.png"})
    assert raced == [out / "png" / "a.png"] and [p.read_bytes() for p in written] == [b"a"]


def test_a_finished_file_already_shared_is_not_chmodded(tmp_path, monkeypatch):
    """A unit's finished file whose mode is already a written file's (what the drawing code's own
    `open` gives) keeps it untouched: no chmod for each of a build's files; a private one (mkstemp's
    0600) is still made readable (the test above)."""
    scratch = tmp_path / ".pnp-unit.part"
    scratch.mkdir()
    finished = scratch / "a.png"
    finished.write_bytes(b"new")
    finished.chmod(0o666 & ~output.UMASK)
    calls: list[str] = []
    monkeypatch.setattr(output.os, "chmod", lambda *a, **k: calls.append("chmod"))
    monkeypatch.setattr(output.os, "fchmod", lambda *a, **k: calls.append("fchmod"))
    written = output.write_files(tmp_path / "out", {"a.png": finished})
    assert written[0].read_bytes() == b"new" and calls == [], calls
    assert written[0].stat().st_mode & 0o777 == 0o666 & ~output.UMASK


def test_a_units_files_go_flat_into_its_scratch_folder_and_no_folder_is_made(tmp_path, monkeypatch):
    """Within a unit's scratch writes, each file under the unit's root goes into its scratch folder
    under a name of its own (the same file when written again, its suffix kept): no folder of the
    output's tree is made there for it (720 folders made and deleted again in a cold `build --all`).
    A file whose writing failed before it existed is not the unit's."""
    root, folder = tmp_path / "root", tmp_path / ".pnp-unit.part"
    folder.mkdir()
    made: list[str] = []
    real_mkdir = output.os.mkdir
    monkeypatch.setattr(output.os, "mkdir", lambda p, *a, **k: (made.append(Path(p).name), real_mkdir(p, *a, **k))[1])
    with output.scratch_writes(output.FlatScratch(root, folder)) as scratch:
        for i in range(5):
            output.write_bytes(root / "game" / "png" / "deck" / f"{i}.png", b"x")
        output.write_bytes(root / "game" / "png" / "deck" / "0.png", b"again")
        output.write_text(root / "game" / "cards.pdf", "pdf")
        with pytest.raises(OSError), output.atomic_path(root / "game" / "gone.pdf"):
            raise OSError(errno.ENOSPC, "No space left on device")
    assert made == [] and not root.exists()
    assert sorted(scratch.files) == ["game/cards.pdf"] + [f"game/png/deck/{i}.png" for i in range(5)]
    assert sorted(folder.iterdir()) == sorted(scratch.files.values())
    assert scratch.files["game/png/deck/0.png"].read_bytes() == b"again"
    assert scratch.files["game/cards.pdf"].suffix == ".pdf" and scratch.files["game/cards.pdf"].read_text() == "pdf"


def test_a_units_file_named_from_elsewhere_is_still_its_own(tmp_path, monkeypatch):
    """A unit's root named from the current folder and a file under it named in full (or the other
    way round) are the same place: the file is the unit's, not written beside its scratch files."""
    monkeypatch.chdir(tmp_path)
    folder = Path(".pnp-unit.part")
    folder.mkdir()
    with output.scratch_writes(output.FlatScratch(folder, folder)) as scratch:
        output.write_bytes(tmp_path / folder / "game" / "a.png", b"a")
        output.write_bytes(folder / "game" / "b.png", b"b")
    assert {rel: p.read_bytes() for rel, p in scratch.files.items()} == {"game/a.png": b"a", "game/b.png": b"b"}
    assert all(p.is_file() for p in folder.iterdir())
