"""The rules engine: steps executed by counting, conservation, and agreement with the CP-SAT model."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from solver.proof.checker import prove_player_count
from solver.engine.run import run_setup, setup_table
from solver.game.loader import load_game

GAME = "id: pile-game\ntitle: {en: Pile game}\nplayers: {min: 2, max: 4}\nsource_language: en\n"


def components(a: int, b: int, tokens: int) -> str:
    return f"""\
components:
  - id: deck-a
    kind: deck
    name: {{en: A}}
    items:
      - {{id: a-red, count: {a}, attrs: {{colour: red}}}}
      - {{id: a-blue, count: {b}, attrs: {{colour: blue}}}}
  - id: deck-b
    kind: deck
    name: {{en: B}}
    items:
      - {{id: b-card, count: 10}}
  - id: tokens
    kind: tokens
    name: {{en: Tokens}}
    count: {tokens}
  - id: board
    kind: board
    name: {{en: Board}}
    count: 1
"""


def setup(remove: int, aside: int, each: int) -> str:
    return f"""\
steps:
  - use: deck-a
  - remove: {{component: deck-a, where: {{colour: blue}}, each: {remove}}}
    when: players == 2
  - combine: [deck-a, deck-b]
    into: deck-a
  - set_aside: deck-a
    count: {aside}
  - deal: deck-a
    each: {each}
  - use: tokens
    count: players * 2
  - return_rest: tokens
  - place: board
"""


def write(root: Path, a=6, b=4, tokens=8, remove=2, aside=3, each=3) -> Path:
    folder = root / "pile-game"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "components.yaml").write_text(components(a, b, tokens), encoding="utf-8")
    (folder / "setup.yaml").write_text(setup(remove, aside, each), encoding="utf-8")
    return folder


def test_steps_by_counting(tmp_path):
    game = load_game(write(tmp_path))
    table = setup_table(game)
    assert sorted(table) == [2, 3, 4]
    two = table[2]
    # deck-a: 6 red + 4 blue, 2 blue removed at 2 players, combined with 10 b-cards -> 18 in the pile
    assert two.returned_to_box["deck-a"] == 2
    assert two.set_aside == {"deck-a": 3}
    assert two.dealt == {"deck-a": 6} and two.hand_size == 3
    assert two.draw_pile == 18 - 3 - 6
    assert two.in_play["tokens"] == 4 and two.returned_to_box["tokens"] == 4
    assert {k: v for k, v in two.placed.items() if v} == {"board": 1}
    four = table[4]
    assert four.draw_pile == 20 - 3 - 12 and four.returned_to_box.get("deck-a", 0) == 0
    for res in table.values():
        assert not res.shortages
        owned = sum(res.owned.values())
        assert sum(res.in_play.values()) + sum(res.returned_to_box.values()) + sum(res.set_aside.values()) == owned
    report = two.report()
    assert set(report) >= {"in_play", "returned_to_box", "hand_size", "dealt", "draw_pile"}


def test_expression_errors_point_at_the_step(tmp_path):
    import pytest

    from solver.errors import DataError

    folder = write(tmp_path)
    text = (folder / "setup.yaml").read_text(encoding="utf-8").replace("count: players * 2", "count: seats * 2")
    (folder / "setup.yaml").write_text(text, encoding="utf-8")
    game = load_game(folder)
    with pytest.raises(DataError) as err:
        run_setup(game, 3)
    assert "setup.yaml:" in str(err.value) and "seats" in str(err.value)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.integers(0, 5), b=st.integers(0, 5), tokens=st.integers(0, 9), remove=st.integers(0, 3),
       aside=st.integers(0, 8), each=st.integers(0, 6), players=st.integers(2, 4))
def test_engine_and_model_agree_on_feasibility(tmp_path_factory, a, b, tokens, remove, aside, each, players):
    """Brute force by arithmetic: the setup can be done iff every step finds what it asks for.
    The engine reports a shortage exactly then, and the CP-SAT model is infeasible exactly then."""
    root = tmp_path_factory.mktemp("g")
    game = load_game(write(root, a=a, b=b, tokens=tokens, remove=remove, aside=aside, each=each))
    blue_left = b - (remove if players == 2 else 0)
    pile = a + max(blue_left, 0) + 10
    possible = blue_left >= 0 and aside <= pile and aside + players * each <= pile and players * 2 <= tokens
    res = run_setup(game, players)
    assert (not res.shortages) == possible
    verdict = prove_player_count(game, res)
    assert verdict.feasible == possible
    if not possible:
        assert verdict.core_confirmed and verdict.core
        kinds = {x.kind for x in verdict.core}
        assert "step" in kinds and "inventory" in kinds  # a step asks too much of a count
    else:  # conservation, per component
        total = a + b + 10 + tokens + 1
        assert sum(res.in_play.values()) + sum(res.returned_to_box.values()) + sum(res.set_aside.values()) == total
