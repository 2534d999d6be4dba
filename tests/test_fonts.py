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



def _file_advances(path: Path, s: str, size_pt: float) -> float:
    """Width in pt of `s` from the font file's own advance widths (fontTools: hmtx / unitsPerEm)."""
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as f:
        cmap, hmtx, upem = f.getBestCmap(), f["hmtx"], f["head"].unitsPerEm
        return sum(hmtx[cmap[ord(ch)]][0] for ch in s) * size_pt / upem


def test_every_width_the_layout_measures_is_the_font_files_advances():
    """fonts.string_width (and render.base.text_width, its mm twin) decides every line break and
    every shrink-to-fit; here it is read against the advances in the font files themselves, with
    fontTools, for the Japanese face, the Latin face, and a Latin string that falls back to the
    Japanese face for the characters the Latin face lacks."""
    import font_source_serif_pro

    from generator.render.base import text_width

    gothic, serif = fonts.register(), fonts.faces("en").regular
    serif_file = Path(font_source_serif_pro.font_directory) / "SourceSerifPro-Regular.ttf"
    for s in ("ドワーフの坑道、「金塊」を探せ。", "Saboteur 1-3 players, 40 cards", "あ a　1"):
        want = _file_advances(fonts.font_path(), s, 9.5)
        assert fonts.string_width(s, gothic, 9.5) == pytest.approx(want, abs=1e-6), s
        assert text_width(s, 9.5) == pytest.approx(want * 25.4 / 72, abs=1e-6), s
    latin = "Wizard's gold — 12 cards"
    assert fonts.string_width(latin, serif, 11) == pytest.approx(_file_advances(serif_file, latin, 11), abs=1e-6)
    mixed = "Gold 金塊 x2"                     # Source Serif has no kanji: 金塊 is drawn in IPAex
    want = (_file_advances(serif_file, "Gold ", 11) + _file_advances(fonts.font_path(), "金塊", 11)
            + _file_advances(serif_file, " x2", 11))
    assert fonts.string_width(mixed, serif, 11) == pytest.approx(want, abs=1e-6)


def test_the_vertical_metrics_layout_places_baselines_with():
    """font_info's ascender and descender (em) decide where text sits in its box on every face and in
    test_cards_layouts' box checks: the faces' typographic metrics (their OS/2 tables), IPAex Gothic
    1802 and 246 of 2048 units (0.88 and 0.12 em), Source Serif 730 and 270 of 1000."""
    gothic, serif = fonts.font_info(fonts.register()), fonts.font_info(fonts.faces("en").regular)
    assert (gothic.ascent, gothic.descent) == (0.88, 0.12)
    assert (serif.ascent, serif.descent, serif.bold, serif.italic) == (0.73, 0.27, False, False)
    bold = fonts.font_info(fonts.faces("en").bold)
    assert (bold.bold, bold.italic) == (True, False)
