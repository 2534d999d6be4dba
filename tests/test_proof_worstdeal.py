"""The worst deal (solver/proof/worstdeal.py) on a tiny guild game, against every deal enumerated
card by card: the most cards of each guild any deal gives is the least number of that guild's tokens
the box must hold, and each count is reported covered, short, or without any token at all.

Five role cards (iron ×3, cloth ×1, ink ×1), one dealt to each of 2-4 players; each player then takes
the token of their card's guild. The box has 3 iron tokens, no cloth token (a count of 0) and no ink
token kind at all. The optional rule `duel` is played at 2 players only.
"""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from gamefiles import line_of as line, write_game
from solver.game.loader import load_game
from solver.proof.checker import check_setup
from solver.proof.worstdeal import all_worst_deals, counts_text

ROLES = {"iron": 3, "cloth": 1, "ink": 1}
COMPONENTS = """\
components:
  - id: roles
    kind: deck
    name: {en: Roles}
    items:
      - {id: iron, count: 3, attrs: {guild: iron}}
      - {id: cloth, count: 1, attrs: {guild: cloth}}
      - {id: ink, count: 1, attrs: {guild: ink}}
  - id: tokens
    kind: tokens
    name: {en: Tokens}
    items:
      - {id: iron-token, count: 3, attrs: {guild: iron}}
      - {id: cloth-token, count: 0, attrs: {guild: cloth}}
"""
SETUP = """\
variants:
  - {id: duel, name: {en: Duel}, player_counts: [2]}
steps:
  - use: roles
  - shuffle: roles
  - deal: roles
    each: 1
    hand: false
  - give: tokens
    match: {guild: roles}
  - return_rest: tokens
"""
PLAYERS = (2, 3, 4)


def most_of_each_guild(players: int) -> dict[str, int]:
    """Every deal of one card to each player, card by card: the most cards of each guild."""
    cards = [g for g, n in ROLES.items() for _ in range(n)]
    most = dict.fromkeys(ROLES, 0)
    for hand in itertools.combinations(range(len(cards)), players):
        per = Counter(cards[i] for i in hand)
        for g in ROLES:
            most[g] = max(most[g], per[g])
    return most


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(write_game(tmp_path_factory.mktemp("wd") / "guilds", {
        "game.yaml": "id: guilds\ntitle: {en: Guilds}\nplayers: {min: 2, max: 4}\nsource_language: en\n",
        "components.yaml": COMPONENTS, "setup.yaml": SETUP}))


def test_the_worst_deal_of_every_guild_is_the_brute_force_maximum(game):
    deals = all_worst_deals(game)
    runs = [(n, None) for n in PLAYERS] + [(2, "duel")]
    assert sorted((d.players, d.variant or "", d.value) for d in deals) == sorted(
        (n, v or "", g) for n, v in runs for g in ROLES)
    for d in deals:
        assert d.need == most_of_each_guild(d.players)[d.value], (d.players, d.variant, d.value)
        # the example deal is one that gives that many cards of the guild, and only of it
        assert sum(d.deal.values()) == d.need and {k[1] for k in d.deal} <= {d.value}
        assert d.exact and d.pile == "roles" and d.attr == "guild"
        assert d.items == ([("tokens", f"{d.value}-token")] if d.value != "ink" else [])


