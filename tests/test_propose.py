"""Proposed counts (solver/counts/propose.py, `pnp propose`): checked against the rules by other means.

The small fixture's proposal is compared with a brute force over every count vector, whose rules
are evaluated by the expression evaluator and the engine's counting (not by the CP-SAT model);
every example game's proposal, written into a copy of its components.yaml, passes `pnp check`.
"""
from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
import yaml

from generator.cli import main
from solver import expr
from solver.engine.run import player_counts, run_setup
from solver.game.folders import game_ids
from solver.game.loader import load_game
from solver.counts.propose import check_proposals, propose
from solver.report import check_game

FIXTURE = Path(__file__).parent / "fixtures" / "propose-small"


def copy(src: Path, tmp_path: Path) -> Path:
    dest = tmp_path / src.name
    shutil.copytree(src, dest)
    return dest


def counts_of(result) -> dict[str, int]:
    return {p.item: p.count for p in result.proposals}


def brute_force(folder: Path) -> dict[str, int]:
    """The stated objective, by enumeration: every count vector that the rules allow (the rules
    evaluated by solver/expr.py and the setup run by the engine's counting at every player count),
    then the first by the stated objective: the deck's kinds (under a stated total) spread evenly
    (largest, -smallest), then the fewest gold tokens, then the position-weighted tie-break."""
    game = load_game(folder)
    deck = ["knight", "archer", "scroll"]
    best, best_key = None, None
    for knight, archer, scroll in itertools.product(range(11), repeat=3):
        if knight + archer + scroll != 10 or min(knight, archer, scroll) < 1:
            continue  # the stated total; each named kind exists
        for gold in range(0, 8):
            if gold < 1:
                continue
            counts = {"knight": knight, "archer": archer, "scroll": scroll, "gold": gold, "spare": 0}
            if not allowed(game, counts):
                continue
            key = (max(counts[k] for k in deck), -min(counts[k] for k in deck), gold, archer + 2 * scroll)
            if best_key is None or key < best_key:
                best, best_key = counts, key
    assert best is not None
    return best


def allowed(game, counts: dict[str, int]) -> bool:
    owned = {"owned": lambda ref: counts[ref]}
    for con in game.setup.constraints:
        if not expr.evaluate(con.require, {}, owned):
            return False
    accepted = game_with(game, counts)
    return all(not run_setup(accepted, n).shortages for n in player_counts(accepted))


def game_with(game, counts: dict[str, int]):
    """A copy of the game whose uncounted items have `counts` as stated counts."""
    g = load_game(game.folder)
    for comp in g.components:
        if not comp.items and comp.count is None and comp.id in counts:
            comp.count = counts[comp.id]
        for it in comp.items:
            if it.count is None and it.id in counts:
                it.count = counts[it.id]
    return g


def test_small_proposal_is_the_brute_force_optimum():
    result = propose(load_game(FIXTURE))
    assert not result.conflict
    assert counts_of(result) == brute_force(FIXTURE) == {"knight": 4, "archer": 3, "scroll": 3, "gold": 4, "spare": 0}


def test_a_binding_rule_changes_the_proposal(tmp_path):
    folder = copy(FIXTURE, tmp_path)
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text().replace("owned(knight) >= 3", "owned(knight) >= 6"))
    got = counts_of(propose(load_game(folder)))
    assert got == brute_force(folder)
    assert (got["knight"], got["archer"] + got["scroll"]) == (6, 4)
    # the deal at 4 players is what bounds the gold tokens: a five-player game needs five
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("max: 4", "max: 5"))
    assert counts_of(propose(load_game(folder)))["gold"] == 5


def test_bounds_name_the_rules_and_totals():
    by_item = {p.item: p.bound_by for p in propose(load_game(FIXTURE)).proposals}
    assert any("three-knights" in b for b in by_item["knight"])
    assert any("stated total 10" in b for b in by_item["knight"])
    assert any("scrolls-rare" in b for b in by_item["scroll"])
    assert any("place tokens" in b for b in by_item["gold"])
    assert not any("three-knights" in b for b in by_item["scroll"])


def test_no_proposal_names_the_conflict(tmp_path):
    folder = copy(FIXTURE, tmp_path)
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text().replace("owned(knight) >= 3", "owned(knight) >= 9"))
    result = propose(load_game(folder))
    assert not result.proposals
    text = " | ".join(result.conflict)
    assert "three-knights" in text and "deck ×10 in all" in text  # 9 knights leave 1 for two kinds


