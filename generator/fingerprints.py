"""Fingerprints of work units (generator/units.py): what a unit reads, by content.

A unit's fingerprint hashes exactly what it reads: the slices of the validated model its stage
uses, the game's image files, translations, the font, the build options and the code of the
project; when the fingerprint and the unit's outputs are unchanged, the build skips it
(generator/incremental.py). `game_inputs_digest` hashes a game folder without loading it (a no-op
build). Within one build each part of a game's model is dumped and hashed once (`fingerprint`'s memo).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator


from .context import BuildContext
from .units import PER_COMPONENT, Unit

if TYPE_CHECKING:
    from solver.game.loader import Game

ROOT = Path(__file__).resolve().parent.parent
# game-folder files that the model holds once validated (YAML, card lists) or that only the
# rulebook reads (PO); everything else in a game folder (images) is an asset of the drawing stages
MODEL_SUFFIXES = {".yaml", ".yml", ".csv", ".xlsx", ".po", ".pot", ".mo"}

# What only a piece's own faces print. The manifest lists components with names and counts; the
# checker (and the rulebooks, which print its setup table) reads counts, attributes and face
# attributes but never a card's rule text. Editing that text must not rebuild them.
FACE_ONLY = {"Item": {"text", "front", "back", "layout", "note"}, "Component": {"back", "layout", "note"}}
TEXT_ONLY = {"Item": {"text", "note"}, "Component": {"note"}}


# Localised texts ({ja: ..., en: ...}) in the model: a unit drawing in one language reads only the
# text `pick` returns (that language, else the neutral one, else the first given), so a Japanese
# edit does not redraw the English sheets.
LOCAL_FIELDS = {"name", "text", "note", "notes", "label", "title", "subtitle", "resolution"}


def _local_view(text: dict[str, Any], lang: str) -> dict[str, Any]:
    for key in (lang, "und"):
        if text.get(key):
            return {key: text[key]}
    return dict(list(text.items())[:1])


# values `_dump` returns as they are: most of a model's values, so they are passed through where
# they are met rather than by a call each (a cold build dumps some 100 000 values)
_LEAVES = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...] | None] = {}  # a class's pydantic fields (None: not a model)


def _dump(value: Any, drop: dict[str, set[str]] | None = None, lang: str | None = None) -> Any:
    """A model as plain data, field by field with each model's class name (pydantic's own
    serializer guesses at tagged unions such as setup steps, and warns); `drop` leaves out
    fields per class name; `lang` keeps of each localised text what that language reads."""
    cls = type(value)
    if cls in _LEAVES:
        return value
    if cls not in _FIELDS:
        fields = getattr(cls, "model_fields", None)
        _FIELDS[cls] = None if fields is None else tuple(fields)
    names = _FIELDS[cls]
    if names is not None:
        left_out = (drop or {}).get(cls.__name__, ())
        out: dict[str, Any] = {"@": cls.__name__}
        for k in names:
            if k in left_out:
                continue
            v = getattr(value, k)
            if lang and k in LOCAL_FIELDS and isinstance(v, dict):
                v = _local_view(v, lang)
            out[k] = v if type(v) in _LEAVES else _dump(v, drop, lang)
        return out
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _LEAVES else _dump(v, drop, lang) for v in value]
    if isinstance(value, dict):
        return {str(k): v if type(v) in _LEAVES else _dump(v, drop, lang) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": cls.__name__,
                **{f.name: _dump(getattr(value, f.name), drop, lang) for f in dataclasses.fields(value)}}
    return value


def _digest(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def hash_files(paths: Iterable[Path], root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(paths) if p.is_file()}


# a metadata text's version (core metadata: a header line of its own)
_VERSION_LINE = re.compile(r"^Version:[ \t]*(\S+)", re.MULTILINE)


@lru_cache(maxsize=1)
def environment_digest() -> str:
    """The project's code and version, its own words (generator/locale/, and PNP_LOCALE's PO files),
    the libraries that draw, and the font: any change rebuilds all."""
    from importlib import metadata

    code = hash_files([p for d in ("generator", "solver") for p in (ROOT / d).rglob("*")
                       if p.suffix in (".py", ".ttf", ".otf", ".po", ".pot") and "__pycache__" not in p.parts], ROOT)
    extra = os.environ.get("PNP_LOCALE")
    locale = hash_files(sorted(Path(extra).glob("*.po")), Path(extra)) if extra and Path(extra).is_dir() else None
    # each library by the version its installed metadata gives, read off the text's Version line:
    # metadata.version parses the whole text as an e-mail header block first (5 ms of a no-op
    # build's 0.22 s). Not the whole text: the same release's metadata differs by where it was
    # found (a checkout's stray pnp_forge.egg-info PKG-INFO, which `python -m generator.cli` run
    # there finds first, against the venv's METADATA, which `pnp` finds), and each then rebuilt all
    versions: dict[str, str | None] = {}
    for dist in ("pnp-forge", "reportlab", "pillow", "svgwrite", "svglib", "matplotlib-fontja", "font-source-serif-pro",
                 "fonttools", "pyphen"):
        try:
            found = metadata.distribution(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
            continue
        text = found.read_text("METADATA") or found.read_text("PKG-INFO") or found.read_text("")  # where .version reads it
        line = _VERSION_LINE.search(text or "")
        versions[dist] = line.group(1) if line else (hashlib.sha256(text.encode()).hexdigest() if text else None)
    font = os.environ.get("PNP_FONT")
    font_stat = None
    if font and Path(font).is_file():
        st = Path(font).stat()
        font_stat = [font, st.st_size, st.st_mtime_ns]
    return _digest({"code": code, "locale": locale, "versions": versions, "font": font_stat})


def options_of(ctx: BuildContext) -> dict[str, Any]:
    """The build options that change what a stage draws (not where it writes)."""
    return {f.name: getattr(ctx, f.name) for f in dataclasses.fields(ctx)
            if f.name not in ("out_root", "warnings", "lang", "preflight_known")}  # a unit carries its own language


def shared_data_files() -> list[Path]:
    """Data outside the game folders that stages read (shared glossaries)."""
    from solver.game.folders import DATA_DIR

    folder = DATA_DIR / "glossaries"
    return sorted(folder.rglob("*")) if folder.is_dir() else []


def game_files(folder: Path, ctx: BuildContext) -> list[Path]:
    """The files of a game folder that can feed a build: not hidden ones (.git, the build record),
    and not the build's own output when it is written inside the game folder (`pnp build .`)."""
    out = ctx.out_root.resolve()
    files = []
    for p in folder.rglob("*"):
        rel = p.relative_to(folder).parts
        if any(part.startswith(".") for part in rel) or not p.is_file():
            continue
        if p.resolve().is_relative_to(out):
            continue
        files.append(p)
    return files


