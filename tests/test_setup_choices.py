"""Choices in the setup (`chosen_by: <side>` on a place or give step): `pnp check` proves a valid
choice exists at every player count and that rules over what a choice takes hold for every
choice; the rulebook's setup table says "chosen by". Checked on War of the Ring 18.2, lotr-sauron's
Fellowship cards and a small original game, reading components.yaml and the PDF independently."""
from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import yaml

from generator.cli import main
from tests.usual_solves import usual_solves

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"


def check_json(folder: Path | str, capsys) -> tuple[int, list[dict]]:
    capsys.readouterr()
    code = main(["check", str(folder), "--json"])
    report = json.loads(capsys.readouterr().out)
    report = report[0] if isinstance(report, list) else report
    return code, report["findings"]


def step_line(setup: Path, first: str, then: str) -> int:
    """The 1-based line of the step that opens with `first` and has `then` among its next lines."""
    lines = setup.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip() == first and any(t.strip() == then for t in lines[i + 1:i + 8]):
            return i + 1
    raise AssertionError(f"no step {first!r} with {then!r}")


def items_of(game: str, component: str) -> dict[str, dict]:
    data = yaml.safe_load((GAMES / game / "components.yaml").read_text(encoding="utf-8"))
    comp = next(c for c in data["components"] if c["id"] == component)
    return {it["id"]: it for it in comp["items"]}


def example_of(message: str) -> dict[str, int]:
    inside = message.split("(e.g. ", 1)[1].split(")", 1)[0].split(";")[0]
    return {part.split("×")[0]: int(part.split("×")[1]) for part in inside.split(", ")}


def test_war_of_the_ring_dark_lord_chooses_six_of_his_own_cards(capsys):
    code, findings = check_json("war-of-the-ring-campaign", capsys)
    assert code == 0
    [choice] = [f for f in findings if f["code"] == "choice-valid"]
    setup = GAMES / "war-of-the-ring-campaign" / "setup.yaml"
    assert choice["source"].endswith(f"setup.yaml:{step_line(setup, '- place: action-cards', 'chosen_by: dark')}")
    assert choice["player_counts"] == [2] and "the Dark Lord player" in choice["message"]
    example = example_of(choice["message"])
    cards = items_of("war-of-the-ring-campaign", "action-cards")
    assert sum(example.values()) == 6 and all(cards[i]["attrs"]["side"] == "dark" for i in example)


def test_lotr_sauron_each_fellowship_player_takes_their_own_hobbit_card(capsys):
    code, findings = check_json("lotr-sauron", capsys)
    assert code == 0
    choices = {f["player_counts"][0]: f for f in findings if f["code"] == "choice-valid"}
    assert sorted(choices) == [3, 4, 5, 6]
    cards = items_of("lotr-sauron", "fellowship-cards")
    for n, f in choices.items():
        example = example_of(f["message"])
        # players - 1 different hobbits, one card each
        assert len(example) == n - 1 and set(example.values()) == {1} and set(example) <= set(cards)


def test_lotr_sauron_shows_the_choices_the_usual_solve_finds(capsys):
    """A choice shown is the solution of its count's feasibility solve, made the usual way (only the
    solves whose solution no report shows ask for a verdict alone: solver/proof/cpsat.py)."""
    def choices() -> dict[int, dict[str, int]]:
        _, findings = check_json("lotr-sauron", capsys)
        return {f["player_counts"][0]: example_of(f["message"]) for f in findings if f["code"] == "choice-valid"}
    shown = choices()
    with usual_solves():
        assert choices() == shown and sorted(shown) == [3, 4, 5, 6]


def write_game(folder: Path, gold: int, rule: bool) -> None:
    """A newcomer's game: the first player chooses 2 of the coins to start with."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(
        f"id: {folder.name}\ntitle: {{en: Coin Pick}}\ndesigner: [Me]\nyear: 2026\n"
        "players: {min: 2, max: 3}\nplay_time_minutes: {min: 10, max: 20}\nage_min: 8\n"
        "source_language: en\nlanguages: [en]\n", encoding="utf-8")
    (folder / "components.yaml").write_text(
        "components:\n  - id: coins\n    kind: tokens\n    name: {en: Coins}\n    items:\n"
        f"      - {{id: gold, name: Gold, count: {gold}, attrs: {{metal: gold}}}}\n"
        "      - {id: silver, name: Silver, count: 2, attrs: {metal: silver}}\n", encoding="utf-8")
    rules = ("constraints:\n  - id: starts-with-gold\n    kind: at_least\n"
             "    of: {component: coins, zone: placed, where: {metal: gold}}\n    value: 1\n") if rule else ""
    (folder / "setup.yaml").write_text(
        "sides:\n  - {id: first, name: the first player}\n"
        "steps:\n  - place: coins\n    where: {metal: gold}\n    count: 2\n    chosen_by: first\n"
        "  - return_rest: coins\n" + rules, encoding="utf-8")


def test_a_choice_that_cannot_be_made_is_an_error_naming_the_step(tmp_path, capsys):
    folder = tmp_path / "coin-pick"
    write_game(folder, gold=1, rule=False)  # two gold coins to choose, one in the box
    code, findings = check_json(folder, capsys)
    assert code == 1
    errors = [f for f in findings if f["severity"] == "error"]
    assert errors and all("place coins" in f["message"] for f in errors)
    assert not [f for f in findings if f["code"] == "choice-valid"]


def test_every_choice_must_keep_a_rule_over_what_it_takes(tmp_path, capsys):
    folder = tmp_path / "coin-pick"
    write_game(folder, gold=2, rule=True)
    code, findings = check_json(folder, capsys)
    valid = [n for f in findings if f["code"] == "choice-valid" for n in f["player_counts"]]
    assert code == 0 and sorted(valid) == [2, 3]
    assert not [f for f in findings if f["code"] == "rule-can-fail"]
    # the same rule over a choice among gold and silver: some choice (two silver) breaks it
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("    where: {metal: gold}\n    count: 2",
                                                               "    count: 2"), encoding="utf-8")
    code, findings = check_json(folder, capsys)
    broken = [f for f in findings if f["code"] == "rule-can-fail"]
    assert broken and "starts-with-gold" in broken[0]["message"] and "silver" not in broken[0]["message"].split("e.g.")[0]


def test_rulebook_setup_table_says_chosen_by_and_dealt_to(tmp_path):
    assert main(["rulebook", "war-of-the-ring-campaign", "--lang", "en", "--out", str(tmp_path)]) == 0
    pdf_path = next(tmp_path.rglob("rulebook-en.pdf"))
    with pdfplumber.open(pdf_path) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    lines = text.splitlines()
    assert "Action cards chosen by the Dark Lord player 6" in lines
    assert "Allied draw pile dealt to the Allied player 3" in lines
    assert "Allied draw pile in play 9" in lines
