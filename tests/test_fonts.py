"""The text face per language is data (game.yaml `fonts:`), with a default per script; read back
from the PDFs the rulebook stage writes."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

from generator import fonts
from generator.context import BuildContext
from generator.rulebook.build import rulebook_files
from solver.errors import DataError
from solver.game.loader import load_game


def _body_font(pdf) -> str:
    counts: Counter[str] = Counter()
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[2:4]:
            counts.update(ch["fontname"].split("+")[-1] for ch in page.chars if not ch["text"].isspace())
    return counts.most_common(1)[0][0]


def _with_fonts(game_copy, line: str):
    folder = game_copy("dont-drop-the-ring")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("languages: [ja, en, fr]\n", f"languages: [ja, en, fr]\n{line}\n"), encoding="utf-8")
    return load_game(folder), 1 + text[:text.index("languages: [ja, en, fr]")].count("\n") + 1


def test_defaults_by_script():
    assert fonts.face_of("ja").id == "ipaex-gothic"
    assert fonts.face_of("en").id == fonts.face_of("fr").id == "source-serif"


def test_game_yaml_chooses_a_languages_face(game_copy, tmp_path):
    game, _ = _with_fonts(game_copy, "fonts: {en: ipaex-gothic}")
    pdf = rulebook_files(game, BuildContext(out_root=tmp_path), "en")[0]
    assert _body_font(pdf) == "IPAexGothic"


def test_an_unknown_face_points_at_its_line(game_copy, tmp_path):
    # rejected when the game is read (`pnp check`), not first by a build
    with pytest.raises(DataError) as e:
        _with_fonts(game_copy, "fonts: {en: comic-sans}")
    [problem] = e.value.problems
    text = (Path(problem.path)).read_text(encoding="utf-8")
    assert problem.path.endswith("game.yaml") and problem.line == 1 + text[:text.index("fonts:")].count("\n")
    assert "fonts.en" in problem.what and "source-serif" in problem.what


def test_a_character_the_latin_face_lacks_is_drawn_in_ipaex(tmp_path):
    """The English glossary quotes Japanese terms: they print (in IPAex), never as empty boxes."""
    pdf = rulebook_files(load_game("dont-drop-the-ring"), BuildContext(out_root=tmp_path), "en")[0]
    with pdfplumber.open(pdf) as doc:
        chars = [c for page in doc.pages for c in page.chars]
    kanji = [c for c in chars if c["text"] == "指"]
    assert kanji and {c["fontname"].split("+")[-1] for c in kanji} == {"IPAexGothic"}
    assert {c["fontname"].split("+")[-1] for c in chars if c["text"] == "r"} >= {"SourceSerifPro-Regular"}


def test_the_faces_game_yaml_may_name_are_the_faces_shipped():
    import typing

    from generator.fonts import FAMILIES
    from solver.game.meta import FontId

    assert set(typing.get_args(FontId)) == set(FAMILIES)