def game_inputs_digest(folder: Path, ctx: BuildContext, only: set[str] | None) -> str:
    """Everything a game's build can read, by content, without loading the game: when it equals
    the recorded one and the outputs are in place, the whole game is skipped (a no-op build)."""
    from solver.game.folders import DATA_DIR

    files = hash_files(game_files(folder, ctx), folder)
    shared = hash_files(shared_data_files(), DATA_DIR)
    return _digest({"files": files, "shared": shared, "env": environment_digest(),
                    "options": options_of(ctx), "lang": ctx.lang, "only": sorted(only) if only else None})


TEMPLATE = re.compile(r"\{[^{}]*\}")


def _strings(obj: Any, key: str | None = None) -> Iterator[tuple[str | None, str]]:
    """Every string of a dumped slice, with the key it stands under."""
    if isinstance(obj, str):
        yield key, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(v, str(k))
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v, key)


def used_assets(files: dict[str, str], *dumps: Any) -> dict[str, str]:
    """The picture files (path -> hash) a unit can read: those its slice names literally (an item's
    `art: art/gold.png`, a symbol's `src`) or an image template matches (`src: art/{id}.png`), so a
    changed picture redraws only the sheets that use it (never the maps, for a card's art). An SVG
    among them may reference any other picture: then every picture counts."""
    if not files:  # a game with no pictures
        return {}
    literals: set[str] = set()
    patterns = []
    for key, text in (kv for d in dumps for kv in _strings(d)):
        literals.add(os.path.normpath(text).replace(os.sep, "/"))
        if key == "src" and TEMPLATE.search(text) and TEMPLATE.sub("", text):  # `{art}` alone: its values are literals
            patterns.append(re.compile(".*".join(re.escape(part) for part in TEMPLATE.split(text))))
    used = {rel: h for rel, h in files.items() if rel in literals or any(p.fullmatch(rel) for p in patterns)}
    return files if any(rel.lower().endswith(".svg") for rel in used) else used


def _part(memo: dict, value: Any, drop: dict[str, set[str]] | None = None, lang: str | None = None) -> tuple[Any, str]:
    """A part of the model dumped, and its digest, once per build: `memo` holds them by identity."""
    key = (id(value), id(drop), lang)
    if key not in memo:
        dumped = _dump(value, drop, lang)
        memo[key] = (value, dumped, _digest(dumped))  # the value kept: its id stays its own
    return memo[key][1], memo[key][2]


def _assets(memo: dict, parts: tuple[tuple[Any, str | None], ...]) -> dict[str, str]:
    """`used_assets` of some parts of the model (each with the language it is read in), once per build."""
    key = ("assets", *((id(v), lang) for v, lang in parts))
    if key not in memo:
        memo[key] = used_assets(memo["assets"], *(_part(memo, v, None, lang)[0] for v, lang in parts))
    return memo[key]


