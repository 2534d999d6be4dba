"""The rulebook's own words (headings, table labels): the `rulebook.` keys of the program's one
catalogue, generator/catalogue.py. Game texts come from the data.
"""
from __future__ import annotations

from typing import Any

from generator import catalogue

def label(key: str, lang: str, **kw: Any) -> str:
    if key == "lang_name":  # a language's name, in `lang`; a language the catalogue lacks: its code
        from ..languages import language_name

        return language_name(kw["code"], lang)
    return catalogue.text(f"rulebook.{key}", lang, **kw)
