"""`pnp new` (issue 13 item 5): the template game builds and checks with no warning, prints its
cards, map and a translated rulebook (read back with pypdf), and `--from` copies an example."""
from __future__ import annotations

import fnmatch
import json
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli import main
from solver.game.loader import load_game

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "generator" / "templates" / "new-game"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """`pnp new` then `pnp build` of the new game; (folder, output folder, build stderr)."""
    base = tmp_path_factory.mktemp("new")
    folder = base / "Lantern Test"
    assert main(["new", str(folder)]) == 0
    out = base / "out"
    assert main(["build", str(folder), "--out", str(out)]) == 0
    return folder, out / "lantern-test"


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_new_writes_a_complete_game_named_after_its_folder(made):
    folder, _ = made
    written = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert written == ["cards.csv", "components.yaml", "game.yaml", "layouts.yaml", "map.yaml",
                       "rules/clauses.yaml", "rules/ja.po", "setup.yaml"]
    game = load_game(folder)
    assert game.id == "lantern-test"
    assert not game.meta.sources  # an original game: nothing to cite
    assert game.setup.constraints and not any(c.source for c in game.setup.constraints)
    assert {"layouts", "map", "rules"} <= set(game.extras)
    # every file teaches: each YAML file opens with a comment naming itself
    for name in ("game.yaml", "components.yaml", "setup.yaml", "layouts.yaml", "map.yaml", "rules/clauses.yaml"):
        assert (folder / name).read_text(encoding="utf-8").startswith(f"# {name}:"), name


def test_the_new_game_checks_with_no_warning(made, capsys):
    folder, _ = made
    assert main(["check", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    games = report["games"] if "games" in report else [report]
    found = [(f["severity"], f["code"]) for g in games for f in g["findings"]]
    assert found == [("info", "setup-proven")], found
    assert main(["rules", "check", str(folder), "--lang", "ja"]) == 0
    assert "0 error(s), 0 other finding(s)" in capsys.readouterr().out


def test_the_new_game_builds_with_no_warning(made):
    _, out = made
    warnings_file = out.parent / "build-warnings.txt"
    warnings = warnings_file.read_text(encoding="utf-8").splitlines() if warnings_file.exists() else []
    assert warnings == []
    names = {p.name for p in out.iterdir()}
    assert {"cards-lantern-cards-en.pdf", "cards-lantern-cards-ja.pdf", "map-harbour.pdf", "rulebook-en.pdf",
            "rulebook-ja.pdf"} <= names


def test_the_new_game_prints_its_cards_map_and_translated_rulebook(made):
    _, out = made
    cards = PdfReader(out / "cards-lantern-cards-en.pdf")
    fronts = "\n".join(p.extract_text() for p in cards.pages[0::2])
    assert fronts.count("Red lantern") == 4 and fronts.count("Fog") == 2
    assert fronts.count("Every player passes one card to") == 2  # the text, wrapped to fit
    assert "colour red" not in fronts  # the template's layout drops the line of attributes
    ja = PdfReader(out / "cards-lantern-cards-ja.pdf")
    ja_fronts = "\n".join(p.extract_text() for p in ja.pages[0::2])
    lines = ja_fronts.splitlines()
    assert lines.count("赤い灯り") == 4 and lines.count("霧") == 2  # the name_ja column
    assert "Lantern cards" in cards.pages[1].extract_text()  # the back
    assert "Lighthouse" in pdf_text(out / "map-harbour.pdf")
    ja = pdf_text(out / "rulebook-ja.pdf")
    assert "港の灯り" in ja and "灯りカードをよく混ぜ" in ja  # from rules/ja.po


def test_new_refuses_a_folder_that_is_not_empty(tmp_path, capsys):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already exists and is not an empty folder" in err[0]
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]  # nothing left half-made beside it


def test_new_from_copies_an_example_under_the_new_id(tmp_path, capsys):
    folder = tmp_path / "my-ring"
    assert main(["new", str(folder), "--from", "dont-drop-the-ring"]) == 0
    copy, original = load_game(folder), load_game("dont-drop-the-ring")
    assert copy.id == "my-ring"
    assert [c.id for c in copy.components] == [c.id for c in original.components]
    assert (folder / "gem-cards.csv").read_bytes() == (original.folder / "gem-cards.csv").read_bytes()


def test_the_template_ships_in_the_package():
    """Every template file is matched by pyproject's package-data, so a wheel carries it."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["generator"]
    for path in [*TEMPLATE.rglob("*"), *(TEMPLATE.parent / "full-game").rglob("*")]:
        if path.is_file():
            rel = path.relative_to(ROOT / "generator").as_posix()
            assert any(fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/") for p in patterns), rel


def test_map_assertions_cite_a_source_only_when_the_game_has_sources(tmp_path, capsys):
    folder = tmp_path / "g"
    assert main(["new", str(folder)]) == 0
    capsys.readouterr()
    line = len((folder / "map.yaml").read_text(encoding="utf-8").splitlines()) + 2  # of the assertion
    with (folder / "map.yaml").open("a", encoding="utf-8") as f:
        f.write('assertions:\n  - {adjacent: ["0202", "0302"]}\n')
    assert main(["check", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    holds = [f for f in report["findings"] if f["code"] == "map-assertion-holds"]
    assert len(holds) == 1 and holds[0]["source"].endswith(f"map.yaml:{line}"), holds
    game_yaml = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(game_yaml + "sources:\n  - {id: rulebook, title: The rulebook}\n",
                                      encoding="utf-8")
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == (f"{folder / 'map.yaml'}:{line}:5: map assertion has no `source:`; name the clause that states it "
                      "(game.yaml declares sources), e.g. source: 'seed 004, 2.5.5'")
    assert len(err) == 3 and all("setup.yaml" in e and "has no `source:`" in e for e in err[1:])  # both constraints


def test_the_full_template_has_pictures_an_icon_tokens_and_a_deal_by_player_count(tmp_path, capsys):
    """`pnp new --template full` (issue 29 item 5): the same game with what the second hour of the
    tutorial adds; it checks and builds in both languages with no warning (preflight included)."""
    folder = tmp_path / "harbour"
    assert main(["new", str(folder), "--template", "full"]) == 0
    capsys.readouterr()
    assert main(["check", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(f["severity"], f["code"]) for f in report["findings"]] == [("info", "setup-proven")]
    hands = {n: r["hand_size"] for n, r in report["player_counts"].items()}
    assert hands == {"2": 3, "3": 2, "4": 1}  # each: 5 - players
    out = tmp_path / "out"
    assert main(["build", str(folder), "--out", str(out)]) == 0
    assert not (out / "build-warnings.txt").exists() or not (out / "build-warnings.txt").read_text(encoding="utf-8").strip()
    game_out = out / "harbour"
    assert (game_out / "tokens-oil-tokens-en.pdf").is_file()
    page = PdfReader(game_out / "cards-lantern-cards-en.pdf").pages[0]
    forms = [x for x in page["/Resources"]["/XObject"].values() if x.get_object().get("/Subtype") == "/Form"]
    assert len(forms) >= 2  # the lantern picture and the oil icon, both SVG: vector forms
    fronts = "\n".join(p.extract_text() for p in PdfReader(game_out / "cards-lantern-cards-en.pdf").pages[0::2])
    assert "only\n on a red lantern" in fronts and ":oil:" not in fronts  # "only" is a run of its own (bold)
