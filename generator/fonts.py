"""Fonts: the faces text is set in, each a TrueType-outline font from a Python package, embedded
and subset (reportlab embeds TrueType fonts as subsets), so a fresh machine with no system fonts
renders every language.

- IPAex Gothic (IPA Font License, which allows embedding and redistribution) from the
  `matplotlib-fontja` wheel: the project font, with Japanese and Latin glyphs, and the fallback
  for every character another face lacks (`register`, `font_path`). The environment variable
  `PNP_FONT` (a .ttf path) replaces this fallback face for every game: a machine-wide setting,
  not a game's look (a game picks its own faces in game.yaml).
- Source Serif Pro (SIL Open Font License) from the `font-source-serif-pro` wheel, with regular,
  italic, bold and bold italic: the Latin text face.

Which face a language is set in is data: `fonts: {en: source-serif}` in game.yaml, or a font
file of the game folder (`fonts: {en: fonts/MyFace.ttf}`, checked on loading by
solver/game/fontfiles.py; `game_family` names it by the hash of its files), else `DEFAULT_FACES` (CJK languages in IPAex Gothic, every other language in Source Serif). Every
printed thing takes its fonts from `faces(lang, game)`: rulebooks, card and counter faces, maps,
tiles and the calibration page. A character a face lacks (a Japanese term quoted in English
text, a ● the Latin face has no glyph for) is drawn in the project font (`runs`), and measured
that way (`string_width`). A font is named by its reportlab name everywhere; `font_file` gives
its file to the backends that read glyphs themselves (SVG outlines, Pillow).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
from array import array
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, repeat
from pathlib import Path
from typing import Any

from solver.errors import DataError, Problem
from solver.game.fontfiles import font_licence, is_font_file, role_paths
from solver.game.meta import FontFiles

FONT_NAME = "PnpGothic"


def font_path() -> Path:
    override = os.environ.get("PNP_FONT")
    if override:
        path = Path(override)
    else:
        # only its data file is used: the package is found, never imported (importing it loads
        # matplotlib, a second of every printing process's start)
        spec = importlib.util.find_spec("matplotlib_fontja")
        if spec is None or not spec.submodule_search_locations:
            raise DataError([Problem("matplotlib-fontja", 0, 0, "the Japanese font package is not installed",
                                     "run `pip install -e .` again (it declares matplotlib-fontja)")])
        path = Path(next(iter(spec.submodule_search_locations))) / "fonts" / "ipaexg.ttf"
    if not path.is_file():
        raise DataError([Problem(str(path), 0, 0, "font file not found",
                                 "set PNP_FONT to a TrueType (.ttf) font or reinstall matplotlib-fontja")])
    return path


@lru_cache(maxsize=None)
def register() -> str:
    """Register the font with reportlab once; returns its name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError

    path = font_path()
    try:
        pdfmetrics.registerFont(_ttfont_class()(FONT_NAME, str(path)))
    except TTFError as e:
        raise DataError([Problem(str(path), 0, 0, f"cannot use this font ({e})",
                                 "use a TrueType-outline .ttf font (CFF/OTF fonts are not supported)")])
    return FONT_NAME


@lru_cache(maxsize=1)
def _ttfont_class() -> type:
    """reportlab's TrueType font, measured as reportlab's pure-Python code measures it: the width
    of a string is 0.001 * size * the sum of its advances. reportlab's C accelerator (rl_accel)
    multiplies in another order, and its last-bit differences moved a rulebook table's edge by
    0.0001 pt: with this, a build gives the same bytes with or without the accelerator."""
    from reportlab.pdfbase.ttfonts import TTFont

    from .fontsubsets import keep_subsets

    class PnpTTFont(TTFont):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            keep_subsets(self)  # a subset embedded again is not made or formatted again

        def stringWidth(self, text: str | bytes, size: float, encoding: str = "utf8") -> float:
            if isinstance(text, bytes):
                text = text.decode(encoding or "utf8")
            # the same widths summed in the same order as rl_accel's, the lookups at C speed
            return 0.001 * size * sum(map(self.face.charWidths.get, map(ord, text), repeat(self.face.defaultWidth)))

    return PnpTTFont


@lru_cache(maxsize=None)
def covered_codepoints() -> frozenset[int]:
    return frozenset(ft_font(font_path()).getBestCmap().keys())


