"""Each stage of the proposal objective (solver/counts/propose.py) on a small game built so that
that stage, and no other, decides; the expected counts are worked out by hand below each game.

Stage A, a deck of 9 with no setup.yaml (so propose and `pnp check` run without setup models):
  a, b, c of type x and d of type y share the stated total. Spread over the deck: largest 3,
  smallest 2 (3 + 2 + 2 + 2). Spread among the x cards: the 3 goes to d, the only y card, so that
  the x cards' largest is 2. The tie-break alone would give the 3 to a, the earliest listed.
Stage B, tokens e, f, g (type p), h (type q) and the rest item r; chips s, t, both rest items:
  rules: e + f + g + h >= 9, r >= 4, s + t >= 4. Fewest named: e + f + g + h = 9; fewest rest:
  r = 4 and s + t = 4 (nothing else bounds r from above, and r has no kind to be spread with);
  spread over the tokens: 3 + 2 + 2 + 2, then among the p tokens: the 3 goes to h; spread among
  the rest items: s = t = 2.
Stage C, stage B with a stated total of 20 tokens: the tokens hold a rest item, so their total is
  not spread over the named kinds; these keep their fewest (9, spread as in B) and r takes the 11
  that the total leaves.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from cpsat_limits import solvers_stopping_after
from generator.cli import main
from solver.counts.odds import check_odds
from solver.counts.propose import check_proposals, propose
from solver.game.loader import load_game

GAME = """\
id: {id}
title: {{en: {id}}}
players: {{min: 2, max: 4}}
source_language: en
languages: [en]
"""
DECK = """\
components:
  - id: deck
    kind: deck
    name: {en: Deck}
    size: poker
    stated_total: {value: 9, source: "rules 1: nine cards"}
    items:
      - {id: a, name: {en: A}, count: null, attrs: {type: x}}
      - {id: b, name: {en: B}, count: null, attrs: {type: x}}
      - {id: c, name: {en: C}, count: null, attrs: {type: x}}
      - {id: d, name: {en: D}, count: null, attrs: {type: y}}
"""
TOKENS = """\
components:
  - id: tokens
    kind: counters
    name: {en: Tokens}
    size: half-inch
    items:
      - {id: e, name: {en: E}, count: null, attrs: {type: p}}
      - {id: f, name: {en: F}, count: null, attrs: {type: p}}
      - {id: g, name: {en: G}, count: null, attrs: {type: p}}
      - {id: h, name: {en: H}, count: null, attrs: {type: q}}
      - {id: r, name: {en: R}, count: null, rest: true}
  - id: chips
    kind: counters
    name: {en: Chips}
    size: half-inch
    items:
      - {id: s, name: {en: S}, count: null, rest: true}
      - {id: t, name: {en: T}, count: null, rest: true}
"""
RULES = """\
steps: []
constraints:
  - id: nine-named
    require: owned(e) + owned(f) + owned(g) + owned(h) >= 9
    source: "rules 2"
  - id: four-r
    require: owned(r) >= 4
    source: "rules 3"
  - id: four-chips
    require: owned(s) + owned(t) >= 4
    source: "rules 4"
