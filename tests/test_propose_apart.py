"""The proposals' check shows proposed.yaml's counts hold run by run (solver/counts/propose.py
`_holds_apart`) instead of building the joint model of every run: the verdict must be the joint
model's, which each case below also solves, for the examples' counts and for counts that break them."""
from __future__ import annotations

import pytest

import solver.counts.propose as P
from solver.counts.effective import proposed_counts
from solver.engine.items import owned_counts
from solver.game.loader import load_game
from solver.proof.checker import check_setup

WITH_PROPOSALS = ["lotr-sauron", "riddle-of-the-ring", "saboteur-the-lost-mines", "war-of-the-ring-campaign"]


def _variants(fixed: dict) -> list[dict]:
    """The file's counts, then each of three ways to break them: a named kind at none, a kind far
    more than any stated total allows, and a kind at one copy (short of a worst deal or a rule)."""
    keys = list(fixed)
    return [dict(fixed), {**fixed, keys[0]: 0}, {**fixed, keys[-1]: fixed[keys[-1]] + 400},
            {**fixed, keys[len(keys) // 2]: 1}]


@pytest.mark.parametrize("gid", WITH_PROPOSALS)
def test_the_runs_apart_give_the_joint_models_verdict(gid):
    game = load_game(gid)
    fixed = proposed_counts(game)
    assert fixed and set(fixed) == {k for k, v in owned_counts(game).items() if v is None}
    verdicts = []
    for counts in _variants(fixed):
        joint = P._Joint(game, counts).feasible()
        assert P._holds_apart(game, counts) == joint, counts
        verdicts.append(joint)
    assert verdicts[0] and not verdicts[1]  # the cases are not all alike


def test_a_count_left_out_is_left_to_the_joint_model():
    game = load_game("riddle-of-the-ring")
    fixed = proposed_counts(game)
    assert fixed
    assert not P._holds_apart(game, dict(list(fixed.items())[1:]))
    assert not P._holds_apart(game, {**fixed, next(iter(fixed)): P.UNKNOWN_UB + 1})


@pytest.mark.parametrize("gid", ["riddle-of-the-ring", "saboteur-the-lost-mines"])
def test_the_check_after_the_setup_proof_builds_no_joint_model(gid, monkeypatch):
    game = load_game(gid)
    check_setup(game)
    expected = P.check_proposals(load_game(gid)).findings

    def refuse(*a: object, **k: object) -> None:
        raise AssertionError("the joint model was built")
    monkeypatch.setattr(P, "_Joint", refuse)
    assert P.check_proposals(game).findings == expected
