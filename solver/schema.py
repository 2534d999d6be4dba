"""JSON Schemas for every data file, generated from the model so they never drift from it."""
from __future__ import annotations

import importlib
import json
from pathlib import Path

from .loader import OPTIONAL_FILES
from .model import ComponentsFile, GameMeta, SetupFile


def schemas() -> dict[str, dict]:
    out = {"game": GameMeta.model_json_schema(), "components": ComponentsFile.model_json_schema(),
           "setup": SetupFile.model_json_schema()}
    for filename, (_attr, target) in OPTIONAL_FILES.items():
        module, cls = target.split(":")
        out[filename.rsplit(".", 1)[0].replace("/", "-")] = getattr(importlib.import_module(module), cls).model_json_schema()
    return out


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, schema in schemas().items():
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": f"{name}.yaml", **schema}
        path = folder / f"{name}.schema.json"
        path.write_text(json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        paths.append(path)
    return paths
