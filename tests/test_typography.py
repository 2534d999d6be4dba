"""Latin-script text is printed with a publisher's punctuation (generator/text/typography.py):
curly quotes paired per language, the apostrophe ’, en dashes in ranges, em dashes, the ellipsis
and the minus sign, read back from the built PDFs with pdfplumber and pypdf; Japanese is untouched
(its rulebook is byte for byte the one built with the typography switched off)."""
from __future__ import annotations

import re
from pathlib import Path

import font_source_serif_pro
import pdfplumber
import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from generator.context import BuildContext
from generator.counters import build_counters
from generator.rulebook.build import rulebook_files
from generator.text import typography
from generator.text.breaking import groups
from generator.text.typography import typeset, typeset_spans
from solver.game.loader import load_game

GAME = "war-of-the-ring-campaign"


@pytest.mark.parametrize("typed, lang, printed", [
    ('On "return", place the unit', "en", "On “return”, place the unit"),
    ("literally 'raid, attack'; rendered 'raid'", "en", "literally ‘raid, attack’; rendered ‘raid’"),
    ("Gondor's army, the players' cards, don't", "en", "Gondor’s army, the players’ cards, don’t"),
    ('He said "\'ok\' then."', "en", "He said “‘ok’ then.”"),
    ("1-2", "en", "1–2"),  # a die roll's range in a table cell
    ("Turns 1-3, 2-4 players, clauses 10.1-10.4", "en", "Turns 1–3, 2–4 players, clauses 10.1–10.4"),
    ("wait... then -- or - now; word--word", "en", "wait… then — or — now; word—word"),
    ("-1 to the roll, +1/-1, (-2)", "en", "−1 to the roll, +1/−1, (−2)"),
    ('"Gut", sagte er', "de", "„Gut“, sagte er"),
    ("'ja' geht's", "de", "‚ja‘ geht’s"),
    ('"Bien"', "fr", "«\u00a0Bien\u00a0»"),
    ("Vraiment? Oui: à 10:30; non!", "fr", "Vraiment\u00a0? Oui\u00a0: à 10:30\u00a0; non\u00a0!"),
    ("Quoi ?! Voir http://x.fr", "fr", "Quoi\u00a0?! Voir http://x.fr"),
    ("Really? Yes: 10:30; no!", "en", "Really? Yes: 10:30; no!"),
])
def test_punctuation_is_set_per_language(typed, lang, printed):
    assert typeset(typed, lang) == printed


@pytest.mark.parametrize("typed", [
    "2-1-6",  # a counter's factors
    "GraySpinel-7 d6-1 A1-3",  # ids and numbers glued to words
    "pnp build --lang en",  # a command-line option
    "Witch-king",
])
def test_what_is_not_a_range_or_a_dash_keeps_its_hyphens(typed):
    assert typeset(typed, "en") == typed


def test_a_pieces_factor_line_keeps_its_hyphen_a_table_cells_range_does_not():
    assert typeset("4-3", "en", factors=True) == "4-3"
    assert typeset("Turns 1-3", "en", factors=True) == "Turns 1–3"
    assert typeset("1-2", "en") == "1–2"


def test_japanese_and_unknown_languages_are_left_as_typed():
    for text in ('「帰還」の"1-3"と...', "It's 1-3"):
        assert typeset(text, "ja") == text
        assert typeset(text, None) == text


def test_kept_spans_are_copied_and_positions_follow_the_text():
    text = 'See "rule" 10.1-3... then :coin-1: -- and 4-5 more'
    keep = [(text.index(":coin"), text.index(":coin") + len(":coin-1:"))]
    out, where = typeset_spans(text, "en", keep)
    assert ":coin-1:" in out and "“rule”" in out and "…" in out
    assert len(where) == len(text) + 1 and where[-1] == len(out)
    for i, ch in enumerate(text):  # every letter and digit lands on itself
        if ch.isalnum():
            assert out[where[i]] == ch


def test_french_no_break_space_is_not_a_line_break():
    assert not any(g.space for g in groups(typeset('"Bien"', "fr")))


@pytest.mark.parametrize("typed, printed", [
    ("Il dit ' oui '.", "Il dit ‹\u00a0oui\u00a0›."),  # single quotes typed the French way, with spaces
    ("Il dit 'oui'.", "Il dit ‹\u00a0oui\u00a0›."),
    ('Il dit " oui ".', "Il dit «\u00a0oui\u00a0»."),  # the typed spaces become no-break ones
    ("c'est ' bien ' et l'autre", "c’est ‹\u00a0bien\u00a0› et l’autre"),  # apostrophes stay apostrophes
    ("' oui ' et ' non '", "‹\u00a0oui\u00a0› et ‹\u00a0non\u00a0›"),
])
def test_french_quotes_typed_with_spaces_are_guillemets_held_to_their_words(typed, printed):
    """French sets quotations in guillemets with a no-break space inside: typed as ' oui ' they
    once printed as two apostrophes (’ oui ’), and " oui " kept spaces a line could break at.
    Every input character keeps its place in the positions typeset_spans gives."""
    out, where = typeset_spans(typed, "fr")
    assert out == printed and len(where) == len(typed) + 1 and where[-1] == len(out)
    assert [g for g in groups(out) if g.space] == [g for g in groups(out) if g.space and out[g.start] == " "]
    inner = [out[m.start() + 1:m.end() - 1] for m in re.finditer("[«‹][^»›]*[»›]", out)]
    assert inner and all(not any(g.space for g in groups(q)) for q in inner)


