"""A step that asks for more than there is, explained by its sum (solver/proof/shortage.py): each
message below is worked out by hand from the tiny box here (10 cards: 4 aces, 3 twos, 3 threes; nine
tiles t0-t8, one each; per-player pawns, one in the box), with the lines read off the file.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from solver.engine.run import run_setup
from solver.game.loader import load_game
from solver.proof.shortage import shortage_finding

TILES = "\n".join(f"      - {{id: t{i}, count: 1, attrs: {{k: {'y' if i == 3 else 'x'}}}}}" for i in range(9))
COMPONENTS = f"""\
components:
  - id: cards
    kind: deck
    name: {{en: Cards}}
    items:
      - {{id: ace, count: 4, attrs: {{suit: a}}}}
      - {{id: two, count: 3, attrs: {{suit: a}}}}
      - {{id: three, count: 3, attrs: {{suit: b}}}}
  - id: tiles
    kind: tiles
    name: {{en: Tiles}}
    items:
{TILES}
  - id: pawns
    kind: pieces
    name: {{en: Pawns}}
    per_player: true
    count: 1
"""
USE = "  - use: cards\n"


def line(needle: str, text: str = COMPONENTS) -> int:
    return next(i for i, row in enumerate(text.splitlines(), 1) if needle in row)


# a component without items: its count is written on its own line
PAWNS = next(i for i, row in enumerate(COMPONENTS.splitlines(), 1) if i > line("id: pawns") and row == "    count: 1")
CARDS = f"components.yaml:{line('id: ace')}-{line('id: three')}"


def finding(tmp_path: Path, steps: str, players: int):
    folder = tmp_path / "short"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: short\ntitle: {en: Short}\nplayers: {min: 2, max: 5}\n"
                                      "source_language: en\n", encoding="utf-8")
    (folder / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    (folder / "setup.yaml").write_text("steps:\n" + steps, encoding="utf-8")
    game = load_game(folder)
    return shortage_finding(game, run_setup(game, players))


def explained(tmp_path: Path, steps: str, players: int) -> str:
    f = finding(tmp_path, steps, players)
    assert f is not None and f.severity == "error" and f.code == "setup-infeasible"
    assert f.player_counts == [players]
    prefix = "setup cannot be carried out: "
    assert f.message.startswith(prefix)
    # the finding points at the short step's line, which its message names too
    assert f.source.endswith(f"setup.yaml:{f.message.split('[setup.yaml:')[1].split(']')[0]}")
    return f.message[len(prefix):]


def test_a_setup_with_enough_has_no_shortage(tmp_path):
    assert finding(tmp_path, USE + "  - deal: cards\n    each: 3\n", 3) is None


# (steps, players, what the message says after the step's label)
CASES = {
    "a deal to every player, and how many each would fit": (
        USE + "  - deal: cards\n    each: 3\n", 4,
        f"[setup.yaml:3] deals 3 × 4 players = 12; 'cards' has 10 ({CARDS}); "
        "deal at most 2 each at 4 players, or add 2 to the box"),
    "a deal to one player": (
        USE + "  - deal: cards\n    each: 12\n    recipients: 1\n", 4,
        f"[setup.yaml:3] deals 12 to one player; 'cards' has 10 ({CARDS}); deal at most 10, or add 2 to the box"),
    "a deal to some players": (
        USE + "  - deal: cards\n    each: 4\n    recipients: players - 1\n", 4,
        f"[setup.yaml:3] deals 4 × 3 recipients = 12; 'cards' has 10 ({CARDS}); "
        "deal at most 3 each at 4 players, or add 2 to the box"),
    "a deal to two of three players": (
        USE + "  - deal: cards\n    each: 6\n    recipients: players - 1\n", 3,
        f"[setup.yaml:3] deals 6 × 2 recipients = 12; 'cards' has 10 ({CARDS}); "
        "deal at most 5 each at 3 players, or add 2 to the box"),
    "one each, and not even that fits": (
        "  - remove: {component: cards, where: {suit: a}}\n" + USE + "  - deal: cards\n    each: 1\n", 4,
        f"[setup.yaml:4] deals 1 × 4 players = 4; 'cards' has 10 ({CARDS}), 3 of them left there after "
        "step 'remove cards suit=a' [setup.yaml:2]; add 1 to the box"),
    "what earlier steps took": (
        USE + "  - place: cards\n    items: [ace]\n  - remove: {component: cards, where: {suit: b}}\n"
              "  - shuffle: cards\n  - deal: cards\n    each: 2\n", 3,
        f"[setup.yaml:7] deals 2 × 3 players = 6; 'cards' has 10 ({CARDS}), 3 of them left there after "
        "step 'place cards' [setup.yaml:3], step 'remove cards suit=b' [setup.yaml:5]; "
        "deal at most 1 each at 3 players, or add 3 to the box"),
    "nothing left: only more in the box helps": (
        USE + "  - place: cards\n  - deal: cards\n    each: 2\n", 3,
        f"[setup.yaml:4] deals 2 × 3 players = 6; 'cards' has 10 ({CARDS}), 0 of them left there after "
        "step 'place cards' [setup.yaml:3]; add 6 to the box"),
    "not even one each fits": (
        "  - give: pawns\n    each: 2\n", 3,
        f"[setup.yaml:2] gives 2 × 3 players = 6; 'pawns' has 1 (components.yaml:{PAWNS}); "
        "add 5 to the box"),
    "a selective step names its kinds, the first six": (
        "  - place: tiles\n    where: {k: x}\n    count: 9\n", 3,
        "[setup.yaml:2] places 9; the box has 8 of t0, t1, t2, t4, t5, t6 and 2 more kinds "
        f"(components.yaml:{line('id: t0')}-{line('id: t2')}, {line('id: t4')}-{line('id: t8')}); "
        "place at most 8, or add 1 to the box"),
    "three kinds named in full": (
        "  - place: tiles\n    items: [t1, t2, t3]\n    count: 4\n", 3,
        f"[setup.yaml:2] places 4; the box has 3 of t1, t2, t3 (components.yaml:{line('id: t1')}-{line('id: t3')}); "
        "place at most 3, or add 1 to the box"),
    "one kind short": (
        "  - remove: {component: cards, items: [ace], each: 5}\n", 3,
        f"[setup.yaml:2] removes 5 of ace; the box has 4 (components.yaml:{line('id: ace')}); "
        "remove at most 4, or add 1 to the box"),
    "a draw set aside": (
        USE + "  - set_aside: cards\n    count: 11\n", 3,
        f"[setup.yaml:3] sets aside 11; 'cards' has 10 ({CARDS}); set aside at most 10, or add 1 to the box"),
    "a kind the supply took first": (
        "  - supply: cards\n  - place: cards\n    items: [ace]\n    count: 2\n", 3,
        f"[setup.yaml:3] places 2 of ace; the box has 4 (components.yaml:{line('id: ace')}), 0 of them left "
        "there after step 'supply cards' [setup.yaml:2]; add 2 to the box"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_short_step_is_explained_by_its_sum(tmp_path, case):
    steps, players, expected = CASES[case]
    message = explained(tmp_path, steps, players)
    # the step's label is the engine's; what follows it is the shortage's sum
    assert message.startswith("step '")
    assert message.split("' [", 1)[1] == expected.split("[", 1)[1]
