"""An interrupted build cleans up after itself: after Ctrl-C, or a kill no `finally` survives (a
forked build ending with os._exit at a file write, as SIGKILL or SIGTERM would), the next build
leaves exactly the files a clean build writes, byte for byte (the record aside).

The case found by the campaign of issue 30: build on letter paper, start an A4 build and interrupt
it; the A4 builds after it kept the letter calibration page and the letter deck's extra pages.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.context import BuildContext
from generator.incremental import RECORD, build
from generator.output import LOCK_NAME, build_lock
from generator.runners import serial

GAME = "dont-drop-the-ring"
STAGES = {"cards"}


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in (RECORD, LOCK_NAME)}


def ctx(out: Path, paper: str) -> BuildContext:
    return BuildContext(preflight=False, out_root=out, paper=paper, lang="ja")


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, Path]:
    """The game built on letter paper, and a clean A4 build of it."""
    base = tmp_path_factory.mktemp("interrupted")
    game = base / GAME
    shutil.copytree(Path(__file__).resolve().parent.parent / "data" / "games" / GAME, game)
    letter, a4 = base / "letter", base / "a4"
    build([game], ctx(letter, "letter"), STAGES, runner=serial)
    build([game], ctx(a4, "a4"), STAGES, runner=serial)
    assert set(files(letter)) - set(files(a4)), "letter writes files A4 does not: the case to test"
    return {"game": game, "letter": letter, "a4": a4}


def _interrupted_after(k: int):
    def run(todo, c):
        for i, result in enumerate(serial(todo, c)):
            if i == k:
                raise KeyboardInterrupt
            yield result
    return run


@pytest.mark.parametrize("units_done", [1])
def test_after_ctrl_c_the_next_build_is_a_clean_build(builds, tmp_path, units_done):
    out = tmp_path / "out"
    shutil.copytree(builds["letter"], out)
    with pytest.raises(KeyboardInterrupt):
        build([builds["game"]], ctx(out, "a4"), STAGES, runner=_interrupted_after(units_done))
    build([builds["game"]], ctx(out, "a4"), STAGES, runner=serial)
    assert files(out) == files(builds["a4"])


@pytest.mark.parametrize("writes_done", [2, 25])
def test_after_a_kill_between_two_writes_the_next_build_is_a_clean_build(builds, tmp_path, writes_done):
    """An A4 build, a letter build killed halfway, an A4 build again: no letter file is left."""
    out = tmp_path / "out"
    shutil.copytree(builds["a4"], out)
    pid = os.fork()
    if pid == 0:  # the child builds on letter and dies after `writes_done` files, running no `finally`
        try:
            import generator.output as output

            real, count = output.place, [0]

            def dying(path, data, **kw):
                if count[0] == writes_done:
                    os._exit(9)
                count[0] += 1
                return real(path, data, **kw)

            output.place = dying
            build([builds["game"]], ctx(out, "letter"), STAGES, runner=serial)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 9, "the build ended before the planned kill"
    assert set(files(out)) - set(files(builds["a4"])), "the killed build left a letter file to sweep"
    # as `pnp build` runs it: under the folder's lock, which sweeps the temporary file of a write the
    # kill cut short (files are put in place from several threads: generator/placing.py)
    with build_lock(out, wait_note=False):
        build([builds["game"]], ctx(out, "a4"), STAGES, runner=serial)
    assert files(out) == files(builds["a4"])
