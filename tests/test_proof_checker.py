"""`pnp check`'s setup proof (solver/proof/checker.py) on two tiny hand-made games, every expectation
worked out by hand from the data below: which copies stay in the box, which choice is valid, which
`face:` names a side the pieces lack, the per-attribute totals, and what a rule over unknown counts says.

Tiny: 2-3 players. Two of the three red gems are placed; the optional rule `rich` (3 players only)
puts every other gem in the supply; the first player chooses one fighter to place wounded side up; the
caster is placed face `wounded` (it has no such side: only `spell`) and a banner face `flag` (only the
other banner has it). The rulebook (2 copies) is never mentioned.
"""
from __future__ import annotations

import pytest

from gamefiles import line_of, write_game as write
from solver.game.loader import load_game
from solver.proof.checker import check_setup

TINY_GAME = """\
id: tiny
title: {en: Tiny}
players: {min: 2, max: 3}
source_language: en
"""

TINY_COMPONENTS = """\
components:
  - id: rulebook
    kind: booklet
    name: {en: Rulebook}
    count: 2
  - id: banners
    kind: counters
    name: {en: Banners}
    items:
      - {id: flag-a, front: {attrs: {face: flag}}}
      - {id: flag-b}
  - id: gems
    kind: tokens
    name: {en: Gems}
    items:
      - {id: red-gem, count: 3, attrs: {colour: red, value: 1, shiny: true, size: small}}
      - {id: blue-gem, count: 2, attrs: {colour: blue, value: 2, shiny: false, size: small}}
      - {id: green-gem, count: 1, attrs: {colour: green, value: 1, size: small}}
  - id: coins
    kind: tokens
    name: {en: Coins}
    items:
      - {id: coin-1, count: 2, attrs: {v: 1}}
      - {id: coin-2, count: 2, attrs: {v: 2}}
  - id: heroes
    kind: counters
    name: {en: Heroes}
    items:
      - {id: knight, attrs: {kind: fighter}, front: {attrs: {face: hero}}, back: {attrs: {face: wounded}}}
      - {id: archer, attrs: {kind: fighter}, front: {attrs: {face: hero}}, back: {attrs: {face: wounded}}}
      - {id: mage, attrs: {kind: caster}, front: {attrs: {face: spell}}}
"""

