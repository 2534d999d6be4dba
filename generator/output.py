"""Atomic writes: a build never replaces good output with a half-written file.

Everything is written to a temporary file in the target folder, then renamed over the target (a
folder made whole, `pnp new`, is assembled beside its target and renamed the same way), so
a reader (or a build killed at any moment, even by SIGKILL) sees each file either in its previous
complete version or in its new one. Each file is flushed to the disk (fsync) before it is
renamed into place, and its folder after, where the OS allows: a power loss leaves the old file or
the new one, never an empty one. `write_files` writes a build unit's files so, and flushes each
folder once after them rather than after every file (a folder's flush only makes the renames
durable; the file's own flush before its rename is what keeps a half file out). A unit's
finished file (in its scratch folder on the same disk) is flushed and renamed straight over its
target: it is whole already. Files written under `scratch_writes()` (a unit's, units.py: moved or
read back, then deleted) are written flat into its process's scratch folder, under names of their
own (`FlatScratch`), and never flushed: nobody reads that folder before the unit is done, no crash
can show them to anyone, and the output folder receives them through `write_files`. Two more
guarantees live here:

- `build_lock(out_root)`: one build (or export) at a time per output folder. A second `pnp build`
  or `pnp export` into the same folder waits for the first (an flock the kernel releases when a
  process dies, even killed), so both end with complete, consistent output. Holding the lock, it
  removes the temporary files and folders a killed build left behind: no other writer can own them.
- A folder that cannot be written (read-only, full, a file where a folder should be) is one
  `DataError` line naming the path and the reason, never a traceback or a partial file.
"""
from __future__ import annotations

import errno
import glob
import itertools
import os
import shutil
import sys
import tempfile
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator

from solver.errors import DataError, Problem, display_path

TEMP_SUFFIX = ".part"
OLD_SUFFIX = ".old"
LOCK_NAME = ".pnp-build.lock"


def _read_umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


# the process's umask, read once, at import: reading it means setting it to 0 for a moment, and a
# build puts files in place from several threads (generator/placing.py), one of which could read the
# 0 (or make a folder under it) while another's reading sets it
UMASK = _read_umask()


def _unwritable(path: Path, e: OSError, elsewhere: str = "build elsewhere with --out DIR") -> DataError:
    reason = e.strerror or type(e).__name__
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        todo = f"free some space on that disk or {elsewhere}"
    elif e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        todo = f"make the folder writable or {elsewhere}"
    else:
        todo = f"check the output folder or {elsewhere}"
    return DataError([Problem(display_path(path), 0, 0, f"cannot write the output ({reason})", todo)])


class FlatScratch:
    """Where a unit's files go while it runs: every file it writes under `root` (what the unit takes
    for the output root) is written into `folder` under a name of its own, one level deep, and
    `files` keeps its path relative to `root`. The output's tree of folders (game/, game/png/deck/,
    ...) was made again in a scratch folder for each unit and deleted once its files were placed:
    some 570 folders a cold `build --all`, each an inode the file system allocates, scanning past
    the inodes deleted in the last half minute (ext4), and frees again."""

    def __init__(self, root: Path, folder: Path) -> None:
        self.root, self.folder = root, folder
        self.files: dict[str, Path] = {}  # path relative to `root` (posix) -> its file in `folder`

    def path_for(self, target: Path) -> Path | None:
        """The file in `folder` that stands for `target` (the same one when written again), or None
        for a target outside `root`."""
        try:
            rel = target.relative_to(self.root).as_posix()
        except ValueError:  # the same place, one of them named from the current folder?
            try:
                rel = Path(os.path.abspath(target)).relative_to(os.path.abspath(self.root)).as_posix()
            except ValueError:
                return None
        path = self.files.get(rel)
        if path is None:
            # unique in the folder, which every unit of a process shares; the suffix kept for readers
            path = self.files[rel] = self.folder / f"{next(_FLAT_NAMES)}{target.suffix}"
        return path

    def forget(self, path: Path) -> None:
        """`path` (a file of `folder`) is not a file of the unit's after all."""
        self.files = {rel: p for rel, p in self.files.items() if p != path}


_FLAT_NAMES = itertools.count()
_SCRATCH: ContextVar[FlatScratch | None] = ContextVar("pnp_scratch_writes", default=None)


@contextmanager
def scratch_writes(scratch: FlatScratch) -> Iterator[FlatScratch]:
    """Within: files go flat into `scratch`'s folder, to be moved or read back and deleted: none is
    flushed."""
    token = _SCRATCH.set(scratch)
    try:
        yield scratch
    finally:
        _SCRATCH.reset(token)


