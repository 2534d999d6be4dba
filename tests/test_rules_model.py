"""Clause files: structure against the seeds, ids, numbering, located errors."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.errors import DataError
from solver.game.loader import load_game
from solver.rules.model import clause_key

ROOT = Path(__file__).resolve().parent.parent


def _rules(game_id):
    return load_game(game_id).extras["rules"]


def test_clause_ids_compare_as_int_tuples_never_floats():
    assert clause_key("10.10") == (10, 10)
    assert clause_key("10.10") != clause_key("10.1")
    assert clause_key("10.9") < clause_key("10.10") < clause_key("11")
    assert sorted(["9.14", "9.2", "10.10", "10.1"], key=clause_key) == ["9.2", "9.14", "10.1", "10.10"]


def test_dont_drop_the_ring_keeps_the_seeds_numbered_steps():
    rules = _rules("dont-drop-the-ring")
    by_section = {s.id: s for s in rules.sections}
    assert [s.id for s in rules.sections] == ["goal", "setup", "gems", "play", "optional"]
    circled = "①②③④⑤⑥⑦⑧⑨⑩"
    assert [c.source for c in by_section["setup"].clauses] == list(circled[:6])
    assert [c.source for c in by_section["play"].clauses] == list(circled[:10])
    assert len(by_section["gems"].clauses[0].table.rows) == 7  # Amethyst .. Coin
    assert len(by_section["play"].clauses[3].items) == 5  # the five ・ rules of playing a card


def _seed_bullets(seeds: Path, seed: str, start: str, end: str) -> list[str]:
    text = (seeds / seed).read_text(encoding="utf-8")
    body = text[text.index(start):text.index(end)]
    return [ln.strip()[1:].strip() for ln in body.splitlines() if ln.strip().startswith("・")]


@pytest.mark.seeds
def test_saboteur_every_rule_bullet_of_the_seed_is_a_clause_text_in_order(seeds):
    bullets = _seed_bullets(seeds, "001_eb88819b62e3fbc1.txt", "ゲームの準備", "リンク")
    rules = _rules("saboteur-the-lost-mines")
    texts = [t for _, t in rules.units()]
    flat = "\n".join(texts)
    missing = [b for b in bullets if b not in flat and not any(b.startswith(t) or t in b for t in texts if len(t) > 8)]
    assert not missing
    # the bullets found verbatim appear in the seed's order (repeated sentences: search onwards)
    pos = 0
    for b in (b for b in bullets if b in flat):
        found = flat.find(b, pos)
        assert found >= 0, b
        pos = found + len(b)
    assert len(bullets) >= 100


def test_no_site_text_in_the_clauses():
    for game in ("saboteur-the-lost-mines", "dont-drop-the-ring"):
        flat = "\n".join(t for _, t in _rules(game).units())
        for site in ("ログイン", "通販", "ナイス", "興味あり", "参考価格", "税込", "リンク"):
            assert site not in flat, (game, site)


def test_every_game_folder_with_rules_loads_and_numbers_its_clauses():
    for folder in sorted((ROOT / "data" / "games").iterdir()):
        if (folder / "rules" / "clauses.yaml").is_file():
            rules = load_game(folder.name).extras["rules"]
            numbers = [p.number for p in rules.walk() if p.number]  # an unnumbered section prints none
            assert len(numbers) == len(set(numbers)), folder.name


def test_an_unnumbered_section_keeps_every_other_clause_at_its_number():
    """Riddle of the Ring's objective is this edition's section, printed first: it takes no number, so
    the post's sections keep theirs and the optional rules the cards cite are 7.8, 7.15 and 7.16."""
    rules = load_game("riddle-of-the-ring").extras["rules"]
    placed = {p.clause.id: p.number for p in rules.walk()}
    assert placed["objective"] == placed["objective-win"] == ""
    assert (placed["components"], placed["optional-rules"]) == ("1", "7")
    assert (placed["opt-elven-rings-win"], placed["opt-shelob-feast"], placed["opt-bilbo-refuses-gollum"]) == \
        ("7.8", "7.15", "7.16")


def test_numbered_false_is_refused_below_a_section(game_copy):
    folder = game_copy("dont-drop-the-ring")
    path = folder / "rules" / "clauses.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("      - id: setup-dice\n", "      - id: setup-dice\n        numbered: false\n", 1),
                    encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_game(folder)
    assert any(p.path.endswith("clauses.yaml") and p.line > 0 and "numbered: false" in p.what
               for p in e.value.problems)


def _write(folder: Path, text: str) -> None:
    (folder / "rules" / "clauses.yaml").write_text(text, encoding="utf-8")


def test_unquoted_float_id_is_a_located_error(game_copy):
    folder = game_copy()
    _write(folder, """language: ja
numbering: native
sections:
  - id: 10.10
    title: A
""")
    with pytest.raises(DataError) as e:
        load_game(folder)
    assert re.search(r"clauses\.yaml:4:\d+: .*quote the id as written", str(e.value))


def test_duplicate_and_misplaced_native_ids_are_located(game_copy):
    folder = game_copy()
    _write(folder, """language: ja
numbering: native
sections:
  - id: "10"
    title: A
  - id: "9"
    title: B
    clauses:
      - {id: "9.1", text: あ}
      - {id: "9.1", text: い}
      - {id: "8.2", text: う}
""")
    with pytest.raises(DataError) as e:
        load_game(folder)
    msg = str(e.value)
    assert re.search(r"clauses\.yaml:10:\d+: duplicate clause id '9\.1' \(first at line 9\)", msg)
    assert re.search(r"clauses\.yaml:11:\d+: clause 8\.2 sits under 9", msg)


def test_ref_markup_to_an_unknown_clause_is_a_located_error(game_copy):
    folder = game_copy()
    _write(folder, """language: ja
sections:
  - id: goal
    title: 目的
    clauses:
      - {id: a-rule, text: "[[no-such-clause]]を見よ"}
""")
    with pytest.raises(DataError) as e:
        load_game(folder)
    assert "clauses.yaml:6:" in str(e.value) and "[[no-such-clause]] names no clause" in str(e.value)
