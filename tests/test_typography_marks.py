"""generator/text/typography.py character by character, each expectation worked out by hand from
the module's rules (tests/test_typography.py reads the same rules back from built books): which
language's marks are used, where a quote opens or closes, the French no-break spaces, what a
kept span protects, and where each input character lands in the output."""
from __future__ import annotations

import pytest

from generator.text.typography import printed, quotes_of, typeset, typeset_spans

NB = "\u00a0"


@pytest.mark.parametrize("lang,marks", [("en", "“”‘’"), ("en-GB", "“”‘’"), ("de-AT", "„“‚‘"), ("fr-CA", "«»‹›"),
                                        ("es", "«»“”")])
def test_a_language_and_its_regional_variants_share_its_quotation_marks(lang, marks):
    q = quotes_of(lang)
    assert q is not None and q.open2 + q.close2 + q.open1 + q.close1 == marks
    inner = NB if lang.startswith("fr") else ""  # French sets a no-break space inside its marks
    assert typeset("\"a\" 'b'", lang) == f"{marks[0]}{inner}a{inner}{marks[1]} {marks[2]}{inner}b{inner}{marks[3]}"


@pytest.mark.parametrize("lang", [None, "", "ja", "zh-TW", "xx"])
def test_no_marks_for_a_language_without_them(lang):
    assert quotes_of(lang) is None
    assert typeset('"1-3" ... don\'t', lang) == '"1-3" ... don\'t'


@pytest.mark.parametrize("typed,out", [
    ('("Go")', "(“Go”)"),  # after an opening bracket a quote opens
    ('a/"b"', "a/“b”"),  # after a slash too
    ('—"b"', "—“b”"),  # and after a dash
    ("'raid' and 'don't'", "‘raid’ and ‘don’t’"),  # an apostrophe inside a single quote is not its end
    ("the players' cards", "the players’ cards"),  # no single quote open: an apostrophe
    ("l'homme", "l’homme"),
    ("it's '1'", "it’s ’1’"),  # a quote before a digit does not open (no letter follows)
    ('marked "... area"', "marked “… area”"),  # nothing open: a quote after a space opens
    ('"a" "b"', "“a” “b”"),
])
def test_english_quotes_open_and_close_by_what_stands_before_and_after_them(typed, out):
    assert typeset(typed, "en") == out


@pytest.mark.parametrize("typed,out", [
    ("Hans' Buch", "Hans’ Buch"),  # no single quote open: an apostrophe, not the closing ‘
    ("'Ja', sagt Hans' Vater", "‚Ja‘, sagt Hans’ Vater"),
    ('"Ja" und "nein"', "„Ja“ und „nein“"),
])
def test_german_quotes_and_apostrophes(typed, out):
    assert typeset(typed, "de") == out


@pytest.mark.parametrize("typed,out", [
    ('"Bien"', f"«{NB}Bien{NB}»"),
    ("'oui'", f"‹{NB}oui{NB}›"),
    ('" Bien "', f"«{NB}Bien{NB}»"),  # the typed spaces become no-break ones, none added, and the second mark closes
    ('" Bien ! "', f"«{NB}Bien{NB}!{NB}»"),
    ('" a " et " b "', f"«{NB}a{NB}» et «{NB}b{NB}»"),
    ("Quoi?", f"Quoi{NB}?"),
    ("Quoi ?", f"Quoi{NB}?"),  # the typed space becomes a no-break one
    (f"Quoi{NB}?", f"Quoi{NB}?"),
    ("Quoi?!", f"Quoi{NB}?!"),  # one space before a run of marks
    ("(?)", "(?)"),  # none after an opening bracket
    ("?", "?"),  # nor at the start
    ("à 10:30", "à 10:30"),  # a time
    ("http://x.fr", "http://x.fr"),
    ("Note: 1:2", f"Note{NB}: 1:2"),
    ("Tour 3: fin", f"Tour 3{NB}: fin"),  # a digit on one side only: not a time
    ("voir:2", f"voir{NB}:2"),
])
def test_french_marks_take_a_no_break_space(typed, out):
    assert typeset(typed, "fr") == out


@pytest.mark.parametrize("typed,out", [
    ("1-3", "1–3"), ("10.1-10.4", "10.1–10.4"), ("(1-2)", "(1–2)"),
    ("2-1-6", "2-1-6"), ("d6-1", "d6-1"), ("1-3a", "1-3a"), ("-1-3", "−1-3"),
    ("-1", "−1"), ("x -3", "x −3"), ("[-4]", "[−4]"), ("+1/-1", "+1/−1"), ("a-1", "a-1"), ("- 1", "- 1"),
    ("a--b", "a—b"), ("a -- b", "a — b"), ("a - b", "a — b"), ("a-- b", "a-- b"), ("--", "--"),
    ("so...", "so…"), ("....", "…."),
])
def test_dashes_minus_and_ellipsis(typed, out):
    assert typeset(typed, "en") == out


def test_a_factor_line_keeps_its_hyphen_but_a_minus_is_still_a_minus():
    assert typeset("4-3", "en", factors=True) == "4-3"
    assert typeset("4 -1", "en", factors=True) == "4 −1"
    assert typeset("4-3 x", "en", factors=True) == "4–3 x"  # words in it: a range


def test_a_kept_span_is_copied_as_it_is():
    text = "'a' 1-3 -2 ... x? \"b\""
    assert typeset(text, "en", keep=[(0, len(text))]) == text
    assert typeset(text, "fr", keep=[(0, len(text))]) == text
    assert typeset("1-3 and 1-3", "en", keep=[(0, 3)]) == "1-3 and 1–3"
    assert typeset("x? y?", "fr", keep=[(1, 2)]) == f"x? y{NB}?"


def test_each_input_character_knows_where_it_landed():
    out, where = typeset_spans("a...b", "en")
    assert out == "a…b" and where == [0, 1, 2, 2, 2, 3]  # the dots merged into "…" point past it
    out, where = typeset_spans('"Oui?"', "fr")
    assert out == f"«{NB}Oui{NB}?{NB}»"
    assert where == [0, 2, 3, 4, 5, 7, 9]
    assert typeset_spans("", "en") == ("", [0])
    assert typeset_spans("ab", None) == ("ab", [0, 1, 2])


def test_a_per_language_text_is_picked_and_set():
    text = {"ja": "ヘルム峡谷の'砦'", "en": "Helm's Deep"}
    assert printed(text, "en") == "Helm’s Deep"
    assert printed(text, "ja") == "ヘルム峡谷の'砦'"
