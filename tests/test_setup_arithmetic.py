"""Issue 29 item 4: an over-dealt setup is explained by the arithmetic of its binding step, and no
table shows the impossible state the engine clamps to.

A newcomer's own game (not an example), written by hand in a temp folder: 54 cards of 38 kinds in
a CSV, dealt 14 each. At 4 players that is 14 × 4 = 56. `pnp check --json` must say so at the deal's
line, with the deck's 54 and where they are written, and name no card kind; the setup table (the
report's `player_counts`, the terminal table, the rulebook) must show no figure for 4 players.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.cli import main

GAME = """\
id: lantern-swap
title: {en: Lantern Swap}
designer: [A Newcomer]
players: {min: 2, max: 4}
play_time_minutes: {min: 10, max: 20}
source_language: en
languages: [en]
"""
COMPONENTS = """\
components:
  - id: lantern-cards
    kind: deck
    name: {en: Lantern cards}
    size: poker
    items_file: lanterns.csv
  - id: oil-tokens
    kind: tokens
    name: {en: Oil tokens}
    items:
      - {id: oil, name: Oil, count: 10}
"""
SETUP = """\
steps:
  - use: lantern-cards
  - shuffle: lantern-cards
  - deal: lantern-cards
    each: 14
"""


def lanterns_csv() -> str:
    """38 kinds: 16 of 2 copies and 22 of 1, 54 cards (rows 2-39 of the file)."""
    rows = [f"lantern-{i},Lantern {i},{2 if i < 16 else 1}" for i in range(38)]
    return "id,name,count\n" + "\n".join(rows) + "\n"


def write_game(folder: Path, setup: str = SETUP) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    files = {"game.yaml": GAME, "components.yaml": COMPONENTS, "lanterns.csv": lanterns_csv(), "setup.yaml": setup}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def check_json(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = main(["check", str(folder), "--json"])
    return code, json.loads(capsys.readouterr().out)


def infeasible(report: dict) -> list[dict]:
    return [f for f in report["findings"] if f["code"] == "setup-infeasible"]


def test_over_deal_is_its_sum_at_the_deal_line(tmp_path, capsys):
    folder = write_game(tmp_path / "lantern-swap")
    code, report = check_json(folder, capsys)
    assert code == 1
    [finding] = infeasible(report)
    assert finding["player_counts"] == [4]
    msg = finding["message"]
    assert "14 × 4 players = 56" in msg
    assert "'lantern-cards' has 54" in msg
    assert "lanterns.csv:2-39" in msg  # where the 54 are written, as one range
    assert "at most 13 each" in msg and "add 2" in msg
    assert not re.search(r"lantern-\d", msg)  # the 38 kinds do not matter to a sum
    assert len(msg) < 300
    # located at the deal step (line 4 of setup.yaml), by the file a user opens
    assert finding["source"].endswith("setup.yaml:4")


def test_setup_table_shows_no_impossible_state(tmp_path, capsys):
    folder = write_game(tmp_path / "lantern-swap")
    _, report = check_json(folder, capsys)
    counts = report["player_counts"]
    assert counts["4"] == {"cannot_set_up": [{"step": 2, "needs": 56, "has": 54}]}
    assert counts["3"]["hand_size"] == 14 and counts["3"]["dealt"] == {"lantern-cards": 42}
    assert main(["check", str(folder)]) == 1
    table = capsys.readouterr().out
    hand = next(line for line in table.splitlines() if "hand size" in line)
    cells = [c.strip() for c in hand.split("│")[2:-1]]
    assert cells == ["14", "14", "–"]
    assert "54" not in next(line for line in table.splitlines() if "dealt: lantern-cards" in line)


def test_earlier_steps_are_part_of_the_sum(tmp_path, capsys):
    setup = """\
steps:
  - use: lantern-cards
  - remove: {component: lantern-cards, items: [lantern-0, lantern-1]}
  - shuffle: lantern-cards
  - deal: lantern-cards
    each: 13
  - give: oil-tokens
    each: 3
"""
    _, report = check_json(write_game(tmp_path / "lantern-swap", setup), capsys)
    by_count = {n: f["message"] for f in infeasible(report) for n in f["player_counts"]}
    # 54 - 4 removed = 50 < 13 × 4 = 52: the removal is named with its line
    assert "13 × 4 players = 52" in by_count[4]
    assert "'lantern-cards' has 54" in by_count[4] and "50 of them left there" in by_count[4]
    assert "step 'remove lantern-cards items=['lantern-0', 'lantern-1']' [setup.yaml:3]" in by_count[4]
    assert "at most 12 each" in by_count[4]
    # 3 × 4 = 12 oil for 10 tokens would be next, but the first short step is the one reported;
    # at 3 players the deal fits (39) and the oil does not: 3 × 3 = 9 fits too, so no error there
    assert set(by_count) == {4}


def test_a_selective_step_names_its_kinds(tmp_path, capsys):
    setup = """\
steps:
  - use: lantern-cards
  - place: lantern-cards
    items: [lantern-20, lantern-21]
    count: 3
"""
    _, report = check_json(write_game(tmp_path / "lantern-swap", setup), capsys)
    [finding] = infeasible(report)
    assert finding["player_counts"] == [2, 3, 4]  # one message: the sum does not depend on the count
    assert "places 3; the box has 2 of lantern-20, lantern-21 (lanterns.csv:22-23)" in finding["message"]
    assert "place at most 2, or add 1 to the box" in finding["message"]
