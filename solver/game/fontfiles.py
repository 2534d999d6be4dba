"""The designer's own fonts: game.yaml `fonts: {en: fonts/MyFace.ttf}` (or a mapping of weights).

Font files are read with the same care as images: inside the game folder (links resolved), a
regular file, at most `limits.MAX_FONT_BYTES`, and a TrueType-outline font fontTools can read with
a character map; anything else is one located line at the `fonts:` entry. A face named by one
path takes its other weights from files beside it (`MyFace-Bold.ttf`, `MyFace-Italic.ttf`,
`MyFace-BoldItalic.ttf`; `MyFace-Regular.ttf` counts as `MyFace`), else the regular. Its licence is
the mapping's `licence:`, else what the font's name table states (the licence description, else
the copyright), for manifest.json. generator/fonts.py registers, embeds and subsets the files.
"""
from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, get_args

from ..errors import Problem
from . import limits
from .meta import FontFiles, FontId, GameMeta

ROLES = ("regular", "bold", "italic", "bold_italic")
SIBLING = {"bold": "-Bold", "italic": "-Italic", "bold_italic": "-BoldItalic"}


def is_font_file(choice: Any) -> bool:
    """A choice names files of the game folder (not a built-in face)."""
    return isinstance(choice, FontFiles) or (isinstance(choice, str) and choice not in get_args(FontId))


def role_paths(choice: str | FontFiles, folder: Path) -> dict[str, str]:
    """Each weight's path relative to the game folder: given, else a sibling that exists, else regular."""
    spec = choice if isinstance(choice, FontFiles) else FontFiles(regular=choice)
    out = {"regular": spec.regular}
    regular = Path(spec.regular)
    stem = regular.stem[:-len("-Regular")] if regular.stem.endswith("-Regular") else regular.stem
    for role, suffix in SIBLING.items():
        given = getattr(spec, role)
        sibling = regular.with_name(stem + suffix + regular.suffix)
        out[role] = given or (sibling.as_posix() if (folder / sibling).is_file() else spec.regular)
    return out


def font_file_paths(meta: GameMeta, folder: Path) -> list[Path]:
    """Every font file the game's `fonts:` uses (for build fingerprints: a changed file redraws)."""
    return sorted({folder / rel for choice in meta.fonts.values() if is_font_file(choice)
                   for rel in role_paths(choice, folder).values()})


def check_font_files(meta: GameMeta, folder: Path, locator: Any) -> list[Problem]:
    """One problem per unusable font file, at its `fonts:` entry (and role, for a mapping)."""
    problems: list[Problem] = []
    for lang, choice in meta.fonts.items():
        if not is_font_file(choice):
            continue
        for role, rel in role_paths(choice, folder).items():
            at = ("fonts", lang, role) if isinstance(choice, FontFiles) and getattr(choice, role) else ("fonts", lang)
            what = font_file_problem(folder, rel)
            if what:
                problems.append(locator.problem(at, what[0], what[1]))
    return problems


def font_file_problem(folder: Path, rel: str) -> tuple[str, str] | None:
    """(what is wrong, what to do) with one font file, or None when it can be embedded."""
    root = folder.resolve()
    path = (root / rel).resolve()
    if root not in path.parents:
        return f"font path {rel!r} leaves the game folder", "keep fonts inside the game folder, e.g. fonts/"
    if not path.exists():
        return f"font {rel!r} not found", "add the file to the game folder or fix the path"
    if not path.is_file():
        return f"font {rel!r} is not a regular file", "point it at a .ttf or .otf file"
    size = path.stat().st_size
    if size > limits.MAX_FONT_BYTES:
        return (f"font {rel!r} is {limits.size_text(size)}, more than the limit of "
                f"{limits.size_text(limits.MAX_FONT_BYTES)}", "use a smaller font file (one script, one weight)")
    return _font_contents_problem(path, rel)


def _font_contents_problem(path: Path, rel: str) -> tuple[str, str] | None:
    from fontTools.ttLib import TTFont, TTLibError

    try:
        with TTFont(str(path), lazy=True) as f:
            tables = set(f.keys())
            if "CFF " in tables or "CFF2" in tables:
                return (f"font {rel!r} has PostScript (CFF) outlines, which cannot be embedded here",
                        "use the TrueType (.ttf) version of the face")
            if not {"glyf", "cmap", "head", "hmtx"} <= tables or not f.getBestCmap():
                return f"font {rel!r} is not a usable TrueType font (no glyphs or no character map)", \
                    "re-export it as a TrueType (.ttf) font"
            fs_type = f["OS/2"].fsType if "OS/2" in tables else 0
            if fs_type == 0x0002 or fs_type & 0x0300:  # restricted, no subsetting, or bitmaps only
                return (f"font {rel!r} does not allow embedding a subset of it in a PDF (its fsType is {fs_type:#06x})",
                        "use a font whose licence allows embedding, e.g. one under the SIL Open Font License")
    except (TTLibError, OSError, ValueError, KeyError, AssertionError, struct.error) as e:
        return f"font {rel!r} is corrupt or unreadable ({type(e).__name__})", "re-export the font or use another file"
    return None


def font_licence(path: Path, given: str | None) -> str:
    """The licence to note in manifest.json: given, else the name table's licence or copyright."""
    if given:
        return given
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as f:
        name = f["name"]
        text = name.getDebugName(13) or name.getDebugName(0)
    return " ".join(text.split()) if text else "not stated in the font file"
