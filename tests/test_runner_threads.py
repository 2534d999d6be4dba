"""The checker's own process (generator/runners.py) is never forked while other threads run: a
fork copies the locks those threads hold at that moment (an import, a write to stderr), and a child
that needs one waits for ever; the checker runs in place there. `pnp serve` rebuilds from its
watcher thread while its server threads answer the page; with the checker in a forked process its
preview missed a save made during a rebuild."""
from __future__ import annotations

import json
import threading

from gamefiles import write_game
from generator import runners
from generator.cli import main

GAME = {
    "game.yaml": "id: lamps\ntitle: {en: Lamps}\nplayers: {min: 2, max: 3}\nsource_language: en\nlanguages: [en]\n",
    "components.yaml": "components:\n  - id: deck\n    kind: deck\n    name: {en: Deck}\n    size: poker\n"
                       "    items:\n      - {id: lamp, name: {en: Lamp}, count: 6}\n",
    "setup.yaml": "steps:\n  - use: deck\n  - shuffle: deck\n  - deal: deck\n    each: 2\n",
}


def test_with_another_thread_running_the_checker_is_not_forked():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        assert threading.active_count() > 1
        assert runners._apart_context() is None  # in place
    finally:
        stop.set()
        other.join()


def test_a_build_with_another_thread_running_checks_in_place(tmp_path, capsys):
    """The check report lands in the output as the checker's own process would write it: every
    player count proved."""
    folder = write_game(tmp_path / "lamps", GAME)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        assert main(["build", str(folder), "--only", "check", "--jobs", "1", "--out", str(tmp_path / "out"),
                     "--no-preflight"]) == 0
    finally:
        stop.set()
        other.join()
    capsys.readouterr()
    report = json.loads((tmp_path / "out" / "lamps" / "check-report.json").read_text(encoding="utf-8"))
    assert report["game"] == "lamps" and report["ok"] is True
    assert [f["code"] for f in report["findings"]] == ["setup-proven"]
    assert report["findings"][0]["player_counts"] == [2, 3]
    # six lamps, two each: 4 dealt and 2 left at 2 players, all 6 dealt at 3
    assert {n: (c["dealt"]["deck"], c["draw_pile"]) for n, c in report["player_counts"].items()} == \
        {"2": (4, 2), "3": (6, 0)}
