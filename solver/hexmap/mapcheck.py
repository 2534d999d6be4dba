"""Map checks for `pnp check`: the map agrees with the rules that cite it and with itself.

- every assertion in map.yaml (what a rule states: hex ids exist, two hexes are adjacent, a
  crossing lies between them, a hex and its six neighbours are deep forest, two hexes face each
  other across a river...) is proved (an info finding naming the clause) or refuted (an error);
- hex ids cited in the game's rule texts (rules/ folder) exist on the map;
- places the setup puts pieces `on` are places, regions, boxes or hexes of the map;
- every road is one connected line; every hexside river is one chain of touching hexsides;
  every crossing, bridge and ford sits on a river;
- the map's own gaps (assumptions, unspecified facts) are reported, as the checker reports all.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, TypeVar

from solver.findings import CheckResult, Finding
from solver.game.loader import Game
from solver.game.map import Assertion, HexMap, MapFile
from solver.game.yamlsrc import read_text
from solver.hexmap.hexes import Hex, hexside, side_vertices

Where = Callable[..., str]  # where("roads", 2, "path"): `map.yaml:line` of that value
Node = TypeVar("Node", bound=Hashable)


def check_map(game: Game) -> CheckResult:
    result = CheckResult()
    mapfile: MapFile | None = game.extras.get("map")
    if mapfile is None:
        return result
    hm = mapfile.resolve(game.locators.get("map.yaml"))

    def where(*loc: str | int) -> str:
        return game.where("map.yaml", loc)
    f = result.findings

    for ai, a in enumerate(mapfile.assertions):
        ok, detail = prove(hm, a)
        said_by = a.source or "the assertion"  # an original game's assertions cite no clause
        if ok:
            f.append(Finding("info", "map-assertion-holds", f"{detail} ({said_by})", a.source or where("assertions", ai)))
        else:
            f.append(Finding("error", "map-assertion-fails", f"{detail}, but {said_by} says otherwise; fix the map "
                             "data or record an erratum", where("assertions", ai)))

    f += _roads(hm, where) + _rivers(hm, where) + _crossings(hm, where)
    f += _cited_in_rules(game, hm) + _setup_places(game, hm)
    for gi, gap in enumerate(mapfile.gaps):
        text = gap.text.get("en") or next(iter(gap.text.values()))
        f.append(Finding("assumption" if gap.kind == "assumption" else "info", f"map-{gap.kind}",
                         f"{text} ({gap.clause})", where("gaps", gi)))

    result.derived["map"] = summary(hm)
    return result


# --------------------------------------------------------------------------- assertions

def prove(hm: HexMap, a: Assertion) -> tuple[bool, str]:
    """(holds, one line saying what was found). Hex ids not on the map refute any assertion."""
    missing = [c for c in _cited(a) if hm.find(c) is None]
    if missing:
        return False, f"hex {', '.join(missing)} is not on the {hm.grid.columns}x{hm.grid.rows} map"
    if a.exists is not None:
        return True, f"hexes {', '.join(a.exists)} exist"
    if a.adjacent:
        return _adjacent(hm, *a.adjacent)
    if a.crossing:
        return _crossing(hm, *a.crossing)
    if a.surround:
        return _surround(hm, a.surround.get("centre", ""), a.surround.get("terrain"))
    if a.across:
        return _across(hm, a.across, a.river, want=True)
    if a.not_across:
        return _across(hm, a.not_across, a.river, want=False)
    if a.touch:
        return _touch(hm, a.touch, a.river)
    if a.direction:
        return _direction(hm, a.direction.get("from", ""), a.direction.get("to", ""), a.direction.get("is", ""))
    if a.region:
        return _region(hm, a.region, a.hexes or [])
    return False, "nothing to check"  # unreachable: the model demands one kind


def _cited(a: Assertion) -> list[str]:
    """Every hex id the assertion names."""
    cited = [x for x in (a.adjacent or a.crossing or a.across or a.not_across or ())]
    cited += list(a.touch or []) + list(a.exists or []) + list(a.hexes or [])
    if a.surround:
        cited.append(a.surround.get("centre", ""))
    if a.direction:
        cited += [a.direction.get("from", ""), a.direction.get("to", "")]
    return cited


def _adjacent(hm: HexMap, x: str, y: str) -> tuple[bool, str]:
    d = hm.hex(x).distance(hm.hex(y))
    return d == 1, f"{x} and {y} are {'adjacent' if d == 1 else f'{d} hexes apart'}"


def _crossing(hm: HexMap, x: str, y: str) -> tuple[bool, str]:
    if hm.hex(x).distance(hm.hex(y)) != 1:
        return False, f"{x} and {y} are not adjacent, so no crossing lies between them"
    c = hm.crossing_sides.get(hexside(hm.hex(x), hm.hex(y)))
    return c is not None, (f"a {c.kind} lies on the {x}|{y} hexside" if c else f"no crossing on the {x}|{y} hexside")


def _surround(hm: HexMap, centre: str, terrain: str | None) -> tuple[bool, str]:
    ring = hm.hex(centre).ring(1)
    off = [n for n in ring if not hm.on_map(n)]
    if off:
        return False, f"{centre} has only {6 - len(off)} neighbours on the map"
    wrong = [hm.label(h) for h in [hm.hex(centre)] + ring if terrain and hm.terrain[h] != terrain]
    names = ", ".join(hm.label(h) for h in ring)
    if wrong:
        return False, f"{', '.join(wrong)} of {centre} and its neighbours ({names}) are not {terrain}"
    return True, f"{centre} and its six neighbours {names} are all {terrain}"


def _across(hm: HexMap, side: tuple[str, str], river: str | None, want: bool) -> tuple[bool, str]:
    """`want`: the hexside between the two lies on the river (`across`), or does not (`not_across`)."""
    x, y = side
    if hm.hex(x).distance(hm.hex(y)) != 1:
        return False, f"{x} and {y} are not adjacent"
    r = hm.river_sides.get(hexside(hm.hex(x), hm.hex(y)))
    on = r is not None and r.id == river
    return on == want, f"the {x}|{y} hexside is {'' if on else 'not '}on the {river}"


def _touch(hm: HexMap, hexes: list[str], river: str | None) -> tuple[bool, str]:
    sides = {s for s, r in hm.river_sides.items() if r.id == river}
    far = [x for x in hexes if not any(hm.hex(x) in s for s in sides)]
    return not far, (f"{', '.join(hexes)} each have a hexside on the {river}" if not far
                     else f"{', '.join(far)} have no hexside on the {river}")


def _direction(hm: HexMap, x: str, y: str, facing: str) -> tuple[bool, str]:
    if hm.hex(x).distance(hm.hex(y)) != 1:
        return False, f"{x} and {y} are not adjacent"
    seen_dir = hm.grid.compass(hm.hex(x), hm.hex(y))
    return seen_dir == facing, f"{y} lies {seen_dir} of {x}"


def _region(hm: HexMap, region: str, hexes: list[str]) -> tuple[bool, str]:
    reg = next((r for r in hm.data.regions if r.id == region), None)
    if reg is None:
        return False, f"no region {region!r} on the map"
    stated = {hm.hex(x) for x in hexes}
    drawn = {hm.hex(x) for x in reg.hexes}
    return drawn == stated, f"region {region} is {', '.join(sorted(reg.hexes))}"


# --------------------------------------------------------------------------- map consistency

def _roads(hm: HexMap, where: Where) -> list[Finding]:
    out: list[Finding] = []
    for ri, road in enumerate(hm.data.roads):
        hs = [hm.hex(x) for x in road.path]
        gaps = [(road.path[i], road.path[i + 1]) for i in range(len(hs) - 1) if hs[i].distance(hs[i + 1]) != 1]
        if gaps:
            out.append(Finding("error", "map-road-broken", f"road {road.id} jumps from {gaps[0][0]} to {gaps[0][1]} "
                               f"({len(gaps)} gap(s)); list every hex along the road", where("roads", ri, "path")))
    if hm.data.roads and not out:
        nets = _components({h for step in hm.road_steps for h in step}, lambda h: [b for a, b in hm.road_steps if a == h])
        out.append(Finding("info", "map-roads-connected", f"{len(hm.data.roads)} roads, each one connected line, "
                           f"forming {nets} network(s)", where("roads")))
    return out


def river_chains(sides: list[tuple[Hex, Hex]]) -> int:
    """How many separate chains the hexsides form (sides touch when they share a vertex)."""
    vertex_sides: dict[frozenset, list] = {}
    for s in sides:
        for v in side_vertices(*s):
            vertex_sides.setdefault(v, []).append(s)
    return _components(set(sides), lambda s: [t for v in side_vertices(*s) for t in vertex_sides[v] if t != s])


def _rivers(hm: HexMap, where: Where) -> list[Finding]:
    out: list[Finding] = []
    for ri, river in enumerate(hm.data.rivers):
        if river.hexsides:
            sides = [hexside(hm.hex(a), hm.hex(b)) for a, b in river.hexsides]
            n = river_chains(sides)
            if n != 1:
                gap = next(((i, a, b) for i, (a, b) in enumerate(zip(river.hexsides, river.hexsides[1:]), 1)
                            if not set(side_vertices(*sides[i - 1])) & set(side_vertices(*sides[i]))), None)
                at = (f": the hexside between {gap[1][0]} and {gap[1][1]} does not touch the next, between "
                      f"{gap[2][0]} and {gap[2][1]}" if gap else "")
                out.append(Finding("error", "map-river-broken", f"river {river.id} falls into {n} separate pieces{at}; "
                                   "each hexside must touch the next at a corner",
                                   where("rivers", ri, "hexsides", gap[0]) if gap else where("rivers", ri, "hexsides")))
            else:
                out.append(Finding("info", "map-river-along-hexsides", f"river {river.id} runs along {len(sides)} "
                                   "connected hexsides", where("rivers", ri)))
        else:
            hs = [hm.hex(x) for x in river.path]
            jump = next((i for i, (a, b) in enumerate(zip(hs, hs[1:])) if a.distance(b) != 1), None)
            if jump is not None:
                out.append(Finding("error", "map-river-broken", f"river {river.id} jumps from {river.path[jump]} to "
                                   f"{river.path[jump + 1]}, which are not adjacent; list every hex along it",
                                   where("rivers", ri, "path", jump + 1)))
    return out


def _crossings(hm: HexMap, where: Where) -> list[Finding]:
    out: list[Finding] = []
    for ci, c in enumerate(hm.data.crossings):
        a, b = hm.hex(c.hexside[0]), hm.hex(c.hexside[1])
        r = hm.river_sides.get(hexside(a, b))
        if r is None or (c.river and r.id != c.river):
            on = f"on river {r.id}" if r else "on no river"
            out.append(Finding("error", "map-crossing-off-river", f"{c.kind} at {c.hexside[0]}|{c.hexside[1]} is {on}"
                               f"{f', not {c.river}' if c.river and r else ''}; move it onto the river's hexside",
                               where("crossings", ci)))
    if hm.data.crossings and not out:
        out.append(Finding("info", "map-crossings-on-rivers", f"all {len(hm.data.crossings)} crossings, bridges and "
                           "fords sit on a river hexside", where("crossings")))
    return out


def _components(nodes: set[Node], links: Callable[[Node], Iterable[Node]]) -> int:
    """How many connected groups `nodes` form, `links` giving each node's neighbours."""
    seen: set[Node] = set()
    count = 0
    for start in sorted(nodes, key=repr):
        if start in seen:
            continue
        count += 1
        stack = [start]
        seen.add(start)
        while stack:
            for n in links(stack.pop()):
                if n in nodes and n not in seen:
                    seen.add(n)
                    stack.append(n)
    return count


