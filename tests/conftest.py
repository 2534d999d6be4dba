"""Shared test helpers: copy a game folder to tmp_path so tests can break it safely."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "data" / "games"


@pytest.fixture
def game_copy(tmp_path):
    """Return a function that copies data/games/<id> into tmp_path and returns the new folder."""
    def copy(game_id: str = "dont-drop-the-ring") -> Path:
        dest = tmp_path / game_id
        shutil.copytree(GAMES / game_id, dest)
        return dest
    return copy
