"""JSON Schemas for every data file, generated from the model so they never drift from it.

Writing them is the command's business (generator/commands/core.py, through the one atomic
writer in generator/output.py): solver/ returns documents and writes nothing.
"""
from __future__ import annotations

import json

from .game.components import ComponentsFile
from .game.loader import optional_files
from .game.meta import GameMeta
from .game.setup import SetupFile

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schemas() -> dict[str, dict]:
    """Schema name ("game", "components", "rules-clauses", ...) -> JSON Schema."""
    out = {"game": GameMeta.model_json_schema(), "components": ComponentsFile.model_json_schema(),
           "setup": SetupFile.model_json_schema()}
    for filename, (_attr, model) in optional_files().items():
        out[filename.rsplit(".", 1)[0].replace("/", "-")] = model.model_json_schema()
    return out


def schema_files() -> dict[str, str]:
    """File name ("game.schema.json", ...) -> its text, the same bytes every time."""
    return {f"{name}.schema.json": json.dumps({"$schema": JSON_SCHEMA_DIALECT, "title": f"{name}.yaml", **schema},
                                              ensure_ascii=False, indent=2, sort_keys=True) + "\n"
            for name, schema in schemas().items()}