def test_each_guilds_tokens_are_covered_short_or_missing(game):
    found = sorted((f.code, f.severity, f.message, f.source.split("guilds/")[-1], f.player_counts)
                   for f in check_setup(game).findings if f.code.startswith("worst-deal"))
    step = "step 'give tokens' takes the tokens of that guild for each card"
    base = {
        "iron": "3, 4 players: a deal can give 3 roles of guild iron (iron×3)",
        "cloth": "2-4 players: a deal can give 1 roles of guild cloth (cloth×1)",
        "ink": "2-4 players: a deal can give 1 roles of guild ink (ink×1)",
    }
    duel = {g: f"variant duel, 2 players: a deal can give {n} roles of guild {g} ({g}×{n})"
            for g, n in most_of_each_guild(2).items()}
    iron = f"components.yaml:{line(COMPONENTS, 'id: iron-token')}"
    cloth = f"components.yaml:{line(COMPONENTS, 'id: cloth-token')}"
    match = f"setup.yaml:{line(SETUP, 'match:')}"
    assert found == sorted([
        ("worst-deal-covered", "info", f"iron-token ×3 covers every deal (CP-SAT maximum over the deals: 3; "
                                       f"{base['iron']}; {step})", iron, [2, 3, 4]),
        ("worst-deal-covered", "info", f"variant duel: iron-token ×3 covers every deal (CP-SAT maximum over the "
                                       f"deals: 2; {duel['iron']}; {step})", iron, [2]),
        ("worst-deal-short", "error", f"cloth-token ×0 does not cover every deal: {base['cloth']}; {step}; "
                                      "1 short; count at least 1", cloth, [2, 3, 4]),
        ("worst-deal-short", "error", f"variant duel: cloth-token ×0 does not cover every deal: {duel['cloth']}; "
                                      f"{step}; 1 short; count at least 1", cloth, [2]),
        # no ink token kind exists: dealing the ink card is a deal the setup cannot serve
        ("worst-deal-no-item", "error", f"no item of tokens has guild ink, but {base['ink']}; {step}", match,
         [2, 3, 4]),
        ("worst-deal-no-item", "error", f"variant duel: no item of tokens has guild ink, but {duel['ink']}; {step}",
         match, [2]),
    ])


@pytest.mark.parametrize("counts, text", [
    ([3], "3 players"), ([1], "1 player"), ([2, 3], "2, 3 players"), ([4, 2, 3], "2-4 players"),
    ([2, 3, 5], "2, 3, 5 players"), ([7, 8, 9, 7], "7-9 players"), ([1, 2], "1, 2 players")])
def test_player_counts_read_as_a_range_only_when_three_or_more_follow_on(counts, text):
    assert counts_text(counts) == text


def test_counts_where_no_step_matches_have_no_worst_deal(tmp_path):
    """The tokens are handed out only from 3 players on: no worst deal at 2. A game with no matching
    step, or no setup at all, has none anywhere."""
    folder = tmp_path / "late"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: late\ntitle: {en: Late}\nplayers: {min: 2, max: 4}\n"
                                      "source_language: en\n", encoding="utf-8")
    (folder / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    late = SETUP.replace("    match: {guild: roles}\n", "    match: {guild: roles}\n    when: players >= 3\n")
    (folder / "setup.yaml").write_text(late, encoding="utf-8")
    deals = all_worst_deals(load_game(folder))
    assert sorted({(d.players, d.variant) for d in deals}) == [(3, None), (4, None)]
    for d in deals:
        assert d.need == most_of_each_guild(d.players)[d.value]
    plain = SETUP.replace("  - give: tokens\n    match: {guild: roles}\n", "")
    (folder / "setup.yaml").write_text(plain, encoding="utf-8")
    assert all_worst_deals(load_game(folder)) == []
    (folder / "setup.yaml").unlink()
    assert all_worst_deals(load_game(folder)) == []


def test_deals_group_by_guild_and_apart_by_optional_rule(game):
    from solver.proof.worstdeal import by_key

    deals = all_worst_deals(game)
    keys = by_key(deals)
    assert sorted(keys) == [("tokens", "guild", g) for g in sorted(ROLES)]
    assert all(sorted((d.players, d.variant or "") for d in runs) == [(2, ""), (2, "duel"), (3, ""), (4, "")]
               for runs in keys.values())
    apart = by_key(deals, per_variant=True)
    assert sorted(apart) == sorted(("tokens", "guild", g, v) for g in ROLES for v in ("", "duel"))


def test_a_guild_whose_cards_are_not_counted_cannot_be_proved(tmp_path):
    folder = tmp_path / "uncounted"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: uncounted\ntitle: {en: Uncounted}\nplayers: {min: 2, max: 4}\n"
                                      "source_language: en\n", encoding="utf-8")
    components = COMPONENTS.replace("{id: cloth, count: 1,", "{id: cloth, count: null,")
    (folder / "components.yaml").write_text(components, encoding="utf-8")
    (folder / "setup.yaml").write_text(SETUP, encoding="utf-8")
    found = [(f.code, f.message, f.source.split("uncounted/")[-1]) for f in check_setup(load_game(folder)).findings
             if f.code == "worst-deal-unproven"]
    text = ("cloth-token: the cards of roles have counts the sources do not give, so the most a deal can ask "
            "is not known; state them")
    where = f"components.yaml:{line(components, 'id: cloth-token')}"
    assert sorted(found) == [("worst-deal-unproven", text, where), ("worst-deal-unproven", f"variant duel: {text}", where)]