"""


def write(tmp_path: Path, gid: str, components: str, setup: str | None = None) -> Path:
    folder = tmp_path / gid
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.format(id=gid), encoding="utf-8")
    (folder / "components.yaml").write_text(components, encoding="utf-8")
    if setup is not None:
        (folder / "setup.yaml").write_text(setup, encoding="utf-8")
    return folder


def counts(folder: Path) -> dict[str, int]:
    result = propose(load_game(folder))
    assert not result.conflict
    return {p.item: p.count for p in result.proposals}


def test_a_shared_total_is_spread_over_the_component_then_within_each_type(tmp_path):
    folder = write(tmp_path, "stage-a", DECK)
    assert counts(folder) == {"a": 2, "b": 2, "c": 2, "d": 3}


def test_without_the_type_split_the_tie_break_gives_the_earliest_item_the_most(tmp_path):
    folder = write(tmp_path, "stage-a", DECK.replace("type: y", "type: x"))
    assert counts(folder) == {"a": 3, "b": 2, "c": 2, "d": 2}


def test_a_game_without_setup_is_proposed_and_checked(tmp_path, capsys):
    folder = write(tmp_path, "stage-a", DECK)
    assert main(["propose", str(folder)]) == 0
    data = yaml.safe_load((folder / "proposed.yaml").read_text(encoding="utf-8"))
    assert {p["item"]: p["count"] for p in data["proposals"]} == {"a": 2, "b": 2, "c": 2, "d": 3}
    assert all(p["bound_by"] == ["stated total 9 deck (rules 1: nine cards)"] for p in data["proposals"])
    game = load_game(folder)
    assert game.setup is None
    findings = check_proposals(game).findings
    assert sorted(f.message.split(":")[0] for f in findings if f.code == "proposed-count") == \
        ["deck/a", "deck/b", "deck/c", "deck/d"]
    assert not [f for f in findings if f.severity == "error"]
    objective = [f for f in findings if f.code == "proposal-objective"]
    assert len(objective) == 1 and objective[0].message == f"proposed.yaml objective: {data['objective']}"
    assert objective[0].source.endswith("proposed.yaml:4")  # the objective: line
    assert check_odds(game).findings == []
    capsys.readouterr()
    assert main(["check", str(folder), "--json"]) == 0
    # a proposal that breaks the stated total is an error even without setup models
    text = (folder / "proposed.yaml").read_text(encoding="utf-8")
    (folder / "proposed.yaml").write_text(text.replace("item: d\n    count: 3", "item: d\n    count: 4"), encoding="utf-8")
    errors = [f for f in check_proposals(load_game(folder)).findings if f.severity == "error"]
    assert [f.code for f in errors] == ["proposal-breaks-rules"]


def test_fewest_named_then_fewest_rest_then_each_spread_evenly(tmp_path):
    folder = write(tmp_path, "stage-b", TOKENS, RULES)
    assert counts(folder) == {"e": 2, "f": 2, "g": 2, "h": 3, "r": 4, "s": 2, "t": 2}


def test_the_rest_items_take_what_the_named_kinds_leave_of_a_stated_total(tmp_path):
    comps = TOKENS.replace("    size: half-inch\n    items:\n      - {id: e",
                           "    size: half-inch\n    stated_total: {value: 20, source: \"rules 5\"}\n    items:\n      - {id: e")
    folder = write(tmp_path, "stage-c", comps, RULES)
    assert counts(folder) == {"e": 2, "f": 2, "g": 2, "h": 3, "r": 11, "s": 2, "t": 2}


def test_nothing_to_propose_when_every_count_is_stated_and_a_warning_when_no_file_holds_them(tmp_path):
    counted = write(tmp_path, "counted", DECK.replace("count: null", "count: 3").replace("value: 9", "value: 12"))
    result = propose(load_game(counted))
    assert (result.proposals, result.conflict) == ([], [])
    assert check_proposals(load_game(counted)).findings == []
    uncounted = write(tmp_path, "stage-a", DECK)
    findings = check_proposals(load_game(uncounted)).findings
    assert [(f.severity, f.code) for f in findings] == [("warning", "counts-not-proposed")]
    assert "4 counts are unknown" in findings[0].message and "pnp propose stage-a" in findings[0].message


def test_a_lone_uncounted_item_takes_what_the_stated_total_leaves(tmp_path):
    deck = DECK.replace("{id: b, name: {en: B}, count: null", "{id: b, name: {en: B}, count: 3") \
        .replace("{id: c, name: {en: C}, count: null", "{id: c, name: {en: C}, count: 2") \
        .replace("{id: d, name: {en: D}, count: null", "{id: d, name: {en: D}, count: 1")
    assert counts(write(tmp_path, "lone", deck)) == {"a": 3}


def test_a_stale_proposal_is_reported_and_the_rest_still_read(tmp_path):
    """(A proposal for an item that does not exist never gets here: the loader refuses it at its line.)"""
    folder = write(tmp_path, "stage-a", DECK.replace("{id: d, name: {en: D}, count: null", "{id: d, name: {en: D}, count: 3"))
    entries = [("deck", "d", 3), ("deck", "a", 2), ("deck", "b", 2), ("deck", "c", 2)]
    (folder / "proposed.yaml").write_text('objective: "test"\nproposals:\n' + "".join(
        f"  - {{component: {c}, item: {i}, count: {n}, bound_by: []}}\n" for c, i, n in entries), encoding="utf-8")
    findings = check_proposals(load_game(folder)).findings
    assert [f.code for f in findings] == ["proposal-objective", "proposal-stale",
                                          "proposed-count", "proposed-count", "proposed-count"]
    assert [f.message.split(":")[0] for f in findings if f.code == "proposed-count"] == ["deck/a", "deck/b", "deck/c"]
    assert all("bound by: no rule" in f.message for f in findings if f.code == "proposed-count")


TWO_PILES = """\
components:
  - id: north
    kind: tokens
    name: {en: North}
    items:
      - {id: p, name: {en: P}, count: null}
  - id: south
    kind: tokens
    name: {en: South}
    items:
      - {id: q, name: {en: Q}, count: null}
  - id: spare
    kind: tokens
    name: {en: Spare}
    items:
      - {id: u, name: {en: U}, count: null, rest: true}
      - {id: v, name: {en: V}, count: null, rest: true}
