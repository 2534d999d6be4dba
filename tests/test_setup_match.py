"""Matched setup steps (`match: {clan: dwarf-cards}`) and the per-item worst-deal proof
(solver/proof/worstdeal.py): checked against Saboteur's rules as the seed states them and against a
brute-force enumeration of every deal of a small original game, written here as a newcomer would."""
from __future__ import annotations

import itertools
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.cli import main
from solver.counts.propose import propose
from solver.game.loader import load_game
from solver.proof.worstdeal import all_worst_deals

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"
SABOTEUR = GAMES / "saboteur-the-lost-mines"


def check_json(folder: Path, capsys) -> tuple[int, list[dict]]:
    capsys.readouterr()
    code = main(["check", str(folder), "--json"])
    report = json.loads(capsys.readouterr().out)
    report = report[0] if isinstance(report, list) else report
    return code, report["findings"]


def test_saboteur_proposes_five_pawns_and_tiles_per_clan():
    """5 blue and 5 yellow: at 7-9 players every dwarf card (5 per clan) is in the shuffle."""
    result = propose(load_game(SABOTEUR))
    counts = {p.item: p.count for p in result.proposals}
    for item in ("dwarf-piece-blue", "dwarf-piece-yellow", "dwarf-tile-blue", "dwarf-tile-yellow"):
        assert counts[item] == 5, item
    # the committed file says the same (read as plain YAML) and names the deal that binds it
    committed = yaml.safe_load((SABOTEUR / "proposed.yaml").read_text(encoding="utf-8"))
    by_item = {p["item"]: p for p in committed["proposals"]}
    for item in ("dwarf-piece-blue", "dwarf-piece-yellow", "dwarf-tile-blue", "dwarf-tile-yellow"):
        assert by_item[item]["count"] == 5
        clan = item.rsplit("-", 1)[1]
        assert any(b.startswith("7-9 players: a deal can give 5 dwarf-cards of clan " + clan)
                   for b in by_item[item]["bound_by"]), by_item[item]["bound_by"]


def saboteur_most_of_one_clan(players: int) -> int:
    """From the seed's setup table, by hand: a clan has 3 loyal, 1 selfish, 1 saboteur; 3-4 players
    remove 2 loyal of each clan, 5-6 remove 1; one card is dealt to each player."""
    per_clan = 5 - (2 if players <= 4 else 1 if players <= 6 else 0)
    return min(per_clan, players)


def test_saboteur_worst_deal_per_player_count():
    game = load_game(SABOTEUR)
    deals = all_worst_deals(game)
    assert {(d.component, d.value) for d in deals} == {
        (c, clan) for c in ("dwarf-pieces", "dwarf-tiles") for clan in ("blue", "yellow")}
    for d in deals:
        assert d.need == saboteur_most_of_one_clan(d.players), (d.component, d.value, d.players)
        assert sum(d.deal.values()) == d.need
        assert all(k[1].startswith(f"dwarf-{d.value}-") for k in d.deal)


def test_four_yellow_pawns_fail_at_the_count_line(tmp_path, capsys):
    game = tmp_path / "saboteur-the-lost-mines"
    shutil.copytree(SABOTEUR, game)
    path = game / "components.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "id: dwarf-piece-yellow" in line)
    count_line = next(i for i in range(at, at + 5) if lines[i].strip() == "count: null")
    lines[count_line] = lines[count_line].replace("null", "4")
    path.write_text("".join(lines), encoding="utf-8")
    code, findings = check_json(game, capsys)
    assert code == 1
    errors = [f for f in findings if f["severity"] == "error"]
    assert len(errors) == 1
    err = errors[0]
    assert err["source"].endswith(f"components.yaml:{count_line + 1}")
    assert err["player_counts"] == [7, 8, 9]
    assert "7-9 players" in err["message"] and "5 dwarf-cards of clan yellow" in err["message"]
    assert "dwarf-yellow-loyal×3" in err["message"]
    # five is enough: the same copy with 5 has no error
    lines[count_line] = lines[count_line].replace("4", "5")
    path.write_text("".join(lines), encoding="utf-8")
    code, findings = check_json(game, capsys)
    assert code == 0 and not [f for f in findings if f["severity"] == "error"]


def test_a_proposal_below_the_worst_deal_fails_at_its_line(tmp_path, capsys):
    game = tmp_path / "saboteur-the-lost-mines"
    shutil.copytree(SABOTEUR, game)
    path = game / "proposed.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == "item: dwarf-tile-blue")
    assert lines[at + 1].strip() == "count: 5"
    lines[at + 1] = lines[at + 1].replace("5", "3")
    path.write_text("".join(lines), encoding="utf-8")
    code, findings = check_json(game, capsys)
    errors = [f for f in findings if f["code"] == "worst-deal-short"]
    assert code == 1 and len(errors) == 1
    assert errors[0]["player_counts"] == [5, 6, 7, 8, 9]  # 4 blue dwarves at 5-6 players, 5 at 7-9
    entry_line = at  # the proposal's entry starts one line above its item
    assert errors[0]["source"].endswith(f"proposed.yaml:{entry_line}")


