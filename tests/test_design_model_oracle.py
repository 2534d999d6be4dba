"""The setup half of `pnp design`'s model (solver/counts/design_model.py): which steps are free
removals, one amount per run where such a step runs, named kinds at least one and the rest item
free to be none, every run's rules labelled with its player count and optional rule, and a game
with no setup.yaml held to its stated total. Small original games; answers by hand or by going
through every box.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gamefiles import write_game
from solver.counts.design import design
from solver.counts.design_model import DesignJoint, free_steps
from solver.engine.run import run_setup
from solver.game.loader import load_game

ITEMS = {"saboteur": {"role": "saboteur"}, "miner": {"role": "miner"}}


def dump(d) -> str:
    return yaml.safe_dump(d, sort_keys=False, allow_unicode=True)


def make(folder: Path, setup: dict | None, targets: list[dict], items=ITEMS, rest=(), stated_total=None,
         players=(3, 4), max_pile=10) -> Path:
    deck = {"id": "deck", "kind": "deck", "name": {"en": "Deck"}, "size": "poker",
            "items": [{"id": i, "name": {"en": i}, "count": None, "attrs": a, **({"rest": True} if i in rest else {})}
                      for i, a in items.items()]}
    if stated_total is not None:
        deck["stated_total"] = {"value": stated_total, "source": "rules 1.1"}
    files = {"game.yaml": dump({"id": folder.name, "title": {"en": "T"}, "source_language": "en",
                                "players": {"min": players[0], "max": players[1]}}),
             "components.yaml": dump({"components": [deck]}),
             "targets.yaml": dump({"max_pile": max_pile, "targets": targets})}
    if setup is not None:
        files["setup.yaml"] = dump(setup)
    return write_game(folder, files)


DEAL = [{"shuffle": "deck"}, {"deal": "deck", "each": 1, "hand": False}, {"return_rest": "deck"}]
TOTAL = {"id": "box", "total": {"component": "deck", "min": 1}}


def test_free_steps_are_the_removals_with_each_free(tmp_path):
    steps = [{"use": "deck"},
             {"remove": {"component": "deck", "where": {"role": "miner"}, "each": "free"}},
             {"remove": {"component": "deck", "where": {"role": "miner"}, "each": 1}},
             {"shuffle": "deck"},
             {"remove": {"component": "deck", "where": {"role": "saboteur"}, "each": "free"}, "when": "players == 3"}]
    game = load_game(make(tmp_path / "g", {"steps": steps}, [TOTAL]))
    assert free_steps(game) == [1, 4]
    results = {(n, None): run_setup(game, n) for n in (3, 4)}
    joint = DesignJoint(game, results, 10)
    # an amount for each free removal where it runs: step 4 only at 3 players
    assert sorted(joint.amount) == [(1, 3, None), (1, 4, None), (4, 3, None)]
    assert free_steps(load_game(make(tmp_path / "h", None, [TOTAL]))) == []


def test_named_kinds_at_least_one_the_rest_may_be_none(tmp_path):
    """Four cards to deal at 4 players: the least box is four; with `miner` the rest item it may be
    none, so the saboteurs take all four; named, the miner keeps one and the earlier item the rest."""
    setup = {"steps": [{"use": "deck"}] + DEAL}
    named = design(load_game(make(tmp_path / "named", setup, [TOTAL])))
    assert named.counts == {("deck", "saboteur"): 3, ("deck", "miner"): 1}
    rest = design(load_game(make(tmp_path / "rest", setup, [TOTAL], rest=("miner",))))
    assert rest.counts == {("deck", "saboteur"): 4, ("deck", "miner"): 0}


def test_the_named_kind_assumptions_and_every_runs_rules_are_labelled(tmp_path):
    setup = {"variants": [{"id": "duel", "name": {"en": "Duel"}, "player_counts": [3]}],
             "steps": [{"use": "deck"}] + DEAL,
             "constraints": [{"id": "odd-deck", "require": "owned(saboteur) + owned(miner) == 5"}]}
    game = load_game(make(tmp_path / "g", setup, [TOTAL]))
    results = {(3, None): run_setup(game, 3), (4, None): run_setup(game, 4), (3, "duel"): run_setup(game, 3, "duel")}
    joint = DesignJoint(game, results, 10)
    labels = [a.label for a in joint.assumptions]
    assert labels[:2] == ["saboteur ≥ 1 (a named kind)", "miner ≥ 1 (a named kind)"]
    for prefix in ("3 players: ", "4 players: ", "3 players, variant duel: "):
        assert any(lab.startswith(prefix) and "odd-deck" in lab for lab in labels), prefix
    assert joint.feasible()


def test_rules_that_cannot_hold_are_explained_with_their_runs(tmp_path):
    setup = {"steps": [{"use": "deck"}] + DEAL,
             "constraints": [{"id": "big", "require": "owned(saboteur) >= 4"},
                             {"id": "small", "require": "owned(saboteur) <= 2", "when": "players == 4"}]}
    game = load_game(make(tmp_path / "g", setup, [TOTAL]))
    joint = DesignJoint(game, {(n, None): run_setup(game, n) for n in (3, 4)}, 10)
    assert not joint.feasible()
    core, confirmed = joint.conflict()
    assert confirmed and len(core) == 2
    assert any(c.startswith("4 players: ") and "small" in c for c in core)
    assert any("big" in c for c in core) and all("setup.yaml" in c for c in core)


@pytest.mark.parametrize("total", [2, 5])
def test_without_setup_the_stated_total_holds(tmp_path, total):
    """No setup.yaml carries the deck's stated total: the design keeps to it, each named kind at
    least one, the earlier kind the larger."""
    result = design(load_game(make(tmp_path / "g", None, [TOTAL], stated_total=total)))
    assert result.counts == {("deck", "saboteur"): total - 1, ("deck", "miner"): 1}


def test_without_setup_a_stated_count_enters_the_total(tmp_path):
    folder = make(tmp_path / "g", None, [TOTAL], stated_total=6,
                  items={"saboteur": {"role": "saboteur"}, "miner": {"role": "miner"}, "lamp": {"role": "lamp"}})
    text = (folder / "components.yaml").read_text(encoding="utf-8")
    (folder / "components.yaml").write_text(text.replace("count: null\n    attrs:\n      role: lamp",
                                                         "count: 2\n    attrs:\n      role: lamp"), encoding="utf-8")
    result = design(load_game(folder))
    assert result.counts == {("deck", "saboteur"): 3, ("deck", "miner"): 1}


@pytest.mark.parametrize("miners,saboteurs", [(3, 2), (0, 5)])
def test_a_stated_count_counts_in_a_box_target(tmp_path, miners, saboteurs):
    """Miners stated (3, or none at all), saboteurs designed: at least 5 cards in all takes 5 - miners saboteurs."""
    folder = make(tmp_path / "g", {"steps": [{"use": "deck"}]}, [{"id": "box", "total": {"component": "deck", "min": 5}}])
    text = (folder / "components.yaml").read_text(encoding="utf-8")
    (folder / "components.yaml").write_text(text.replace("count: null\n    attrs:\n      role: miner",
                                                         f"count: {miners}\n    attrs:\n      role: miner"), encoding="utf-8")
    assert design(load_game(folder)).counts == {("deck", "saboteur"): saboteurs}
