"""Optional rules in setup data: setup.yaml `variants:` and `when: variant('id')`.

A variant is run and proved on top of the base setup at its own counts; the base setup, its tables
and its findings stay exactly as they were, and a variant id the file does not declare is a
one-line located error.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gamefiles import write_game
from solver.engine.run import run_setup, setup_table, variant_tables
from solver.errors import DataError
from solver.game.loader import load_game
from solver.report import check_game

GAME = "id: team-game\ntitle: {en: Team game}\nplayers: {min: 2, max: 5}\nsource_language: en\n"
COMPONENTS = """\
components:
  - id: deck
    kind: deck
    name: {en: Deck}
    items:
      - {id: red, count: 20, attrs: {colour: red}}
      - {id: blue, count: 10, attrs: {colour: blue}}
  - id: crowns
    kind: tokens
    name: {en: Crowns}
    count: 3
"""
VARIANTS = """\
variants:
  - id: team-play
    name: {en: Team play, ja: チーム戦}
    source: "rules, optional rule 1"
    player_counts: [4, 5]
  - id: short-game
    name: {en: Short game}
    source: "rules, optional rule 2"
"""
STEPS = """\
steps:
  - use: deck
  - remove: {component: deck, where: {colour: blue}}
    when: "variant('short-game')"
  - deal: deck
    each: 3
  - deal: deck
    each: 1
    recipients: (players + 1) // 2
    when: "variant('team-play') and players % 2 == 1"
  - supply: crowns
    when: "variant(team-play)"
  - return_rest: crowns
constraints:
  - id: three-each
    require: dealt(deck) >= 3 * players
    source: "rules, setup"
  - id: blue-gone
    require: in_play(deck) == 20
    when: "variant('short-game')"
    source: "rules, optional rule 2"
