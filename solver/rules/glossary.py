"""Glossaries: agreed translations of terms, per game (`rules/glossary.yaml`) and shared
(`data/glossaries/<name>.yaml`, pulled in with `include:`).

A term is a dict of language -> form. Matching in Japanese is by substring (Japanese has no word
boundaries: ホビット庄 must match inside ホビット庄から); in Latin scripts it is case-insensitive and
also by substring, so `saboteur` accepts `Saboteurs` (list irregular forms under `also`).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field, model_validator

from ..errors import DataError, display_path
from ..game.base import ID_PATTERN, LANG_PATTERN, Model
from ..game.folders import DATA_DIR
from ..game.validate import validate
from ..game.filememo import TextMemo
from ..game.yamlsrc import Locator, parse_yaml, read_text

GLOSSARIES_DIR = DATA_DIR / "glossaries"


class Term(Model):
    model_config = {"extra": "allow"}  # the language keys (ja, en, ...) are the extra fields
    also: dict[str, list[str]] = Field({}, description="other accepted forms per language")
    note: str | None = Field(None, description="what the term means, for players: printed in the glossary")
    defined_in: str | None = Field(None, description="the id of the clause that defines the term: where the "
                                   "book uses it earlier, its first use cites that clause, 'trick (4.4)'")
    maintainer_note: str | None = Field(None, description="for translators and maintainers (why this form, "
                                        "which source spells it so): never printed")

    @model_validator(mode="after")
    def _langs(self) -> "Term":
        forms = self.forms()
        if len(forms) < 2:
            raise ValueError("a term needs at least two languages, like {ja: お邪魔者, en: saboteur}")
        for k, v in forms.items():
            if not re.match(LANG_PATTERN, k):
                raise ValueError(f"unknown key {k!r}: a term has language codes (ja, en), also, note, "
                                 "defined_in and maintainer_note")
            if not isinstance(v, str) or not v.strip():
                raise ValueError(f"term form {k!r} must be a non-empty string")
        return self

    def forms(self) -> dict[str, str]:
        return dict(self.model_extra or {})

    def accepted(self, lang: str) -> list[str]:
        main = self.forms().get(lang)
        return ([main] if main else []) + list(self.also.get(lang, []))


class GlossaryFile(Model):
    include: list[str] = Field([], description="shared glossaries under data/glossaries/, by name")
    title: str | None = None
    terms: list[Term] = []

    @model_validator(mode="after")
    def _names(self) -> "GlossaryFile":
        for name in self.include:
            if not re.match(ID_PATTERN, name):
                raise ValueError(f"include {name!r} is not a glossary name like middle-earth")
        return self


@dataclass(frozen=True)
class Entry:
    term: Term
    origin: str  # "path:line", so a finding can point at the agreed term
    # Each language's form, unfolded and folded, computed once: QA asks for them for every
    # unit of every rulebook (hundreds of thousands of look-ups for the wargame).
    forms: dict[str, str] = field(init=False, compare=False, repr=False)
    folded: dict[str, str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        forms = self.term.forms()
        object.__setattr__(self, "forms", forms)
        object.__setattr__(self, "folded", {k: fold(v) for k, v in forms.items()})


@lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Compare forms after NFKC (full-width Latin, ligatures) and case folding."""
    return unicodedata.normalize("NFKC", text).casefold()


def contains(text: str, form: str) -> bool:
    return fold(form) in fold(text)


KEEP_GLOSSARIES = 16  # glossary files kept, by file and text (the example games have 6)
_FILES: TextMemo[tuple[GlossaryFile, Locator, tuple[Entry, ...]]] = TextMemo(KEEP_GLOSSARIES)


def load_glossary(path: Path, _seen: tuple[str, ...] = ()) -> list[Entry]:
    """The terms of a glossary file and of everything it includes (game terms first, so they win).
    Each file is parsed once per process for the same text (solver/game/filememo.py): a build asks
    for a game's glossary in every unit that checks or prints its rules."""
    gfile, loc, own = _glossary_file(path)
    entries = list(own)
    for ii, name in enumerate(gfile.include):
        inc = GLOSSARIES_DIR / f"{name}.yaml"
        if name in _seen:
            raise DataError([loc.problem(("include", ii), f"glossary {name!r} includes itself",
                                         "remove the circular include")])
        if not inc.is_file():
            known = ", ".join(sorted(p.stem for p in GLOSSARIES_DIR.glob("*.yaml"))) or "none"
            raise DataError([loc.problem(("include", ii), f"no shared glossary {name!r}",
                                         f"use one of: {known}")])
        entries += load_glossary(inc, _seen + (name,))
    return dedupe(entries)


def _glossary_file(path: Path) -> tuple[GlossaryFile, Locator, tuple[Entry, ...]]:
    shown = display_path(path)
    return _FILES.get(shown, read_text(path, shown), lambda text: _parse_glossary(text, shown))


def _parse_glossary(text: str, shown: str) -> tuple[GlossaryFile, Locator, tuple[Entry, ...]]:
    data, loc = parse_yaml(text, shown)
    gfile, problems = validate(GlossaryFile, data, loc)
    if problems:
        raise DataError(problems)
    return gfile, loc, tuple(Entry(t, f"{loc.path}:{loc.at(('terms', i))[0]}") for i, t in enumerate(gfile.terms))


def dedupe(entries: list[Entry]) -> list[Entry]:
    """First definition of a source form wins (a game may override a shared term)."""
    out: list[Entry] = []
    seen: set[object] = set()  # sorted (language, form) pairs of a term, and its first form
    for e in entries:
        key = tuple(sorted(e.forms.items()))
        first_form = next(iter(e.forms.values()))
        if key in seen or first_form in seen:
            continue
        seen.add(key)
        seen.add(first_form)
        out.append(e)
    return out


def terms_in(text: str, entries: list[Entry], lang: str) -> list[Entry]:
    """Glossary entries whose `lang` form occurs in `text`; a longer term hides the shorter ones it
    contains (黒の乗り手 found, so 乗り手 alone is not also demanded)."""
    folded = fold(text)  # once per text: QA calls this for every unit of every rulebook
    found: list[tuple[int, Entry, str]] = []
    for e in entries:
        form = e.folded.get(lang)
        if form and form in folded:
            found.append((len(e.forms[lang]), e, form))
    found.sort(key=lambda f: -f[0])
    kept: list[tuple[Entry, str]] = []
    for _, e, form in found:
        if any(form in longer and folded.count(form) <= folded.count(longer) for _, longer in kept):
            continue
        kept.append((e, form))
    return [e for e, _ in kept]
