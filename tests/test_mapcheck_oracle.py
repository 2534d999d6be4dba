"""`pnp check`'s map checks (solver/hexmap/mapcheck.py) against answers worked out here.

The map is a 6 x 5 flat-top even-q grid with letter-number labels, written as a newcomer writes
one. Its geometry is worked out in this file from the hand-drawn picture alone: the letter is the
column (A = 0), the number the row; an even column sits half a hex lower than its neighbours, so
C3's neighbours are C2 and C4 above and below, B3/D3 up-left/up-right and B4/D4 down-left and
down-right. Distances are a breadth-first search over that rule, two hexsides touch when their
hexes are three hexes that each touch the other two (the three meeting at a corner), road
networks and river pieces are counted by a union-find here, and each finding is located at the
line of map.yaml (or setup.yaml, or the rule file) that a text search of the file gives.
"""
from __future__ import annotations

import itertools
from collections import deque
from pathlib import Path

import pytest

from gamefiles import line_of, write_game
from solver.game.loader import load_game
from solver.hexmap.mapcheck import check_map, cited_hex_ids, river_chains

COLS, ROWS = 6, 5
GAME = "id: lanes\ntitle: {en: Lanes}\nplayers: {min: 2, max: 3}\nsource_language: en\n"
COMPONENTS = """components:
  - {id: board, kind: map, name: {en: Board}, count: 1}
  - {id: pawns, kind: pieces, name: {en: Pawns}, count: 12}
"""
HEAD = """id: lanes
name: {en: Lanes}
component: board
reconstruction: true
paper: a4
grid: {orientation: flat, offset: even, hex_mm: 20, columns: 6, rows: 5}
labels: {style: letter-number}
terrain:
  default: clear
  kinds:
    clear: {name: {en: Clear}, fill: "#eeeecc"}
    wood: {name: {en: Wood}, fill: "#88bb66"}
  areas:
    - {terrain: wood, hexes: [C3, C2, C4, B3, B4, D3, D4]}
"""
RIVERS = """rivers:
  - id: brook
    kind: minor
    hexsides: [[A1, B1], [A1, B2], [A2, B2]]
  - id: rill
    kind: minor
    hexsides: [[E4, F4]]
"""
TAIL = "legend: {title: {en: Lanes}, note: {en: A test map.}}\n"


# ---------------------------------------------------------------------- the oracle: geometry by hand
def label(c: int, r: int) -> str:
    return f"{'ABCDEF'[c]}{r + 1}"


def cell(lab: str) -> tuple[int, int]:
    return "ABCDEF".index(lab[0]), int(lab[1:]) - 1


def neighbours(lab: str, on_map_only: bool = False) -> list[str]:
    """From the picture: same column one up and one down; an even column reaches rows r and r+1 of
    the columns beside it, an odd one rows r-1 and r."""
    c, r = cell(lab)
    side_rows = (r, r + 1) if c % 2 == 0 else (r - 1, r)
    out = [(c, r - 1), (c, r + 1)] + [(c + dc, rr) for dc in (-1, 1) for rr in side_rows]
    if on_map_only:
        out = [(x, y) for x, y in out if 0 <= x < COLS and 0 <= y < ROWS]
    return [f"{'ABCDEFGH'[x]}{y + 1}" if 0 <= x < 8 else f"off{x},{y}" for x, y in out]  # A0, G1...: off the map


def every_hex() -> list[str]:
    return [label(c, r) for c in range(COLS) for r in range(ROWS)]


def bfs_distance(a: str, b: str) -> int:
    """Steps between two hexes of the map, moving only between neighbours (the map is a rectangle,
    so a shortest path never needs to leave it)."""
    seen, queue = {a: 0}, deque([a])
    while queue:
        h = queue.popleft()
        if h == b:
            return seen[h]
        for n in neighbours(h, on_map_only=True):
            if n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    raise AssertionError("unreachable on a rectangle")


