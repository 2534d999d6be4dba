"""What `pnp propose` says binds each count, and the smaller promises of solver/counts/propose.py,
each on a small original game written here; every expected count is worked out by hand (or, for
the deals, by enumerating every deal) in the test's docstring.

The market: goods grain, salt, spice (named) and two groups of rest tokens, 2-3 players, and an
optional rule "feast". Setup: use the goods (a move with no amount), return 2 grain to the box
(2 of each listed item), place `players` salt (a total, with a source), and two rules citing no
source: 4 rubies; 5 grain when the feast is played.
  grain: 5 (only the feast's rule asks more than the 2 returned); salt: 3 (at 3 players);
  spice: 1 (nothing binds a named kind, which exists at least once); ruby: 4;
  copper, silver, jade: 0 (nothing binds a rest item, not even its group's evenness).
"""
from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import yaml

from gamefiles import line_of as text_line, write_game
from generator.cli import main
from solver.counts.propose import check_proposals, propose
from solver.game.loader import load_game
from solver.game.proposals import NO_RULE_NAMED, NO_RULE_REST

GAME = """\
id: {id}
title: {{en: {id}}}
players: {{min: {lo}, max: {hi}}}
source_language: en
languages: [en]
"""
MARKET = """\
components:
  - id: goods
    kind: counters
    name: {en: Goods}
    size: half-inch
    items:
      - {id: grain, name: {en: Grain}, count: null}
      - {id: salt, name: {en: Salt}, count: null}
      - {id: spice, name: {en: Spice}, count: null}
  - id: coins
    kind: tokens
    name: {en: Coins}
    items:
      - {id: copper, name: {en: Copper}, count: null, rest: true}
      - {id: silver, name: {en: Silver}, count: null, rest: true}
  - id: gems
    kind: tokens
    name: {en: Gems}
    items:
      - {id: ruby, name: {en: Ruby}, count: null, rest: true}
      - {id: jade, name: {en: Jade}, count: null, rest: true}
"""
MARKET_SETUP = """\
variants:
  - id: feast
    name: {en: Feast}
steps:
  - use: goods
  - remove: {component: goods, items: [grain], each: 2}
  - place: goods
    items: [salt]
    count: players
    on: table
    source: "ルール 3: 手番の数だけ塩"
constraints:
  - id: rubies
    require: owned(ruby) >= 4
  - id: feast-grain
    require: owned(grain) >= 5
    when: variant('feast')
"""


def write(tmp_path: Path, gid: str, components: str, setup: str | None = None, players=(2, 3)) -> Path:
    files = {"game.yaml": GAME.format(id=gid, lo=players[0], hi=players[1]), "components.yaml": components}
    return write_game(tmp_path / gid, files | ({"setup.yaml": setup} if setup is not None else {}))


def line_of(folder: Path, name: str, text: str) -> int:
    """The 1-based line of `name` that holds `text` (read from the file, not from the loader)."""
    return text_line((folder / name).read_text(encoding="utf-8"), text)


def test_market_counts_and_what_binds_each(tmp_path):
    folder = write(tmp_path, "market", MARKET, MARKET_SETUP)
    result = propose(load_game(folder))
    assert not result.conflict
    assert {p.item: p.count for p in result.proposals} == \
        {"grain": 5, "salt": 3, "spice": 1, "copper": 0, "silver": 0, "ruby": 4, "jade": 0}
    bound = {p.item: p.bound_by for p in result.proposals}
    remove_at = line_of(folder, "setup.yaml", "- remove:")
    rubies_at = line_of(folder, "setup.yaml", "- id: rubies")
    feast_at = line_of(folder, "setup.yaml", "- id: feast-grain")
    # a step or rule that cites no source is named by its line; `use` (every copy, no amount) binds nothing
    assert bound["grain"] == [f"step 'remove goods items=['grain'] ×2' ({folder / 'setup.yaml'}:{remove_at})",
                              f"rule 'feast-grain' (owned(grain) >= 5; {folder / 'setup.yaml'}:{feast_at})"]
    assert bound["salt"] == ["step 'place goods' (ルール 3: 手番の数だけ塩)"]
    assert bound["ruby"] == [f"rule 'rubies' (owned(ruby) >= 4; {folder / 'setup.yaml'}:{rubies_at})"]
    assert bound["spice"] == [NO_RULE_NAMED]
    assert bound["copper"] == bound["silver"] == bound["jade"] == [NO_RULE_REST]


