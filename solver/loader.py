"""Load a game folder into a validated `Game`, collecting every problem of a file at once.

pydantic errors carry a `loc` path; the `Locator` of the YAML file turns it into line:column,
so the user reads `data/games/x/setup.yaml:12:7: unknown key 'shufle'; ...` and never a traceback.
"""
from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from . import expr as _expr
from .errors import DataError, Problem, display_path
from .model import (CombineStep, Component, ComponentsFile, GameMeta, Item, RemoveStep, SetupFile,
                    step_kind)
from .renames import upgrade
from .yamlsrc import Locator, load_csv, load_yaml

def _data_dir() -> Path:
    """Where the example games and shared glossaries are: $PNP_DATA when set; else `data/` beside
    the code (a source checkout or an editable install); else the copy a wheel installs as the
    package `pnp_forge_data`. A game of your own can be anywhere: commands take its folder."""
    env = os.environ.get("PNP_DATA")
    if env:
        return Path(env).resolve()
    source = Path(__file__).resolve().parent.parent / "data"
    if source.is_dir():
        return source
    spec = importlib.util.find_spec("pnp_forge_data")
    if spec and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))).resolve()
    return source


DATA_DIR = _data_dir()
GAMES_DIR = DATA_DIR / "games"


def optional_files() -> dict[str, tuple[str, type[BaseModel]]]:
    """Optional files of a game folder, each validated by its own model: file name -> (attribute
    of Game, model). A capability that adds a data file registers it here. The models are imported
    here rather than at the top so that `pnp list` (game.yaml only) does not build them."""
    from .model_layout import LayoutsFile
    from .model_map import MapFile
    from .model_proposals import ProposalsFile
    from .rules.model import RulesFile

    return {"layouts.yaml": ("layouts", LayoutsFile), "map.yaml": ("map", MapFile),
            "rules/clauses.yaml": ("rules", RulesFile), "proposed.yaml": ("proposed", ProposalsFile)}


@dataclass
class Game:
    folder: Path
    meta: GameMeta
    components: list[Component]
    setup: SetupFile | None
    extras: dict[str, Any] = field(default_factory=dict)
    locators: dict[str, Locator] = field(default_factory=dict)
    notes: list[Problem] = field(default_factory=list)  # old spellings read (solver/renames.py)

    @property
    def id(self) -> str:
        return self.meta.id

    def component(self, cid: str) -> Component:
        for c in self.components:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def has_component(self, cid: str) -> bool:
        return any(c.id == cid for c in self.components)

    def where(self, filename: str, loc: tuple[Any, ...] = ()) -> str:
        """`path:line` of a value, for findings that point at the data."""
        locator = self.locators.get(filename)
        if locator is None:
            return display_path(self.folder / filename)
        line, _ = locator.at(loc)
        return f"{locator.path}:{line}"


def resolve_game_dir(game: str | Path) -> Path:
    """A game id under data/games/, or the path of a game folder anywhere."""
    p = Path(game)
    if (p / "game.yaml").is_file():
        return p
    candidate = GAMES_DIR / str(game)
    if (candidate / "game.yaml").is_file():
        return candidate
    known = ", ".join(game_ids()) or "none"
    raise DataError([Problem(str(game), 0, 0, "no such game",
                             f"give a game id ({known}) or the path of a folder with a game.yaml")])


def game_ids() -> list[str]:
    if not GAMES_DIR.is_dir():
        return []
    return sorted(p.name for p in GAMES_DIR.iterdir() if (p / "game.yaml").is_file())


def _real_loc(data: Any, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """Drop the parts of a pydantic loc that are not keys of the data (union tags, 'function-after')."""
    def has(node: Any, part: Any) -> bool:
        return (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node))

    out: list[Any] = []
    node = data
    for i, part in enumerate(loc):
        if not has(node, part):
            continue
        nxt = loc[i + 1] if i + 1 < len(loc) else None
        # A union tag can equal a real key ({use: dice, count: ...} tagged 'use'): skip it when
        # the next part belongs to this node rather than to the tagged child.
        if nxt is not None and not has(node[part], nxt) and has(node, nxt):
            continue
        out.append(part)
        node = node[part]
    return tuple(out)


_TODO = {
    "extra_forbidden": "remove it or check its spelling against data/schema/",
    "missing": "add it",
    "int_type": "write a whole number",
    "int_parsing": "write a whole number",
    "greater_than_equal": "counts cannot be negative; write 0 or more",
    "string_pattern_mismatch": "ids are lower-case kebab, like dwarf-blue-loyal",
    "literal_error": "use one of the listed values",
    "step-kind": "see data/schema/setup.schema.json for the step kinds",
}


