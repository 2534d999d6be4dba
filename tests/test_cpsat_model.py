"""The checker's models (solver/proof/cpsat.py `Model`): OR-Tools' CpModel without the pre-PEP8
aliases its constructor binds to every model. What a model holds, and so every solve, must be what
OR-Tools' own CpModel holds when given the same calls; the aliases must be gone (the reason for the
class)."""
from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from solver.engine.run import run_setup
from solver.game.loader import load_game
from solver.proof.cpsat import Model, copy_model, solve
from solver.proof.feasibility import setup_model


def test_the_aliases_are_gone_and_the_methods_kept() -> None:
    ours, theirs = Model(), cp_model.CpModel()
    assert hasattr(theirs, "NewIntVar")  # what OR-Tools adds; without it this test proves nothing
    assert not hasattr(ours, "NewIntVar") and not hasattr(ours, "AddBoolOr")
    x = ours.new_int_var(0, 4, "x")
    ours.add(x >= 3)
    ours.minimize(x)
    status, solver = solve(ours, [])
    assert status == cp_model.OPTIMAL and solver.value(x) == 3


@pytest.mark.parametrize("game_id, players", [("saboteur-the-lost-mines", 3), ("war-of-the-ring-campaign", 2),
                                              ("dont-drop-the-ring", 4)])
def test_a_setup_model_is_the_one_cp_model_holds(game_id: str, players: int) -> None:
    """The flow model with its rules, built into our Model (the default) and into OR-Tools' CpModel:
    the same protocol buffer, variable for variable and constraint for constraint."""
    game = load_game(game_id)
    result = run_setup(game, players)
    ours = setup_model(game, result)
    theirs = setup_model(game, result, m=cp_model.CpModel())
    assert isinstance(ours.m, Model)
    assert str(ours.m.proto) == str(theirs.m.proto)
    assert len(ours.m.proto.constraints) > 10


def test_a_copy_is_added_to_apart_from_its_original() -> None:
    """What the setup proof's quick rule rounds rely on (solver/proof/feasibility.py): the copy holds
    the original's model, a variable of the original names the same one in the copy, and what is
    added to the copy leaves the original as built."""
    game = load_game("saboteur-the-lost-mines")
    model = setup_model(game, run_setup(game, 4))
    before = str(model.m.proto)
    copy = copy_model(model.m)
    assert isinstance(copy, Model) and str(copy.proto) == before
    _key, owned = next(iter(model.owned_var.items()))
    copy.add(owned >= 7)
    copy.add_bool_or([copy.new_bool_var("extra")])
    assert str(model.m.proto) == before and len(copy.proto.constraints) == len(model.m.proto.constraints) + 2
    status, solver = solve(copy, [a.lit for a in model.assumptions if a.kind == "step"])
    assert status == cp_model.OPTIMAL and solver.value(owned) >= 7
