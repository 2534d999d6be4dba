"""generator/text/hyphenate.py at its edges, against pyphen's patterns read directly here (with
the publishers' minimums: two letters before the hyphen, three after): the shortest word that may
break, punctuation on both sides, a regional variant's own patterns, a variant pyphen does not
know falling back to its language, and the words that never break."""
from __future__ import annotations

import pyphen
import pytest

from generator.text.hyphenate import hyphen_points, hyphenate


def pyphen_points(word: str, lang: str) -> list[int]:
    return pyphen.Pyphen(lang=lang, left=2, right=3).positions(word)


def test_a_five_letter_word_breaks_two_letters_in():
    assert pyphen_points("tiger", "en") == [2]  # ti-ger: two letters before, three after
    assert hyphen_points("tiger", "en") == [2]
    assert hyphenate("tiger", "en") == ["ti", "ger"]
    assert hyphen_points("tigers", "en") == [2]  # not tiger-s: three letters after the hyphen at least
    assert pyphen.Pyphen(lang="en", left=1, right=1).positions("tigers") == [2, 5]


@pytest.mark.parametrize("word,offset", [("(tigers),", 1), ("“hobbits”", 1), ("'hobbits'.", 1), ("tigers...", 0),
                                         ("incomprehensibilities,", 0)])  # the last: one mark, one letter less differs
def test_punctuation_on_either_side_is_kept_off_the_break(word, offset):
    core = word.strip("(),“”'.")
    assert hyphen_points(word, "en") == [offset + p for p in pyphen_points(core, "en")] != []


@pytest.mark.parametrize("word", ["(ab)", "...", "'abc'!", "ＨＯＢＢＩＴＳ", "ｈｏｂｂｉｔｓ", "hob1bits", "hobbits1", "2hobbits", "(hobbits)2", "Hobbits", "hob bits"])
def test_words_that_never_break(word):
    assert hyphen_points(word, "en") == []


def test_a_regional_variant_uses_its_own_patterns():
    word = "incomprehensibilities"
    us, gb = pyphen_points(word, "en_US"), pyphen_points(word, "en_GB")
    assert us != gb  # the two spellings' patterns differ on this word
    assert hyphen_points(word, "en-US") == hyphen_points(word, "en_US") == us
    assert hyphen_points(word, "en-GB") == gb


@pytest.mark.parametrize("lang", ["de-XX", "de_XX", "de-XX-1901"])
def test_a_variant_without_patterns_falls_back_to_its_language(lang):
    assert hyphen_points("silbentrennung", lang) == pyphen_points("silbentrennung", "de") == [3, 6, 10]


@pytest.mark.parametrize("lang", ["xx", "xx-YY", "ja", "zh-TW"])
def test_a_language_without_patterns_never_breaks(lang):
    assert hyphen_points("silbentrennung", lang) == []
    assert hyphenate("silbentrennung", lang) == ["silbentrennung"]