def validate(model: type[BaseModel], data: Any, locator: Locator,
             notes: list[Problem] | None = None) -> tuple[Any, list[Problem]]:
    """The model's value and the problems that make `data` unusable. Old spellings of renamed keys
    (solver/renames.py) are read, with a note each appended to `notes`."""
    upgraded = upgrade(model, data, locator)
    if notes is not None:
        notes += upgraded
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = _real_loc(data, tuple(err["loc"]))
            etype = err["type"]
            msg = err["msg"].removeprefix("Value error, ")
            if etype == "extra_forbidden":
                key = err["loc"][-1]
                what = f"unknown key {key!r}"
                problems.append(locator.problem(loc, what, _TODO[etype], key=True))
                continue
            if etype == "missing":
                what = f"missing key {err['loc'][-1]!r}"
            else:
                field_name = ".".join(str(x) for x in loc) or "file"
                what = f"{field_name}: {msg[0].lower() + msg[1:] if msg else etype}"
                if etype.endswith("_type") and "input" in err:
                    what += f" (got {type(err['input']).__name__} {str(err['input'])[:40]!r})"
            problems.append(locator.problem(loc, what, _TODO.get(etype, "fix the value")))
        return None, problems


def _load_items_file(folder: Path, comp: Component, cloc: tuple, locator: Locator,
                     source_language: str) -> tuple[list[Item], Locator | None, list[Problem]]:
    """The items of a CSV or XLSX card list; what its columns mean is solver/columns.py."""
    from .columns import check_header, item_data, source_clashes

    rel = comp.items_file or ""
    path = (folder / rel).resolve()
    if folder.resolve() not in path.parents:
        return [], None, [locator.problem(cloc + ("items_file",), f"items_file {rel!r} leaves the game folder",
                                          "keep card lists inside the game folder")]
    if path.suffix.lower() == ".xlsx":
        from .sheets import load_xlsx
        rows, rloc = load_xlsx(path, sheet=comp.id)
    else:
        rows, rloc = load_csv(path)
    problems = check_header(rloc.columns, rows, rloc.path) + source_clashes(rloc.columns, source_language, rloc.path)
    if problems:
        return [], rloc, problems
    items = []
    for i, row in enumerate(rows):
        item, probs = validate(Item, item_data(row, source_language), Locator(rloc.path, {(): rloc.at((i,))}))
        problems += probs
        if item:
            items.append(item)
    return items, rloc, problems


def _step_refs(step: Any) -> list[tuple[str, str]]:
    """(field, component id) pairs a step refers to: its leading key names the component,
    except `remove` (a pick of items) and `combine` (a list of components)."""
    key = step_kind(step)
    value = getattr(step, key)
    if key == "remove":
        return [(key, value.component)]
    if key == "combine":
        return [(key, c) for c in value]
    return [(key, value)]


def load_meta(game: str | Path) -> GameMeta:
    """Only a game's game.yaml, validated: what `pnp list` shows, without loading the rest."""
    folder = resolve_game_dir(game)
    data, loc = load_yaml(folder / "game.yaml")
    meta, problems = validate(GameMeta, data, loc)
    if problems:
        raise DataError(problems)
    return meta


