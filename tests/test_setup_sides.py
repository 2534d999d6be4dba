"""One player's or one side's draw (setup.yaml `sides:` and a deal `to:` a side): the engine deals
only to that side's players, and `pnp check`'s odds are those of that one draw. Checked against
War of the Ring 18.1 and a small original game, with the odds enumerated here card by card."""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from pathlib import Path

import yaml

from generator.cli import main
from solver.counts.odds import check_odds
from solver.engine.run import run_setup
from solver.game.loader import load_game

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"
WOTR = GAMES / "war-of-the-ring-campaign"


def test_war_of_the_ring_allied_player_alone_draws_three_of_the_nine_green_cards():
    game = load_game(WOTR)
    res = run_setup(game, 2)
    draws = [d for d in res.draws if d.dst == "dealt"]
    assert [(d.pile, d.count, d.to) for d in draws] == [("allied-deck", 3, "allied")]
    assert res.dealt == {"allied-deck": 3}
    assert res.hand_size == 0  # the Dark Lord player holds no card: not every player's hand


def test_war_of_the_ring_odds_are_those_of_three_cards_from_nine():
    """P(no copy of a card) = C(9 - k, 3) / C(9, 3), k its copies (proposed.yaml, read as plain YAML)."""
    proposed = yaml.safe_load((WOTR / "proposed.yaml").read_text(encoding="utf-8"))
    green = {p["item"]: p["count"] for p in proposed["proposals"]
             if p["item"] in {f"action-0{i}" for i in range(1, 9)}}
    assert sum(green.values()) == 9
    derived = check_odds(load_game(WOTR)).derived
    for item, k in green.items():
        want = Fraction(comb(9 - k, 3), comb(9, 3))
        assert derived[f"p_no_{item.replace('-', '_')}_exact"]["2"] == str(want), item


def write_spy_game(folder: Path, to: str = "spymaster") -> None:
    """A newcomer's game: the spymaster alone draws 2 of 6 mission cards; agents draw none."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(
        f"id: {folder.name}\ntitle: {{en: Spymaster}}\ndesigner: [Me]\nyear: 2026\n"
        "players: {min: 3, max: 5}\nplay_time_minutes: {min: 20, max: 30}\nage_min: 10\n"
        "source_language: en\nlanguages: [en]\n", encoding="utf-8")
    (folder / "components.yaml").write_text(
        "components:\n  - id: missions\n    kind: deck\n    name: {en: Missions}\n    size: poker\n    items:\n"
        "      - {id: heist, name: Heist, count: 3, attrs: {role: heist}}\n"
        "      - {id: rescue, name: Rescue, count: 2, attrs: {role: rescue}}\n"
        "      - {id: sabotage, name: Sabotage, count: 1, attrs: {role: sabotage}}\n", encoding="utf-8")
    (folder / "setup.yaml").write_text(
        "sides:\n  - {id: spymaster, name: the spymaster}\n  - {id: agents, name: the agents, players: players - 1}\n"
        "steps:\n  - use: missions\n  - shuffle: missions\n"
        f"  - deal: missions\n    each: 2\n    to: {to}\n    hand: false\n  - return_rest: missions\n",
        encoding="utf-8")


def test_spymaster_draw_odds_against_enumeration(tmp_path):
    folder = tmp_path / "spymaster"
    write_spy_game(folder)
    game = load_game(folder)
    for n in (3, 4, 5):
        assert run_setup(game, n).dealt == {"missions": 2}  # one player, whatever the count
    cards = ["heist"] * 3 + ["rescue"] * 2 + ["sabotage"]
    hands = list(itertools.combinations(range(len(cards)), 2))
    derived = check_odds(game).derived
    for role in ("heist", "rescue", "sabotage"):
        none = Fraction(sum(1 for h in hands if all(cards[i] != role for i in h)), len(hands))
        assert derived[f"p_no_{role}_exact"] == {"3": str(none), "4": str(none), "5": str(none)}


def test_a_side_nobody_declared_is_a_located_error(tmp_path, capsys):
    folder = tmp_path / "spymaster"
    write_spy_game(folder, to="spy-master")
    capsys.readouterr()
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    lines = (folder / "setup.yaml").read_text(encoding="utf-8").splitlines()
    line = lines.index("    to: spy-master") + 1
    assert f"setup.yaml:{line}:" in err and "spy-master" in err and "Traceback" not in err
