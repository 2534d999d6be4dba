"""docs/vocabulary.md lists exactly the keys the models accept, file by file: a key added to a model
without a line on the page, or a page line for a key no model reads, fails here."""
from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path

from pydantic import BaseModel

from solver.game.components import ComponentsFile
from solver.game.loader import optional_files
from solver.game.meta import GameMeta
from solver.game.setup import SetupFile
from solver.rules.glossary import GlossaryFile

PAGE = Path(__file__).resolve().parent.parent / "docs" / "vocabulary.md"


def _models(tp, out: list) -> None:
    if inspect.isclass(tp) and issubclass(tp, BaseModel):
        out.append(tp)
        return
    for arg in typing.get_args(tp):
        _models(arg, out)


def reachable() -> dict[str, type[BaseModel]]:
    """Every model a data file's keys reach, from the root model of each file."""
    roots = [GameMeta, ComponentsFile, SetupFile, GlossaryFile] + [m for _a, m in optional_files().values()]
    seen: dict[str, type[BaseModel]] = {}
    queue = list(roots)
    while queue:
        m = queue.pop(0)
        if m.__name__ in seen:
            continue
        seen[m.__name__] = m
        for f in m.model_fields.values():
            found: list = []
            _models(f.annotation, found)
            queue += found
    return seen


def documented() -> dict[str, set[str]]:
    """Model name -> the keys its table on the page lists."""
    out: dict[str, set[str]] = {}
    current = None
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            current = line[4:].strip()
            out.setdefault(current, set())
        elif current and (m := re.match(r"\| `([a-z_]+)` \|", line)):
            out[current].add(m.group(1))
    return out


def test_every_model_of_every_data_file_has_its_table():
    missing = sorted(set(reachable()) - set(documented()))
    assert missing == [], f"docs/vocabulary.md has no `### <Model>` table for {missing}"


def test_each_table_lists_exactly_the_keys_its_model_accepts():
    page = documented()
    for name, model in reachable().items():
        keys = {f.alias or k for k, f in model.model_fields.items()}
        assert page[name] == keys, (f"{name}: the page lacks {sorted(keys - page[name])}, "
                                    f"and lists keys the model refuses: {sorted(page[name] - keys)}")


def test_the_renamed_keys_are_in_the_page_under_their_new_spelling():
    from solver.game.renames import RENAMES

    text = PAGE.read_text(encoding="utf-8")
    for r in RENAMES:
        assert f"`{r.new}" in text and f"`{r.old}" in text
