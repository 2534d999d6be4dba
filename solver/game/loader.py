"""Load a game folder into a validated `Game`, collecting every problem of the folder at once.

`load_game` reads top to bottom: game.yaml, components.yaml (with its card lists), setup.yaml,
the optional files, the checks across files, then every reference resolved. Each step records
what it read in a `_Reading` and appends its problems there; the folder is refused once, with
all of them (solver/game/validate.py turns pydantic errors into `path:line:col` problems).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..errors import DataError, Problem, display_path
from .folders import GAMES_DIR, game_ids, resolve_game_dir
from .fontfiles import check_font_files
from .meta import GameMeta
from .validate import validate
from .yamlsrc import Locator, load_yaml

if TYPE_CHECKING:  # imported where a whole game is read: `load_meta` (a no-op build, `pnp list`) needs none of them
    from .components import Component
    from .setup import AnyStep, SetupFile, Variant


def optional_files() -> dict[str, tuple[str, type[BaseModel]]]:
    """Optional files of a game folder, each validated by its own model: file name -> (attribute
    of Game, model). A capability that adds a data file registers it here. The models are imported
    here rather than at the top so that `pnp list` (game.yaml only) does not build them."""
    from .layouts import LayoutsFile
    from .map import MapFile
    from .designs import DesignFile
    from .proposals import ProposalsFile
    from .targets import TargetsFile
    from ..rules.model import RulesFile

    return {"layouts.yaml": ("layouts", LayoutsFile), "map.yaml": ("map", MapFile),
            "rules/clauses.yaml": ("rules", RulesFile), "proposed.yaml": ("proposed", ProposalsFile),
            "targets.yaml": ("targets", TargetsFile), "designed.yaml": ("designed", DesignFile)}


@dataclass
class Game:
    folder: Path
    meta: GameMeta
    components: list[Component]
    setup: SetupFile | None
    extras: dict[str, Any] = field(default_factory=dict)
    locators: dict[str, Locator] = field(default_factory=dict)
    notes: list[Problem] = field(default_factory=list)  # old spellings read (solver/game/renames.py)

    @property
    def id(self) -> str:
        return self.meta.id

    def component(self, cid: str) -> Component:
        for c in self.components:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def step(self, index: int) -> AnyStep:
        """Step `index` of setup.yaml; an index comes from a run of that setup, so it has one."""
        if self.setup is None:
            raise LookupError(f"{self.id} has no setup.yaml, so no step {index}")
        return self.setup.steps[index]

    def variant(self, vid: str) -> Variant:
        """Optional rule `vid` of setup.yaml (the loader has refused ids it does not declare)."""
        for v in self.setup.variants if self.setup else []:
            if v.id == vid:
                return v
        raise KeyError(vid)

    def has_component(self, cid: str) -> bool:
        return any(c.id == cid for c in self.components)

    def where(self, filename: str, loc: tuple[Any, ...] = ()) -> str:
        """`path:line` of a value, for findings that point at the data."""
        locator = self.locators.get(filename)
        if locator is None:
            return display_path(self.folder / filename)
        line, _ = locator.at(loc)
        return f"{locator.path}:{line}"


def load_meta(game: str | Path) -> GameMeta:
    """Only a game's game.yaml, validated: what `pnp list` shows, without loading the rest."""
    folder = resolve_game_dir(game)
    data, loc = load_yaml(folder / "game.yaml")
    meta, problems = validate(GameMeta, data, loc)
    if problems:
        raise DataError(problems)
    return meta


def load_game(game: str | Path) -> Game:
    """The game of a folder (or an id under data/games/), every file validated and every
    reference resolved; else `DataError` with every problem of the folder."""
    reading = _Reading(resolve_game_dir(game))
    meta = _read_meta(reading)
    components = _read_components(reading, meta)
    setup = _read_setup(reading, meta, components)
    extras = _read_optional_files(reading, components)
    reading.problems += _check_across_files(reading, meta, components, extras)
    if reading.problems:
        raise DataError(reading.problems)
    assert meta is not None
    loaded = Game(folder=reading.folder, meta=meta, components=components, setup=setup, extras=extras,
                  locators=reading.locators, notes=reading.notes)
    from .references import check_references  # every id the files name resolves (solver/game/references.py)
    problems = check_references(loaded)
    if problems:
        raise DataError(problems)
    return loaded


@dataclass
class _Reading:
    """What reading a folder has met so far: each file's locator, the problems that make the folder
    unusable, and notes on old spellings read."""
    folder: Path
    locators: dict[str, Locator] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)

    def read(self, filename: str, model: type[BaseModel], notes: bool = False) -> Any:
        """The file's value under `model`, or None when it is unusable (its problems recorded)."""
        data, loc = load_yaml(self.folder / filename)
        self.locators[filename] = loc
        value, problems = validate(model, data, loc, self.notes if notes else None)
        self.problems += problems
        return value