TINY_SETUP = """\
sides:
  - {id: first, name: {en: the first player}}
variants:
  - {id: rich, name: {en: Rich start}, player_counts: [3]}
steps:
  - place: gems
    where: {colour: red}
    count: 2
  - supply: gems
    when: variant('rich')
  - place: heroes
    where: {kind: fighter}
    count: 1
    chosen_by: first
    face: wounded
  - place: heroes
    where: {kind: caster}
    face: wounded
  - place: banners
    items: [flag-b]
    face: flag
  - place: banners
    items: [flag-a]
    face: down
  - return_rest: gems
  - return_rest: heroes
  - use: coins
  - shuffle: coins
  - set_aside: coins
    count: 1
    when: players == 2
constraints:
  - id: two-gems
    kind: at_least
    of: {component: gems, zone: in_play}
    value: 2
  - id: few-heroes
    kind: at_most
    of: {component: heroes, zone: in_play}
    value: 2
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = write(tmp_path_factory.mktemp("tiny") / "tiny", {
        "game.yaml": TINY_GAME, "components.yaml": TINY_COMPONENTS, "setup.yaml": TINY_SETUP})
    return check_setup(load_game(folder))


def by_code(result, code: str) -> list:
    return [f for f in result.findings if f.code == code]


def test_a_component_the_setup_never_mentions_stays_in_the_box_at_every_count(tiny):
    found = by_code(tiny, "not-in-setup")
    # base setup at 2 and 3 players (one finding, both counts), the optional rule at 3 (its own)
    assert sorted((f.message, f.player_counts) for f in found) == [
        ("rulebook: the setup never mentions these 2 copies; they stay in the box", [2, 3]),
        ("variant rich: rulebook: the setup never mentions these 2 copies; they stay in the box", [3]),
    ]
    line = line_of(TINY_COMPONENTS, "- id: rulebook")
    assert {f.source.rsplit("/", 1)[-1] for f in found} == {f"components.yaml:{line}"}
    assert {f.severity for f in found} == {"info"}


def test_every_count_and_the_optional_rule_are_proven_with_both_rules(tiny):
    proven = by_code(tiny, "setup-proven")
    assert sorted(f.player_counts for f in proven) == [[2, 3], [3]]
    for f in proven:
        assert "2 of 2 rule(s) hold for every deal" in f.message
    [variant] = [f for f in proven if f.player_counts == [3]]
    assert variant.message.startswith("variant rich: CP-SAT proof:")
    assert not [f for f in tiny.findings if f.severity == "error"]
    assert not by_code(tiny, "rule-can-fail") and not by_code(tiny, "rule-unproven")


def test_a_choice_names_who_chooses_and_a_valid_choice(tiny):
    base = [f for f in by_code(tiny, "choice-valid") if not f.message.startswith("variant ")]
    assert sorted(n for f in base for n in f.player_counts) == [2, 3]
    for choice in base:
        assert choice.message.startswith("step 'place heroes")
        assert "is chosen by the first player" in choice.message
        # only a fighter can be taken, one of them: knight or archer, once
        example = choice.message.split("(e.g. ")[1].split(")")[0]
        assert example in ("knight×1", "archer×1")
        assert "free here" not in choice.message  # every count is known
        assert choice.source.rsplit("/", 1)[-1] == f"setup.yaml:{line_of(TINY_SETUP, 'chosen_by') - 3}"


def test_a_face_the_pieces_do_not_have_is_a_warning_naming_the_faces_they_have(tiny):
    faces = by_code(tiny, "setup-face-unknown")
    # (line, the step's component, the rest of the message): the step's label is the engine's
    got = sorted((f.source.rsplit("/", 1)[-1], f.message.split("'")[1].split()[1], f.message.split("' ", 1)[1])
                 for f in faces)
    caster = line_of(TINY_SETUP, "where: {kind: caster}") + 1
    banner = line_of(TINY_SETUP, "face: flag")
    assert got == sorted([
        (f"setup.yaml:{caster}", "heroes",
         "turns face 'wounded' up, but its pieces have no such side; use one of: up, down, front, back, spell"),
        (f"setup.yaml:{banner}", "banners",
         "turns face 'flag' up, but its pieces have no such side; use one of: up, down, front, back"),
    ])
    assert {f.severity for f in faces} == {"warning"}


def test_attribute_totals_count_copies_per_value_owned_and_in_play(tiny):
    totals = tiny.derived["totals"]
    # banners have no attributes, the rulebook no items; a true/false or single-valued attribute is no tally
    assert sorted(totals) == ["coins", "gems", "heroes"]
    gems = totals["gems"]
    assert gems["owned"] == {"colour": {"blue": 2, "green": 1, "red": 3}, "value": {"1": 4, "2": 2}}
    # only the base setup's counts; two red gems placed at each
    assert gems["in_play"] == {n: {"colour": {"blue": 0, "green": 0, "red": 2}, "value": {"1": 2, "2": 0}}
                               for n in ("2", "3")}
    # which coin is set aside at 2 players is chance: no tally there; at 3 all four stay in play
    assert totals["coins"] == {"owned": {"v": {"1": 2, "2": 2}}, "in_play": {"3": {"v": {"1": 2, "2": 2}}}}
    heroes = totals["heroes"]
    assert heroes["owned"] == {"kind": {"caster": 1, "fighter": 2}}
    assert heroes["in_play"] == {n: {"kind": {"caster": 1, "fighter": 1}} for n in ("2", "3")}


UNK_GAME = """\
id: unk
title: {en: Unknown counts}
players: {min: 2, max: 2}
source_language: en
"""

UNK_SETUP = """\
sides:
  - {id: lead, name: {ja: 親}}
steps:
  - use: cards
  - shuffle: cards
  - deal: cards
    each: 1
    hand: false
  - place: pawns
    where: {c: a}
    count: 1
    chosen_by: lead
  - return_rest: cards
