"""`game.yaml`: a game's titles, people, player counts, languages, fonts, sources and gaps."""
from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BeforeValidator, Field, ValidationInfo, field_validator, model_validator

from .base import LANG_PATTERN, Count, Id, LocalText, Model, check_local

# The text faces the project ships (generator/fonts.py FAMILIES holds their files and licences;
# tests/test_fonts.py keeps the two lists equal). Named here so that `pnp check` rejects an
# unknown face at its line, before any build.
FontId = Literal["ipaex-gothic", "source-serif"]
FONT_SUFFIXES = (".ttf", ".otf")


class FontFiles(Model):
    """A face of the designer's own: TrueType-outline files in the game folder, one per weight."""
    regular: str = Field(description="the regular weight, e.g. fonts/MyFace-Regular.ttf")
    bold: str | None = Field(None, description="default: `<name>-Bold.ttf` beside regular if there, else regular")
    italic: str | None = Field(None, description="default: `<name>-Italic.ttf` beside regular if there, else regular")
    bold_italic: str | None = Field(None, description="default: `<name>-BoldItalic.ttf` beside regular if there")
    licence: str | None = Field(None, description="the font's licence, for manifest.json; default: the licence "
                                                  "its own name table states")


def check_font_choice(v: object) -> object:
    """A built-in face's id, or a .ttf/.otf path; a typo is refused with both kinds named."""
    if isinstance(v, str) and v not in get_args(FontId) and not v.lower().endswith(FONT_SUFFIXES):
        raise ValueError(f"unknown font {v!r}: use ipaex-gothic, source-serif, or the path of a .ttf/.otf file "
                         "in the game folder (e.g. fonts/MyFace.ttf)")
    return v

class Range(Model):
    min: Count
    max: Count

    @model_validator(mode="after")
    def _ordered(self) -> "Range":
        if self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")
        return self


class SourceRef(Model):
    """Where facts came from: a seed text (by file) or a public source."""
    id: Id
    file: str | None = None
    title: str | None = None
    url_note: str | None = Field(None, description="how to find it; no live address needed")
    language: str | None = None


GapKind = Literal["assumption", "erratum", "unspecified", "discrepancy"]


class Gap(Model):
    """Something a source is silent on, ambiguous about or wrong about, made explicit."""
    id: Id
    kind: GapKind
    clause: str = Field(description="the seed and clause it concerns, e.g. 'seed 001, ドワーフカード'")
    text: LocalText
    player_counts: list[int] = []
    component: str | None = None
    resolution: LocalText | None = Field(None, description="what the data does about it")
    source: str | None = Field(None, description="the source of the resolution, if not the seed")

    _v = field_validator("text", "resolution", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))


class MinType(Model):
    """The smallest type a piece may carry, lowered from 6 pt for a reason (pnp preflight checks it)."""
    pt: float = Field(gt=0, lt=6, description="the smallest size in points, under the default 6 pt")
    reason: LocalText = Field(description="why this game's pieces need smaller type")

    _v = field_validator("reason", mode="before")(classmethod(lambda cls, v: check_local(v)))


class GameMeta(Model):
    id: Id
    title: LocalText
    subtitle: LocalText | None = None
    designer: list[LocalText] = Field([], description="names; {ja: ..., en: ...} where the name is written "
                                                        "differently per language, else a plain string")
    publisher: list[LocalText] = []
    year: int | None = None
    players: Range
    play_time_minutes: Range | None = None
    age_min: int | None = None
    source_language: str = Field(pattern=LANG_PATTERN)
    languages: list[str] = Field(default_factory=lambda: ["ja", "en"])
    drafts: list[Annotated[str, Field(pattern=LANG_PATTERN)]] = Field(
        [], description="languages of `languages` still being translated: built with what they lack shown in "
                        "the source language, each book marked as a draft; `pnp check` reports what they lack "
                        "as warnings (also `pnp build|check --draft xx`)")
    fonts: dict[Annotated[str, Field(pattern=LANG_PATTERN)],
                Annotated[FontId | str | FontFiles, BeforeValidator(check_font_choice)]] = Field(
        default_factory=dict, description="text face per language, e.g. {en: source-serif, ja: ipaex-gothic}, or a "
                                          "font file of the game folder ({en: fonts/MyFace.ttf}; weights beside it); "
                                          "default: ipaex-gothic for ja/zh/ko, source-serif for other languages")
    sources: list[SourceRef] = []
    gaps: list[Gap] = []
    notes: LocalText | None = None
    min_type: MinType | None = Field(None, description="lower the 6 pt minimum of type on pieces, with a reason")

    @field_validator("drafts")
    @classmethod
    def _drafts_are_languages(cls, v: list[str], info: ValidationInfo) -> list[str]:
        langs = info.data.get("languages") or []
        bad = [lg for lg in v if lg not in langs]
        if bad:
            raise ValueError(f"{', '.join(bad)} is not one of `languages:` ({', '.join(langs)}); add it there too")
        return v

    _v = field_validator("title", "subtitle", "notes", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))
    _names = field_validator("designer", "publisher", mode="before")(
        classmethod(lambda cls, v: [check_local(n) for n in v] if isinstance(v, list) else v))