@lru_cache(maxsize=None)
def ft_font(path: Path) -> Any:
    """fontTools' reading of a font file, one a process, its tables decoded once for all who read
    them (the character tables and metrics here, the SVG backend's glyph outlines: each table read
    twice was 0.1 CPU-s of a cold build); read from its bytes in memory, so that no file is kept
    open (a forked process shares an open file's read position with its parent)."""
    from io import BytesIO

    from fontTools.ttLib import TTFont as FTFont

    return FTFont(BytesIO(path.read_bytes()), lazy=True)


def missing_glyphs(text: str, font: str | None = None) -> list[str]:
    """Characters of `text` that neither `font` nor the project font it falls back to (`runs`)
    can draw (whitespace and controls ignored); `font` None: the project font alone."""
    face = _cmap_of(font) if font and font != FONT_NAME else covered_codepoints()
    lacking = {ch for ch in text if not ch.isspace() and ord(ch) >= 32 and ord(ch) not in face}
    # the project font's own table is read only when the face lacks a character (an English card
    # set in Source Serif never needs it)
    return sorted(ch for ch in lacking if ord(ch) not in covered_codepoints()) if lacking else []


def require_glyphs(text: str, where: str, font: str | None = None) -> None:
    """A missing glyph is an error naming the character and where it occurs, never a silent gap."""
    missing = missing_glyphs(text, font)
    if missing:
        chars = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in missing)
        raise DataError([Problem(where, 0, 0, f"the font has no glyph for {chars}",
                                 "replace the character, or set the language in a font file that has it "
                                 "(game.yaml `fonts: {en: fonts/MyFace.ttf}`, docs/vocabulary.md)")])


# --------------------------------------------------------------------------- text faces per language

ROLES = ("regular", "italic", "bold", "bold-italic")


@dataclass(frozen=True)
class Family:
    """A text face: a file per role (a role it lacks falls back to regular)."""
    id: str
    name: str
    licence: str
    package: str  # the Python package that brings the files (a dependency in pyproject.toml)
    paths: tuple[tuple[str, Path], ...] = ()  # a face of the game folder (game.yaml `fonts:`): role -> file

    def files(self) -> dict[str, Path]:
        if self.paths:
            return dict(self.paths)
        if self.id == "ipaex-gothic":
            return {"regular": font_path()}
        try:
            import font_source_serif_pro
        except ImportError:
            raise DataError([Problem(self.package, 0, 0, f"the {self.name} font package is not installed",
                                     "run `pip install -e .` again (it declares " + self.package + ")")])
        folder = Path(font_source_serif_pro.font_directory)
        return {"regular": folder / "SourceSerifPro-Regular.ttf", "italic": folder / "SourceSerifPro-It.ttf",
                "bold": folder / "SourceSerifPro-Bold.ttf", "bold-italic": folder / "SourceSerifPro-BoldIt.ttf"}


FAMILIES: dict[str, Family] = {f.id: f for f in (
    Family("ipaex-gothic", "IPAex Gothic", "IPA Font License", "matplotlib-fontja"),
    Family("source-serif", "Source Serif Pro", "SIL Open Font License 1.1", "font-source-serif-pro"),
)}
CJK_LANGUAGES = ("ja", "zh", "ko")
DEFAULT_FACES = {lang: "ipaex-gothic" for lang in CJK_LANGUAGES}
DEFAULT_LATIN_FACE = "source-serif"


def face_of(lang: str, game: Any = None) -> Family:
    """The text face of `lang`: game.yaml's `fonts:` entry, else the default for its script.
    An unknown face is an error pointing at the game.yaml entry."""
    chosen = dict(getattr(getattr(game, "meta", None), "fonts", None) or {})
    base = lang.split("-")[0]
    fid = chosen.get(lang) or chosen.get(base) or DEFAULT_FACES.get(base, DEFAULT_LATIN_FACE)
    if is_font_file(fid):
        return game_family(game.folder, fid)
    if fid not in FAMILIES:
        key = lang if lang in chosen else base
        where = game.where("game.yaml", ("fonts", key)) if game is not None else "game.yaml"
        path, _, line = where.rpartition(":")
        raise DataError([Problem(path or where, int(line) if line.isdigit() else 0, 1 if line.isdigit() else 0,
                                 f"unknown font {fid!r} for {key}",
                                 f"use one of {', '.join(FAMILIES)}")])
    return FAMILIES[fid]


_GAME_FAMILIES: dict[str, Family] = {}