"""


def write(root: Path, setup: str = VARIANTS + STEPS) -> Path:
    return write_game(root / "team-game", {"game.yaml": GAME, "components.yaml": COMPONENTS, "setup.yaml": setup})


def nz(d: dict[str, int]) -> dict[str, int]:
    """A zone of a SetupResult without its zero entries (what the report shows)."""
    return {k: v for k, v in d.items() if v}


def line_of(folder: Path, needle: str) -> int:
    lines = (folder / "setup.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, text in enumerate(lines, 1) if needle in text)


# --------------------------------------------------------------------------- the engine

def test_variant_changes_the_deal_as_written(tmp_path):
    game = load_game(write(tmp_path))
    for n in (2, 3, 4, 5):  # the base setup never runs a variant's steps
        base = run_setup(game, n)
        assert nz(base.dealt) == {"deck": 3 * n} and nz(base.supply) == {} and base.variant is None
        assert nz(base.returned_to_box) == {"crowns": 3}
    tables = variant_tables(game)
    assert list(tables) == ["team-play", "short-game"]  # the file's order
    assert sorted(tables["team-play"]) == [4, 5]  # its own counts
    assert sorted(tables["short-game"]) == [2, 3, 4, 5]  # default: every count of the setup
    # team play: at 5 players the larger team (3) gets one more card each; at 4 the teams are even
    five, four = tables["team-play"][5], tables["team-play"][4]
    assert nz(five.dealt) == {"deck": 15 + 3} and five.hand_size == 3 and five.draw_pile == 30 - 18
    assert nz(four.dealt) == {"deck": 12} and four.draw_pile == 30 - 12
    assert nz(five.supply) == {"crowns": 3} and "crowns" not in nz(five.returned_to_box)
    assert five.variant == "team-play"
    # short game: the blue cards go back to the box before the deal
    short = tables["short-game"][3]
    assert nz(short.returned_to_box) == {"crowns": 3, "deck": 10} and short.draw_pile == 20 - 9
    assert nz(short.supply) == {}


def test_report_has_variant_tables_and_tagged_findings(tmp_path):
    game = load_game(write(tmp_path))
    report = check_game(game)
    assert list(report) == ["game", "ok", "player_counts", "variants", "findings", "derived"]
    assert report["ok"]
    assert report["player_counts"] == {str(n): res.report() for n, res in setup_table(game).items()}
    assert {vid: sorted(t) for vid, t in report["variants"].items()} == \
        {"team-play": ["4", "5"], "short-game": ["2", "3", "4", "5"]}
    assert report["variants"]["team-play"]["5"]["dealt"] == {"deck": 18}
    assert report["variants"]["team-play"]["5"]["supply"] == {"crowns": 3}
    proofs = {f["message"].split(":")[0]: f["player_counts"] for f in report["findings"] if f["code"] == "setup-proven"}
    assert proofs == {"CP-SAT proof": [2, 3, 4, 5], "variant team-play": [4, 5], "variant short-game": [2, 3, 4, 5]}
    short = next(f for f in report["findings"] if f["code"] == "setup-proven" and "short-game" in f["message"])
    assert "2 of 2 rule(s) hold" in short["message"]  # its own rule is on, and proved


def test_a_variant_rule_that_fails_names_the_variant(tmp_path):
    setup = (VARIANTS + STEPS).replace("in_play(deck) == 20", "in_play(deck) == 30")
    report = check_game(load_game(write(tmp_path, setup)))
    assert not report["ok"]
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert errors and all(f["message"].startswith("variant short-game: ") for f in errors)
    assert sorted({n for f in errors for n in f["player_counts"]}) == [2, 3, 4, 5]
    assert "blue-gone" in errors[0]["message"]


# --------------------------------------------------------------------------- the loader

@pytest.mark.parametrize("old, new", [
    ("variant('team-play') and players", "variant('team-ply') and players"),  # a step's when
    ("when: \"variant('short-game')\"\n    source", "when: \"variant('shortgame')\"\n    source"),  # a constraint's
])
def test_unknown_variant_id_is_a_located_error(tmp_path, old, new):
    assert (VARIANTS + STEPS).count(old) == 1
    folder = write(tmp_path, VARIANTS + STEPS.replace(old, new))
    with pytest.raises(DataError) as err:
        load_game(folder)
    lines = str(err.value).splitlines()
    assert len(lines) == 1
    bad = re.search(r"variant\('([a-z-]+)'\)", new).group(1)
    line = line_of(folder, f"variant('{bad}')")
    assert re.match(rf"^\S*team-game/setup\.yaml:{line}:\d+: unknown variant id '{bad}'; ", lines[0]), lines[0]
    assert "team-play, short-game" in lines[0]  # what to use instead


def test_variant_without_declarations_and_outside_when(tmp_path):
    # no `variants:` at all, and variant() in a count: two problems, each on its own line
    setup = STEPS.replace("each: 3", "each: 3 + variant(team-play)")
    folder = write(tmp_path, setup)
    with pytest.raises(DataError) as err:
        load_game(folder)
    lines = str(err.value).splitlines()
    assert any(f"setup.yaml:{line_of(folder, 'each: 3 + variant')}:" in x and "only be used in `when:`" in x for x in lines)
    assert any("unknown variant id 'team-play'" in x and "none is declared yet" in x for x in lines)
    assert all(re.match(r"^\S+\.yaml:\d+:\d+: ", x) for x in lines)


def test_variant_declarations_are_checked(tmp_path):
    setup = VARIANTS.replace("player_counts: [4, 5]", "player_counts: [4, 6]").replace(
        "id: short-game", "id: team-play") + STEPS.replace("variant('short-game')", "variant('team-play')")
    folder = write(tmp_path, setup)
    with pytest.raises(DataError) as err:
        load_game(folder)
    text = str(err.value)
    assert "duplicate variant id 'team-play'" in text
    assert f"setup.yaml:{line_of(folder, 'player_counts: [4, 6]')}:" in text and "player count 6" in text


# --------------------------------------------------------------------------- games without variants

@pytest.mark.parametrize("game_id", ["dont-drop-the-ring", "saboteur-the-lost-mines"])
def test_base_report_unchanged_by_declaring_a_variant(game_copy, game_id):
    """A game without variants has no `variants` key; declaring one that guards an extra step
    leaves the base part of the report byte for byte as it was."""
    folder = game_copy(game_id)
    before = check_game(load_game(folder))
    assert list(before) == ["game", "ok", "player_counts", "findings", "derived"]
    assert not any("variant" in f["message"] for f in before["findings"])
    game = load_game(folder)
    first = game.setup.player_counts[0]  # the fewest players leave a draw pile to deal from
    pile = next(d.pile for d in setup_table(game)[first].draws if d.hand)  # the pile hands are dealt from
    text = (folder / "setup.yaml").read_text(encoding="utf-8")
    text = text.replace("steps:\n", "variants:\n  - {id: house-rule, name: {en: House rule}, source: test}\nsteps:\n", 1)
    text = text.replace("constraints:\n", f"  - deal: {pile}\n    each: 1\n    recipients: 1\n"
                        f"    when: \"variant('house-rule') and players == {first}\"\nconstraints:\n", 1)
    (folder / "setup.yaml").write_text(text, encoding="utf-8")
    after = check_game(load_game(folder))
    dumps = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    assert dumps(after["player_counts"]) == dumps(before["player_counts"])
    assert dumps(after["derived"]) == dumps(before["derived"])
    base_findings = [f for f in after["findings"] if not f["message"].startswith("variant house-rule: ")]
    # the lines after `variants:` moved down by two; the findings are otherwise the same
    shift = lambda f: re.sub(r"setup\.yaml:\d+", "setup.yaml:N", dumps(f))  # noqa: E731
    assert [shift(f) for f in base_findings] == [shift(f) for f in before["findings"]]
    assert set(after["variants"]) == {"house-rule"} and after["ok"] == before["ok"]
    for n, row in after["variants"]["house-rule"].items():  # one more card to one player
        extra = 1 if n == str(first) else 0
        assert row["dealt"][pile] == after["player_counts"][n]["dealt"][pile] + extra
        assert row["draw_pile"] == after["player_counts"][n]["draw_pile"] - extra


# --------------------------------------------------------------------------- riddle-of-the-ring

def test_riddle_team_play_and_extended_two_player():
    game = load_game("riddle-of-the-ring")
    tables = variant_tables(game)
    assert sorted(tables["team-play"]) == [4, 5, 6, 7, 8] and sorted(tables["extended-two-player"]) == [2]
    for n, res in tables["team-play"].items():
        extra = (n + 1) // 2 if n % 2 else 0  # each member of the larger team, teams as even as possible
        assert nz(res.dealt) == {"play-cards": 2 * n + extra}, n
        assert res.hand_size == 2 and res.draw_pile == 80 - 2 * n - extra
    two = tables["extended-two-player"][2]
    assert nz(two.dealt) == nz(run_setup(game, 2).dealt) == {"play-cards": 4}
    assert nz(two.placed) == {"character-markers": 2} and nz(two.supply) == {"character-markers": 6}
    sides = {}
    for (comp, item), st in two.items.items():
        if comp == "character-markers" and st["placed"]:
            side = next(i.attrs["side"] for i in game.component(comp).items if i.id == item)
            sides[side] = sides.get(side, 0) + st["placed"]
    assert sides == {"hobbit": 1, "black-rider": 1}
    report = check_game(game)
    proven = {f["message"].split(":")[0]: f["player_counts"] for f in report["findings"] if f["code"] == "setup-proven"}
    assert proven["variant team-play"] == [4, 5, 6, 7, 8] and proven["variant extended-two-player"] == [2]
    assert not [f for f in report["findings"] if f["severity"] == "error"]


@pytest.mark.parametrize("old, new, said", [
    ("variant('team-play') and players", "variant('team-play') and plyers", "unknown name 'plyers'"),  # a step's when
    ("when: \"variant('short-game')\"\n    source", "when: \"turns(2) > 1\"\n    source", "unknown function turns()"),  # a constraint's
])
def test_a_when_naming_what_no_command_knows_is_a_located_error(tmp_path, old, new, said):
    """`pnp check` once crashed on `when: pl >= 7` (its table of cases evaluated it before the
    engine could say where): the loader refuses it for every command."""
    assert (VARIANTS + STEPS).count(old) == 1
    folder = write(tmp_path, VARIANTS + STEPS.replace(old, new))
    with pytest.raises(DataError) as err:
        check_game(load_game(folder))
    lines = str(err.value).splitlines()
    assert len(lines) == 1
    line = line_of(folder, new.split("\n")[0].split(": ", 1)[-1] if new.startswith("when") else new)
    assert re.match(rf"^\S*team-game/setup\.yaml:{line}:\d+: .*{re.escape(said)}.*players", lines[0]), lines[0]