def touching(s: tuple[str, str], t: tuple[str, str]) -> bool:
    """Two hexsides share a corner when their hexes are three, each a neighbour of the other two."""
    three = set(s) | set(t)
    return len(three) == 3 and all(y in neighbours(x) for x, y in itertools.combinations(sorted(three), 2))


def groups(nodes: list, linked) -> int:
    """Connected groups by union-find."""
    parent = {n: n for n in nodes}

    def root(n):
        while parent[n] != n:
            n = parent[n]
        return n
    for x, y in itertools.combinations(nodes, 2):
        if linked(x, y):
            parent[root(x)] = root(y)
    return len({root(n) for n in nodes})


def test_the_oracle_agrees_with_the_picture():
    assert sorted(neighbours("C3")) == ["B3", "B4", "C2", "C4", "D3", "D4"]
    assert sorted(neighbours("B3")) == ["A2", "A3", "B2", "B4", "C2", "C3"]
    assert bfs_distance("A1", "A3") == 2 and bfs_distance("A1", "F5") == 6  # A1 B2 C2 D3 E3 F4 F5


# ---------------------------------------------------------------------- building the game
def map_text(*, rivers: str = RIVERS, roads: str = "", crossings: str = "", extra: str = "",
             assertions: list[str] = (), gaps: str = "") -> str:
    text = HEAD + rivers + roads + crossings + extra
    if assertions:
        text += "assertions:\n" + "".join(f"  - {a}\n" for a in assertions)
    return text + TAIL + gaps


def make(tmp_path: Path, mtext: str, **files: str) -> Path:
    texts = {"game.yaml": GAME, "components.yaml": COMPONENTS, "map.yaml": mtext}
    texts.update({name.replace("__", "/").replace("_", "."): t for name, t in files.items()})
    return write_game(tmp_path / "lanes", texts)


def run(folder: Path):
    return check_map(load_game(folder))


def of(result, code: str):
    return [f for f in result.findings if f.code == code]


def at(folder: Path, name: str, needle: str) -> str:
    """`<path>:<line>` of the first line of the file holding `needle`, read off the file itself."""
    text = (folder / name).read_text(encoding="utf-8")
    return f"{folder / name}:{line_of(text, needle)}"


# ---------------------------------------------------------------------- assertions
PAIRS = list(itertools.combinations(["A1", "A2", "B2", "C3", "C4", "D4", "F1", "E5", "A5"], 2))


def test_adjacency_claims_give_the_breadth_first_distance(tmp_path):
    """Every pair of nine hexes claimed adjacent: holds exactly when BFS says one step, and the
    refutation gives BFS's distance; each finding sits at its own line."""
    claims = [f"{{adjacent: [{x}, {y}], source: pair-{x}-{y}}}" for x, y in PAIRS]
    folder = make(tmp_path, map_text(assertions=claims))
    result = run(folder)
    holds = {f.source: f.message for f in of(result, "map-assertion-holds")}
    fails = {f.source: f.message for f in of(result, "map-assertion-fails")}
    for x, y in PAIRS:
        d = bfs_distance(x, y)
        if d == 1:
            assert holds[f"pair-{x}-{y}"] == f"{x} and {y} are adjacent (pair-{x}-{y})"
        else:
            msg = fails[at(folder, "map.yaml", f"source: pair-{x}-{y}}}")]
            assert msg.startswith(f"{x} and {y} are {d} hexes apart, but pair-{x}-{y} says otherwise;")
    assert len(holds) + len(fails) == len(PAIRS) and len(holds) == sum(bfs_distance(*p) == 1 for p in PAIRS)


