"""Access to a loaded game's rules and glossary.

`rules/clauses.yaml` is validated by the loader (registered in optional_files()) and arrives as
`game.extras["rules"]`; the glossary and PO files are read on demand, since only the rules
commands, the QA and the rulebook need them.
"""
from __future__ import annotations

from typing import Any

from .glossary import Entry, load_glossary
from .model import RulesFile


def rules_of(game: Any) -> RulesFile | None:
    return game.extras.get("rules")


def glossary_for(game: Any) -> list[Entry]:
    path = game.folder / "rules" / "glossary.yaml"
    return load_glossary(path) if path.is_file() else []
