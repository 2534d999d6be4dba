"""Which languages a game is built in: the source language, then every complete translation.

A translation is complete when every printed string of the game's data (component and item
names, face labels and texts, layout texts, map names and legends, the title) has it, every
unit of the rulebook's PO file is translated, and the program's own catalogue
(generator/catalogue.py, its PO file generator/locale/<lang>.po: calibration page, assembly pages,
rulebook headings) has the language. A language with anything missing is left out of
the build with one warning that counts what is missing and says where, so that no printed face
ever falls back to the source language in the middle of a translated sheet, unless it is a draft
(`drafts:` in game.yaml, or `--draft xx`): a draft is built with what it lacks in the source
language, each book and sheet page marked as a draft (pieces/draft.py), and one warning that counts what is missing.
`pnp rulebook --lang xx` still typesets a partial rulebook for its translators.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from pydantic import BaseModel

from solver.errors import DataError, Problem
from solver.game.base import LANG_PATTERN
from solver.game.loader import Game
from solver.game.objmemo import kept_for
from solver.rules.load import rules_of
from solver.rules.po import load_catalog, po_on_disk, po_path

_LANG = re.compile(LANG_PATTERN)
NEUTRAL = "und"  # a plain string in the data: the same in every language

# Data files whose localised strings are printed, with the keys that are not printed
# (notes to the designer and translator, never on a face).
PRINTED_FILES: dict[str, frozenset[str]] = {
    "game.yaml": frozenset({"notes", "gaps", "sources"}),
    "components.yaml": frozenset({"note"}),
    "layouts.yaml": frozenset(),
    "map.yaml": frozenset(),
}


@dataclass
class Missing:
    """What a language lacks: per file, how many strings and where the first one is."""
    lang: str
    places: dict[str, tuple[int, str]] = field(default_factory=dict)

    def add(self, filename: str, where: str, n: int = 1) -> None:
        count, first = self.places.get(filename, (0, where))
        self.places[filename] = (count + n, first)

    @property
    def count(self) -> int:
        return sum(n for n, _ in self.places.values())

    def summary(self) -> str:
        """`12 string(s) untranslated: data/games/x/components.yaml:14 and 3 more; rules/fr.po ...`."""
        parts = [f"{first} and {n - 1} more" if n > 1 else first for n, first in self.places.values()]
        return f"{self.count} string(s) untranslated: {'; '.join(parts)}"


def _is_localised(value: Any) -> bool:
    return (isinstance(value, dict) and bool(value)
            and all(isinstance(k, str) and _LANG.match(k) and isinstance(v, str) for k, v in value.items()))


def _localised(node: Any, path: tuple, skip: frozenset[str]) -> Iterator[tuple[tuple, dict[str, str]]]:
    """Every localised text under `node` with its path of keys and indexes (as in the YAML)."""
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            if name in skip:
                continue
            yield from _localised(getattr(node, name), path + (name,), skip)
    elif _is_localised(node):
        yield path, node
    elif isinstance(node, dict):
        for k, v in node.items():
            if k not in skip:
                yield from _localised(v, path + (k,), skip)
    elif isinstance(node, (list, tuple)):
        for i, v in enumerate(node):
            yield from _localised(v, path + (i,), skip)


def _data_roots(game: Game) -> Iterator[tuple[str, Any, tuple]]:
    """(file, model, path of the model inside that file) of every printed data file."""
    yield "game.yaml", game.meta, ()
    for ci, comp in enumerate(game.components):
        if comp.items_file:
            # items read from a sheet (CSV/XLSX): its locator knows rows by item index
            yield "components.yaml", comp.model_copy(update={"items": []}), ("components", ci)
            for ii, item in enumerate(comp.items):
                yield comp.items_file, item, (ii,)
        else:
            yield "components.yaml", comp, ("components", ci)
    for filename, attr in (("layouts.yaml", "layouts"), ("map.yaml", "map")):
        if game.extras.get(attr) is not None:
            yield filename, game.extras[attr], ()


def missing_translations(game: Game, lang: str) -> Missing:
    """Every printed string of `game` without a `lang` text, and the rulebook units untranslated.
    Worked out once per game object and text of its rulebook PO file (solver/game/objmemo.py):
    planning, the fingerprints, the manifest, the checker's coverage and the rulebooks each ask."""
    known = kept_for(game, ("missing translations", lang, po_on_disk(game.folder, lang)),
                     lambda: _missing_translations(game, lang), travels=True)
    return dataclasses.replace(known, places=dict(known.places))  # a copy: `add` changes it