@contextmanager
def atomic_path(target: Path, *, sync_folder: bool = True) -> Iterator[Path]:
    """Yield a temporary path beside `target`; on success rename it to `target`, else delete it.
    The file is flushed before the rename (and its folder after, unless `sync_folder` is False:
    the caller flushes it once for many files). Under `scratch_writes()` the file that stands for
    `target` in the unit's scratch folder is yielded (or, outside its root, `target` itself): nobody
    reads a unit's scratch files before the unit is done, and a failed unit's are deleted, so a
    temporary file there only cost a file creation and a rename (a creation costs 0.3 ms of CPU in
    some folders: /tmp on the build machine)."""
    scratch = _SCRATCH.get()
    if scratch is not None:
        flat = scratch.path_for(target)
        if flat is None:
            try:
                _made(target.parent)
            except OSError as e:
                raise _unwritable(target.parent, e) from None
        try:
            yield flat or target
        except BaseException:
            if flat is not None and not flat.exists():  # never written: not a file of the unit's
                scratch.forget(flat)
            raise
        return
    try:
        _made(target.parent)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
        os.close(fd)
    except OSError as e:
        raise _unwritable(target.parent, e) from None
    tmp_path = Path(tmp)
    try:
        try:
            yield tmp_path
            # mkstemp makes the file private (0600); output is for sharing, so use the umask's default.
            os.chmod(tmp_path, 0o666 & ~UMASK)
            sync(tmp_path)
            os.replace(tmp_path, target)
            if sync_folder:
                sync(target.parent)
        except OSError as e:  # the disk filled up or the folder went read-only mid-write
            raise _unwritable(target, e) from None
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def _made(folder: Path) -> None:
    """`folder` made, with its parents, unless it is a folder already: looked at first, since it
    mostly is (a unit writes many files into each of its folders) and `mkdir(exist_ok=True)` asks
    the system to make it each time, fails and looks anyway (some 1,400 failing calls a cold build)."""
    if not os.path.isdir(folder):
        folder.mkdir(parents=True, exist_ok=True)