def test_direction_claims_for_every_neighbour_of_two_hexes(tmp_path):
    """From the picture: up is N, down is S, the upper neighbours beside are NW/NE, the lower SW/SE."""
    want = {("C3", "C2"): "N", ("C3", "C4"): "S", ("C3", "B3"): "NW", ("C3", "B4"): "SW", ("C3", "D3"): "NE",
            ("C3", "D4"): "SE", ("B3", "B2"): "N", ("B3", "B4"): "S", ("B3", "A2"): "NW", ("B3", "A3"): "SW",
            ("B3", "C2"): "NE", ("B3", "C3"): "SE"}
    claims = [f"{{direction: {{from: {x}, to: {y}, is: {d}}}, source: dir-{x}-{y}}}" for (x, y), d in want.items()]
    wrong = ["{direction: {from: C3, to: C2, is: S}, source: wrong-way}",
             "{direction: {from: C3, to: C5, is: S}, source: too-far}"]
    folder = make(tmp_path, map_text(assertions=claims + wrong))
    result = run(folder)
    holds = {f.source: f.message for f in of(result, "map-assertion-holds")}
    assert holds == {f"dir-{x}-{y}": f"{y} lies {d} of {x} (dir-{x}-{y})" for (x, y), d in want.items()}
    fails = {f.source: f.message for f in of(result, "map-assertion-fails")}
    assert fails[at(folder, "map.yaml", "wrong-way")].startswith("C2 lies N of C3, but wrong-way says otherwise")
    assert fails[at(folder, "map.yaml", "too-far")].startswith("C3 and C5 are not adjacent, but too-far")


def test_river_and_crossing_claims_on_and_off_the_river(tmp_path):
    crossings = "crossings:\n  - {kind: ford, hexside: [A2, B2], river: brook}\n"
    claims = ["{across: [A1, B2], river: brook, source: on-brook}",
              "{across: [E4, F4], river: brook, source: on-rill-not-brook}",
              "{across: [A1, A3], river: brook, source: across-far}",
              "{not_across: [A2, A3], river: brook, source: dry-side}",
              "{not_across: [E4, F4], river: brook, source: dry-for-brook}",
              "{not_across: [A1, B1], river: brook, source: wet-side}",
              "{not_across: [C1, C3], river: brook, source: not-across-far}",
              "{crossing: [B2, A2], source: ford-either-way}",
              "{crossing: [A1, B1], source: no-ford}",
              "{crossing: [A1, C1], source: crossing-far}",
              "{touch: [A1, B1, A2, B2], river: brook, source: banks}",
              "{touch: [A1, F4, C3], river: rill, source: banks-rill}"]
    folder = make(tmp_path, map_text(crossings=crossings, assertions=claims))
    result = run(folder)
    holds = {f.source: f.message for f in of(result, "map-assertion-holds")}
    assert holds == {"on-brook": "the A1|B2 hexside is on the brook (on-brook)",
                     "dry-side": "the A2|A3 hexside is not on the brook (dry-side)",
                     "dry-for-brook": "the E4|F4 hexside is not on the brook (dry-for-brook)",
                     "ford-either-way": "a ford lies on the B2|A2 hexside (ford-either-way)",
                     "banks": "A1, B1, A2, B2 each have a hexside on the brook (banks)"}
    fails = {f.source.rsplit(":", 1)[1]: f.message.split(", but ")[0] for f in of(result, "map-assertion-fails")}
    lines = {tag: at(folder, "map.yaml", f"source: {tag}}}").rsplit(":", 1)[1] for tag in
             ("on-rill-not-brook", "across-far", "wet-side", "not-across-far", "no-ford", "crossing-far", "banks-rill")}
    assert fails == {lines["on-rill-not-brook"]: "the E4|F4 hexside is not on the brook",
                     lines["across-far"]: "A1 and A3 are not adjacent",
                     lines["wet-side"]: "the A1|B1 hexside is on the brook",
                     lines["not-across-far"]: "C1 and C3 are not adjacent",
                     lines["no-ford"]: "no crossing on the A1|B1 hexside",
                     lines["crossing-far"]: "A1 and C1 are not adjacent, so no crossing lies between them",
                     lines["banks-rill"]: "A1, C3 have no hexside on the rill"}


