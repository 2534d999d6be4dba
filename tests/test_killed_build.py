"""A build SIGKILLed while its process pool works leaves nothing that blocks the next build.

Found by the kill trials of bench/stress.py: the pool's forked workers inherited the output
folder's lock, outlived their killed parent waiting for tasks, and the next build into the folder
waited for the lock forever.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc to find a build's workers")


def _children(pid: int) -> set[int]:
    """Processes whose parent is `pid`, read from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def _build(out: Path) -> list[str]:
    return [sys.executable, "-m", "generator.cli", "build", "dont-drop-the-ring", "--jobs", "2",
            "--only", "cards", "--only", "rulebooks", "--lang", "ja", "--out", str(out)]


def test_killed_builds_workers_exit_and_the_next_build_runs(tmp_path):
    out = tmp_path / "out"
    build = subprocess.Popen(_build(out), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # liveness bounds, not speed: generous on a loaded machine
        assert _wait_for(lambda: _children(build.pid) or build.poll() is not None, 120)
        workers = _children(build.pid)
        assert workers, "the build finished before its pool started; nothing was tested"
    finally:
        os.kill(build.pid, signal.SIGKILL)
        build.wait()
    assert _wait_for(lambda: not any(_alive(w) for w in workers), 30), "workers outlived the killed build"
    again = subprocess.run(_build(out), cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert "waiting for another build" not in again.stderr
    assert not [p for p in out.rglob("*.part")]
    assert (out / "dont-drop-the-ring" / "rulebook-ja.pdf").stat().st_size > 0
