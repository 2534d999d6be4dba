"""What the sources lack names its source as a player of the printed book knows it: a source given by
the Japanese rules' headings ("『準備』(2)") is printed, in an English list, as the clause of the
book that carries that heading, with the book's number and its English heading ("rules 2 Setup"),
the most specific heading quoted winning; a source given by clause numbers keeps them, each once.

A small game written in a temp folder as a newcomer would: rules in Japanese with an English PO, two
components whose counts nobody states. Read back from the `missing-en.txt` the build writes."""
from __future__ import annotations

import textwrap
from pathlib import Path

from generator.cli import main

GAME = """\
id: lanterns
title: {ja: 灯籠, en: Lanterns}
players: {min: 2, max: 4}
source_language: ja
languages: [ja, en]
"""
COMPONENTS = """\
components:
  - id: stones
    kind: pieces
    name: {ja: 石, en: Stones}
    source: "seed 001, 『準備』(2) 石を置きます"
  - id: flags
    kind: pieces
    name: {ja: 旗, en: Flags}
    source: "seed 001, 『ルール』 / 旗の取り方 「旗を1本取ります」; seed 001, 3.1, 3.1"
"""
CLAUSES = """\
language: ja
numbering: generated
sections:
  - id: goal
    kind: objective
    title: 目的
    clauses:
      - {id: goal-text, text: 旗を3本集めると勝ちです。}
  - id: setup
    title: 準備
    clauses:
      - {id: setup-stones, text: 石を置きます。}
  - id: play
    title: ルール
    clauses:
      - id: flags
        title: 旗の取り方
        text: 旗を1本取ります。
"""
PO = {"goal#title": ("目的", "Goal"), "goal-text": ("旗を3本集めると勝ちです。", "Collect 3 flags to win."),
      "setup#title": ("準備", "Setup"), "setup-stones": ("石を置きます。", "Place the stones."),
      "play#title": ("ルール", "Rules"), "flags#title": ("旗の取り方", "Taking flags"),
      "flags": ("旗を1本取ります。", "Take 1 flag.")}


def write_game(root: Path) -> Path:
    game = root / "lanterns"
    (game / "rules").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    (game / "rules" / "clauses.yaml").write_text(CLAUSES, encoding="utf-8")
    entries = "".join(f'\nmsgctxt "{ctx}"\nmsgid "{ja}"\nmsgstr "{en}"\n' for ctx, (ja, en) in PO.items())
    (game / "rules" / "en.po").write_text(textwrap.dedent("""\
        msgid ""
        msgstr ""
        "Language: en\\n"
        "Content-Type: text/plain; charset=UTF-8\\n"
        """) + entries, encoding="utf-8")
    return game


def test_a_source_named_by_its_japanese_heading_prints_the_books_clause(tmp_path):
    game = write_game(tmp_path / "games")
    out = tmp_path / "out"
    assert main(["build", str(game), "--out", str(out), "--only", "missing", "--lang", "en", "--no-preflight"]) == 0
    lines = (out / "lanterns" / "missing-en.txt").read_text(encoding="utf-8").splitlines()
    stones = next(line for line in lines if line.startswith("Stones"))
    flags = next(line for line in lines if line.startswith("Flags"))
    # section 準備 is the book's second (the objective is 1): "2 Setup"; its source item (2) and words go
    assert stones.endswith("(rules 2 Setup)"), stones
    # 旗の取り方 (3.1) is more specific than ルール (3), which is also inside it; 3.1 is named once
    assert flags.endswith("(rules 3.1 Taking flags; 3.1)"), flags
    assert not any(ch >= "\u3000" for ch in stones + flags)  # no Japanese left in the English list


def test_a_held_game_s_list_follows_its_rules_translation_as_it_is_edited(tmp_path):
    """The list is worked out once per loaded game (the missing list's PDF and text and each rulebook
    ask for it) but with the rules' translation as it is now: the English heading edited in
    rules/en.po while the game is held is the one the list names."""
    from generator.missing import missing_entries
    from solver.game.loader import load_game

    folder = write_game(tmp_path / "games")
    game = load_game(folder)
    stones = lambda: next(e.source for e in missing_entries(game, "en") if e.component == "stones")  # noqa: E731
    assert stones() == "rules 2 Setup"
    po = folder / "rules" / "en.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Setup"', 'msgstr "Getting ready"'), encoding="utf-8")
    assert stones() == "rules 2 Getting ready"