def test_surround_region_and_exists_claims(tmp_path):
    extra = ("regions:\n  - {id: grove, name: {en: Grove}, hexes: [C3, C2, C4, B3, B4, D3, D4]}\n"
             "  - {id: corner, name: {en: Corner}, hexes: [A1]}\n")
    claims = ["{surround: {centre: C3, terrain: wood}, source: grove-wood}",
              "{surround: {centre: D4, terrain: wood}, source: d4-wood}",
              "{surround: {centre: F3, terrain: wood}, source: edge}",
              "{surround: {centre: A1, terrain: wood}, source: corner-hex}",
              "{region: grove, hexes: [D4, D3, C4, C3, C2, B4, B3], source: grove-exact}",
              "{region: grove, hexes: [C3, C2, C4, B3, B4, D3], source: grove-short}",
              "{region: grove, hexes: [C3, C2, C4, B3, B4, D3, D4, E4], source: grove-long}",
              "{region: no-such-region, hexes: [A1], source: no-region}",
              "{exists: [A1, F5, F1, A5], source: corners}",
              "{exists: [A1, G2, A6], source: off-grid}",
              "{adjacent: [A1, Z9], source: off-grid-pair}"]
    folder = make(tmp_path, map_text(extra=extra, assertions=claims))
    result = run(folder)
    holds = {f.source: f.message for f in of(result, "map-assertion-holds")}
    # C3's six neighbours, in the order the check walks the ring; all seven hexes are wood
    assert holds.keys() == {"grove-wood", "grove-exact", "corners"}
    ring = holds["grove-wood"].split(" its six neighbours ")[1].split(" are all ")[0].split(", ")
    assert sorted(ring) == sorted(neighbours("C3")) and holds["grove-wood"].endswith("are all wood (grove-wood)")
    assert holds["corners"] == "hexes A1, F5, F1, A5 exist (corners)"
    assert holds["grove-exact"] == "region grove is B3, B4, C2, C3, C4, D3, D4 (grove-exact)"
    fails = {f.source.rsplit(":", 1)[1]: f.message.split(", but ")[0] for f in of(result, "map-assertion-fails")}

    def said(tag):
        return fails[at(folder, "map.yaml", f"source: {tag}}}").rsplit(":", 1)[1]]
    # D4 and its six neighbours: those outside the grove are not wood
    not_wood = {h for h in ["D4"] + neighbours("D4") if h not in ("C3", "C2", "C4", "B3", "B4", "D3", "D4")}
    named, rest = said("d4-wood").split(" of D4 and its neighbours (")
    assert set(named.split(", ")) == not_wood and len(named.split(", ")) == len(not_wood)
    assert sorted(rest.removesuffix(") are not wood").split(", ")) == sorted(neighbours("D4"))
    assert said("edge") == f"F3 has only {len(neighbours('F3', True))} neighbours on the map"
    assert said("corner-hex") == f"A1 has only {len(neighbours('A1', True))} neighbours on the map"
    assert said("grove-short") == said("grove-long") == "region grove is B3, B4, C2, C3, C4, D3, D4"
    assert said("no-region") == "no region 'no-such-region' on the map"
    assert said("off-grid") == "hex G2, A6 is not on the 6x5 map"
    assert said("off-grid-pair") == "hex Z9 is not on the 6x5 map"


def test_an_assertion_without_a_clause_is_located_at_its_line(tmp_path):
    """An original game's assertion cites no clause: the finding names its line instead, both ways."""
    folder = make(tmp_path, map_text(assertions=["{adjacent: [B2, B3]}", "{adjacent: [B2, B4]}",
                                                 "{touch: [], river: brook}"]))
    result = run(folder)
    [held] = of(result, "map-assertion-holds")
    assert held.source == at(folder, "map.yaml", "[B2, B3]") and held.message == "B2 and B3 are adjacent (the assertion)"
    failed = of(result, "map-assertion-fails")
    assert [f.source for f in failed] == [at(folder, "map.yaml", "[B2, B4]"), at(folder, "map.yaml", "touch: []")]
    assert failed[0].message.startswith("B2 and B4 are 2 hexes apart, but the assertion says otherwise")
    assert failed[1].message.startswith("nothing to check, but the assertion says otherwise")  # an empty claim
    assert all(f.severity == "error" for f in failed) and held.severity == "info"