"""
TWO_PILES_RULES = """\
steps: []
constraints:
  - {id: five-named, require: owned(p) + owned(q) >= 5, source: "rules 1"}
  - {id: five-spare, require: owned(u) + owned(v) >= 5, source: "rules 2"}
"""


def test_the_tie_break_orders_every_item_of_the_game_rest_items_too(tmp_path):
    """Stage D. p and q are each the first item of their own component, so no evenness stage
    weighs one against the other: fewest named gives p + q = 5, each at least 1, and only the
    tie-break decides: p, listed first in the game, takes 4. u and v are rest items: fewest rest
    gives u + v = 5, spread evenly 3 + 2, and the tie-break gives the 3 to u, listed first."""
    folder = write(tmp_path, "stage-d", TWO_PILES, TWO_PILES_RULES)
    assert counts(folder) == {"p": 4, "q": 1, "u": 3, "v": 2}
    # listed the other way round, the shares follow the listing
    swapped = TWO_PILES.replace("{id: u, name: {en: U}", "{id: w, name: {en: W}") \
        .replace("{id: v, name: {en: V}", "{id: u, name: {en: U}").replace("{id: w, name: {en: W}", "{id: v, name: {en: V}")
    north, south = swapped.index("  - id: north"), swapped.index("  - id: south")
    spare = swapped.index("  - id: spare")
    swapped = swapped[:north] + swapped[south:spare] + swapped[north:south] + swapped[spare:]
    (tmp_path / "swapped").mkdir()
    assert counts(write(tmp_path / "swapped", "stage-d", swapped, TWO_PILES_RULES)) == {"p": 1, "q": 4, "u": 2, "v": 3}


def test_a_stage_stopped_before_any_answer_keeps_the_stage_before_and_says_so(tmp_path, monkeypatch, capsys):
    """Stage B's game with the second stage (fewest rest) stopped by its time limit: the proposal
    is the first stage's answer (the fewest named kinds, 9, and every rule kept), and the command
    says which stage stopped instead of keeping a solve that found nothing."""
    import solver.counts.propose as propose_module
    folder = write(tmp_path, "stopped", TOKENS, RULES)
    monkeypatch.setattr(propose_module, "_solver", solvers_stopping_after(1, propose_module._solver))
    assert main(["propose", str(folder)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("stopped: warning: stage 2 of ") and "found no answer" in err[0]
    got = {p["item"]: p["count"] for p in yaml.safe_load((folder / "proposed.yaml").read_text())["proposals"]}
    assert got["e"] + got["f"] + got["g"] + got["h"] == 9 and got["r"] >= 4 and got["s"] + got["t"] >= 4
    assert all(got[k] >= 1 for k in "efgh")


def test_no_stage_with_an_answer_is_a_located_error(tmp_path, monkeypatch, capsys):
    import solver.counts.propose as propose_module
    folder = write(tmp_path, "none", TOKENS, RULES)
    monkeypatch.setattr(propose_module, "_solver", solvers_stopping_after(0, propose_module._solver))
    assert main(["propose", str(folder)]) == 2
    [err] = capsys.readouterr().err.strip().splitlines()
    assert err.startswith(str(folder / "components.yaml") + ":") and "no counts within 60 s" in err
    assert not (folder / "proposed.yaml").exists()