def test_the_proposal_file_keeps_non_ascii_text_readable(tmp_path, capsys):
    folder = write(tmp_path, "market", MARKET, MARKET_SETUP)
    assert main(["propose", str(folder)]) == 0
    text = (folder / "proposed.yaml").read_text(encoding="utf-8")
    assert "ルール 3: 手番の数だけ塩" in text and "\\u" not in text
    data = yaml.safe_load(text)
    salt = next(p for p in data["proposals"] if p["item"] == "salt")
    assert salt["bound_by"] == ["step 'place goods' (ルール 3: 手番の数だけ塩)"]


DECK = """\
components:
  - id: deck
    kind: deck
    name: {en: Deck}
    size: poker
    stated_total: {value: 9, source: "rules 1"}
    items:
      - {id: blank, name: {en: Blank}, count: 0}
      - {id: a, name: {en: A}, count: null}
      - {id: b, name: {en: B}, count: null}
      - {id: c, name: {en: C}, count: null}
"""


def test_a_kind_stated_as_none_leaves_the_whole_total_to_the_others(tmp_path):
    """No setup.yaml: 0 blanks + a + b + c = 9, spread evenly: 3 each."""
    folder = write(tmp_path, "blanks", DECK)
    assert {p.item: p.count for p in propose(load_game(folder)).proposals} == {"a": 3, "b": 3, "c": 3}


# ---------------------------------------------------------------- the worst deal
ROLES = {"iron": {"smith": 2, "miner": 2}, "cloth": {"weaver": 3}, "ink": {"scribe": 2}}
GUILD_SETUP = """\
steps:
  - use: role-cards
  - shuffle: role-cards
  - deal: role-cards
    each: 1
    hand: false
  - return_rest: role-cards
  - give: guild-tokens
    match: {guild: role-cards}
  - return_rest: guild-tokens
"""


def guild_components(tokens: list[tuple[str, str, int | None]]) -> str:
    roles = "".join(f"      - {{id: {role}, name: {{en: {role}}}, count: {n}, attrs: {{guild: {guild}}}}}\n"
                    for guild, rs in ROLES.items() for role, n in rs.items())
    toks = "".join(f"      - {{id: {tid}, name: {{en: {tid}}}, count: {'null' if n is None else n}, "
                   f"attrs: {{guild: {guild}}}}}\n" for tid, guild, n in tokens)
    return ("components:\n  - id: role-cards\n    kind: deck\n    name: {en: Roles}\n    size: poker\n"
            f"    items:\n{roles}  - id: guild-tokens\n    kind: tokens\n    name: {{en: Tokens}}\n    items:\n{toks}")


def most_dealt(players: int) -> dict[str, int]:
    """Every deal of one role card to each player, enumerated: the most cards of each guild."""
    cards = [guild for guild, rs in ROLES.items() for n in rs.values() for _ in range(n)]
    most = Counter({g: 0 for g in ROLES})
    for hand in itertools.combinations(range(len(cards)), players):
        for g, n in Counter(cards[i] for i in hand).items():
            most[g] = max(most[g], n)
    return dict(most)


def test_the_worst_deal_counts_the_stated_tokens_of_a_guild(tmp_path):
    """Three players, one role each: a deal can give 3 iron, 3 cloth or 2 ink roles (enumerated).
    Iron has tokens stated as 1 and 0 and one uncounted kind: it needs 3 - 1 = 2. Cloth's only
    token is stated (3): nothing to propose there. Ink's token takes 2."""
    need = most_dealt(3)
    assert need == {"iron": 3, "cloth": 3, "ink": 2}
    tokens = [("iron-old", "iron", 1), ("iron-chipped", "iron", 0), ("iron-new", "iron", None),
              ("cloth-token", "cloth", 3), ("ink-token", "ink", None)]
    folder = write(tmp_path, "guilds", guild_components(tokens), GUILD_SETUP, players=(3, 3))
    result = propose(load_game(folder))
    assert {p.item: p.count for p in result.proposals} == {"iron-new": need["iron"] - 1, "ink-token": need["ink"]}
    bound = {p.item: p.bound_by for p in result.proposals}
    assert any(b.startswith("3 players: a deal can give 3 role-cards of guild iron") for b in bound["iron-new"])
    assert any(b.startswith("3 players: a deal can give 2 role-cards of guild ink") for b in bound["ink-token"])