# ---------------------------------------------------------------------- roads, rivers, crossings
@pytest.mark.parametrize("paths", [
    [["A1", "A2", "A3"]],
    [["A1", "A2", "A3"], ["F1", "F2"]],
    [["A1", "A2", "A3"], ["F1", "F2"], ["B3", "C3", "D4"]],
    [["A1", "A2", "A3"], ["A3", "B4", "C4"], ["E1", "E2"]],
    [["C1", "C2"], ["B2", "A2"], ["E5", "F5"], ["D1", "C1"]],
])
def test_connected_roads_count_their_networks(tmp_path, paths):
    roads = "roads:\n" + "".join(f"  - {{id: road-{i}, path: [{', '.join(p)}]}}\n" for i, p in enumerate(paths))
    folder = make(tmp_path, map_text(roads=roads))
    result = run(folder)
    steps = {frozenset(s) for p in paths for s in zip(p, p[1:])}
    hexes = sorted({h for p in paths for h in p})
    nets = groups(hexes, lambda x, y: frozenset((x, y)) in steps)
    [f] = of(result, "map-roads-connected")
    assert f.message == f"{len(paths)} roads, each one connected line, forming {nets} network(s)"
    assert f.source == at(folder, "map.yaml", "{id: road-0") and not of(result, "map-road-broken")
    assert result.derived["map"]["road_hexes"] == len(hexes)


def test_a_road_with_gaps_names_the_first_and_counts_them(tmp_path):
    roads = ("roads:\n  - {id: good, path: [A1, A2]}\n"
             "  - id: bad\n    path: [A1, A3, A4, C4, C5]\n")
    folder = make(tmp_path, map_text(roads=roads))
    result = run(folder)
    [f] = of(result, "map-road-broken")
    assert f.severity == "error" and f.source == at(folder, "map.yaml", "path: [A1, A3")
    assert f.message == "road bad jumps from A1 to A3 (2 gap(s)); list every hex along the road"
    assert not of(result, "map-roads-connected")
    # the broken road's steps that are real still count as road
    assert result.derived["map"]["road_hexes"] == len({"A1", "A2", "A3", "A4", "C4", "C5"})


def test_a_map_without_roads_or_crossings_says_nothing_of_them(tmp_path):
    result = run(make(tmp_path, map_text()))
    codes = {f.code for f in result.findings}
    assert not codes & {"map-roads-connected", "map-road-broken", "map-crossings-on-rivers", "map-crossing-off-river"}


def river_map(sides: list[tuple[str, str]]) -> str:
    listed = "".join(f"      - [{a}, {b}]\n" for a, b in sides)
    return f"rivers:\n  - id: brook\n    kind: minor\n    hexsides:\n{listed}"


RIVER_CASES = [
    [("A1", "B1"), ("A1", "B2"), ("A2", "B2")],
    [("A1", "B1"), ("E4", "F4")],
    [("A1", "B1"), ("C3", "C4"), ("E4", "F4")],
    [("C3", "C4"), ("C3", "D4"), ("D3", "D4"), ("A1", "A2")],
    [("C3", "D3"), ("C3", "D4"), ("C4", "D4"), ("C4", "D5"), ("C5", "D5")],
    [("B2", "B3"), ("C3", "C4")],
]


@pytest.mark.parametrize("sides", RIVER_CASES)
def test_river_pieces_against_corner_touching(tmp_path, sides):
    folder = make(tmp_path, map_text(rivers=river_map(sides)))
    result = run(folder)
    pieces = groups(sides, touching)
    if pieces == 1:
        [f] = of(result, "map-river-along-hexsides")
        assert f.message == f"river brook runs along {len(sides)} connected hexsides"
        assert f.source == at(folder, "map.yaml", "id: brook") and not of(result, "map-river-broken")
        return
    [f] = of(result, "map-river-broken")
    i = next(i for i in range(1, len(sides)) if not touching(sides[i - 1], sides[i]))
    (a, b), (c, d) = sides[i - 1], sides[i]
    assert f.message == (f"river brook falls into {pieces} separate pieces: the hexside between {a} and {b} does "
                         f"not touch the next, between {c} and {d}; each hexside must touch the next at a corner")
    assert f.source == at(folder, "map.yaml", f"- [{c}, {d}]")  # the side that does not touch the one before
    assert not of(result, "map-river-along-hexsides")