def _read_meta(reading: _Reading) -> GameMeta | None:
    meta: GameMeta | None = reading.read("game.yaml", GameMeta)
    folder = reading.folder
    if meta and meta.id != folder.name and (GAMES_DIR / folder.name) == folder:
        reading.problems.append(reading.locators["game.yaml"].problem(
            ("id",), f"id {meta.id!r} differs from its folder name {folder.name!r}", "rename the folder or the id"))
    return meta


def _read_components(reading: _Reading, meta: GameMeta | None) -> list[Component]:
    """components.yaml with the card lists its components name; ids unique across them all."""
    from .components import ComponentsFile
    from .items_files import duplicate_ids, load_items_file, too_many_pieces

    cpath = reading.folder / "components.yaml"
    if not cpath.exists():
        if meta is not None:
            reading.problems.append(Problem(display_path(cpath), 0, 0, "file not found",
                                            "add the game's components.yaml"))
        return []
    cfile: ComponentsFile | None = reading.read("components.yaml", ComponentsFile)
    if not cfile:
        return []
    cloc = reading.locators["components.yaml"]
    item_locators: dict[str, Locator] = {}
    for ci, comp in enumerate(cfile.components):
        if not comp.items_file:
            continue
        here = ("components", ci)
        if comp.items:
            reading.problems.append(cloc.problem(here + ("items_file",), "both items and items_file given",
                                                 "keep the list in one place"))
        items, rloc, problems = load_items_file(reading.folder, comp, here, cloc,
                                                meta.source_language if meta else "und")
        reading.problems += problems
        comp.items = items
        if rloc:
            reading.locators[comp.items_file] = rloc
            item_locators[comp.id] = rloc
    reading.problems += duplicate_ids(cfile.components, cloc, item_locators)
    reading.problems += too_many_pieces(cfile.components, cloc, item_locators)
    return cfile.components


def _read_setup(reading: _Reading, meta: GameMeta | None, components: list[Component]) -> SetupFile | None:
    from .cross_checks import check_cited, check_setup_refs
    from .setup import SetupFile

    if not (reading.folder / "setup.yaml").exists():
        return None
    setup: SetupFile | None = reading.read("setup.yaml", SetupFile, notes=True)
    sloc = reading.locators["setup.yaml"]
    if setup and components:
        reading.problems += check_setup_refs(setup, components, sloc, meta)
    if setup and meta and meta.sources:
        reading.problems += check_cited(setup, sloc)
    return setup


def _read_optional_files(reading: _Reading, components: list[Component]) -> dict[str, Any]:
    """The optional files present (optional_files()), each under its `Game.extras` name; a model
    with `check_references` checks what it names against the components."""
    extras: dict[str, Any] = {}
    for filename, (attr, model) in optional_files().items():
        if not (reading.folder / filename).exists():
            continue
        value = reading.read(filename, model, notes=True)
        if value is not None:
            check = getattr(value, "check_references", None)
            if check and components:
                reading.problems += check(components, reading.locators[filename])
            extras[attr] = value
    return extras


def _check_across_files(reading: _Reading, meta: GameMeta | None, components: list[Component],
                        extras: dict[str, Any]) -> list[Problem]:
    """The map cites its sources when game.yaml declares them; gaps name known components."""
    from .cross_checks import check_cited_map

    problems: list[Problem] = []
    if meta and meta.fonts:  # the designer's own font files: inside the folder, bounded, readable
        problems += check_font_files(meta, reading.folder, reading.locators["game.yaml"])
    if meta and meta.sources and "map" in extras:
        problems += check_cited_map(extras["map"], reading.locators["map.yaml"])
    problems += _printer_keys(components, extras.get("layouts"), reading.locators.get("components.yaml"))
    if meta and components:
        ids = {c.id for c in components} | {i.id for c in components for i in c.items}
        for gi, gap in enumerate(meta.gaps):
            if gap.component and gap.component not in ids:
                problems.append(reading.locators["game.yaml"].problem(
                    ("gaps", gi, "component"), f"unknown component {gap.component!r}", "use an id from components.yaml"))
    return problems


def _printer_keys(components: list[Component], layouts: Any, cloc: Locator | None) -> list[Problem]:
    """A key only one printer reads (`PRINTER_KEYS`: a deck's tuck box, a die's faces, a token's
    shape) on a component another printer prints would change nothing: refused where it stands."""
    from .components import PRINTER_BY_KIND, PRINTER_KEYS

    problems: list[Problem] = []
    for ci, comp in enumerate(components):
        said = layouts.components.get(comp.id) if layouts else None
        printer = said.print_as if said and said.print_as else PRINTER_BY_KIND.get(comp.kind, "none")
        for key, readers in PRINTER_KEYS.items():
            if getattr(comp, key) not in (None, []) and printer not in readers and cloc:
                prints = "is not printed" if printer == "none" else f"prints as {printer}"
                problems.append(cloc.problem(
                    ("components", ci, key), f"{key} is read only when a component prints as {_either(readers)}, "
                    f"and {comp.id!r} (kind {comp.kind}) {prints}",
                    f"remove {key}, or print it as {readers[0]} (layouts.yaml print_as)", key=True))
    return problems


def _either(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def load_all() -> list[Game]:
    return [load_game(g) for g in game_ids()]
