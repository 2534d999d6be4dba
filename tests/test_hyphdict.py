"""generator/text/hyphdict.py reads pyphen's dictionaries into the patterns pyphen's own reading gives."""
import pyphen
import pytest

from generator.text import hyphdict
from generator.text.hyphenate import dictionary


def _theirs(path):
    return pyphen.HyphDict(path)  # pyphen's own reading: the reference


@pytest.mark.parametrize("lang", ["en_GB", "en_US", "fr", "nl_NL", "ru_RU", "el_GR", "th_TH", "pl_PL"])
def test_a_dictionary_read_as_pyphen_reads_it(lang):
    path = pyphen.LANGUAGES[lang]
    ours = hyphdict._made(pyphen, path)
    assert ours is not None
    assert vars(ours) == vars(_theirs(path))


@pytest.mark.parametrize("lang", ["de_DE", "hu_HU", "ca"])
def test_a_dictionary_with_lines_for_pyphen_is_left_to_it(lang):
    # ^^hh characters, / alternatives, digits in a row: pyphen's own reading
    assert hyphdict.patterns(hyphdict._read(pyphen.LANGUAGES[lang]), pyphen.ignored) is None


@pytest.mark.parametrize("text", [
    "UTF-8\nab1\nab0\n",                  # a later line of zeros only leaves the earlier pattern
    "UTF-8\nab1\nab3\n",                  # a later pattern with the same letters replaces it
    "UTF-8\n4ab\n.a0b5c0\n  x1y  \n",      # a digit first, zeros kept inside, spaces round a line
    "UTF-8\n% comment 1a\nLEFTHYPHENMIN 2\n\n#1b\né2ç\nß1\n",  # comments, options, letters beyond ASCII
    "ISO8859-1\n1ba\na2n1i\n",            # the encoding line names another codec
])
def test_lines_read_as_pyphen_reads_them(text):
    theirs, ours = _theirs(hyphdict._Text(text)), hyphdict._made(pyphen, hyphdict._Text(text))
    assert vars(ours) == vars(theirs)


def test_digits_beyond_ascii_are_left_to_pyphen():
    assert hyphdict.patterns("UTF-8\na\u0663b\n", pyphen.ignored) is None  # ARABIC-INDIC DIGIT THREE


def test_the_build_hyphenates_with_the_dictionary_read_here(monkeypatch):
    path = pyphen.LANGUAGES[pyphen.language_fallback("fr")]
    reference = _theirs(path)
    assert hyphdict._agrees()  # the probe, before pyphen's reading is watched
    read = []
    real_init = pyphen.HyphDict.__init__
    monkeypatch.setattr(pyphen.HyphDict, "__init__", lambda self, p: (read.append(p), real_init(self, p))[1])
    pyphen.hdcache.pop(path, None)
    dictionary.cache_clear()
    try:
        hd = dictionary("fr").hd
        assert read == []  # pyphen never read the file itself
        assert vars(hd) == vars(reference)
        for word in ("hyphénation", "règlement", "communauté", "anticonstitutionnellement"):
            assert hd.positions(word) == reference.positions(word)
    finally:
        dictionary.cache_clear()


def test_pyphen_reads_its_file_itself_when_its_insides_change(monkeypatch):
    real_init = pyphen.HyphDict.__init__

    def init(self, path):  # a pyphen whose HyphDict holds one more attribute
        real_init(self, path)
        self.extra = True

    monkeypatch.setattr(pyphen.HyphDict, "__init__", init)
    hyphdict._agrees.cache_clear()
    path = pyphen.LANGUAGES["it_IT"]
    kept = pyphen.hdcache.pop(path, None)
    try:
        assert not hyphdict._agrees()
        hyphdict.load(path)
        assert path not in pyphen.hdcache
    finally:
        hyphdict._agrees.cache_clear()
        if kept is not None:
            pyphen.hdcache[path] = kept