constraints:
  - id: two-plain-dealt
    kind: at_least
    of: {component: cards, zone: dealt, where: {suit: plain}}
    value: 2
  - id: wild-dealt
    kind: at_most
    of: {component: cards, zone: dealt, where: {suit: wild}}
    value: 1
"""


def unk_components(wild: int) -> str:
    rows = "\n".join(f"      - {{id: wild-{i}, count: null, attrs: {{suit: wild}}}}" for i in range(wild))
    return f"""\
components:
  - id: cards
    kind: deck
    name: {{en: Cards}}
    items:
      - {{id: plain, count: 4, attrs: {{suit: plain}}}}
{rows}
  - id: pawns
    kind: pieces
    name: {{en: Pawns}}
    items:
      - {{id: pawn-a, count: null, attrs: {{c: a}}}}
      - {{id: pawn-b, count: 1, attrs: {{c: b}}}}
"""


@pytest.mark.parametrize("wild", [6, 7])
def test_a_rule_over_unknown_counts_is_unproven_and_names_them(tmp_path, wild):
    folder = write(tmp_path / "unk", {"game.yaml": UNK_GAME, "components.yaml": unk_components(wild),
                                      "setup.yaml": UNK_SETUP})
    result = check_setup(load_game(folder))
    # two plain cards are dealt only if no wild card is, and wild cards may exist: some deal breaks it
    [can_fail] = by_code(result, "rule-can-fail")
    assert can_fail.message.startswith("rule 'two-plain-dealt' (dealt(cards suit=plain) >= 2) fails for some deals")
    [unproven] = by_code(result, "rule-unproven")
    names = ", ".join(f"wild-{i}" for i in range(6)) + (" …" if wild > 6 else "")
    assert unproven.message == (
        f"rule 'wild-dealt' (dealt(cards suit=wild) <= 1) cannot be proved: it counts {names}, whose counts "
        "the sources do not give, and some counts would break it; find the counts or record them as assumptions")
    assert unproven.severity == "warning" and unproven.player_counts == [2]
    assert unproven.source.rsplit("/", 1)[-1] == f"setup.yaml:{line_of(UNK_SETUP, '- id: wild-dealt')}"
    [proven] = by_code(result, "setup-proven")
    assert "0 of 2 rule(s)" in proven.message  # one can fail, one is unproven
    # the only pawn that can be chosen has no stated count; a side named only in Japanese
    [choice] = by_code(result, "choice-valid")
    assert "is chosen by 親:" in choice.message
    assert "(e.g. pawn-a×1; counts the sources do not give are free here)" in choice.message
    # with unknown counts there is nothing to tally, and no engine/model comparison to make
    assert result.derived["totals"] == {}
    assert not [f for f in result.findings if f.severity == "error"]


def test_a_model_that_disagrees_with_the_engine_is_an_error_naming_both_totals(tmp_path, monkeypatch):
    """The safety net between two countings: fed a verdict whose in-play total is one too many, the
    checker says so for known counts, and stays silent where counts are unknown (nothing to compare)."""
    import solver.proof.checker as checker

    real = checker.prove_player_count

    def one_too_many(game, res):
        verdict = real(game, res)
        if verdict.feasible:
            first = sorted(verdict.totals["in_play"])[0]
            verdict.totals["in_play"][first] += 1
        return verdict

    monkeypatch.setattr(checker, "prove_player_count", one_too_many)
    folder = write(tmp_path / "tiny", {"game.yaml": TINY_GAME, "components.yaml": TINY_COMPONENTS,
                                       "setup.yaml": TINY_SETUP})
    found = by_code(check_setup(load_game(folder)), "engine-model-mismatch")
    # in play: two flags, two gems, two heroes and the coins (3 at 2 players, 4 at 3)
    assert sorted((f.severity, f.message, f.player_counts) for f in found) == [
        ("error", "in_play: engine counts 10, CP-SAT model 11", [3]),
        ("error", "in_play: engine counts 9, CP-SAT model 10", [2]),
        ("error", "variant rich: in_play: engine counts 14, CP-SAT model 15", [3]),
    ]
    folder = write(tmp_path / "unk", {"game.yaml": UNK_GAME, "components.yaml": unk_components(1),
                                      "setup.yaml": UNK_SETUP})
    assert not by_code(check_setup(load_game(folder)), "engine-model-mismatch")


def test_a_game_without_a_setup_has_nothing_to_prove(tmp_path):
    folder = write(tmp_path / "bare", {"game.yaml": TINY_GAME, "components.yaml": TINY_COMPONENTS})
    result = check_setup(load_game(folder))
    assert result.findings == [] and result.derived == {} and result.player_counts == {}


def test_a_long_choice_shows_eight_kinds_and_counts_unknown_elsewhere_do_not_matter(tmp_path):
    """Nine one-copy tokens, all nine chosen: the example lists the first eight and an ellipsis. An
    item whose count is not given, but which the choice does not take, changes nothing."""
    tokens = "\n".join(f"      - {{id: t{i}, count: 1}}" for i in range(1, 10))
    components = ("components:\n  - id: tokens\n    kind: tokens\n    name: {en: Tokens}\n    items:\n" + tokens +
                  "\n  - id: extra\n    kind: tokens\n    name: {en: Extra}\n    items:\n"
                  "      - {id: mystery, count: null}\n      - {id: known, count: 1}\n")
    setup = ("sides:\n  - {id: first, name: {en: the first player}}\nsteps:\n"
             "  - place: tokens\n    count: 9\n    chosen_by: first\n")
    game = TINY_GAME.replace("max: 3", "max: 2")
    folder = write(tmp_path / "many", {"game.yaml": game, "components.yaml": components, "setup.yaml": setup})
    [choice] = by_code(check_setup(load_game(folder)), "choice-valid")
    listed = ", ".join(f"t{i}×1" for i in range(1, 9))
    assert f"(e.g. {listed} …)" in choice.message


def test_attribute_tallies_leave_out_long_lists_and_chance_and_keep_zero_counts(tmp_path):
    """41 numbered tiles (41 values of `n`: no tally; parity: 21 even, 20 odd), a gem kind of which
    the box has none (a 0 in the tally), and beads combined into a pouch one of which is set aside
    unseen (which kinds stay is chance: no in-play tally)."""
    numbers = "\n".join(f"      - {{id: n{i}, count: 1, attrs: {{n: {i}, parity: {'odd' if i % 2 else 'even'}}}}}"
                        for i in range(41))
    components = f"""\
