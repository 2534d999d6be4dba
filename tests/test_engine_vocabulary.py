"""Setup vocabulary beyond "every player": deal/give to some players (`recipients`), `give ... on`,
`place` with `where` and `face`, and `return_rest` of what a deal leaves in its pile.

A small one-against-all game: one overlord is dealt 2 doom cards and gets the crown; every other
player gets a hero card on the gate; the overlord places 2 of the dark tokens face down; the roles
deck is dealt one each to the heroes and its rest goes back to the box unseen. Each figure is
worked out by hand below and must agree with the engine, the CP-SAT model and brute force.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from solver.proof.checker import check_setup, prove_player_count
from solver.engine.run import run_setup
from solver.game.loader import load_game
from solver.game.setup import SetupFile
from solver.counts.odds import check_odds

GAME = "id: overlord\ntitle: {en: Overlord}\nplayers: {min: 3, max: 5}\nsource_language: en\n"

COMPONENTS = """\
components:
  - id: doom-cards
    kind: deck
    name: {en: Doom}
    items:
      - {id: doom, count: 12}
  - id: crown
    kind: tokens
    name: {en: Crown}
    count: 1
  - id: hero-cards
    kind: deck
    name: {en: Heroes}
    items:
      - {id: hero, count: 4}
  - id: tokens
    kind: tokens
    name: {en: Tokens}
    items:
      - {id: dark-token, count: 5, attrs: {side: dark}}
      - {id: light-token, count: 5, attrs: {side: light}}
  - id: roles
    kind: deck
    name: {en: Roles}
    items:
      - {id: loyal, count: 3, attrs: {role: loyal}}
      - {id: traitor, count: 2, attrs: {role: traitor}}
