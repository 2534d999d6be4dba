"""`pnp export`: a game's pieces as a print service or a virtual tabletop takes them.

One module per target; each writes output/<game>/export/<target>/ with a README.txt that says
how to upload or load it. TARGETS maps a target name to its function (by import path, so a
target's dependencies load only when it runs).
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Callable

TARGETS: dict[str, str] = {
    "pdf-cards": "generator.export.pdf_cards:export_pdf_cards",
    "tgc": "generator.export.tgc:export_tgc",
    "tts": "generator.export.tts:export_tts",
    "vassal": "generator.export.vassal:export_vassal",
}


def target_function(name: str) -> Callable[..., list[Path]]:
    module, func = TARGETS[name].split(":")
    return getattr(importlib.import_module(module), func)
