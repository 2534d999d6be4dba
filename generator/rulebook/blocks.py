"""The blocks a rulebook is made of, before any page exists: headings, paragraphs and tables, each
holding one text per language (with its cross-reference links), and the book (`Content`) that lists
them. content.py and backmatter.py make them; typeset.py and tables.py set them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .strings import label


@dataclass(frozen=True)
class Link:
    start: int
    end: int
    anchor: str  # destination name in the PDF


@dataclass(frozen=True)
class Text:
    text: str
    links: tuple[Link, ...] = ()
    lang: str = ""  # the language it is written in where that is not the book's (a draft's untranslated text)


@dataclass
class Heading:
    anchor: str
    level: int  # 0: chapter/section, 1+: clause depth
    number: str  # "" for unnumbered chapters
    texts: dict[str, Text]
    outline: bool = True


@dataclass
class Para:
    kind: str  # text | item | note | example | definition
    texts: dict[str, Text]
    number: str = ""  # printed clause number for an untitled clause's first paragraph
    anchor: str = ""
    marker: str = ""  # list bullet or item number
    depth: int = 0


@dataclass
class TableBlock:
    header: dict[str, list[Text]]
    rows: dict[str, list[list[Text]]]
    depth: int = 0
    numeric_columns: tuple[int, ...] = ()
    shared: bool = False  # the same in every language: printed once, full width, in a side-by-side book
    column_langs: tuple[str, ...] = ()  # per column, the one language it holds whatever the book's ("": the book's)


@dataclass
class Content:
    langs: list[str]
    title: dict[str, str]
    subtitle: dict[str, str]
    facts: dict[str, list[str]]  # title-page lines per language
    blocks: list[Any] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # unit ids shown in the source language
    faces: dict[str, str] = field(default_factory=dict)  # lang -> text face id (generator/fonts.py)
    colophon: bool = True  # the last page says how the book was made (not on a list a player prints)
    drafts: list[str] = field(default_factory=list)  # languages of the book that are translation drafts (marked)


BULLET = "・"  # an unordered list item; the typesetter prints each language's own bullet (label "bullet")
OWN = "own"  # a list item whose text opens with its own mark ("a)"): the typesetter hangs it as the marker


def anchor_of(clause_id: str) -> str:
    return "clause-" + re.sub(r"[^A-Za-z0-9_-]", "_", clause_id)


def _plain(langs: list[str], value: dict[str, str] | str) -> dict[str, Text]:
    if isinstance(value, str):
        return {lang: Text(value) for lang in langs}
    return {lang: Text(value[lang]) for lang in langs}


def _labels(langs: list[str], key: str, **kw: Any) -> dict[str, Text]:
    """A heading or label of the catalogue in each language (in English, set as English, where the
    catalogue lacks the language: a draft's)."""
    from generator import catalogue

    def own(lang: str) -> str:
        name = f"rulebook.{key}"
        return "" if name not in catalogue.MESSAGES or catalogue.lang_of(name, lang) == lang else catalogue.SOURCE

    return {lang: Text(label(key, lang, **kw), lang=own(lang)) for lang in langs}
