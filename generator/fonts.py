"""Fonts: one TrueType-outline font with Japanese and Latin glyphs, embedded and subset.

IPAex Gothic (IPA Font License, which allows embedding and redistribution) comes from the
`matplotlib-fontja` wheel, so a fresh machine with no system fonts still renders Japanese.
reportlab embeds TrueType fonts as subsets. `PNP_FONT` (a .ttf path) overrides the font.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from solver.errors import DataError, Problem

FONT_NAME = "PnpGothic"


def font_path() -> Path:
    override = os.environ.get("PNP_FONT")
    if override:
        path = Path(override)
    else:
        try:
            import matplotlib_fontja  # noqa: F401  (only its data file is used)
        except ImportError:
            raise DataError([Problem("matplotlib-fontja", 0, 0, "the Japanese font package is not installed",
                                     "run `pip install -e .` again (it declares matplotlib-fontja)")])
        path = Path(matplotlib_fontja.__file__).parent / "fonts" / "ipaexg.ttf"
    if not path.is_file():
        raise DataError([Problem(str(path), 0, 0, "font file not found",
                                 "set PNP_FONT to a TrueType (.ttf) font or reinstall matplotlib-fontja")])
    return path


@lru_cache(maxsize=None)
def register() -> str:
    """Register the font with reportlab once; returns its name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    path = font_path()
    try:
        pdfmetrics.registerFont(TTFont(FONT_NAME, str(path)))
    except TTFError as e:
        raise DataError([Problem(str(path), 0, 0, f"cannot use this font ({e})",
                                 "use a TrueType-outline .ttf font (CFF/OTF fonts are not supported)")])
    return FONT_NAME


@lru_cache(maxsize=None)
def covered_codepoints() -> frozenset[int]:
    from fontTools.ttLib import TTFont as FTFont

    with FTFont(str(font_path()), lazy=True) as f:
        return frozenset(f.getBestCmap().keys())


def missing_glyphs(text: str) -> list[str]:
    """Characters of `text` the font cannot draw (whitespace and controls ignored)."""
    cmap = covered_codepoints()
    return sorted({ch for ch in text if not ch.isspace() and ord(ch) >= 32 and ord(ch) not in cmap})


def require_glyphs(text: str, where: str) -> None:
    """A missing glyph is an error naming the character and where it occurs, never a silent gap."""
    missing = missing_glyphs(text)
    if missing:
        chars = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in missing)
        raise DataError([Problem(where, 0, 0, f"the font has no glyph for {chars}",
                                 "replace the character or set PNP_FONT to a font that has it")])


@lru_cache(maxsize=None)
def pil_font(size_px: int):
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path()), size_px)
