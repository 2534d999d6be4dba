"""Shared test helpers: copy a game folder to tmp_path so tests can break it safely; find the seed
texts (optional: tests that read them skip where they are absent).

The seed texts are the Japanese rule texts the example games were written from. They live outside
the repository, at `../shared/seeds/` beside it, or wherever `PNP_SEEDS` points. Every other test
depends on the repository alone.

`PNP_FAIL_ON_SKIP=1` turns every skip of a test not marked `seeds` into a failure: `.ci/run` sets it
when it runs the suite from a copy of the repository with nothing beside it, so a test that quietly
needs an outside file cannot pass by skipping.
"""
from __future__ import annotations

import gc
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "data" / "games"


def seeds_dir() -> Path:
    """Where the seed texts are: $PNP_SEEDS, else ../shared/seeds beside the repository."""
    env = os.environ.get("PNP_SEEDS")
    return Path(env) if env else ROOT.parent / "shared" / "seeds"


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/golden/*.png from the current drawing code (tests/test_golden.py)")


def pytest_configure(config):
    config.addinivalue_line("markers", "seeds: reads the seed texts outside the repository (skips without them)")


@pytest.fixture
def seeds() -> Path:
    """The seed folder; the test skips with a one-line reason when it is absent."""
    folder = seeds_dir()
    if not folder.is_dir():
        pytest.skip(f"seed texts not found at {folder} (set PNP_SEEDS to their folder to run this test)")
    return folder


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if (report.skipped and os.environ.get("PNP_FAIL_ON_SKIP") == "1"
            and item.get_closest_marker("seeds") is None):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped outside the seed tests, which PNP_FAIL_ON_SKIP=1 forbids: {reason}"


@pytest.fixture
def game_copy(tmp_path):
    """Return a function that copies data/games/<id> into tmp_path and returns the new folder."""
    def copy(game_id: str = "dont-drop-the-ring") -> Path:
        dest = tmp_path / game_id
        shutil.copytree(GAMES / game_id, dest)
        return dest
    return copy


@pytest.fixture
def default_thresholds():
    """Python's own garbage-collection thresholds for the test, the suite's given back after (the
    tests of generator/gcpause.py's raised ones)."""
    old = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*old)
