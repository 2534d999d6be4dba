"""Mistakes that load without an error but print or play wrong: each a located warning.

A layout that names an attribute no item has (`{rank}` when the CSV's column is `rnak`) prints
nothing there; a column no layout, rule or setup names is data nobody reads; `twelve` in a column
of whole numbers is text where a number was meant; a game folder named differently from its id
is a game the commands find under a name it does not have. None stops a build, so each is a
warning at its file:line:column, with "did you mean" when a near name exists. `pnp check`
reports them (`check_usage`, in solver/checks.py's list).
"""
from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import Problem
from ..findings import CheckResult, Finding, Severity
from .base import folder_id
from .columns import ITEM_FIELDS, LOCAL_FIELDS, local_language
from .layouts import ATTR_SPAN, TEMPLATE_KEY, ByAttr, _texts

if TYPE_CHECKING:
    from .loader import Game

# Template keys that are no attribute (the vocabulary of solver/game/layouts.py): the item's own
# fields, its component, the face's fixed fields, every attribute at once.
RESERVED = {"id", "name", "text", "note", "count", "component", "component_id", "attrs",
            "face.label", "face.values", "face.colour"}
CODES = ("folder-name", "unknown-attribute", "unused-column", "not-a-number",
         "unknown-symbol")  # the findings' codes, for the build
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def usage_warnings(game: "Game") -> list[tuple[str, Severity, Problem]]:
    """Every finding of this module for `game` as (code, severity, problem). A column nobody reads
    is a warning when a layout reads a near name (a misspelling, most likely), else only info:
    a column kept as recorded data (what the source says of each card) is no mistake."""
    out: list[tuple[str, Severity, Problem]] = [("folder-name", "warning", p) for p in _folder_name(game)]
    out += [("unknown-attribute", "warning", p) for p in _layout_attributes(game)]
    out += [("unused-column", "warning" if p.todo.startswith("did you mean") else "info", p)
            for p in _unused_columns(game)]
    out += [("not-a-number", "warning", p) for p in _non_numbers(game)]
    out += [("unknown-symbol", "warning", p) for p in _unknown_symbols(game)]
    return out


def item_cell(game: "Game", comp: Any, index: int, key: str, lang: str | None = None) -> tuple[str, int, int]:
    """`path, line, column` of an item's field (`name`, `text`, or an attribute) in `lang`: the
    cell of its CSV/XLSX row and column (`text`, `text_ja`), else its key in components.yaml."""
    sheet = game.locators.get(comp.items_file or "")
    if sheet is not None:
        other = lang and lang != game.meta.source_language
        names = [f"{key}_{lang}", key] if other else [key, f"{key}_{lang}"]
        col = next((sheet.columns.index(n) + 1 for n in names if n in sheet.columns), 1)
        return sheet.path, sheet.at((index,))[0], col
    locator = game.locators["components.yaml"]
    ci = next(i for i, c in enumerate(game.components) if c is comp)
    path = ("components", ci, "items", index) + ((key,) if key in ("name", "text") else ("attrs", key))
    line, col = locator.at(path)
    return locator.path, line, col


def _unknown_symbols(game: "Game") -> list[Problem]:
    """`:lamp:` in an item's name or text with no such symbol: printed as typed, never fatal (every
    deck prints without a layouts.yaml), and located at its cell."""
    from .layouts import INLINE_SYMBOL, builtin_layouts

    layouts = game.extras.get("layouts")
    known = {s.id for s in builtin_layouts().symbols} | ({s.id for s in layouts.symbols} if layouts else set())
    problems = []
    for comp in game.components:
        for index, item in enumerate(comp.items):
            for key in ("name", "text"):
                for lang, text in (getattr(item, key) or {}).items():
                    for sid in dict.fromkeys(INLINE_SYMBOL.findall(text)):
                        if sid in known:
                            continue
                        problems.append(Problem(*item_cell(game, comp, index, key, lang),
                                                f"unknown inline symbol ':{sid}:' in the {key} of {item.id}; it "
                                                "prints as typed",
                                                near(sid, known, "define it under `symbols` in layouts.yaml: shapes, "
                                                     f"or a picture file (`- {{id: {sid}, src: icons/{sid}.png}}`)")))
    return problems


def check_usage(game: Any) -> CheckResult:
    """The CHECKS entry: each finding's source is `path:line:column`."""
    return CheckResult(findings=[Finding(severity, code, f"{p.what}; {p.todo}", f"{p.path}:{p.line}:{p.column}")
                                 for code, severity, p in usage_warnings(game)])


