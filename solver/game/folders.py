"""Where games are: the data folder, the example games' ids, a game named by id or by folder.

Kept apart from loader.py, which validates a game with pydantic's models: a build that finds
nothing changed (generator/incremental.py) and `pnp --help` need a game's folder, not its models.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from ..errors import DataError, Problem


def _data_dir() -> Path:
    """Where the example games and shared glossaries are: $PNP_DATA when set; else `data/` beside
    the code (a source checkout or an editable install); else the copy a wheel installs as the
    package `pnp_forge_data`. A game of your own can be anywhere: commands take its folder."""
    env = os.environ.get("PNP_DATA")
    if env:
        return Path(env).resolve()
    source = Path(__file__).resolve().parents[2] / "data"
    if source.is_dir():
        return source
    spec = importlib.util.find_spec("pnp_forge_data")
    if spec and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))).resolve()
    return source


DATA_DIR = _data_dir()
GAMES_DIR = DATA_DIR / "games"


def resolve_game_dir(game: str | Path) -> Path:
    """A game id under data/games/, or the path of a game folder anywhere."""
    p = Path(game)
    if (p / "game.yaml").is_file():
        return p
    candidate = GAMES_DIR / str(game)
    if (candidate / "game.yaml").is_file():
        return candidate
    known = ", ".join(game_ids()) or "none"
    raise DataError([Problem(str(game), 0, 0, "no such game",
                             f"give a game id ({known}) or the path of a folder with a game.yaml")])


def game_ids() -> list[str]:
    if not GAMES_DIR.is_dir():
        return []
    return sorted(p.name for p in GAMES_DIR.iterdir() if (p / "game.yaml").is_file())
