"""Which languages `pnp build` writes: the source language first, every complete translation,
a partial one skipped with one warning that counts and locates what is missing; --lang narrows."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.languages import languages_to_build, missing_translations, parse_requested
from solver.errors import DataError
from solver.game.folders import game_ids
from solver.game.loader import load_game

ROOT = Path(__file__).resolve().parents[1]


def _warnings(game, requested=None):
    got: list[str] = []
    langs = languages_to_build(game, requested, got.append)
    return langs, got


@pytest.mark.parametrize("game_id", game_ids())
def test_every_example_game_builds_source_then_english(game_id):
    """Every example in Japanese then English; the two translated into French (issue 28) then French."""
    langs, warned = _warnings(load_game(game_id))
    french = game_id in ("dont-drop-the-ring", "saboteur-the-lost-mines")
    assert langs == ["ja", "en"] + (["fr"] if french else []) and warned == []


def test_a_missing_item_name_skips_the_language_with_one_warning(game_copy):
    folder = game_copy("dont-drop-the-ring")
    comp = folder / "components.yaml"
    text = comp.read_text(encoding="utf-8")
    assert "name: {ja: 台座カード, en: Pedestal cards, fr: Cartes Socle}" in text
    comp.write_text(text.replace("name: {ja: 台座カード, en: Pedestal cards, fr: Cartes Socle}", "name: {ja: 台座カード, fr: Cartes Socle}"),
                    encoding="utf-8")
    line = 1 + text[:text.index("name: {ja: 台座カード")].count("\n")
    game = load_game(folder)
    langs, warned = _warnings(game)
    assert langs == ["ja", "fr"]
    assert len(warned) == 1
    assert "en" in warned[0] and "1 string(s) untranslated" in warned[0]
    assert f"components.yaml:{line}" in warned[0]


def test_untranslated_rulebook_units_and_sheet_rows_are_counted(game_copy):
    folder = game_copy("dont-drop-the-ring")
    csv = folder / "gem-cards.csv"
    rows = csv.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    en = header.index("name_en")
    cells = rows[1].split(",")
    cells[en] = ""
    rows[1] = ",".join(cells)
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    po = folder / "rules" / "en.po"
    body = po.read_text(encoding="utf-8")
    # empty the first two translations: untranslated units of the rulebook
    emptied = re.sub(r'(msgstr )"[^"\n]+"(\n(?:"[^\n]*"\n)*)', r'\1""\n', body, count=2)
    assert emptied != body
    po.write_text(emptied, encoding="utf-8")
    missing = missing_translations(load_game(folder), "en")
    assert missing.places["rules/en.po"][0] == 2
    assert missing.places["gem-cards.csv"][0] == 1
    assert "gem-cards.csv:2" in missing.summary()  # the row of amethyst-1
    assert missing.count == 3


def test_lang_narrows_and_names_an_unknown_language():
    game = load_game("riddle-of-the-ring")
    assert _warnings(game, ["en"]) == (["en"], [])
    langs, warned = _warnings(game, ["fr", "ja"])
    assert langs == ["ja"] and len(warned) == 1 and "fr is not one of its languages" in warned[0]
    assert parse_requested("ja, en") == ["ja", "en"]
    assert parse_requested(None) is None
    with pytest.raises(DataError):
        parse_requested("english!")


def test_build_writes_both_languages_and_lang_narrows(tmp_path):
    def build(*extra):
        out = tmp_path / "-".join(extra or ("all",))
        r = subprocess.run([sys.executable, "-m", "generator.cli", "build", "dont-drop-the-ring", "--out", str(out),
                            "--only", "cards", "--only", "manifest", *extra],
                           cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return out / "dont-drop-the-ring"
    both = build()
    for lang in ("ja", "en"):
        assert (both / f"cards-gem-cards-{lang}.pdf").is_file()
        assert (both / f"manifest-{lang}.txt").is_file()
    assert (both / "png" / "gem-cards" / "amethyst-1.png").is_file()
    assert (both / "png" / "gem-cards-en" / "amethyst-1.png").is_file()
    en_only = build("--lang", "en")
    assert (en_only / "cards-gem-cards-en.pdf").is_file()
    assert not (en_only / "cards-gem-cards-ja.pdf").exists()


def test_a_language_the_programs_catalogue_lacks_is_not_built(game_copy):
    """German data and a German PO would still leave the calibration page and the rulebook's
    headings in another language: the catalogue's missing words (no generator/locale/de.po) are counted too."""
    from generator import catalogue

    folder = game_copy("dont-drop-the-ring")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("languages: [ja, en]", "languages: [ja, en, de]"), encoding="utf-8")
    missing = missing_translations(load_game(folder), "de")
    assert missing.places["generator/locale/de.po"][0] == len(catalogue.MESSAGES)
    assert catalogue.missing("ja") == [] and catalogue.missing("en") == [] and catalogue.missing("fr") == []


def test_what_a_language_lacks_follows_the_rulebook_po_and_the_data_as_they_are_edited(game_copy):
    """A game held while its rules/en.po is edited (the same object: what each unit of a build and
    `pnp serve` ask again) counts the PO file as it now is; the game loaded again after a data edit
    counts that edit; and a caller adding to the answer changes no later answer."""
    folder = game_copy("dont-drop-the-ring")
    game = load_game(folder)
    assert missing_translations(game, "en").count == 0
    po = folder / "rules" / "en.po"
    body = po.read_text(encoding="utf-8")
    po.write_text(re.sub(r'(msgstr )"[^"\n]+"(\n(?:"[^\n]*"\n)*)', r'\1""\n', body, count=1), encoding="utf-8")
    assert missing_translations(game, "en").places["rules/en.po"][0] == 1
    po.unlink()  # no PO file at all: every unit of the rulebook untranslated
    units = missing_translations(game, "en").places["rules/en.po"][0]
    assert units > 10
    missing_translations(game, "en").add("rules/en.po", "elsewhere", 5)
    assert missing_translations(game, "en").places["rules/en.po"][0] == units
    po.write_text(body, encoding="utf-8")
    assert missing_translations(game, "en").count == 0
    comp = folder / "components.yaml"
    comp.write_text(comp.read_text(encoding="utf-8").replace(", en: Pedestal cards", ""), encoding="utf-8")
    assert missing_translations(load_game(folder), "en").places["components.yaml"][0] == 1
    assert missing_translations(game, "en").count == 0  # the game held still has its name