def sync(path: Path) -> None:
    """Flush a file's or a folder's contents to the disk, where the OS and file system allow."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # a folder on some systems, a file system without fsync
        pass
    finally:
        os.close(fd)


def _sync_tree(folder: Path) -> None:
    """fsync every file under `folder`, then every folder, deepest first."""
    for dirpath, _, filenames in sorted(os.walk(folder), key=lambda t: -len(t[0])):
        for name in sorted(filenames):
            sync(Path(dirpath) / name)
        sync(Path(dirpath))


def write_bytes(target: Path, data: bytes, *, sync_folder: bool = True) -> Path:
    with atomic_path(target, sync_folder=sync_folder) as tmp:
        tmp.write_bytes(data)
    return target


def move_file(source: Path, target: Path, *, sync_folder: bool = True) -> Path:
    """Put a finished file (a unit's, in its scratch folder) in place atomically: flushed, then
    renamed over `target` when it is on the target's disk (it is whole already: no temporary copy
    beside the target is needed), else copied beside the target and renamed like a file written here."""
    if _SCRATCH.get() is None:
        try:
            _shared_and_flushed(source)
            _rename_into(source, target)
        except OSError as e:
            if e.errno != errno.EXDEV:
                raise _unwritable(target, e) from None
        else:
            if sync_folder:
                sync(target.parent)
            return target
    with atomic_path(target, sync_folder=sync_folder) as tmp:
        try:
            os.replace(source, tmp)
        except OSError as e:
            if e.errno != errno.EXDEV:
                raise
            shutil.copyfile(source, tmp)
    return target


def _shared_and_flushed(path: Path) -> None:
    """A finished file given the mode a file written here has (for sharing: a unit's file made by
    mkstemp is private) and flushed to the disk, through one descriptor: its mode is changed only
    when it differs (a file the drawing code opened has it already), where a `chmod` by name for
    each of 1,338 files was a system call, a path walk and an inode change more."""
    fd = os.open(path, os.O_RDONLY)
    try:
        if os.fstat(fd).st_mode & 0o7777 != 0o666 & ~UMASK:
            os.fchmod(fd, 0o666 & ~UMASK)
        try:
            os.fsync(fd)
        except OSError:  # a file system without fsync (as `sync`)
            pass
    finally:
        os.close(fd)


def _rename_into(source: Path, target: Path) -> None:
    """`source` renamed over `target`, the target's folder made only when the rename finds it missing
    (its first file): asked of every file, the folder was made again 1,338 times a cold build. What
    is missing is told by the source (this unit's own file), not by the folder: another placing
    thread may make the folder between the failed rename and a look at it."""
    try:
        os.replace(source, target)
    except FileNotFoundError:
        if not os.path.lexists(source):
            raise
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, target)


def scratch_folder(parent: Path | None, name: str) -> Path:
    """A new folder for work in progress: in `parent`, as `.<name>.<pid>.<random>.part` (swept by
    sweep_stale_folders once this process is gone), or in the system's temporary folder when there
    is no parent or it cannot be written."""
    if parent is not None:
        try:
            _made(parent)
            return Path(tempfile.mkdtemp(prefix=f".{name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=parent))
        except OSError:  # an unwritable output folder: the caller's first write there says so, in one line
            pass
    return Path(tempfile.mkdtemp(prefix=f"{name}-"))


def write_text(target: Path, text: str) -> Path:
    return write_bytes(target, text.encode("utf-8"))


def place(target: Path, data: bytes | Path, *, sync_folder: bool = True) -> Path:
    """A unit's file put in place atomically: its bytes written, or the finished file (a Path) moved."""
    if isinstance(data, bytes):
        return write_bytes(target, data, sync_folder=sync_folder)
    return move_file(data, target, sync_folder=sync_folder)


def sync_folders(paths: list[Path]) -> None:
    """Flush each folder `paths` went into, once (a file's own flush comes before its rename)."""
    if _SCRATCH.get() is None:
        for folder in sorted({p.parent for p in paths}):
            sync(folder)


def write_files(root: Path, files: dict[str, bytes | Path]) -> list[Path]:
    """Each of `files` (path relative to `root` -> bytes, or a finished file to move) atomically, each
    flushed before its rename; then each folder they went into, once."""
    written = [place(root / rel, data, sync_folder=False) for rel, data in files.items()]
    sync_folders(written)
    return written


@contextmanager
def atomic_folder(target: Path, *, replace: bool = False,
                  elsewhere: str = "build elsewhere with --out DIR") -> Iterator[Path]:
    """Yield a temporary folder beside `target`; on success rename it to `target`, else delete it
    with whatever was written into it. `target` must not exist or be empty, unless `replace`: then
    an existing folder is moved aside first and removed only once the new one is in place. The
    temporary folder's name carries this process's id, so the folders a killed run left beside
    `target` are recognised and removed by the next run. A folder that cannot be written (full,
    read-only) is one DataError line."""
    parent = target.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        sweep_stale_folders(parent, target.name)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=parent))
    except OSError as e:
        raise _unwritable(parent, e, elsewhere) from None
    try:
        yield tmp
        _move_into_place(tmp, target, parent, replace)
    except OSError as e:
        raise _unwritable(Path(e.filename) if isinstance(e.filename, str) else target, e, elsewhere) from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _move_into_place(tmp: Path, target: Path, parent: Path, replace: bool) -> None:
    os.chmod(tmp, 0o777 & ~UMASK)  # mkdtemp makes the folder private; what we write is for sharing
    _sync_tree(tmp)
    old = None
    if replace and target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", suffix=OLD_SUFFIX, dir=parent))
        os.replace(target, old / "x")
    elif target.is_dir():
        target.rmdir()  # empty: a non-empty one makes this fail rather than lose its files
    os.replace(tmp, target)
    sync(parent)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def sweep_stale_folders(parent: Path, name: str, *, mine: bool = False) -> list[Path]:
    """Remove the temporary folders `atomic_folder` left beside `parent / name` in a run that was
    killed: those whose process id is no longer running (and with `mine`, this process's own: the
    caller knows none of them is in use). Returns what was removed."""
    removed = []
    for p in parent.glob(f".{glob.escape(name)}.*"):
        pid = p.name[len(name) + 2:].split(".", 1)[0]
        if p.suffix not in (TEMP_SUFFIX, OLD_SUFFIX) or not pid.isdigit() or not p.is_dir() or p.is_symlink():
            continue
        if (mine if int(pid) == os.getpid() else not _running(int(pid))):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, owned by someone else
        return True
    return True


def stale_temp_files(out_root: Path) -> list[Path]:
    """Temporary files of `atomic_path` and folders of `atomic_folder` under `out_root` (left by a
    killed build or export): `.<name>.<random>.part`, and `.<name>.<random>.old` folders."""
    if not out_root.is_dir():
        return []
    found = [p for p in out_root.rglob(".*") if p.name.endswith(TEMP_SUFFIX) or (p.is_dir() and p.name.endswith(OLD_SUFFIX))]
    # a folder's own contents go with it
    return sorted(p for p in found if not any(q != p and p.is_relative_to(q) for q in found if q.is_dir()))


@contextmanager
def build_lock(out_root: Path, *, wait_note: bool = True) -> Iterator[None]:
    """Hold the output folder's build lock; sweep the temporary files a killed build left."""
    import fcntl

    try:
        out_root.mkdir(parents=True, exist_ok=True)
        fd = os.open(out_root / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as e:
        raise _unwritable(out_root, e) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if wait_note:
                print(f"waiting for another build into {display_path(out_root)}/ to finish", file=sys.stderr)
            fcntl.flock(fd, fcntl.LOCK_EX)
        for leftover in stale_temp_files(out_root):
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)
        yield
    finally:
        os.close(fd)  # closing releases the lock
