"""What one file of a game folder says, checked against the others: setup.yaml's steps and
constraints name components of components.yaml and counts of game.yaml, `variant(id)` names a
declared variant, and a game written from sources (game.yaml `sources:`) cites a clause for each
rule, optional rule and map assertion."""
from __future__ import annotations

import difflib
from typing import Any

from solver import expr as _expr
from ..errors import Problem
from .components import Component
from .meta import GameMeta
from .setup import CombineStep, RemoveStep, SetupFile, step_kind
from .yamlsrc import Locator


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


def check_setup_refs(setup: SetupFile, components: list[Component], sloc: Locator, meta: GameMeta | None) -> list[Problem]:
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
    return problems + _check_side_refs(setup, sloc) + _check_variant_refs(setup, sloc, meta)


def _check_side_refs(setup: SetupFile, sloc: Locator) -> list[Problem]:
    """`to:` and `chosen_by:` name a side of setup.yaml `sides:`."""
    sides = {s.id: s for s in setup.sides}
    problems = []
    for si, step in enumerate(setup.steps):
        for fieldname in ("to", "chosen_by"):
            ref = getattr(step, fieldname, None)
            if ref is not None and ref not in sides:
                known = f"use one of: {', '.join(sides)}" if sides else "declare it under setup.yaml `sides:`"
                problems.append(sloc.problem(("steps", si, fieldname), f"unknown side {ref!r}", known))
    return problems


def check_cited(setup: SetupFile, sloc: Locator) -> list[Problem]:
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


def check_cited_map(mapfile: Any, mloc: Locator) -> list[Problem]:
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
    close = difflib.get_close_matches(ref, list(ids), n=1)
    return f"did you mean {close[0]!r}?" if close else "see `pnp show`"
