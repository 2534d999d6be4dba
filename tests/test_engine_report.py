"""The engine's record of a setup as the checker's report shows it (solver/engine/results.py report(),
solver/engine/run.py tables), on a small original game written here; every figure is worked by hand.

The courier game, 2-3 players: 6 mission cards (the courier alone draws 2; sides), 10 road cards
(2 dealt to every player), an uncounted kind of seal of which every player is given 1, and a box of
3 crates of which 4 are placed when the optional rule "storm" is played.
  at 3 players: missions 2 dealt to the courier, roads 6 dealt, seals 3 given (uncounted: the least
  the box must hold), hands of 2 (road cards; the mission cards are not a hand);
  with the storm: 4 crates asked, 3 there: the setup cannot be done (step 7 needs 4, has 3).
"""
from __future__ import annotations

import dataclasses

import pytest

from gamefiles import write_game
from solver.engine.run import count_reports, run_setup, setup_table, variant_tables
from solver.game.loader import load_game

GAME = "id: courier\ntitle: {en: Courier}\nplayers: {min: 2, max: 3}\nsource_language: en\nlanguages: [en]\n"
COMPONENTS = """\
components:
  - id: missions
    kind: deck
    name: {en: Missions}
    size: poker
    items:
      - {id: parcel, name: {en: Parcel}, count: 4}
      - {id: letter, name: {en: Letter}, count: 2}
  - id: roads
    kind: deck
    name: {en: Roads}
    size: poker
    items:
      - {id: road, name: {en: Road}, count: 10}
  - id: seals
    kind: tokens
    name: {en: Seals}
    items:
      - {id: seal, name: {en: Seal}, count: null}
  - id: crates
    kind: tokens
    name: {en: Crates}
    count: 3
"""
SETUP = """\
variants:
  - id: storm
    name: {en: Storm}
sides:
  - {id: courier, name: {en: the courier}}
  - {id: others, name: {en: the others}, players: players - 1}
steps:
  - use: missions
  - shuffle: missions
  - deal: missions
    each: 2
    to: courier
    hand: false
  - use: roads
  - shuffle: roads
  - deal: roads
    each: 2
  - give: seals
    face: up
  - place: crates
    count: 4
    on: table
    when: variant('storm')
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(write_game(tmp_path_factory.mktemp("report") / "courier",
                                {"game.yaml": GAME, "components.yaml": COMPONENTS, "setup.yaml": SETUP}))


def test_the_report_names_the_side_dealt_to_and_the_uncounted_copies_needed(game):
    row = run_setup(game, 3).report()
    assert row["dealt"] == {"missions": 2, "roads": 6}
    assert row["dealt_to"] == {"missions": "courier"}          # the roads go to everyone: not listed
    assert row["uncounted_needed"] == {"seals": 3}              # one seal for each of 3 players
    assert row["hand_size"] == 2
    assert row["placements"] == [{"component": "seals", "count": 3, "on": "players", "face": "up"}]
    assert "cannot_set_up" not in row


def test_a_step_that_runs_short_reports_only_what_it_needs_and_has(game):
    assert run_setup(game, 3, "storm").report() == {"cannot_set_up": [{"step": 7, "needs": 4, "has": 3}]}


def test_the_tables_cover_every_count_and_every_optional_rule(game):
    table = setup_table(game)
    assert sorted(table) == [2, 3]
    assert count_reports(table)["2"]["uncounted_needed"] == {"seals": 2}
    assert {v: sorted(t) for v, t in variant_tables(game).items()} == {"storm": [2, 3]}


def test_a_game_without_a_setup_has_no_optional_rule_tables(tmp_path):
    folder = tmp_path / "courier"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    assert variant_tables(load_game(folder)) == {}


def test_moves_and_placements_are_a_record_no_reader_can_change(game):
    result = run_setup(game, 3)
    move, placement = result.moves[0], result.placements[0]
    for record in (move, placement):
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.step = 99  # type: ignore[misc]
    assert len({move, *result.moves}) == len(set(result.moves))  # usable as set members