def game_family(folder: Path, choice: Any) -> Family:
    """A face of the game folder (checked on loading, solver/game/fontfiles.py), named by the hash
    of its files, so that the same files give the same PDF from any folder."""
    roles = role_paths(choice, folder)
    paths = {role.replace("_", "-"): (folder / rel).resolve() for role, rel in roles.items()}
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in paths.values())).hexdigest()[:12]
    fid = f"game-{digest}"
    if fid not in _GAME_FAMILIES:
        from fontTools.ttLib import TTFont as FTFont

        with FTFont(str(paths["regular"]), lazy=True) as f:
            name = f["name"].getDebugName(1) or Path(roles["regular"]).stem
        given = choice.licence if isinstance(choice, FontFiles) else None
        _GAME_FAMILIES[fid] = Family(fid, name, font_licence(paths["regular"], given), roles["regular"],
                                     tuple(sorted(paths.items())))
    return _GAME_FAMILIES[fid]


def game_font_notes(game: Any) -> list[dict[str, Any]]:
    """For manifest.json: each language set in a font file of the game folder, with its family name,
    files and licence (a print shop or publisher needs to know it may embed the font)."""
    out = []
    for lang, choice in sorted(game.meta.fonts.items()):
        if is_font_file(choice):
            family = game_family(game.folder, choice)
            files = sorted(dict.fromkeys(role_paths(choice, game.folder).values()))
            out.append({"language": lang, "family": family.name, "files": files, "licence": family.licence})
    return out


@lru_cache(maxsize=None)
def register_face(family_id: str, role: str = "regular") -> str:
    """Register one role of a face with reportlab once; returns its font name."""
    if family_id == "ipaex-gothic":
        return register()
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError

    family = FAMILIES.get(family_id) or _GAME_FAMILIES[family_id]
    files = family.files()
    path = files.get(role, files["regular"])
    if not path.is_file():
        raise DataError([Problem(str(path), 0, 0, "font file not found",
                                 f"reinstall {family.package}" if not family.paths else "put the file back")])
    name = f"Pnp-{family_id}-{role}"
    try:
        pdfmetrics.registerFont(_ttfont_class()(name, str(path)))
    except TTFError as e:  # a game's file that passed the loader's checks but not reportlab's
        raise DataError([Problem(str(path), 0, 0, f"cannot embed this font ({e})",
                                 "re-export it as a TrueType (.ttf) font or use another file")]) from None
    _FILE_OF[name] = path
    _FACE_OF[name] = (family_id, role)
    return name


_FILE_OF: dict[str, Path] = {}
_FACE_OF: dict[str, tuple[str, str]] = {}  # registered name -> (family id, role)


def styled(font: str, bold: bool, italic: bool) -> str:
    """The font of the same face with bold and/or italic added (card text's `**bold**`, `*italic*`);
    a face without that weight gives the file its family falls back to (IPAex Gothic: itself)."""
    if font not in _FACE_OF or not (bold or italic):
        return font
    family_id, role = _FACE_OF[font]
    bold = bold or role.startswith("bold")
    italic = italic or role.endswith("italic")
    return register_face(family_id, {(True, True): "bold-italic", (True, False): "bold",
                                     (False, True): "italic", (False, False): "regular"}[(bold, italic)])


def text_font(lang: str, role: str = "regular", game: Any = None) -> str:
    """The reportlab font name to set `lang` in (registering it on first use)."""
    return register_face(face_of(lang, game).id, role)


@dataclass(frozen=True)
class Faces:
    """The fonts one language is printed in (reportlab names): body text and weight for names
    and titles. A face without a bold (IPAex Gothic) gives its regular for `bold`."""
    regular: str
    bold: str


def faces(lang: str, game: Any = None) -> Faces:
    """The fonts of `lang` for game `game` (its `fonts:` in game.yaml, else the script's default)."""
    return Faces(text_font(lang, "regular", game), text_font(lang, "bold", game))


def font_file(font: str) -> Path:
    """The TrueType file of a registered font name."""
    if font == FONT_NAME:
        return font_path()
    if font not in _FILE_OF:
        raise KeyError(f"font {font!r} is not registered (fonts.text_font registers it)")
    return _FILE_OF[font]


def read_ahead(font: str) -> None:
    """Read now what measuring and placing text in `font` reads on first use (its advance widths,
    its character tables, its metrics), into this process's memos; nothing that keeps its file open
    (a forked process shares an open file's read position with its parent)."""
    _advance_table(font)
    _cmap_of(font)
    covered_codepoints()
    font_info(font)