def test_english_quotes_typed_with_spaces_are_left_to_the_english_rules():
    assert typeset("He said ' yes '.", "en") == "He said ’ yes ’."
    assert typeset('He said " yes ".', "en") == "He said “ yes ”."


def _text(pdf) -> str:
    with pdfplumber.open(pdf) as doc:
        return "\n".join(p.extract_text() or "" for p in doc.pages)


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    """The English and Japanese rulebooks, with the typography on and switched off."""
    game = load_game(GAME)
    out = {}
    for mode in ("set", "typed"):
        saved = dict(typography.QUOTES)
        if mode == "typed":
            typography.QUOTES.clear()
        try:
            ctx = BuildContext(out_root=tmp_path_factory.mktemp(mode), formats=("pdf",))
            for lang in ("en", "ja"):
                out[mode, lang] = rulebook_files(game, ctx, lang, report={})[0]
        finally:
            typography.QUOTES.update(saved)
    return out


def test_english_rulebook_has_curly_paired_quotes_and_dashed_ranges(books):
    text = _text(books["set", "en"])
    typed = _text(books["typed", "en"])
    assert '"' in typed and "'" in typed and re.search(r"\d-\d", typed)  # the sources do type them
    assert '"' not in text and "'" not in text
    assert not re.search(r"(?<![\d.-])\d+-\d+(?![\d-])", text), re.findall(r".{20}\d-\d.{10}", text)
    assert "Turns 1–3" in text and "Sauron’s" in text
    quotes = re.sub(r"[^“”]", "", text)
    assert quotes and quotes == "“”" * (len(quotes) // 2)  # each opening quote closed before the next
    singles = re.sub(r"[^‘]|’(?=\w)", "", re.sub(r"[^‘’\w]", "", text))
    assert singles.count("‘") >= 2


def test_cross_references_still_link_to_the_same_clauses(books):
    """The same links, in the same order, each over the same printed clause number (and, in the
    contents, page): the text reflows, so positions differ; what a link covers does not."""
    def linked(pdf):
        with pdfplumber.open(pdf) as doc:
            return [(page.crop((a["x0"], a["top"], a["x1"], a["bottom"])).extract_text() or "").strip()
                    for page in doc.pages for a in page.annots]
    set_links = linked(books["set", "en"])
    assert len(set_links) > 20 and sum(bool(re.search(r"\d+\.\d+", t)) for t in set_links) > 20
    def numbers(t: str) -> list[str]:  # the clause number a link covers (and a contents line's page)
        return re.findall(r"\d+(?:\.\d+)*", t)
    assert [numbers(t) for t in set_links] == [numbers(t) for t in linked(books["typed", "en"])]


def test_japanese_rulebook_is_byte_for_byte_untouched(books):
    assert books["set", "ja"].read_bytes() == books["typed", "ja"].read_bytes()


def test_english_counters_print_the_apostrophe(tmp_path):
    files = build_counters(load_game(GAME), BuildContext(out_root=tmp_path, formats=("pdf",), lang="en"))
    text = _text(next(p for p in files if p.suffix == ".pdf"))
    assert "Frodo’s" in text and "'" not in text


def test_english_table_text_sits_in_the_middle_of_its_cell(books):
    """The rulebook places an English baseline by the Latin face's own ascent (read here from the font
    file's OS/2 table with fontTools), not IPAex's: the em box of "Turns 1–3" is centred between the
    cell's rules, as Japanese text is in its cells."""
    with TTFont(str(Path(font_source_serif_pro.font_directory) / "SourceSerifPro-Regular.ttf"), lazy=True) as f:
        upm = f["head"].unitsPerEm
        asc, desc = f["OS/2"].sTypoAscender / upm, -f["OS/2"].sTypoDescender / upm
    with pdfplumber.open(books["set", "en"]) as doc:
        checked = 0
        for page in doc.pages:
            chars = page.chars
            for i, c in enumerate(chars[:-4]):
                if "".join(ch["text"] for ch in chars[i:i + 5]) != "Turns":
                    continue
                baseline = page.height - c["matrix"][5]
                rules = sorted(line["top"] for line in page.lines if line["width"] > 5 and abs(line["top"] - baseline) < 20)
                top = max(r for r in rules if r < baseline)
                bottom = min(r for r in rules if r > baseline)
                em_mid = baseline + (desc - asc) * c["size"] / 2
                assert abs(em_mid - (top + bottom) / 2) < 0.3, (baseline, top, bottom)
                checked += 1
        assert checked >= 4


def test_english_maps_print_the_data_names_with_the_apostrophe(tmp_path):
    """Place names come from map.yaml as typed (Helm's Deep); the English map, its SVG and its tiles
    print them as a publisher does (Helm’s Deep), the Japanese map is left as typed."""
    import xml.etree.ElementTree as ET

    from generator.hexmap.stage import build_maps

    files = build_maps(load_game(GAME), BuildContext(out_root=tmp_path, formats=("pdf", "svg"), lang="en"))
    pdfs = [p for p in files if p.suffix == ".pdf"]
    assert pdfs
    for pdf in pdfs:
        text = _text(pdf)
        assert "Helm’s Deep" in text and "'" not in text, pdf.name
    svg = next(p for p in files if p.suffix == ".svg")
    # the SVG draws glyph outlines; each run of text keeps its words in a <title>
    words = [el.text or "" for el in ET.parse(svg).iter() if el.tag.endswith("}title")]
    assert "Helm’s Deep" in words and not any("'" in w for w in words)