def test_a_card_no_deal_can_give_needs_no_item(tmp_path):
    """The one wax role card is placed on the table after the deal (count: 1), so no deal may take it: no wax token is
    needed, and none is missing."""
    folder = tmp_path / "wax"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: wax\ntitle: {en: Wax}\nplayers: {min: 2, max: 4}\n"
                                      "source_language: en\n", encoding="utf-8")
    components = COMPONENTS.replace("      - {id: ink,", "      - {id: wax, count: 1, attrs: {guild: wax}}\n"
                                    "      - {id: old-iron, count: 1, attrs: {guild: iron}}\n      - {id: ink,")
    (folder / "components.yaml").write_text(components, encoding="utf-8")
    # the old iron card goes back to the box before the shuffle
    setup = SETUP.replace("  - use: roles\n", "  - remove: {component: roles, items: [old-iron]}\n  - use: roles\n")
    (folder / "setup.yaml").write_text(setup + "  - place: roles\n    items: [wax]\n    count: 1\n", encoding="utf-8")
    game = load_game(folder)
    deals = all_worst_deals(game)
    assert {d.need for d in deals if d.value == "wax"} == {0}
    # the most iron a deal gives is the three iron cards: the old one is never dealt, nor named
    assert {(d.need, tuple(d.deal)) for d in deals if d.value == "iron" and d.players >= 3} == {
        (3, (("roles", "iron"),))}
    findings = check_setup(game).findings
    assert not [f for f in findings if f.code.startswith("worst-deal") and "wax" in f.message]
    assert [f.code for f in findings if f.code.startswith("worst-deal") and " ink" in f.message] == [
        "worst-deal-no-item", "worst-deal-no-item"]


def test_steps_no_deal_can_carry_out_are_errors_not_a_crash(tmp_path):
    """After every token went back to the box, a step places five of them from the table: no deal
    helps. The setup proof names the step; the worst deal has nothing to maximise (it used to stop
    `pnp check` with a traceback)."""
    folder = tmp_path / "stuck"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: stuck\ntitle: {en: Stuck}\nplayers: {min: 2, max: 3}\n"
                                      "source_language: en\n", encoding="utf-8")
    (folder / "components.yaml").write_text(COMPONENTS, encoding="utf-8")
    setup = SETUP + "  - place: tokens\n    count: 5\n"
    (folder / "setup.yaml").write_text(setup, encoding="utf-8")
    game = load_game(folder)
    assert all_worst_deals(game) == []
    errors = [f for f in check_setup(game).findings if f.severity == "error"]
    assert {f.code for f in errors} == {"setup-infeasible"}
    assert {f.source.rsplit("/", 1)[-1] for f in errors} == {f"setup.yaml:{line(setup, 'place: tokens')}"}
    assert sorted(n for f in errors for n in f.player_counts) == [2, 2, 3]  # base 2-3, the duel at 2