def test_river_chains_counts_pieces_as_corner_touching_does(tmp_path):
    """Every set of up to three hexsides around C3 and D3: river_chains against the union-find."""
    hm = load_game(make(tmp_path, map_text())).extras["map"].resolve()
    around = [(x, n) for x in ("C3", "D3") for n in neighbours(x, True) if (n, x) != ("C3", "D3")]
    for k in (1, 2, 3):
        for chosen in itertools.combinations(around, k):
            got = river_chains([tuple(sorted((hm.hex(a), hm.hex(b)), key=repr)) for a, b in chosen])
            assert got == groups(list(chosen), touching), chosen


def test_a_river_path_that_jumps_is_located_at_the_hex_after_the_jump(tmp_path):
    rivers = "rivers:\n  - id: creek\n    kind: minor\n    path:\n      - A1\n      - A2\n      - C2\n      - C3\n"
    folder = make(tmp_path, map_text(rivers=rivers))
    [f] = of(run(folder), "map-river-broken")
    assert f.message == "river creek jumps from A2 to C2, which are not adjacent; list every hex along it"
    assert f.source == at(folder, "map.yaml", "- C2")
    rivers_ok = rivers.replace("- C2\n      - C3", "- B2\n      - C2")
    assert not of(run(make(tmp_path / "ok", map_text(rivers=rivers_ok))), "map-river-broken")


def test_crossings_off_their_river_are_errors_at_their_lines(tmp_path):
    crossings = ("crossings:\n  - {kind: ford, hexside: [A2, B2], river: brook}\n"
                 "  - {kind: bridge, hexside: [E4, F4], river: brook}\n"
                 "  - {kind: crossing, hexside: [C3, C4]}\n"
                 "  - {kind: bridge, hexside: [B1, A1]}\n"
                 "  - {kind: ford, hexside: [C1, C2], river: brook}\n")
    folder = make(tmp_path, map_text(crossings=crossings))
    result = run(folder)
    found = {f.source: f.message for f in of(result, "map-crossing-off-river")}
    assert found == {at(folder, "map.yaml", "[E4, F4], river: brook"):
                     "bridge at E4|F4 is on river rill, not brook; move it onto the river's hexside",
                     at(folder, "map.yaml", "[C3, C4]"):
                     "crossing at C3|C4 is on no river; move it onto the river's hexside",
                     at(folder, "map.yaml", "[C1, C2]"): "ford at C1|C2 is on no river; move it onto the river's hexside"}
    assert not of(result, "map-crossings-on-rivers")


def test_crossings_all_on_rivers_are_counted(tmp_path):
    crossings = ("crossings:\n  - {kind: ford, hexside: [A2, B2], river: brook}\n"
                 "  - {kind: bridge, hexside: [F4, E4]}\n")
    folder = make(tmp_path, map_text(crossings=crossings))
    [f] = of(run(folder), "map-crossings-on-rivers")
    assert f.message == "all 2 crossings, bridges and fords sit on a river hexside"
    assert f.source == at(folder, "map.yaml", "{kind: ford")  # the list, at its first item


# ---------------------------------------------------------------------- gaps and the summary
GAPS = """gaps:
  - id: ford-depth
    kind: assumption
    clause: rules 4.2
    text: {en: The ford is shallow everywhere.}
  - id: brook-name
    kind: unspecified
    clause: rules 1.1
    text: {ja: 小川の名前は書かれていない, en: The brook has no name.}
  - id: only-japanese
    kind: erratum
    clause: rules 2.3
    text: {ja: 地図の凡例が誤っている}
"""