def fingerprint(game: Game, unit: Unit, ctx: BuildContext, memo: dict | None = None) -> str:
    """What the unit reads, by content: its slice of the validated model plus files and options.
    `memo` (one per game and build) dumps each part of the model and hashes the files once."""
    from solver.game.fontfiles import font_file_paths  # the game's models: a loaded game's only

    memo = {} if memo is None else memo
    folder, extras = game.folder, game.extras
    if "files" not in memo:
        memo["files"] = game_files(folder, ctx)
        memo["assets"] = hash_files([p for p in memo["files"] if p.suffix.lower() not in MODEL_SUFFIXES], folder)
    # a data file added later by another capability is read by whoever wants it: count it for all
    other = {k: _part(memo, v)[1] for k, v in sorted(extras.items()) if k not in {"layouts", "map", "rules"}}
    slice_: dict[str, Any] = {"meta": _part(memo, game.meta)[1], "other": other}
    # the game's own font files, by content: every stage that prints text reads them
    slice_["fonts"] = hash_files(font_file_paths(game.meta, folder), folder) if game.meta.fonts else {}
    slice_.update(_stage_slice(game, unit, memo))
    return _digest({"unit": unit.key, "slice": slice_, "options": options_of(ctx), "env": environment_digest()})


def _stage_slice(game: Game, unit: Unit, memo: dict) -> dict[str, Any]:
    """The parts of the model (by digest) and the files the unit's stage reads."""
    folder, extras, lang = game.folder, game.extras, unit.lang
    dump = lambda v, drop=None, lang=None: _part(memo, v, drop, lang)[1]  # noqa: E731
    assets = lambda *parts: _assets(memo, parts)  # noqa: E731
    slice_: dict[str, Any] = {}
    if unit.stage == "manifest":
        slice_["meta"] = dump(game.meta, lang=lang)
        slice_["components"] = dump(game.components, FACE_ONLY, lang)
        slice_["source_language"] = game.meta.source_language  # manifest.json is written in it only
        # printed_in / left_out: the printers chosen in layouts.yaml, the map and rules present, the languages built
        slice_["layouts"] = dump(extras.get("layouts"))
        slice_["map_id"] = getattr(extras.get("map"), "id", None)
        slice_["rules_present"] = extras.get("rules") is not None
        from .manifest import built_languages
        if "languages" not in memo:  # it reads the translations: once per build
            memo["languages"] = built_languages(game)
        slice_["languages"] = memo["languages"]
    elif unit.stage in PER_COMPONENT:
        slice_["meta"] = dump(game.meta, lang=lang)
        component = game.component(unit.part) if unit.part else None
        slice_["component"] = dump(component, lang=lang)
        if unit.stage == "pieces":  # a card list prints other components' items
            slice_["listed"] = dump(game.components, lang=lang)
        slice_["layouts"] = dump(extras.get("layouts"), lang=lang)
        slice_["source_language"] = game.meta.source_language  # other languages' images go elsewhere
        slice_["assets"] = assets((component, lang), (extras.get("layouts"), lang))  # a listed item prints no picture
    elif unit.stage == "maps":
        slice_["map"] = dump(extras.get("map"))
        layouts = extras.get("layouts")  # a map draws the layouts' symbols, never a card's picture
        slice_["assets"] = assets((extras.get("map"), None), (layouts.symbols if layouts is not None else None, None))
    elif unit.stage == "check":  # the checker: the inventory, the setup, the map, and what prints each component
        slice_["components"] = dump(game.components, TEXT_ONLY)
        slice_["layouts"] = dump(extras.get("layouts"))
        slice_["rules_present"] = extras.get("rules") is not None
        slice_["setup"] = dump(game.setup)
        slice_["map"] = dump(extras.get("map"))
    elif unit.stage == "rulebooks":  # the rules, and the components table and setup the checker derives
        slice_["components"] = dump(game.components, TEXT_ONLY)
        # the list of what the sources lack names the pieces printed without their text
        slice_["without_text"] = sorted(f"{c.id}/{i.id}" for c in game.components for i in c.items if i.text is None)
        slice_["setup"] = dump(game.setup)
        slice_["map"] = dump(extras.get("map"))
        slice_["rules"] = dump(extras.get("rules"))
        slice_["rules_files"] = hash_files([p for p in memo["files"] if p.relative_to(folder).parts[0] == "rules"], folder)
        from solver.game.folders import DATA_DIR
        slice_["shared"] = hash_files(shared_data_files(), DATA_DIR)
    else:  # a stage added later: the whole model and every file of the game, until someone slices it
        slice_["components"] = dump(game.components)
        slice_["setup"] = dump(game.setup)
        slice_["extras"] = {k: dump(v) for k, v in sorted(extras.items())}
        slice_["files"] = hash_files(memo["files"], folder)
    return slice_