"""

SETUP = """\
locations:
  - {id: overlord-seat, name: {en: the overlord's seat}}
  - {id: gate, name: {en: the gate}}
  - {id: board, name: {en: the board}}
steps:
  - use: doom-cards
  - shuffle: doom-cards
  - deal: doom-cards
    each: 2
    recipients: 1
    source: "overlord rules: the overlord draws two"
  - give: crown
    recipients: 1
    on: overlord-seat
    face: up
  - give: hero-cards
    recipients: players - 1
    on: gate
    source: "overlord rules: every other player takes a hero"
  - return_rest: hero-cards
  - place: tokens
    where: {side: dark}
    count: 2
    on: board
    face: down
    source: "overlord rules: two of the dark tokens"
  - use: roles
  - shuffle: roles
  - deal: roles
    each: 1
    recipients: players - 1
    hand: false
    source: "overlord rules: a secret role to each hero"
  - return_rest: roles
    source: "overlord rules: the other roles go back unseen"
constraints:
  - id: a-hero-each
    kind: exactly
    of: {component: hero-cards, zone: placed}
    value: players - 1
    source: "overlord rules"
  - id: overlord-hand
    require: dealt(doom-cards) == 2 and draw_pile(doom-cards) == 10
    source: "overlord rules"
  - id: only-dark-tokens-placed
    kind: exactly
    of: {component: tokens, zone: placed, where: {side: light}}
    value: 0
    source: "overlord rules"
  - id: roles-dealt-are-in-play
    require: count(roles) == players - 1 and returned_to_box(roles) == 5 - (players - 1)
    source: "overlord rules"
"""


def write(root: Path, setup: str = SETUP, components: str = COMPONENTS) -> Path:
    folder = root / "overlord"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "components.yaml").write_text(components, encoding="utf-8")
    (folder / "setup.yaml").write_text(setup, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(write(tmp_path_factory.mktemp("v")))


def test_defaults_read_like_every_player():
    setup = SetupFile.model_validate({"steps": [{"deal": "d", "each": 1}, {"give": "g"}, {"place": "p"}]})
    deal, give, place = setup.steps
    assert deal.recipients == "players" and give.recipients == "players" and give.on is None
    assert place.where == {} and place.face is None


@pytest.mark.parametrize("n", [3, 4, 5])
def test_some_players_only_by_counting(game, n):
    res = run_setup(game, n)
    heroes = n - 1
    assert res.dealt == {"doom-cards": 2, "roles": heroes}
    assert res.hand_size == 0  # the overlord's hand is not everyone's
    assert res.draw_pile == 12 - 2  # the doom deck stays as the overlord's draw pile
    assert res.placed["crown"] == 1 and res.placed["hero-cards"] == heroes
    assert res.returned_to_box["hero-cards"] == 4 - heroes
    # only dark tokens are placed; the light ones are never touched
    assert res.items[("tokens", "dark-token")]["placed"] == 2
    assert res.items[("tokens", "light-token")]["placed"] == 0
    # the undealt roles go back to the box: in play is what is dealt
    assert res.in_play["roles"] == heroes and res.returned_to_box["roles"] == 5 - heroes
    # conservation over every component
    owned = 12 + 1 + 4 + 10 + 5
    assert sum(res.in_play.values()) + sum(res.returned_to_box.values()) + sum(res.set_aside.values()) == owned
    places = {(p.component, p.on): (p.count, p.face) for p in res.placements}
    assert places == {("crown", "overlord-seat"): (1, "up"), ("hero-cards", "gate"): (heroes, None),
                      ("tokens", "board"): (2, "down")}
    assert res.report()["placements"][2] == {"component": "tokens", "count": 2, "on": "board", "face": "down"}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_cp_sat_proves_the_same_setup(game, n):
    res = run_setup(game, n)
    verdict = prove_player_count(game, res)
    assert verdict.feasible and not verdict.can_fail and not verdict.unproven and verdict.rules == 4
    assert verdict.totals["in_play"] == {k: v for k, v in res.in_play.items() if v}
    assert verdict.totals["returned_to_box"] == {k: v for k, v in res.returned_to_box.items() if v}


def test_role_odds_are_about_the_deal_not_the_returned_rest(game):
    """Brute force: the chance that no traitor is among the heroes' roles."""
    derived = check_odds(game).derived
    cards = ["loyal"] * 3 + ["traitor"] * 2
    for n in (3, 4, 5):
        deals = list(itertools.combinations(range(5), n - 1))
        none = Fraction(sum(all(cards[i] != "traitor" for i in d) for d in deals), len(deals))
        assert Fraction(derived["p_no_traitor_exact"][str(n)]) == none


def test_too_few_heroes_is_explained_by_the_give_and_the_count(tmp_path):
    """Three hero cards cannot go to the four other players of a five-player game."""
    game = load_game(write(tmp_path, components=COMPONENTS.replace("{id: hero, count: 4}", "{id: hero, count: 3}")))
    res = run_setup(game, 5)
    assert res.shortages
    verdict = prove_player_count(game, res)
    assert not verdict.feasible and verdict.core_confirmed
    labels = " | ".join(a.label for a in verdict.core)
    # a minimal conflict: the count with the give step or with the rule that restates it
    assert "hero ×3" in labels and ("give hero-cards" in labels or "a-hero-each" in labels)
    assert prove_player_count(game, run_setup(game, 4)).feasible
    infeasible = [f for f in check_setup(game).findings if f.code == "setup-infeasible"]
    assert [f.player_counts for f in infeasible] == [[5]]


def test_a_selector_that_matches_nothing_is_a_located_data_error(tmp_path):
    from solver.errors import DataError

    game = load_game(write(tmp_path, setup=SETUP.replace("where: {side: dark}", "where: {side: grey}")))
    with pytest.raises(DataError) as err:
        run_setup(game, 3)
    assert "setup.yaml:" in str(err.value) and "no item of tokens matches" in str(err.value)
    assert "side" in str(err.value)


def test_more_recipients_than_players_is_a_located_data_error(tmp_path):
    from solver.errors import DataError

    game = load_game(write(tmp_path, setup=SETUP.replace("recipients: players - 1\n    on: gate",
                                                          "recipients: players + 1\n    on: gate")))
    with pytest.raises(DataError) as err:
        run_setup(game, 3)
    assert "setup.yaml:" in str(err.value) and "recipients: players + 1 is 4 at 3 players" in str(err.value)


def test_a_face_the_pieces_do_not_have_is_a_located_warning(tmp_path):
    from solver.proof.checker import face_findings

    faces = COMPONENTS.replace("{id: dark-token, count: 5, attrs: {side: dark}}",
                               "{id: dark-token, count: 5, attrs: {side: dark}, back: {attrs: {face: shadow}}}")
    game = load_game(write(tmp_path, components=faces, setup=SETUP.replace("face: down", "face: shadow")))
    assert face_findings(game) == []  # `down` and `up` are generic; `shadow` is the tokens' back
    game = load_game(write(tmp_path, components=faces, setup=SETUP.replace("face: down", "face: light")))
    [finding] = face_findings(game)
    assert finding.code == "setup-face-unknown" and "setup.yaml:" in finding.source
    assert "'light'" in finding.message and "shadow" in finding.message
