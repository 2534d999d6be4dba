"""Hyphen points for English come from pyphen's patterns; checked against dictionary syllabification."""
from generator.text.hyphenate import hyphen_points, hyphenate


def test_english_words_break_at_dictionary_syllables():
    # Merriam-Webster: hy·phen·a·tion, tour·na·ment, con·sti·tu·tion
    assert hyphenate("hyphenation", "en") == ["hy", "phen", "a", "tion"]
    assert hyphenate("tournament", "en") == ["tour", "na", "ment"]
    assert hyphen_points("constitution", "en") == [3, 6, 8]


def test_minimum_letters_either_side_of_the_hyphen():
    for word in ("every", "player", "reinforcements", "announcement", "immediately"):
        for p in hyphen_points(word, "en"):
            assert p >= 2 and len(word) - p >= 3, (word, p)


def test_punctuation_stays_off_the_break():
    assert hyphen_points("movement", "en") == [4]       # Merriam-Webster: move·ment
    assert hyphen_points("movement,", "en") == [4]
    assert hyphen_points("(movement", "en") == [5]      # the same break, one character further on


def test_words_that_must_not_break():
    assert hyphen_points("cat", "en") == []            # too short
    assert hyphen_points("NATO", "en") == []           # capitals: acronym
    assert hyphen_points("Fellowship", "en") == []     # a name stays whole
    assert hyphen_points("two-player", "en") == []     # breaks at its own hyphen only
    assert hyphen_points("A4-sized", "en") == []       # holds a digit
    assert hyphen_points("ドワーフ", "ja") == []         # Japanese has no hyphenation
    assert hyphen_points("hyphenation", "ja") == []    # no patterns for the language


def test_other_latin_languages_have_their_own_patterns():
    # Duden: Sil·ben·tren·nung; the English patterns do not know the German compound
    assert hyphenate("silbentrennung", "de") == ["sil", "ben", "tren", "nung"]
    assert hyphenate("silbentrennung", "en") != hyphenate("silbentrennung", "de")