# --------------------------------------------------------------------------- citations elsewhere

_HEX_WORD = r"(?:ヘックス|ヘクス|[Hh]ex(?:es)?)"


def cited_hex_ids(text: str, style: str) -> list[str]:
    """Hex ids a rule text cites: after the word hex (ヘックス) or in parentheses, e.g. 'ヘックスM17、N18', '(O21)'."""
    cited, label, bracketed = _citation_patterns(style)
    found = []
    for m in cited.finditer(text):
        found += label.findall(m.group(1))
    found += bracketed.findall(text)
    return sorted(set(found))


@functools.cache
def _citation_patterns(style: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    # compiled once: every line of the rules is asked (check_map of the examples: 25 against 32 ms, warm)
    label = r"[A-Z]{1,2}\d{1,3}" if style == "letter-number" else r"\d{4,6}"
    return (re.compile(rf"{_HEX_WORD}\s*((?:{label})(?:\s*(?:[、,・→と]|and|or)\s*{label})*)"), re.compile(label),
            re.compile(rf"[(（]({label})[)）]"))


_DIGIT = re.compile(r"\d")


def _cited_in_rules(game: Game, hm: HexMap) -> list[Finding]:
    rules_dir = game.folder / "rules"
    if not rules_dir.is_dir():
        return []
    out: list[Finding] = []
    for path in sorted(p for p in rules_dir.rglob("*") if p.suffix in (".yaml", ".yml", ".po", ".txt", ".md")):
        for n, line in enumerate(read_text(path, _display(path)).splitlines(), 1):
            if not _DIGIT.search(line):
                continue  # every hex label has a digit (most lines have none)
            for hid in cited_hex_ids(line, hm.data.labels.style):
                src = f"{_display(path)}:{n}"
                if hm.find(hid) is None:
                    out.append(Finding("error", "map-cited-hex-missing", f"the rules cite hex {hid}, which is not on "
                                       "the map; extend the grid or fix the citation", src))
                else:
                    out.append(Finding("info", "map-cited-hex", f"hex {hid} cited by the rules exists", src))
    return out


def _setup_places(game: Game, hm: HexMap) -> list[Finding]:
    """Setup `on:` targets that are map locations must exist; others are table or sheet zones.

    A target that is not on the map but close to a map name (a likely typo) is a warning."""
    import difflib

    from solver.game.setup import GiveStep, PlaceStep, step_kind

    if game.setup is None:
        return []
    names = {p.id for p in hm.data.places} | {r.id for r in hm.data.regions} | {b.id for b in hm.data.boxes}
    names |= {f"{b.id}-{n}" for b in hm.data.boxes if b.cells for n in range(b.first, b.first + b.cells)}
    out: list[Finding] = []
    found: set[str] = set()
    off_map: list[str] = []
    for si, step in enumerate(game.setup.steps):
        # `place ... on:` and `give ... on:` both put pieces somewhere that may be on the map.
        if not isinstance(step, (PlaceStep, GiveStep)) or step.on in (None, "table", "board", "map"):
            continue
        if step.on in names or hm.find(step.on) is not None:
            found.add(step.on)
            continue
        close = difflib.get_close_matches(step.on, sorted(names), n=1, cutoff=0.85)
        if close:
            out.append(Finding("warning", "map-setup-place-unknown", f"setup puts {getattr(step, step_kind(step))} on {step.on!r}, which "
                               f"is not on the map; did you mean {close[0]!r}?", game.where("setup.yaml", ("steps", si, "on"))))
        else:
            off_map.append(step.on)
    if found or off_map:
        tail = f"; off the map (table or sheets): {', '.join(sorted(set(off_map)))}" if off_map else ""
        out.append(Finding("info", "map-setup-places", f"setup places pieces on {len(found)} map locations, all on the map{tail}",
                           game.where("setup.yaml", ("steps",))))
    return out


def _display(path: Path) -> str:
    from solver.errors import display_path
    return display_path(path)


def summary(hm: HexMap) -> dict[str, Any]:
    by_allegiance: dict[str, list[str]] = {}
    for p in hm.data.places:
        if p.allegiance:
            by_allegiance.setdefault(p.allegiance, []).append(f"{p.id} {p.hex}")
    counts: dict[str, int] = {}
    for t in hm.terrain.values():
        counts[t] = counts.get(t, 0) + 1
    return {"id": hm.data.id, "hexes": hm.grid.columns * hm.grid.rows, "terrain": dict(sorted(counts.items())),
            "places_by_allegiance": by_allegiance, "river_hexsides": len(hm.river_sides),
            "road_hexes": len({h for s in hm.road_steps for h in s}), "reconstruction": hm.data.reconstruction}
