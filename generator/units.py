"""Work units of a build: one game × stage × part (a deck, a counter sheet, or the whole stage) × language.

A unit is the grain of incremental and parallel builds. Its fingerprint hashes exactly what it
reads: the slices of the validated model its stage uses, the game's image files, translations,
the font, the build options and the code of the project; when the fingerprint and the unit's
outputs are unchanged, the build skips it (generator/incremental.py).

`execute` runs one unit anywhere (this process, a process pool, a Dask worker): it builds into a
scratch folder and returns the files with the warnings, so that only the caller puts files in
place in the output folder. On the output's own disk (this process, a local pool) the scratch
folder is a hidden one in the output folder and the files come back as paths, moved into place
without ever being held in memory; on a Dask worker, which may share no disk with the caller, it is
a temporary folder of the worker and the files come back as bytes.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from solver.errors import DataError, Problem
from solver.game.fontfiles import font_file_paths

from .build import STAGES, Stage
from .context import BuildContext
from .output import scratch_folder, scratch_writes
from .render.ink import ink_mode

if TYPE_CHECKING:
    from solver.game.loader import Game

    from .preflight import Memo

ROOT = Path(__file__).resolve().parent.parent
# game-folder files that the model holds once validated (YAML, card lists) or that only the
# rulebook reads (PO); everything else in a game folder (images) is an asset of the drawing stages
MODEL_SUFFIXES = {".yaml", ".yml", ".csv", ".xlsx", ".po", ".pot", ".mo"}
# stages that print one file set per component (a deck, a counter sheet): a unit each
PER_COMPONENT = {"cards", "counters", "pieces"}
# stages whose output is the same in every language: one unit, in the first language built
LANGUAGE_FREE = {"check"}
# stages that run only when an option asks for them: the option's name in BuildContext
ASKED_FOR = {"packed": "packed"}
# a unit's scratch folder in the output folder: .pnp-unit.<pid>.<random>.part (swept when its process is gone)
SCRATCH = "pnp-unit"


@dataclass(frozen=True)
class Unit:
    game: str
    stage: str
    part: str | None  # a component id for PER_COMPONENT stages, else None (the whole stage)
    lang: str

    @property
    def key(self) -> str:
        return f"{self.stage}:{self.part or '*'}:{self.lang}"

    def __str__(self) -> str:
        return f"{self.game} {self.key}"


@dataclass
class UnitResult:
    unit: Unit
    # path relative to the output root -> the file's bytes, or the finished file in `scratch`
    files: dict[str, bytes | Path]
    warnings: list[str]
    problems: list[Problem] = dataclasses.field(default_factory=list)  # unusable input met while drawing
    preflight: dict[str, list] = dataclasses.field(default_factory=dict)  # findings of its PDFs, by file_key
    preflighted: list[str] = dataclasses.field(default_factory=list)  # its PDFs preflight read (not known before)
    scratch: Path | None = None  # the folder holding the files given as paths: the caller removes it


def stage_named(name: str) -> Stage:
    return next(s for s in STAGES if s.__name__ == name)


def plan(game: Game, ctx: BuildContext, only: set[str] | None = None) -> list[Unit]:
    """The units of one game, in stage order, each stage once per language the game is built in
    (generator/languages.py; --lang narrows them), but a stage that does not depend on the language
    only once. Warnings about languages left out go to ctx."""
    from .languages import languages_to_build, parse_requested

    langs = languages_to_build(game, parse_requested(ctx.lang), ctx.warn)
    units: list[Unit] = []
    for stage in STAGES:
        name = stage.__name__
        if only and name not in only or name in ASKED_FOR and not getattr(ctx, ASKED_FOR[name]):
            continue
        for lang in langs[:1] if name in LANGUAGE_FREE else langs:
            if name in PER_COMPONENT:
                units += [Unit(game.id, name, cid, lang) for cid in printed_components(game, name)]
            else:
                units.append(Unit(game.id, name, None, lang))
    return units


def printed_components(game: Game, kind: str) -> list[str]:
    """Ids of the components the `kind` stage ("cards", "counters" or "pieces") prints."""
    from .cards.deck import layouts_of, printable_items, sheet_of
    from solver.counts.effective import effective_counts

    from .coverage import printed_by_map
    from .pieces.punch import PUNCH_PRINTERS

    layouts = layouts_of(game)
    printers = PUNCH_PRINTERS if kind == "pieces" else (kind,)
    counts = effective_counts(game)  # a count proposed.yaml gives prints too (unless --stated-only)
    return [c.id for c in game.components if sheet_of(layouts, c) in printers and printable_items(c, counts)
            and not (kind == "pieces" and printed_by_map(game, c))]


def unit_game(game: Game, unit: Unit) -> Game:
    """The game as the unit's stage sees it: one component for a deck's unit."""
    if unit.part is None:
        return game
    # a sheet's list field may print another component's items (a card list): those stay readable
    listed = {"all_components": game.components} if unit.stage == "pieces" else {}
    return dataclasses.replace(game, components=[game.component(unit.part)], extras={**game.extras, **listed})


# --- fingerprints ---------------------------------------------------------------------------------

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


def _dump(value: Any, drop: dict[str, set[str]] | None = None, lang: str | None = None) -> Any:
    """A model as plain data, field by field with each model's class name (pydantic's own
    serializer guesses at tagged unions such as setup steps, and warns); `drop` leaves out
    fields per class name; `lang` keeps of each localised text what that language reads."""
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:
        left_out = (drop or {}).get(type(value).__name__, set())
        out: dict[str, Any] = {"@": type(value).__name__}
        for k in fields:
            if k in left_out:
                continue
            v = getattr(value, k)
            if lang and k in LOCAL_FIELDS and isinstance(v, dict):
                v = _local_view(v, lang)
            out[k] = _dump(v, drop, lang)
        return out
    if isinstance(value, (list, tuple)):
        return [_dump(v, drop, lang) for v in value]
    if isinstance(value, dict):
        return {str(k): _dump(v, drop, lang) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": type(value).__name__,
                **{f.name: _dump(getattr(value, f.name), drop, lang) for f in dataclasses.fields(value)}}
    return value


def _digest(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def hash_files(paths: Iterable[Path], root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(paths) if p.is_file()}


@lru_cache(maxsize=1)
def environment_digest() -> str:
    """The project's code and version, its own words (generator/locale/, and PNP_LOCALE's PO files),
    the libraries that draw, and the font: any change rebuilds all."""
    from importlib import metadata

    code = hash_files([p for d in ("generator", "solver") for p in (ROOT / d).rglob("*")
                       if p.suffix in (".py", ".ttf", ".otf", ".po", ".pot") and "__pycache__" not in p.parts], ROOT)
    extra = os.environ.get("PNP_LOCALE")
    locale = hash_files(sorted(Path(extra).glob("*.po")), Path(extra)) if extra and Path(extra).is_dir() else None
    versions: dict[str, str | None] = {}
    for dist in ("pnp-forge", "reportlab", "pillow", "svgwrite", "svglib", "matplotlib-fontja", "font-source-serif-pro",
                 "fonttools", "pyphen"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
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
    from solver.game.loader import DATA_DIR

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
    from solver.game.loader import DATA_DIR

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
    literals: set[str] = set()
    patterns = []
    for key, text in (kv for d in dumps for kv in _strings(d)):
        literals.add(os.path.normpath(text).replace(os.sep, "/"))
        if key == "src" and TEMPLATE.search(text) and TEMPLATE.sub("", text):  # `{art}` alone: its values are literals
            patterns.append(re.compile(".*".join(re.escape(part) for part in TEMPLATE.split(text))))
    used = {rel: h for rel, h in files.items() if rel in literals or any(p.fullmatch(rel) for p in patterns)}
    return files if any(rel.lower().endswith(".svg") for rel in used) else used


def fingerprint(game: Game, unit: Unit, ctx: BuildContext) -> str:
    """What the unit reads, by content: its slice of the validated model plus files and options."""
    folder = game.folder
    known_extras = {"layouts", "map", "rules"}
    # a data file added later by another capability is read by whoever wants it: count it for all
    other = {k: _dump(v) for k, v in sorted(game.extras.items()) if k not in known_extras}
    slice_: dict[str, Any] = {"meta": _dump(game.meta), "other": other}
    # the game's own font files, by content: every stage that prints text reads them
    slice_["fonts"] = hash_files(font_file_paths(game.meta, folder), folder) if game.meta.fonts else {}
    every_asset = hash_files([p for p in game_files(folder, ctx) if p.suffix.lower() not in MODEL_SUFFIXES], folder)
    assets = lambda *dumps: used_assets(every_asset, *dumps)  # noqa: E731
    if unit.stage == "manifest":
        slice_["meta"] = _dump(game.meta, lang=unit.lang)
        slice_["components"] = _dump(game.components, FACE_ONLY, unit.lang)
        slice_["source_language"] = game.meta.source_language  # manifest.json is written in it only
        # printed_in / left_out: the printers chosen in layouts.yaml, the map and rules present, the languages built
        slice_["layouts"] = _dump(game.extras.get("layouts"))
        slice_["map_id"] = getattr(game.extras.get("map"), "id", None)
        slice_["rules_present"] = game.extras.get("rules") is not None
        from .manifest import built_languages
        slice_["languages"] = built_languages(game)
    elif unit.stage in PER_COMPONENT:
        slice_["meta"] = _dump(game.meta, lang=unit.lang)
        slice_["component"] = _dump(game.component(unit.part), lang=unit.lang) if unit.part else None
        if unit.stage == "pieces":  # a card list prints other components' items
            slice_["listed"] = _dump(game.components, lang=unit.lang)
        slice_["layouts"] = _dump(game.extras.get("layouts"), lang=unit.lang)
        slice_["source_language"] = game.meta.source_language  # other languages' images go elsewhere
        slice_["assets"] = assets(slice_["component"], slice_["layouts"])  # a listed item prints no picture
    elif unit.stage == "maps":
        slice_["map"] = _dump(game.extras.get("map"))
        layouts = game.extras.get("layouts")  # a map draws the layouts' symbols, never a card's picture
        slice_["assets"] = assets(slice_["map"], _dump(layouts.symbols) if layouts is not None else None)
    elif unit.stage == "check":  # the checker: the inventory, the setup, the map, and what prints each component
        slice_["components"] = _dump(game.components, TEXT_ONLY)
        slice_["layouts"] = _dump(game.extras.get("layouts"))
        slice_["rules_present"] = game.extras.get("rules") is not None
        slice_["setup"] = _dump(game.setup)
        slice_["map"] = _dump(game.extras.get("map"))
    elif unit.stage == "rulebooks":  # the rules, and the components table and setup the checker derives
        slice_["components"] = _dump(game.components, TEXT_ONLY)
        # the list of what the sources lack names the pieces printed without their text
        slice_["without_text"] = sorted(f"{c.id}/{i.id}" for c in game.components for i in c.items if i.text is None)
        slice_["setup"] = _dump(game.setup)
        slice_["map"] = _dump(game.extras.get("map"))
        slice_["rules"] = _dump(game.extras.get("rules"))
        slice_["rules_files"] = hash_files([p for p in game_files(folder, ctx) if p.relative_to(folder).parts[0] == "rules"], folder)
        from solver.game.loader import DATA_DIR
        slice_["shared"] = hash_files(shared_data_files(), DATA_DIR)
    else:  # a stage added later: the whole model and every file of the game, until someone slices it
        slice_["components"] = _dump(game.components)
        slice_["setup"] = _dump(game.setup)
        slice_["extras"] = {k: _dump(v) for k, v in sorted(game.extras.items())}
        slice_["files"] = hash_files(game_files(folder, ctx), folder)
    return _digest({"unit": unit.key, "slice": slice_, "options": options_of(ctx), "env": environment_digest()})


# --- running one unit -----------------------------------------------------------------------------

def execute(game: Game, unit: Unit, ctx: BuildContext, scratch_in: Path | None = None) -> UnitResult:
    """Run one unit into a scratch folder and return what it wrote, with its warnings. Picklable in
    and out, so the same function runs in this process, a process pool or on a Dask worker. With
    `scratch_in` (the output root, on a disk the caller shares) the scratch folder is made there and
    the files are returned as paths in it; else (or when it cannot be written) as bytes."""
    scratch = scratch_folder(scratch_in, SCRATCH)
    handed_over = False
    try:
        uctx = dataclasses.replace(ctx, out_root=scratch, warnings=[], lang=unit.lang)
        try:
            # every surface the stage opens draws in the build's ink (render/ink.py); its files are
            # scratch, read back below (output.py: not flushed to the disk)
            with ink_mode(uctx.ink), scratch_writes():
                stage_named(unit.stage)(unit_game(game, unit), uctx)
        except DataError as e:  # returned, not raised: problems cross a process or network boundary as data
            return UnitResult(unit, {}, list(uctx.warnings), _outside(e.problems, scratch, ctx.out_root))
        # every file the stage left, not only those it returned: nothing it makes is lost
        paths = sorted(p for p in scratch.rglob("*") if p.is_file())
        checked: dict[str, list] = {}  # its PDFs' findings by file_key, and those preflight read
        read: list[str] = []
        if uctx.preflight:  # what a print shop would say of these PDFs, kept with the unit's warnings
            from .preflight import Memo

            _preflight(game, unit, uctx, paths, scratch, Memo(ctx.preflight_known, checked, read))
        if scratch_in is not None and scratch.parent == scratch_in:
            handed_over = True
            return UnitResult(unit, {p.relative_to(scratch).as_posix(): p for p in paths}, list(uctx.warnings),
                              preflight=checked, preflighted=read, scratch=scratch)
        return UnitResult(unit, {p.relative_to(scratch).as_posix(): p.read_bytes() for p in paths}, list(uctx.warnings),
                          preflight=checked, preflighted=read)
    finally:
        if not handed_over:
            shutil.rmtree(scratch, ignore_errors=True)


def _outside(problems: list[Problem], scratch: Path, out_root: Path) -> list[Problem]:
    """Problems naming a file in the scratch folder (a disk that filled up) name its place in the output."""
    from solver.errors import display_path

    inner, outer = display_path(scratch), display_path(out_root)
    return [dataclasses.replace(p, path=outer + p.path[len(inner):]) if p.path.startswith(inner) else p
            for p in problems]


def _preflight(game: Game, unit: Unit, uctx: BuildContext, paths: list[Path], scratch: Path, memo: "Memo") -> None:
    """Preflight's findings on the unit's PDFs as its warnings; a PDF an earlier build checked (`memo`)
    is not read again."""
    from .preflight import preflight
    from .typesize import min_type_of

    for finding in preflight(paths, scratch, safe_mm=uctx.safe_mm, min_type_pt=min_type_of(game.meta), memo=memo):
        uctx.warn(f"preflight {finding.level}: {finding}")
    if unit.stage == "check":  # once per game, from the model: pieces told apart by colour alone
        from .colourvision import colour_vision

        for line in colour_vision(game):
            uctx.warn(f"preflight warning: {line}")
