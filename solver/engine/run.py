"""The engine's public API: a game's setup run at one count, at every count, and with each variant."""
from __future__ import annotations

from typing import Any

from ..game.loader import Game
from ..game.objmemo import kept_for
from .results import SetupResult
from .runner import Runner


def player_counts(game: Game) -> list[int]:
    """The counts setup.yaml covers (its list, else the game's whole player range)."""
    if game.setup and game.setup.player_counts:
        return sorted(set(game.setup.player_counts))
    return list(range(game.meta.players.min, game.meta.players.max + 1))


def variant_counts(game: Game, variant: str) -> list[int]:
    """The counts an optional rule applies to: its own list, else every count of the setup."""
    var = game.variant(variant)
    return sorted(set(var.player_counts)) if var.player_counts else player_counts(game)


def run_setup(game: Game, players: int, variant: str | None = None) -> SetupResult:
    """Execute setup.yaml for `players` players, with optional rule `variant` played if given.
    Raises DataError for a bad expression.

    Run once per loaded game, count and variant (solver/game/objmemo.py): `pnp check` asks for the
    same runs in the setup proof, the worst deals, the proposals, the odds and the wargame models
    (110 runs of 35 for the examples). The result is shared: a caller reads it, never changes it."""
    return kept_for(game, ("setup run", players, variant), lambda: _run(game, players, variant))


def _run(game: Game, players: int, variant: str | None) -> SetupResult:
    runner = Runner(game, players, variant)
    runner.run()
    return runner.result()


def setup_table(game: Game) -> dict[int, SetupResult]:
    """The setup at every player count of the game (game.yaml's range), keyed by count."""
    lo, hi = game.meta.players.min, game.meta.players.max
    return {n: run_setup(game, n) for n in range(lo, hi + 1)}


def count_reports(table: dict[int, SetupResult]) -> dict[str, dict[str, Any]]:
    """The setup of each count as the checker's report shows it (its `player_counts`), keyed by
    the count as a string: what `pnp check` prints and the rulebook's setup table reads."""
    return {str(n): res.report() for n, res in table.items()}


def variant_tables(game: Game) -> dict[str, dict[int, SetupResult]]:
    """Each optional rule of setup.yaml `variants:` (in the file's order) at every count it applies to."""
    if game.setup is None:
        return {}
    return {v.id: {n: run_setup(game, n, v.id) for n in variant_counts(game, v.id)}
            for v in game.setup.variants}