@dataclass(frozen=True)
class FontInfo:
    """What the SVG backend says of a font (`font-weight`, `font-style`; `font-family`: `font_family`)
    and the vertical metrics layout code places baselines with: typographic ascender and descender
    in em, to 1/100 em (IPAex Gothic: 0.88 and 0.12; Source Serif: 0.73 and 0.27)."""
    bold: bool
    italic: bool
    ascent: float
    descent: float


@lru_cache(maxsize=None)
def font_info(font: str) -> FontInfo:
    f = ft_font(font_file(font))
    upm = f["head"].unitsPerEm
    os2 = f["OS/2"]
    style = f["head"].macStyle  # bit 0 bold, bit 1 italic
    return FontInfo(bool(style & 1), bool(style & 2), round(os2.sTypoAscender / upm, 2),
                    round(-os2.sTypoDescender / upm, 2))


@lru_cache(maxsize=None)
def font_family(font: str) -> str:
    """The family name an SVG gives for `font` (its names table, read only when an SVG is drawn)."""
    f = ft_font(font_file(font))
    return f["name"].getDebugName(16) or f["name"].getDebugName(1) or font


@lru_cache(maxsize=None)
def _cmap_of(font: str) -> frozenset[int]:
    if font == FONT_NAME or font not in _FILE_OF:
        return covered_codepoints()
    return frozenset(ft_font(_FILE_OF[font]).getBestCmap().keys())


def runs(s: str, font: str) -> list[tuple[str, str]]:
    """`s` cut into (text, font) runs: characters `font` lacks go to the project font."""
    if not s:
        return []
    if font == FONT_NAME:
        return [(s, font)]
    cmap = _cmap_of(font)
    if cmap.issuperset(map(ord, s)):  # the usual case, checked at C speed: one run
        return [(s, font)]
    out: list[tuple[str, str]] = []
    for ch in s:
        f = font if (ord(ch) in cmap or ch.isspace()) else register()
        if out and out[-1][1] == f:
            out[-1] = (out[-1][0] + ch, f)
        else:
            out.append((ch, f))
    return out


def string_width(s: str, font: str, size_pt: float) -> float:
    """Width in pt of `s` as drawn by `runs` (each character in the font that has it)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if font == FONT_NAME or _cmap_of(font).issuperset(map(ord, s)):
        table = _advance_table(font)
        if table is None:
            return stringWidth(s, font, size_pt)
        widths, default, _ = table
        # reportlab's own sum (rl_accel's instanceStringWidthTTF), with the lookups at C speed
        return 0.001 * size_pt * sum(map(widths.get, map(ord, s), repeat(default)))
    return sum(stringWidth(t, f, size_pt) for t, f in runs(s, font))


@lru_cache(maxsize=2048)  # a paragraph is set at several sizes and widths: book, booklet, a heading's trials
def advances(s: str, font: str) -> "array[float] | None":
    """Running sums of the advance widths of `s`'s characters in `font` (1000 units to the em),
    from 0 to the whole: `0.001 * size * (a[j] - a[i])` is `string_width(s[i:j], font, size)`
    bit for bit, because every advance is a multiple of 2^-16 and so every sum is exact. None
    when a character of `s` is drawn in the fallback face, or the font's advances are not exact.
    Shared by every caller (an array of doubles, 8 bytes a character): read it, never change it."""
    table = _advance_table(font)
    if table is None or not table[2] or not (font == FONT_NAME or _cmap_of(font).issuperset(map(ord, s))):
        return None
    widths, default, _ = table
    return array("d", accumulate(map(widths.get, map(ord, s), repeat(default)), initial=0))


@lru_cache(maxsize=None)
def _advance_table(font: str) -> tuple[dict[int, float], float, bool] | None:
    """A TrueType font's advance widths per code point (reportlab's, 1000 to the em), its default
    width, and whether every width is a multiple of 2^-16 (units per em a power of two or 1000:
    sums of them are then exact in any order). None for a font that is not TrueType."""
    from reportlab.pdfbase.pdfmetrics import getFont
    from reportlab.pdfbase.ttfonts import TTFont

    f = getFont(font)
    if not isinstance(f, TTFont):
        return None
    widths, default = f.face.charWidths, f.face.defaultWidth
    if default is None:
        return None
    exact = all(float(v * 65536).is_integer() and abs(v) < 1 << 20 for v in [default, *widths.values()])
    return widths, default, exact