def test_gaps_are_reported_in_english_else_in_the_language_given(tmp_path):
    folder = make(tmp_path, map_text(gaps=GAPS))
    result = run(folder)
    got = [(f.severity, f.code, f.message, f.source) for f in result.findings if f.code in
           ("map-assumption", "map-unspecified", "map-erratum")]
    assert got == [("assumption", "map-assumption", "The ford is shallow everywhere. (rules 4.2)",
                    at(folder, "map.yaml", "id: ford-depth")),
                   ("info", "map-unspecified", "The brook has no name. (rules 1.1)", at(folder, "map.yaml", "id: brook-name")),
                   ("info", "map-erratum", "地図の凡例が誤っている (rules 2.3)", at(folder, "map.yaml", "id: only-japanese"))]


def test_the_summary_counts_the_map_by_hand(tmp_path):
    extra = """place_kinds:
  town: {name: {en: Town}}
allegiances:
  blue: {name: {en: Blue}, colour: "#2244aa"}
  red: {name: {en: Red}, colour: "#aa2222"}
places:
  - {id: fort, hex: C3, name: {en: Fort}, kind: town, allegiance: blue}
  - {id: mill, hex: E2, name: {en: Mill}, kind: town}
  - {id: keep, hex: A5, name: {en: Keep}, kind: town, allegiance: red}
  - {id: gate, hex: F1, name: {en: Gate}, kind: town, allegiance: blue}
"""
    roads = "roads:\n  - {id: lane, path: [A1, A2, A3]}\n  - {id: track, path: [A3, B4]}\n"
    summary = run(make(tmp_path, map_text(roads=roads, extra=extra))).derived["map"]
    assert summary == {"id": "lanes", "hexes": 30, "terrain": {"clear": 30 - 7, "wood": 7},
                       "places_by_allegiance": {"blue": ["fort C3", "gate F1"], "red": ["keep A5"]},
                       "river_hexsides": 4, "road_hexes": 4, "reconstruction": True}


# ---------------------------------------------------------------------- citations in rules and setup
def test_hex_ids_cited_in_every_rule_file_are_checked_at_their_lines(tmp_path):
    folder = make(tmp_path, map_text(), rules__a_txt="Intro.\nStart in hex C3.\n",
                  rules__deep__b_md="# Moves\n\nThe fort (F5) and hexes A1, G9 or B2.\n",
                  rules__c_yaml="clause: {en: Hex A9 is off the edge}\n", rules__d_po='msgstr "ヘックスD4"\n',
                  rules__e_yml="x: (E1)\n", rules__f_json='{"t": "hex B1"}\n', rules__g_csv="hex B5\n")
    result = run(folder)
    found = sorted((f.source, f.message) for f in of(result, "map-cited-hex"))
    missing = sorted((f.source, f.message) for f in of(result, "map-cited-hex-missing"))
    rules = folder / "rules"

    def src(rel, line):
        return f"{rules / rel}:{line}"
    assert found == sorted([(src("a.txt", 2), "hex C3 cited by the rules exists"),
                            (src("d.po", 1), "hex D4 cited by the rules exists"),
                            (src("deep/b.md", 3), "hex A1 cited by the rules exists"),
                            (src("deep/b.md", 3), "hex B2 cited by the rules exists"),
                            (src("deep/b.md", 3), "hex F5 cited by the rules exists"),
                            (src("e.yml", 1), "hex E1 cited by the rules exists")])
    todo = "which is not on the map; extend the grid or fix the citation"
    assert missing == sorted([(src("c.yaml", 1), f"the rules cite hex A9, {todo}"),
                              (src("deep/b.md", 3), f"the rules cite hex G9, {todo}")])
    assert all(f.severity == "error" for f in of(result, "map-cited-hex-missing"))


def test_no_rules_folder_no_citations(tmp_path):
    codes = {f.code for f in run(make(tmp_path, map_text())).findings}
    assert not codes & {"map-cited-hex", "map-cited-hex-missing"}