def near(name: str, known: set[str], fallback: str) -> str:
    """`did you mean 'rank'?` when a near name exists, else `fallback`."""
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else fallback


def _folder_name(game: "Game") -> list[Problem]:
    """A folder under data/games/ must match (the loader refuses it); anywhere else a name that
    gives another id (solver/game/base.py folder_id: `Lantern Test` gives lantern-test) warns."""
    if game.meta.id in (game.folder.name, folder_id(game.folder.name)) or "game.yaml" not in game.locators:
        return []
    return [game.locators["game.yaml"].problem(
        ("id",), f"id {game.meta.id!r} differs from its folder name {game.folder.name!r}",
        f"rename the folder to {game.meta.id} or the id to {folder_id(game.folder.name) or 'a kebab id'}")]


def _attribute_names(game: "Game") -> set[str]:
    """Every attribute any item, component or face of the game has."""
    names: set[str] = set()
    for comp in game.components:
        names |= set(comp.attrs)
        for it in comp.items:
            names |= set(it.attrs)
            for face in (it.front, it.back):
                names |= {f"face.{k}" for k in (face.attrs if face else {})}
    return names


def _keys(template: str) -> Iterator[str]:
    """The attribute names a template reads: `{attrs.rank|value}` -> rank, value."""
    for m in TEMPLATE_KEY.finditer(template):
        for alt in m.group(1).split("|"):
            alt = alt.strip()
            key = alt[6:] if alt.startswith("attrs.") else alt
            if key and key not in RESERVED and not key[0].isdigit():
                yield key


def _field_refs(f: Any, loc: tuple) -> Iterator[tuple[tuple, str]]:
    """(loc, attribute name) for each attribute a layout field names."""
    for attr in ("text", "symbol", "src"):
        for t in _texts(getattr(f, attr, None)):
            yield from ((loc + (attr,), k) for k in _keys(t))
    for attr in ("fill", "stroke", "colour", "background"):
        spec = getattr(f, attr, None)
        if isinstance(spec, ByAttr):
            yield from ((loc + (attr, "by"), k) for k in _keys("{" + spec.by + "}"))
        elif isinstance(spec, str):
            yield from ((loc + (attr,), k) for k in _keys(spec))
    for key in getattr(f, "where", {}) or {}:
        yield from ((loc + ("where", key), k) for k in _keys("{" + key + "}"))


def _layout_attributes(game: "Game") -> list[Problem]:
    """A layout field (text, symbol, image, colour, `where`) naming an attribute no item has."""
    layouts, locator = game.extras.get("layouts"), game.locators.get("layouts.yaml")
    if layouts is None or locator is None:
        return []
    known = _attribute_names(game)
    refs: list[tuple[tuple, str]] = []
    for li, lay in enumerate(layouts.layouts):
        refs += _field_refs(lay, ("layouts", li))
        for fi, f in enumerate(lay.fields):
            refs += _field_refs(f, ("layouts", li, "fields", fi))
    for cid, cl in layouts.components.items():
        for vi, v in enumerate(cl.item_layouts):
            refs += [(("components", cid, "item_layouts", vi, "where", k), k2)
                     for k in v.where for k2 in _keys("{" + k + "}")]
    plain = {k.removeprefix("face.") for k in known}
    return [locator.problem(loc, f"{name!r} names an attribute no item has, so it prints nothing",
                            near(name, known | plain, "add the column or attribute, or fix the name"),
                            key=loc[-2] == "where")
            for loc, name in refs if name not in known and name.removeprefix("face.") not in plain]


def _named_anywhere(game: "Game") -> set[str]:
    """Every word the setup, layouts, map, rules and other optional files write (keys, values,
    template keys): a column any of them names is used. Generous on purpose: a word in a rule's
    text counts, so a column is called unused only when nothing names it at all."""
    words: set[str] = set()
    stack: list[Any] = [m.model_dump(warnings=False) for m in [game.setup, *game.extras.values()] if hasattr(m, "model_dump")]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack += list(node.keys()) + list(node.values())
        elif isinstance(node, (list, tuple)):
            stack += list(node)
        elif isinstance(node, str):
            words |= set(_WORD.findall(node))
    return words