def _missing_translations(game: Game, lang: str) -> Missing:
    src = game.meta.source_language
    missing = Missing(lang)
    if lang == src:
        return missing
    for filename, root, base in _data_roots(game):
        skip = PRINTED_FILES.get(filename, PRINTED_FILES["components.yaml"])
        for path, text in _localised(root, base, skip):
            if src in text and lang not in text and NEUTRAL not in text:
                missing.add(filename, game.where(filename, path))
    from . import catalogue

    words = catalogue.missing(lang)
    if words:
        po = f"generator/locale/{lang}.po"
        missing.add(po, f"{po} ({len(words)} of the program's own words, e.g. {words[0]}; "
                        f"see `pnp rules check {game.id} --lang {lang}`)", len(words))
    rules = rules_of(game)
    if rules is not None:
        units = rules.units()
        if not po_path(game.folder, lang).is_file():
            untranslated = len(units)
        else:
            catalog = load_catalog(game.folder, lang)
            untranslated = sum(catalog.get(u, text).text is None for u, text in units)
        if untranslated:
            po = f"rules/{lang}.po"
            missing.add(po, f"{po} ({untranslated} rulebook unit(s), see `pnp rules check {game.id} --lang {lang}`)",
                        untranslated)
    return missing


def with_drafts(game: Game, drafts: tuple[str, ...] | list[str]) -> Game:
    """`game` with `drafts` (from `--draft`) added to its draft languages, and to its languages
    where game.yaml does not list them yet (to try a new translation without editing it)."""
    if not drafts:
        return game
    meta = game.meta.model_copy(update={"languages": list(dict.fromkeys([*game.meta.languages, *drafts])),
                                        "drafts": list(dict.fromkeys([*game.meta.drafts, *drafts]))})
    return dataclasses.replace(game, meta=meta)


def language_name(code: str, lang: str) -> str:
    """The name of language `code` in `lang` (the catalogue's `language.` entries, English where
    `lang` lacks one); a language the catalogue does not name: its code."""
    from . import catalogue

    key = f"language.{code}"
    return catalogue.text(key, lang) if key in catalogue.MESSAGES else code


def is_draft(game: Game, lang: str) -> bool:
    return lang != game.meta.source_language and lang in game.meta.drafts


def game_languages(game: Game) -> list[str]:
    """The source language first, then the game's other languages in the order game.yaml gives."""
    src = game.meta.source_language
    return [src] + [lg for lg in game.meta.languages if lg != src]


def parse_requested(value: str | None, option: str = "--lang") -> list[str] | None:
    """`--lang ja,en` → ['ja', 'en'] (also `--draft fr,de`); None or empty → None (every complete language)."""
    if not value:
        return None
    langs = [v.strip() for v in value.split(",") if v.strip()]
    bad = [lg for lg in langs if not _LANG.match(lg)]
    if bad or not langs:
        raise DataError([Problem(option, 0, 0, f"{value!r} is not a list of language codes",
                                 f"write one code or a comma list, like {option} fr or {option} ja,fr")])
    return langs


def languages_to_build(game: Game, requested: list[str] | None, warn: Callable[[str], None]) -> list[str]:
    """The languages `pnp build` writes `game` in: the source language first, then every language
    whose translation is complete; `requested` (from `--lang`) narrows that list. Each language
    left out gets one warning saying why."""
    own = game_languages(game)
    if requested:
        for lg in requested:
            if lg not in own:
                warn(f"{game.id}: {lg} is not one of its languages ({', '.join(own)}); "
                     f"add it to `languages:` in game.yaml to translate it")
        candidates = [lg for lg in own if lg in requested]
    else:
        candidates = own
    out = []
    for lg in candidates:
        missing = missing_translations(game, lg)
        if missing.count and is_draft(game, lg):
            warn(f"{game.id}: built in {lg} as a draft (marked so on each book and sheet), {missing.summary()}; "
                 "the missing text is shown in the source language")
        elif missing.count:
            warn(f"{game.id}: not built in {lg}, {missing.summary()}; to build it anyway as a marked draft, "
                 f"list it under `drafts:` in game.yaml or give --draft {lg}")
            continue
        out.append(lg)
    return out