@pytest.mark.parametrize("text,style,want", [
    ("ヘクスB2とC3", "letter-number", ["B2", "C3"]),
    ("Hexes AA10 or B2 and C3", "letter-number", ["AA10", "B2", "C3"]),
    ("hex B2・C3, then D4", "letter-number", ["B2", "C3"]),
    ("（F5）と(G6) and (ab1)", "letter-number", ["F5", "G6"]),
    ("hex ABC1", "letter-number", []),
    ("ヘックス 0101、0203 and (0304)", "xxyy", ["0101", "0203", "0304"]),
    ("hex 101", "xxyy", []),
    ("hexes C3, B2, C3", "letter-number", ["B2", "C3"]),
])
def test_cited_hex_ids_after_the_word_hex_or_in_parentheses(text, style, want):
    assert cited_hex_ids(text, style) == want


SETUP = """locations:
  - {id: fortt}
  - {id: hand}
  - {id: "0203"}
  - {id: "0909"}
steps:
  - {place: pawns, count: 1, on: fort}
  - {place: pawns, count: 1, on: table}
  - {place: pawns, count: 1, on: hand}
  - {place: pawns, count: 1, on: fortt}
  - {place: pawns, count: 1, on: "0203"}
  - {place: pawns, count: 1, on: turn-track}
  - {place: pawns, count: 1, on: fort}
  - {place: pawns, count: 1, on: "0909"}
"""
XXYY_EXTRA = """place_kinds:
  town: {name: {en: Town}}
places:
  - {id: fort, hex: "0303", name: {en: Fort}, kind: town}
boxes:
  - {id: turn-track, name: {en: Turns}, kind: track, cells: 6}
"""


def xxyy_map(extra: str = XXYY_EXTRA) -> str:
    return (HEAD.replace("labels: {style: letter-number}", "labels: {style: xxyy}")
            .replace("hexes: [C3, C2, C4, B3, B4, D3, D4]", 'hexes: ["0303"]') + extra + TAIL)


def test_setup_places_on_the_map_off_it_and_a_likely_typo(tmp_path):
    """fort (a place), 0203 (a hex) and turn-track (a box) are on the map; table is skipped; hand
    and 0909 (not a hex of a 6 x 5 map) are off it; fortt is one letter from fort: a warning."""
    folder = make(tmp_path, xxyy_map(), setup_yaml=SETUP)
    result = run(folder)
    [typo] = of(result, "map-setup-place-unknown")
    assert typo.severity == "warning" and typo.source == at(folder, "setup.yaml", "on: fortt")
    assert typo.message == "setup puts pawns on 'fortt', which is not on the map; did you mean 'fort'?"
    [info] = of(result, "map-setup-places")
    assert info.message == ("setup places pieces on 3 map locations, all on the map; "
                            "off the map (table or sheets): 0909, hand")
    assert info.source == at(folder, "setup.yaml", "on: fort}")  # the steps, at the first


def test_setup_with_only_table_places_says_nothing_of_the_map(tmp_path):
    setup = "steps:\n  - {place: pawns, count: 2}\n  - {place: pawns, count: 1, on: table}\n"
    result = run(make(tmp_path, xxyy_map(), setup_yaml=setup))
    assert not of(result, "map-setup-places") and not of(result, "map-setup-place-unknown")


def test_box_cells_are_map_locations(tmp_path):
    """A track of 2 cells numbered from 3 has the cells turn-track-3 and turn-track-4 (declared as
    locations so the loader accepts them); turn-track-5 is no cell, one letter from one: a warning."""
    extra = XXYY_EXTRA.replace("cells: 6}", "cells: 2, first: 3}")
    setup = ("locations:\n  - {id: turn-track-3}\n  - {id: turn-track-4}\n  - {id: turn-track-5}\n"
             "steps:\n  - {place: pawns, count: 1, on: turn-track-3}\n  - {place: pawns, count: 1, on: turn-track-4}\n"
             "  - {place: pawns, count: 1, on: turn-track-5}\n")
    folder = make(tmp_path, xxyy_map(extra), setup_yaml=setup)
    result = run(folder)
    [info] = of(result, "map-setup-places")
    assert info.message == "setup places pieces on 2 map locations, all on the map"
    [typo] = of(result, "map-setup-place-unknown")
    assert typo.source == at(folder, "setup.yaml", "on: turn-track-5") and "did you mean 'turn-track-" in typo.message
