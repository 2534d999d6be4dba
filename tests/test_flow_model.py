"""The worst deals' flow model (solver/proof/feasibility.py `flow_model`): a copy of the one the setup
proof built for the same run, not a second build, and the worst deals found on it are those found on
a model built for them alone (a game loaded anew, whose proof has not run)."""
from __future__ import annotations

import pytest

import solver.proof.feasibility as feasibility
from solver.engine.run import player_counts, run_setup
from solver.game.loader import load_game
from solver.proof.feasibility import prove_player_count
from solver.proof.worstdeal import all_worst_deals, worst_deals

GAME = "saboteur-the-lost-mines"  # the example whose setup matches dealt cards (its worst deals)


def test_the_worst_deals_after_the_proof_are_those_of_a_model_of_their_own() -> None:
    alone = all_worst_deals(load_game(GAME))
    game = load_game(GAME)
    for n in player_counts(game):
        prove_player_count(game, run_setup(game, n))
    after = all_worst_deals(game)
    assert alone and after == alone


def test_after_the_proof_no_flow_model_is_built_again(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game(GAME)
    result = run_setup(game, 5)
    prove_player_count(game, result)
    built = []
    init = feasibility.SetupModel.__init__

    def counted(self, *a, **k):  # type: ignore[no-untyped-def]
        built.append(a)
        init(self, *a, **k)

    monkeypatch.setattr(feasibility.SetupModel, "__init__", counted)
    first, again = worst_deals(game, result), worst_deals(game, result)
    assert first and again == first  # asked twice: the kept model is copied, never added to
    assert built == []
