"""Atomic writes: a build never replaces good output with a half-written file.

Everything is written to a temporary file in the target folder, then renamed over the target; a
folder made whole (`pnp new`) is assembled beside its target and renamed the same way.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside `target`; on success rename it to `target`, else delete it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        # mkstemp makes the file private (0600); output is for sharing, so use the umask's default.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp_path, 0o666 & ~umask)
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_bytes(target: Path, data: bytes) -> Path:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)
    return target


def write_text(target: Path, text: str) -> Path:
    return write_bytes(target, text.encode("utf-8"))


@contextmanager
def atomic_folder(target: Path, *, replace: bool = False) -> Iterator[Path]:
    """Yield a temporary folder beside `target`; on success rename it to `target`, else delete it
    with whatever was written into it. `target` must not exist or be empty, unless `replace`: then
    an existing folder is moved aside first and removed only once the new one is in place."""
    parent = target.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=parent))
    try:
        yield tmp
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes the folder private; what we write is for sharing
        old = None
        if replace and target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=parent))
            os.replace(target, old / "x")
        elif target.is_dir():
            target.rmdir()  # empty: a non-empty one makes this fail rather than lose its files
        os.replace(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