# ---------------------------------------------------------------- a newcomer's game
GUILDS = {"iron": {"smith": 2, "miner": 2}, "cloth": {"weaver": 3}, "ink": {"scribe": 2}}
PLAYERS = range(2, 6)


def write_guild_game(folder: Path, token_counts: dict[str, int | None]) -> None:
    """Three guilds with 4, 3 and 2 role cards, one dealt to each of 2-5 players, and each player
    takes the token of their role's guild."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(
        f"id: {folder.name}\ntitle: {{en: Three Guilds}}\ndesigner: [Me]\nyear: 2026\n"
        "players: {min: 2, max: 5}\nplay_time_minutes: {min: 20, max: 30}\nage_min: 10\n"
        "source_language: en\nlanguages: [en]\n", encoding="utf-8")
    roles = "\n".join(f"      - {{id: {role}, name: {role.title()}, count: {n}, attrs: {{guild: {guild}}}}}"
                      for guild, rs in GUILDS.items() for role, n in rs.items())
    tokens = "\n".join(f"      - {{id: {guild}-token, name: {guild.title()} token, "
                       f"count: {'null' if token_counts[guild] is None else token_counts[guild]}, "
                       f"attrs: {{guild: {guild}}}}}" for guild in GUILDS)
    (folder / "components.yaml").write_text(
        "components:\n  - id: role-cards\n    kind: deck\n    name: {en: Role cards}\n    size: poker\n"
        f"    items:\n{roles}\n  - id: guild-tokens\n    kind: tokens\n    name: {{en: Guild tokens}}\n"
        f"    items:\n{tokens}\n", encoding="utf-8")
    (folder / "setup.yaml").write_text(
        "steps:\n  - use: role-cards\n  - shuffle: role-cards\n"
        "  - deal: role-cards\n    each: 1\n    hand: false\n  - return_rest: role-cards\n"
        "  - give: guild-tokens\n    match: {guild: role-cards}\n  - return_rest: guild-tokens\n", encoding="utf-8")


def brute_force_need(players: int) -> dict[str, int]:
    """Every deal of one card to each player, enumerated card by card: the most tokens of each guild."""
    cards = [guild for guild, rs in GUILDS.items() for n in rs.values() for _ in range(n)]
    most: dict[str, int] = {g: 0 for g in GUILDS}
    for hand in itertools.combinations(range(len(cards)), players):
        per = Counter(cards[i] for i in hand)
        for g in GUILDS:
            most[g] = max(most[g], per[g])
    return most


def test_guild_game_gets_the_least_token_counts_every_deal_needs(tmp_path):
    folder = tmp_path / "three-guilds"
    write_guild_game(folder, {g: None for g in GUILDS})
    game = load_game(folder)
    per_count = {n: brute_force_need(n) for n in PLAYERS}
    for d in all_worst_deals(game):
        assert d.need == per_count[d.players][d.value], (d.value, d.players)
    counts = {p.item: p.count for p in propose(game).proposals}
    assert counts == {f"{g}-token": max(per_count[n][g] for n in PLAYERS) for g in GUILDS}
    assert counts == {"iron-token": 4, "cloth-token": 3, "ink-token": 2}


@pytest.mark.parametrize("short", sorted(GUILDS))
def test_guild_game_one_token_short_fails_where_a_deal_runs_short(tmp_path, capsys, short):
    per_count = {n: brute_force_need(n) for n in PLAYERS}
    least = {g: max(per_count[n][g] for n in PLAYERS) for g in GUILDS}
    folder = tmp_path / "three-guilds"
    write_guild_game(folder, {g: least[g] - (g == short) for g in GUILDS})
    code, findings = check_json(folder, capsys)
    errors = [f for f in findings if f["severity"] == "error"]
    assert code == 1 and [f["code"] for f in errors] == ["worst-deal-short"]
    short_counts = [n for n in PLAYERS if per_count[n][short] > least[short] - 1]
    assert errors[0]["player_counts"] == short_counts
    text = (folder / "components.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(text) if f"id: {short}-token" in t) + 1
    assert errors[0]["source"].endswith(f"components.yaml:{line}")
    assert f"of guild {short}" in errors[0]["message"]


def test_match_on_a_pile_not_yet_dealt_is_a_located_error(tmp_path, capsys):
    folder = tmp_path / "three-guilds"
    write_guild_game(folder, {"iron": 4, "cloth": 3, "ink": 2})
    setup = folder / "setup.yaml"
    text = setup.read_text(encoding="utf-8")
    # the give step moved before the deal
    text = text.replace("  - give: guild-tokens\n    match: {guild: role-cards}\n", "")
    text = text.replace("  - deal: role-cards", "  - give: guild-tokens\n    match: {guild: role-cards}\n  - deal: role-cards")
    setup.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    match_line = text.splitlines().index("    match: {guild: role-cards}") + 1
    assert f"setup.yaml:{match_line}:" in err and "Traceback" not in err