def load_game(game: str | Path) -> Game:
    folder = resolve_game_dir(game)
    problems: list[Problem] = []
    notes: list[Problem] = []
    locators: dict[str, Locator] = {}

    data, loc = load_yaml(folder / "game.yaml")
    locators["game.yaml"] = loc
    meta, probs = validate(GameMeta, data, loc)
    problems += probs
    if meta and meta.id != folder.name and (GAMES_DIR / folder.name) == folder:
        problems.append(loc.problem(("id",), f"id {meta.id!r} differs from its folder name {folder.name!r}",
                                    "rename the folder or the id"))

    components: list[Component] = []
    cpath = folder / "components.yaml"
    if cpath.exists():
        cdata, cloc = load_yaml(cpath)
        locators["components.yaml"] = cloc
        cfile, probs = validate(ComponentsFile, cdata, cloc)
        problems += probs
        if cfile:
            components = cfile.components
            seen: dict[str, tuple[Locator, tuple]] = {}
            for ci, comp in enumerate(components):
                here = ("components", ci)
                item_loc: tuple[Locator, tuple] | None = None
                if comp.items_file:
                    if comp.items:
                        problems.append(cloc.problem(here + ("items_file",), "both items and items_file given",
                                                     "keep the list in one place"))
                    items, rloc, probs = _load_items_file(folder, comp, here, cloc,
                                                             meta.source_language if meta else "und")
                    problems += probs
                    comp.items = items
                    if rloc:
                        locators[comp.items_file] = rloc
                        item_loc = (rloc, ())
                places: list[tuple[str, Locator, tuple[str | int, ...]]] = [(comp.id, cloc, here + ("id",))]
                for ii, it in enumerate(comp.items):
                    if item_loc:
                        places.append((it.id, item_loc[0], (ii,)))
                    else:
                        places.append((it.id, cloc, here + ("items", ii, "id")))
                for ref, locator, where in places:
                    if ref in seen:
                        first_loc, first_where = seen[ref]
                        first = f"{first_loc.path}:{first_loc.at(first_where)[0]}"
                        problems.append(locator.problem(where, f"duplicate id {ref!r} (first used at {first})",
                                                        "give each component and item its own id"))
                    else:
                        seen[ref] = (locator, where)
    elif meta is not None:
        problems.append(Problem(display_path(cpath), 0, 0, "file not found", "add the game's components.yaml"))

    setup = None
    spath = folder / "setup.yaml"
    if spath.exists():
        sdata, sloc = load_yaml(spath)
        locators["setup.yaml"] = sloc
        setup, probs = validate(SetupFile, sdata, sloc, notes)
        problems += probs
        if setup and components:
            problems += _check_setup_refs(setup, components, sloc, meta)
        if setup and meta and meta.sources:
            problems += _check_cited(setup, sloc)

    extras: dict[str, Any] = {}
    for filename, (attr, model) in optional_files().items():
        path = folder / filename
        if not path.exists():
            continue
        xdata, xloc = load_yaml(path)
        locators[filename] = xloc
        value, probs = validate(model, xdata, xloc, notes)
        problems += probs
        if value is not None:
            check = getattr(value, "check_references", None)
            if check and components:
                problems += check(components, xloc)
            extras[attr] = value

    if meta and meta.sources and "map" in extras:
        problems += _check_cited_map(extras["map"], locators["map.yaml"])
    if meta and components:
        ids = {c.id for c in components} | {i.id for c in components for i in c.items}
        for gi, gap in enumerate(meta.gaps):
            if gap.component and gap.component not in ids:
                problems.append(loc.problem(("gaps", gi, "component"), f"unknown component {gap.component!r}",
                                            "use an id from components.yaml"))
    if problems:
        raise DataError(problems)
    assert meta is not None
    loaded = Game(folder=folder, meta=meta, components=components, setup=setup, extras=extras, locators=locators,
                  notes=notes)
    from .references import check_references  # every id the files name resolves (solver/references.py)
    problems = check_references(loaded)
    if problems:
        raise DataError(problems)
    return loaded


def _check_setup_refs(setup: SetupFile, components: list[Component], sloc: Locator, meta: GameMeta | None) -> list[Problem]:
    problems = []
    by_id = {c.id: c for c in components}
    piles: set[str] = set()  # piles named by `combine ... into:`, usable by later steps
    for si, step in enumerate(setup.steps):
        for fieldname, ref in _step_refs(step):
            if ref not in by_id and not (fieldname != "combine" and ref in piles):
                loc: tuple[str | int, ...] = ("steps", si, fieldname)
                if isinstance(step, CombineStep):
                    loc = loc + (step.combine.index(ref),)
                problems.append(sloc.problem(loc, f"unknown component id {ref!r}",
                                             f"use an id from components.yaml ({_near(ref, by_id)})"))
        if isinstance(step, CombineStep):
            piles.add(step.into)
        if isinstance(step, RemoveStep) and step.remove.component in by_id:
            comp_items = {i.id for i in by_id[step.remove.component].items}
            for ii, iid in enumerate(step.remove.items):
                if iid not in comp_items:
                    problems.append(sloc.problem(("steps", si, "remove", "items", ii),
                                                 f"unknown item {iid!r} in {step.remove.component!r}",
                                                 "use an item id of that component"))
    for ci, con in enumerate(setup.constraints):
        if con.of and con.of.component not in by_id:
            problems.append(sloc.problem(("constraints", ci, "of", "component"),
                                         f"unknown component id {con.of.component!r}",
                                         f"use an id from components.yaml ({_near(con.of.component, by_id)})"))
    if meta and setup.player_counts:
        for pi, n in enumerate(setup.player_counts):
            if not meta.players.min <= n <= meta.players.max:
                problems.append(sloc.problem(("player_counts", pi),
                                             f"player count {n} is outside game.yaml players {meta.players.min}-{meta.players.max}",
                                             "fix the list or the game's player range"))
    return problems + _check_variant_refs(setup, sloc, meta)