def test_the_worst_deal_takes_the_largest_need_over_player_counts(tmp_path):
    """Two to four players: the most iron roles dealt is 2, 3, 4; the most ink 2 at every count."""
    needs = {n: most_dealt(n) for n in (2, 3, 4)}
    assert [needs[n]["iron"] for n in (2, 3, 4)] == [2, 3, 4]
    tokens = [("iron-token", "iron", None), ("cloth-token", "cloth", 3), ("ink-token", "ink", None)]
    folder = write(tmp_path, "guilds", guild_components(tokens), GUILD_SETUP, players=(2, 4))
    counts = {p.item: p.count for p in propose(load_game(folder)).proposals}
    assert counts == {"iron-token": max(n["iron"] for n in needs.values()), "ink-token": 2}


# ---------------------------------------------------------------- pnp check on proposed.yaml
NINE = "".join(f"      - {{id: k{i}, name: {{en: K{i}}}, count: null}}\n" for i in range(1, 10))
NINE_KINDS = ("components:\n  - id: kinds\n    kind: counters\n    name: {en: Kinds}\n    size: half-inch\n"
              "    items:\n" + NINE)
NINE_RULE = "steps: []\nconstraints:\n  - id: twenty\n    require: " + \
    " + ".join(f"owned(k{i})" for i in range(1, 10)) + " >= 20\n    source: \"rules 9\"\n"


def test_missing_proposals_name_the_first_eight(tmp_path):
    folder = write(tmp_path, "nine", NINE_KINDS, NINE_RULE)
    (folder / "proposed.yaml").write_text('objective: "by hand"\nproposals: []\n', encoding="utf-8")
    missing = [f for f in check_proposals(load_game(folder)).findings if f.code == "count-not-proposed"]
    assert len(missing) == 1
    assert missing[0].message.startswith("9 unknown counts have no proposal (k1, k2, k3, k4, k5, k6, k7, k8 …)")


def test_proposals_that_break_a_rule_name_at_most_eight_facts(tmp_path):
    """Nine proposals of 1 against a rule asking 20 in all: no proposal can be left out of the
    conflict (each could otherwise grow), so the conflict holds ten facts; eight are named."""
    folder = write(tmp_path, "nine", NINE_KINDS, NINE_RULE)
    (folder / "proposed.yaml").write_text('objective: "by hand"\nproposals:\n' + "".join(
        f"  - {{component: kinds, item: k{i}, count: 1, bound_by: []}}\n" for i in range(1, 10)), encoding="utf-8")
    errors = [f for f in check_proposals(load_game(folder)).findings if f.severity == "error"]
    assert [f.code for f in errors] == ["proposal-breaks-rules"]
    named = errors[0].message.split("cannot hold together: ", 1)[1].rsplit(" (fix the counts", 1)[0].split("; ")
    assert len(named) == 8
    # with eight of the nine proposals the ninth is free: no conflict
    text = (folder / "proposed.yaml").read_text(encoding="utf-8")
    (folder / "proposed.yaml").write_text(text.replace("item: k9, count: 1", "item: k9, count: 12"), encoding="utf-8")
    assert not [f for f in check_proposals(load_game(folder)).findings if f.severity == "error"]


def test_counts_designed_need_no_proposal(tmp_path):
    """designed.yaml gives b, c and d: only a is unknown without a proposed.yaml."""
    folder = write(tmp_path, "designed", DECK.replace("      - {id: blank, name: {en: Blank}, count: 0}\n", "")
                   .replace("value: 9", "value: 12") + "      - {id: d, name: {en: D}, count: null}\n")
    (folder / "designed.yaml").write_text('objective: "by hand"\ncounts:\n' + "".join(
        f"  - {{component: deck, item: {i}, count: 3}}\n" for i in "bcd"), encoding="utf-8")
    findings = check_proposals(load_game(folder)).findings
    assert [(f.severity, f.code) for f in findings] == [("warning", "counts-not-proposed")]
    assert findings[0].message.startswith("1 counts are unknown")