def test_cli_writes_a_file_the_loader_reads_and_check_reports(tmp_path, capsys):
    folder = copy(FIXTURE, tmp_path)
    assert main(["propose", str(folder)]) == 0
    data = yaml.safe_load((folder / "proposed.yaml").read_text())
    assert {p["item"]: p["count"] for p in data["proposals"]}["knight"] == 4
    game = load_game(folder)
    findings = check_proposals(game).findings
    proposed = [f for f in findings if f.code == "proposed-count"]
    assert len(proposed) == 5 and all(f.severity == "assumption" for f in proposed)
    knight = next(f for f in proposed if "deck/knight" in f.message)
    assert "three-knights" in knight.message and knight.source.endswith("proposed.yaml:6")
    assert not [f for f in findings if f.severity == "error"]
    # an edit that breaks a rule is an error naming the rule; the same file twice gives the same bytes
    before = (folder / "proposed.yaml").read_bytes()
    assert main(["propose", str(folder)]) == 0
    assert (folder / "proposed.yaml").read_bytes() == before
    (folder / "proposed.yaml").write_text(before.decode().replace("item: knight\n    count: 4", "item: knight\n    count: 2"))
    errors = [f for f in check_proposals(load_game(folder)).findings if f.severity == "error"]
    assert len(errors) == 1 and errors[0].code == "proposal-breaks-rules" and "three-knights" in errors[0].message


def test_stale_and_missing_proposals_are_reported(tmp_path):
    folder = copy(FIXTURE, tmp_path)
    assert main(["propose", str(folder)]) == 0
    comps = folder / "components.yaml"
    comps.write_text(comps.read_text().replace("{id: gold, name: {en: Gold}, count: null}", "{id: gold, name: {en: Gold}, count: 6}")
                     .replace("{id: spare, name: {en: Spare}, count: null, rest: true}",
                              "{id: spare, name: {en: Spare}, count: null, rest: true}\n      - {id: silver, name: {en: Silver}, count: null}"))
    codes = {f.code for f in check_proposals(load_game(folder)).findings}
    assert {"proposal-stale", "count-not-proposed"} <= codes


def test_conflict_exits_1_and_writes_nothing(tmp_path, capsys):
    folder = copy(FIXTURE, tmp_path)
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text().replace("owned(knight) >= 3", "owned(knight) >= 9"))
    assert main(["propose", str(folder)]) == 1
    assert not (folder / "proposed.yaml").exists()
    assert "three-knights" in capsys.readouterr().err


@pytest.mark.parametrize("gid", game_ids())
def test_accepted_proposals_pass_the_checker(gid, tmp_path):
    """Every example game with its proposals written into components.yaml as stated counts: the
    checker (the engine's counting and the per-count proof) finds no error, and every stated total
    is met exactly. The committed proposed.yaml is also what `pnp propose` gives today."""
    game = load_game(gid)
    result = propose(game)
    file = game.extras.get("proposed")
    if not result.proposals:
        assert file is None
        return
    assert file is not None, f"run `pnp propose {gid}`"
    assert [(p.component, p.item, p.count) for p in file.proposals] == \
           [(p.component, p.item, p.count) for p in result.proposals], f"proposed.yaml is stale: run `pnp propose {gid}`"
    accepted = game_with(game, counts_of(result))
    for comp in accepted.components:
        assert comp.items or comp.count is not None, comp.id
        for it in comp.items:
            assert it.count is not None, (comp.id, it.id)
        if comp.stated_total is not None and comp.items:
            assert sum(it.count for it in comp.items) == comp.stated_total.value, comp.id
    report = check_game(accepted)
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert not errors, json.dumps(errors, ensure_ascii=False)[:500]


def test_a_stated_total_is_spread_evenly_before_tied_kinds_are_minimised():
    """Saboteur's 23 action cards share their total evenly, although each tool or trap card needs a
    forest token (setup.yaml): minimising the tokens first would pile the total on the trolls."""
    counts = counts_of(propose(load_game("saboteur-the-lost-mines")))
    action = [counts[k] for k in ("tool-fallen-tree", "tool-pond", "tool-hole", "information", "trap", "troll", "storm")]
    assert sum(action) == 23 and max(action) - min(action) <= 1
    for card, token in (("tool-pond", "forest-tool-pond"), ("trap", "forest-trap")):
        assert counts[token] == counts[card]  # the fewest tokens the cards need


def test_propose_rewrites_a_proposal_file_that_no_longer_loads(tmp_path, capsys):
    folder = copy(FIXTURE, tmp_path)
    assert main(["propose", str(folder)]) == 0
    good = (folder / "proposed.yaml").read_text()
    (folder / "proposed.yaml").write_text(good.replace("item: scroll", "item: scrol"))  # an item renamed since
    assert main(["check", str(folder)]) == 2  # unusable input, located in proposed.yaml
    assert main(["propose", str(folder)]) == 0
    assert (folder / "proposed.yaml").read_text() == good
    assert sorted(p.name for p in folder.iterdir()) == ["components.yaml", "game.yaml", "proposed.yaml", "setup.yaml"]