def _check_cited(setup: SetupFile, sloc: Locator) -> list[Problem]:
    """A game written from source texts (game.yaml `sources:`) says which clause each rule and
    optional rule follows; an original game has nothing to cite and is not asked to."""
    problems = []
    entries = [("constraints", i, c.id, c.source) for i, c in enumerate(setup.constraints)]
    entries += [("variants", i, v.id, v.source) for i, v in enumerate(setup.variants)]
    for section, i, eid, source in entries:
        if not source:
            problems.append(sloc.problem((section, i), f"{section[:-1]} {eid!r} has no `source:`",
                                         "name the clause it follows (game.yaml declares sources), "
                                         "e.g. source: 'seed 002, setup 5'"))
    return problems


def _check_cited_map(mapfile: Any, mloc: Locator) -> list[Problem]:
    """The map's assertions state what a source text says about the map: they name the clause."""
    return [mloc.problem(("assertions", i), "map assertion has no `source:`",
                         "name the clause that states it (game.yaml declares sources), e.g. source: 'seed 004, 2.5.5'")
            for i, a in enumerate(mapfile.assertions) if not a.source]


# expression fields of steps and constraints other than `when` (where variant() has no meaning)
_EXPR_FIELDS = {"steps": ("count", "each", "recipients"), "constraints": ("require", "value")}


def _check_variant_refs(setup: SetupFile, sloc: Locator, meta: GameMeta | None) -> list[Problem]:
    """`variants:` ids are unique and their counts are counts of the setup; `variant(id)` names a
    declared variant and appears only in a `when:`."""
    problems = []
    declared: dict[str, int] = {}
    if setup.player_counts:
        counts = set(setup.player_counts)
    elif meta:
        counts = set(range(meta.players.min, meta.players.max + 1))
    else:
        counts = set()
    for vi, var in enumerate(setup.variants):
        if var.id in declared:
            problems.append(sloc.problem(("variants", vi, "id"), f"duplicate variant id {var.id!r}",
                                         "give each optional rule its own id"))
        declared.setdefault(var.id, vi)
        for pi, n in enumerate(var.player_counts or []):
            if counts and n not in counts:
                problems.append(sloc.problem(("variants", vi, "player_counts", pi),
                                             f"variant {var.id!r}: player count {n} is not one the setup covers "
                                             f"({', '.join(map(str, sorted(counts)))})",
                                             "list only counts of setup.yaml player_counts (or game.yaml players)"))
    known = f"use one of: {', '.join(declared)}" if declared else "none is declared yet"
    for section, items in (("steps", setup.steps), ("constraints", setup.constraints)):
        for i, obj in enumerate(items):
            fields = [("when", obj.when)] + [(f, getattr(obj, f, None)) for f in _EXPR_FIELDS[section]]
            if section == "steps" and isinstance(obj, RemoveStep):
                fields.append((("remove", "each"), obj.remove.each))
            for fname, text in fields:
                if not isinstance(text, str):
                    continue
                loc: tuple[str | int, ...] = (section, i) + (fname if isinstance(fname, tuple) else (fname,))
                for call in _expr.calls(_expr.parse(text)):
                    if call.func != "variant":
                        continue
                    arg = call.args[0] if len(call.args) == 1 else None
                    vid = arg.value if isinstance(arg, _expr.Str) else getattr(arg, "name", None)
                    if fname != "when":
                        problems.append(sloc.problem(loc, f"variant() in {'.'.join(map(str, loc[2:]))}: it can only be used in `when:`",
                                                     "guard the step or constraint with `when: variant('id')` instead"))
                    elif vid is None:
                        problems.append(sloc.problem(loc, "variant() takes one variant id, e.g. variant('team-play')",
                                                     f"name a variant of setup.yaml `variants:` ({known})"))
                    elif vid not in declared:
                        problems.append(sloc.problem(loc, f"unknown variant id {vid!r}",
                                                     f"declare it under setup.yaml `variants:` ({known})"))
    return problems


def _near(ref: str, ids: dict[str, Any]) -> str:
    import difflib
    close = difflib.get_close_matches(ref, list(ids), n=1)
    return f"did you mean {close[0]!r}?" if close else "see `pnp show`"


def load_all() -> list[Game]:
    return [load_game(g) for g in game_ids()]