def _printed_positions(game: "Game", cid: str) -> set[int] | None:
    """The attribute positions (1-based) the component's layouts print by position (`{attrs.1}`,
    `{attrs.2-}`), or None when they print every attribute (`{attrs}`) or the component prints
    with the built-in face (no layout named, which does)."""
    layouts = game.extras.get("layouts")
    comp = game.component(cid)
    cl = layouts.components.get(cid) if layouts else None
    if layouts is None or (cl is None and comp.layout is None):
        return None
    lids = {comp.layout} | {it.layout for it in comp.items}
    if cl:
        lids |= {cl.front, cl.back} | {v.front for v in cl.item_layouts} | {v.back for v in cl.item_layouts}
    positions: set[int] = set()
    for lid in sorted(x for x in lids if x):
        for f in _effective_fields(layouts, lid):
            for t in _texts(f.text):
                for alt in (a.strip() for m in TEMPLATE_KEY.finditer(t) for a in m.group(1).split("|")):
                    if alt == "attrs":
                        return None
                    span = ATTR_SPAN.match(alt.removeprefix("attrs.")) if alt.startswith("attrs.") else None
                    if span:
                        first = int(span.group(1))
                        last = first if span.group(2) is None else int(span.group(3) or 10_000)
                        positions |= set(range(first, min(last, 10_000) + 1))
    return positions


def _effective_fields(layouts: Any, lid: str) -> list[Any]:
    """A layout's fields after `extends`: a child's field replaces its parent's of the same name,
    `drop` leaves inherited ones out (as generator/cards/ draws them)."""
    chain: list[Any] = []
    cur: str | None = lid
    while cur and cur not in {lay.id for lay in chain}:
        try:
            chain.append(layouts.layout(cur))
        except KeyError:
            break
        cur = chain[-1].extends
    fields: dict[Any, Any] = {}
    for lay in reversed(chain):
        for name in lay.drop:
            fields.pop(name, None)
        for i, f in enumerate(lay.fields):
            fields[f.name or (lay.id, i)] = f
    return list(fields.values())


def _attribute_columns(game: "Game") -> Iterator[tuple[Any, Any, int, str, int]]:
    """(component, locator of its card list, 1-based column, name, 1-based attribute position)
    of every attribute column."""
    for comp in game.components:
        sheet = game.locators.get(comp.items_file or "")
        if sheet is None:
            continue
        names = [n for n in sheet.columns if n and n not in ITEM_FIELDS and n not in LOCAL_FIELDS
                 and not local_language(n)]
        for col, name in enumerate(sheet.columns, start=1):
            if name in names:
                yield comp, sheet, col, name, names.index(name) + 1


def _unused_columns(game: "Game") -> list[Problem]:
    """A column of a card list that no layout, setup step or rule names, on a component whose
    layouts do not print every attribute: data nobody reads, often a misspelt name."""
    words = _named_anywhere(game)
    problems = []
    for comp, sheet, col, name, position in _attribute_columns(game):
        printed = _printed_positions(game, comp.id)
        if name in words or printed is None or position in printed:
            continue
        problems.append(Problem(sheet.path, 1, col, f"column {name!r} is used by no layout, rule or setup",
                                near(name, _wanted(game) - _attribute_names(game), "print it with a layout field (text: '{" + name
                                     + "}') if players need it; else it is kept as data only")))
    return problems


def _wanted(game: "Game") -> set[str]:
    """Attribute names the layouts read (what a misspelt column was probably meant to be)."""
    layouts = game.extras.get("layouts")
    if layouts is None:
        return set()
    out = {k for lay in layouts.layouts for f in [lay, *lay.fields] for _, k in _field_refs(f, ())}
    return out | {k.removeprefix("face.") for k in out}


def _non_numbers(game: "Game") -> list[Problem]:
    """`twelve` in a column whose other values are whole numbers: text where a number was meant."""
    problems = []
    for comp, sheet, col, name, _ in _attribute_columns(game):
        values = [(i, it.attrs.get(name)) for i, it in enumerate(comp.items) if it.attrs.get(name) is not None]
        numbers = [v for _, v in values if isinstance(v, int) and not isinstance(v, bool)]
        odd = [(i, v) for i, v in values if isinstance(v, str)]
        if len(numbers) < 2 or not odd or len(odd) * 2 > len(numbers) or len(odd) + len(numbers) != len(values):
            continue
        for i, v in odd:
            problems.append(Problem(sheet.path, sheet.at((i,))[0], col,
                                    f"{v!r} in column {name!r}, whose other values are whole numbers",
                                    "write it as a number (e.g. 12), so that rules and sorting read it as one"))
    return problems