components:
  - id: numbers
    kind: tiles
    name: {{en: Numbers}}
    items:
{numbers}
  - id: gems
    kind: tokens
    name: {{en: Gems}}
    items:
      - {{id: ruby, count: 2, attrs: {{colour: red}}}}
      - {{id: onyx, count: 0, attrs: {{colour: black}}}}
  - id: beads
    kind: tokens
    name: {{en: Beads}}
    items:
      - {{id: b1, count: 1, attrs: {{tone: light}}}}
      - {{id: b2, count: 1, attrs: {{tone: dark}}}}
"""
    setup = """\
steps:
  - place: numbers
  - place: gems
  - combine: [beads]
    into: pouch
  - shuffle: pouch
  - set_aside: pouch
    count: 1
"""
    game = TINY_GAME.replace("max: 3", "max: 2")
    folder = write(tmp_path / "tally", {"game.yaml": game, "components.yaml": components, "setup.yaml": setup})
    totals = check_setup(load_game(folder)).derived["totals"]
    assert totals == {
        "numbers": {"owned": {"parity": {"even": 21, "odd": 20}},
                    "in_play": {"2": {"parity": {"even": 21, "odd": 20}}}},
        "gems": {"owned": {"colour": {"black": 0, "red": 2}}, "in_play": {"2": {"colour": {"black": 0, "red": 2}}}},
        "beads": {"owned": {"tone": {"dark": 1, "light": 1}}, "in_play": {}},
    }