def test_each_player_takes_exactly_the_token_of_their_card_for_every_deal(tmp_path):
    """With a token for every card (3 iron, 1 cloth, 1 ink) and an amber card sent back to the box
    before the deal (amber has no token), the setup proof shows for every deal that the tokens given
    of each guild are the cards dealt of it."""
    from solver.engine.run import run_setup
    from solver.proof.checker import prove_player_count

    folder = tmp_path / "exact"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: exact\ntitle: {en: Exact}\nplayers: {min: 2, max: 4}\n"
                                      "source_language: en\n", encoding="utf-8")
    components = (COMPONENTS.replace("      - {id: ink,", "      - {id: amber, count: 1, attrs: {guild: amber}}\n"
                                     "      - {id: ink,")
                  .replace("{id: cloth-token, count: 0,", "{id: cloth-token, count: 1,")
                  + "      - {id: ink-token, count: 1, attrs: {guild: ink}}\n"
                  + "      - {id: gold-token, count: 2, attrs: {guild: gold}}\n")  # no gold card: none given
    (folder / "components.yaml").write_text(components, encoding="utf-8")
    rules = "".join(f"  - id: {g}-given\n    require: placed({g}-token) == dealt({g})\n" for g in ROLES)
    rules += "  - id: no-gold\n    require: placed(gold-token) == 0\n"
    setup = SETUP.replace("  - use: roles\n", "  - remove: {component: roles, items: [amber]}\n  - use: roles\n")
    (folder / "setup.yaml").write_text(setup + "constraints:\n" + rules, encoding="utf-8")
    game = load_game(folder)
    for n in PLAYERS:
        v = prove_player_count(game, run_setup(game, n))
        assert v.feasible and v.rules == 4 and v.can_fail == [] and v.unproven == [], n


def test_a_game_is_solved_once_and_an_edited_game_anew(tmp_path, monkeypatch):
    """The setup proof, the proposals' check and their joint model all ask for a game's worst deals:
    the same game object is solved once (no CP-SAT call the second time); the game loaded again
    after an edit (a fourth iron card) is solved anew and gives the new brute-force maximum."""
    import solver.proof.worstdeal as wd

    files = {"game.yaml": "id: guilds\ntitle: {en: Guilds}\nplayers: {min: 2, max: 4}\nsource_language: en\n",
             "components.yaml": COMPONENTS, "setup.yaml": SETUP}
    folder = write_game(tmp_path / "guilds", files)
    first = load_game(folder)
    solves: list[int] = []
    solving = wd.solve
    monkeypatch.setattr(wd, "solve", lambda *a, **k: (solves.append(1), solving(*a, **k))[1])
    before = [(d.players, d.variant, d.value, d.need) for d in all_worst_deals(first)]
    asked = len(solves)
    assert asked == len(before) == 4 * len(ROLES)  # one maximum per guild and run
    assert [(d.players, d.variant, d.value, d.need) for d in all_worst_deals(first)] == before
    assert len(solves) == asked
    (folder / "components.yaml").write_text(COMPONENTS.replace("{id: iron, count: 3", "{id: iron, count: 4"),
                                            encoding="utf-8")
    edited = {(d.players, d.variant, d.value): d.need for d in all_worst_deals(load_game(folder))}
    assert len(solves) == 2 * asked
    assert edited[(4, None, "iron")] == 4 and {(n, v, g): need for n, v, g, need in before}[(4, None, "iron")] == 3


def test_the_deals_of_a_game_that_is_gone_are_not_kept(game, tmp_path):
    """A process that checks game after game (`pnp serve` reloading an edited game) keeps no worst
    deal of a game it no longer holds."""
    import gc
    import weakref

    gone = load_game(write_game(tmp_path / "guilds", {
        "game.yaml": "id: guilds\ntitle: {en: Guilds}\nplayers: {min: 2, max: 4}\nsource_language: en\n",
        "components.yaml": COMPONENTS, "setup.yaml": SETUP}))
    deals = all_worst_deals(gone)
    kept = all_worst_deals(game)
    refs = [weakref.ref(d) for d in deals]
    del gone, deals
    gc.collect()
    assert refs and all(r() is None for r in refs)
    assert all_worst_deals(game) == kept  # the module's game, still held, keeps its own
