"""`map.yaml`: a hex map as data — grid, labels, terrain, hexside rivers, roads, crossings, places,
regions, boxes beside the map, the facts the rules assert about it, and its movement costs.

Hexes are written as their printed labels (`M17`, `0412`). Validation happens in two layers:
- the pydantic model (shape, kinds, colours), reported with line and column by the loader;
- `MapFile.problems(locator)`: every label parses and lies on the grid, every hexside joins two
  neighbours, every terrain or river a feature names is defined. These make a map unusable, so
  the loader raises them (through `check_references`) before anything draws or checks it.
What the *rules* say about the map (`assertions`) is not validated here: `solver.hexmap.mapcheck`
proves or refutes each one and reports findings, so a wrong rule citation is a finding, not a crash.
`resolve()` turns the labels into cube coordinates once (`HexMap`) for checks, reach and layout.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal, Optional, Union

from pydantic import Field, field_validator, model_validator

from ..errors import DataError, Problem
from solver.hexmap.hexes import Hex, HexGrid, Labeller, hexside, make_grid
from .base import Id, LocalText, Model, check_local
from .meta import Gap

HexId = Annotated[str, Field(description="a printed hex label such as M17 or '0412' (quote XXYY labels)")]
Side = tuple[HexId, HexId]


def _local(*names: str):
    return field_validator(*names, mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))


class Grid(Model):
    orientation: Literal["flat", "pointy"] = Field(description="flat-top (columns straight) or pointy-top (rows straight)")
    offset: Literal["odd", "even"] = Field(description="which columns (flat) or rows (pointy) are shoved down/right")
    hex_mm: float = Field(gt=5, le=80, description="size across the flats, mm")
    columns: int = Field(ge=1, le=200)
    rows: int = Field(ge=1, le=200)


class Labels(Model):
    style: Literal["xxyy", "letter-number"] = "xxyy"
    origin: Literal["top-left", "top-right", "bottom-left", "bottom-right"] = "top-left"
    first: int = Field(1, ge=0, le=1, description="number of the first column/row (0 or 1)")
    show: Union[Literal["all", "none"], list[HexId]] = Field("all", description="which hexes print their label")
    size_pt: float = Field(5.0, ge=5, le=20, description="label text size, points: 5 or more, so a player reads it")


class TerrainKind(Model):
    name: LocalText
    fill: str = Field(pattern=r"^#[0-9a-fA-F]{6}$", description="#rrggbb")
    mark: Literal["none", "trees", "dense-trees", "peaks", "hills", "waves", "ripples", "marsh", "scrub"] = "none"
    move_cost: Optional[int] = Field(1, ge=0, description="cost to enter; null = only along a road (9.16)")
    water: bool = False
    _v = _local("name")


class Area(Model):
    terrain: str
    hexes: list[HexId]
    source: Optional[str] = None


class Terrain(Model):
    default: str
    kinds: dict[str, TerrainKind]
    areas: list[Area] = []

    @model_validator(mode="after")
    def _known(self) -> "Terrain":
        if self.default not in self.kinds:
            raise ValueError(f"default terrain {self.default!r} is not one of kinds ({', '.join(self.kinds)})")
        return self


class River(Model):
    """A river along hexsides (`hexsides`, pairs of neighbouring hexes, in order downstream) or a
    line through hex centres (`path`)."""
    id: Id
    kind: Literal["minor", "major"]
    name: Optional[LocalText] = None
    hexsides: list[Side] = []
    path: list[HexId] = []
    dots: bool = Field(False, description="print river dots on its vertices (boat movement points)")
    source: Optional[str] = None
    _v = _local("name")

    @model_validator(mode="after")
    def _one_shape(self) -> "River":
        if bool(self.hexsides) == bool(self.path):
            raise ValueError("give either hexsides (a river along hex edges) or path (through hex centres)")
        return self


class Road(Model):
    id: Id
    name: Optional[LocalText] = None
    path: list[HexId] = Field(min_length=2, description="hexes in order; each next to the one before")
    source: Optional[str] = None
    _v = _local("name")


class Crossing(Model):
    kind: Literal["crossing", "bridge", "ford"]
    hexside: Side
    river: Optional[Id] = None
    name: Optional[LocalText] = None
    source: Optional[str] = None
    _v = _local("name")


# The drawings a place's icon may take (generator/hexmap/draw.py draws them): shapes, not game
# words; which place kind gets which shape is the game's choice, in map.yaml's place_kinds.
PlaceIcon = Literal["square", "star", "eye", "triangle", "target", "house", "arch", "crystal-ball", "cairn",
                    "pillars", "diamond", "dot"]
Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", description="#rrggbb")]


class PlaceKind(Model):
    """A kind of place the map marks (a city, a victory hex...): its name in the legend and its icon."""
    name: LocalText = Field(description="the legend's name for the kind, per language")
    icon: PlaceIcon = Field("dot", description="the drawing that marks a place of this kind")
    icon_by_allegiance: dict[Id, PlaceIcon] = Field(
        {}, description="another drawing for places of this kind with the given allegiance")
    _v = _local("name")


class Allegiance(Model):
    """A side places belong to: its name in the legend ("<allegiance>の<kind>") and its colour."""
    name: LocalText
    colour: Colour = Field(description="fill of the icons of its places")
    _v = _local("name")


class Entry(Model):
    """Who may enter a hex and at what cost (Redhorn Gate, Moria, Paths of the Dead)."""
    cost: int = Field(ge=0)
    units: list[Id] = Field(description="unit kinds from movement.units that may enter")
    off_road_only: bool = Field(False, description="the limits apply only to entering off a road (16.6.1)")
    source: Optional[str] = None


class Place(Model):
    id: Id
    hex: HexId
    name: LocalText
    kind: Id = Field(description="a key of place_kinds")
    allegiance: Optional[Id] = Field(None, description="a key of allegiances")
    vp: Optional[int] = None
    defence: Optional[int] = None
    enter: Optional[Entry] = None
    note: Optional[LocalText] = None
    source: Optional[str] = None
    _v = _local("name", "note")


class Region(Model):
    id: Id
    name: LocalText
    hexes: list[HexId]
    enter: Optional[Entry] = None
    source: Optional[str] = None
    _v = _local("name")


class Box(Model):
    """Something printed beside the map: a box (Halls of Mandos), a track (turn 1-12), an off-map area."""
    id: Id
    name: LocalText
    kind: Literal["box", "track", "area"] = "box"
    cells: Optional[int] = Field(None, ge=1, le=60, description="track length")
    first: int = 1
    edge: Optional[Literal["north", "south", "east", "west"]] = Field(None, description="map edge an area adjoins")
    text: Optional[LocalText] = None
    source: Optional[str] = None
    _v = _local("name", "text")


class Assertion(Model):
    """A fact a rule states about the map; `pnp check` proves or refutes it. Give exactly one kind."""
    adjacent: Optional[Side] = None
    crossing: Optional[Side] = Field(None, description="a crossing point lies on this hexside")
    surround: Optional[dict[str, str]] = Field(None, description="{centre: I13, terrain: deep-forest}: centre and its 6 neighbours")
    across: Optional[Side] = Field(None, description="the hexside between the two lies on `river`")
    not_across: Optional[Side] = Field(None, description="neighbours whose hexside is not on `river`")
    touch: Optional[list[HexId]] = Field(None, description="each hex has a hexside on `river`")
    direction: Optional[dict[str, str]] = Field(None, description="{from: N15, to: N16, is: S}")
    region: Optional[Id] = Field(None, description="the region with `hexes` exactly")
    exists: Optional[list[HexId]] = None
    river: Optional[Id] = None
    hexes: Optional[list[HexId]] = None
    source: Optional[str] = Field(None, description="the clause that states it, e.g. 'seed 004, 2.5.5'; required "
                                                    "when game.yaml declares `sources:`")

    KINDS: ClassVar[tuple[str, ...]] = ("adjacent", "crossing", "surround", "across", "not_across", "touch", "direction", "region", "exists")

    @model_validator(mode="after")
    def _one(self) -> "Assertion":
        given = [k for k in self.KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of {', '.join(self.KINDS)} (got {', '.join(given) or 'none'})")
        if given[0] in ("across", "not_across", "touch") and not self.river:
            raise ValueError(f"{given[0]} needs river: <river id>")
        return self


class MarchBonus(Model):
    upto: Optional[int] = Field(None, description="applies to movement allowances up to this (null: any)")
    bonus: int


class UnitKind(Model):
    name: Optional[LocalText] = None
    all_in: bool = Field(True, description="may enter one more hex by spending all MP (9.18)")
    terrain_cost: dict[str, int] = Field({}, description="terrain -> cost replacing the normal one (16.14)")
    _v = _local("name")


class Movement(Model):
    source: Optional[str] = None
    minor_river: int = Field(1, description="extra cost to cross a minor river (9.14)")
    major_river_crossing: int = Field(3, description="extra cost to cross a major river at a crossing (9.15)")
    road_cost: int = Field(1, description="cost per hex along a road (9.16)")
    road_march_bonus: list[MarchBonus] = Field([], description="MP added when the whole move is along a road (9.17)")
    units: dict[str, UnitKind] = {}
    default_unit: Optional[str] = None


class Legend(Model):
    title: LocalText
    note: LocalText = Field(description="printed under the legend, e.g. that the map is a reconstruction")
    _v = _local("title", "note")


class MapFile(Model):
    id: Id = Field(description="output files are map-<id>.pdf/.svg")
    name: LocalText
    component: Optional[Id] = Field(None, description="the board in components.yaml this map prints")
    reconstruction: bool = Field(False, description="true when the map is rebuilt from the rules, not the original art")
    paper: Literal["a4", "letter", "a3", "a2", "a1", "a0"] = "a2"
    page_orientation: Literal["portrait", "landscape"] = "portrait"
    source: Optional[str] = None
    grid: Grid
    labels: Labels = Labels()
    terrain: Terrain
    rivers: list[River] = []
    roads: list[Road] = []
    crossings: list[Crossing] = []
    place_kinds: dict[Id, PlaceKind] = Field({}, description="the kinds of places, by the id places use")
    allegiances: dict[Id, Allegiance] = Field({}, description="the sides places belong to, by the id places use")
    places: list[Place] = []
    regions: list[Region] = []
    boxes: list[Box] = []
    assertions: list[Assertion] = []
    movement: Optional[Movement] = None
    legend: Legend
    gaps: list[Gap] = []
    _v = _local("name")

    # ------------------------------------------------------------------ structural problems

    def labeller(self) -> Labeller:
        return Labeller(self.labels.style, self.grid.columns, self.grid.rows, self.labels.origin, self.labels.first)

    def hex_grid(self) -> HexGrid:
        g = self.grid
        return make_grid(g.orientation, g.offset, g.columns, g.rows)

    def problems(self, locator: Any) -> list[Problem]:
        """Unusable references inside the map, each at its line (solver/game/map_references.py)."""
        from .map_references import map_problems  # it reads this module's models
        return map_problems(self, locator)

    def check_references(self, components: list, locator: Any) -> list[Problem]:
        out = self.problems(locator)
        if self.component and self.component not in {c.id for c in components}:
            out.append(locator.problem(("component",), f"unknown component {self.component!r}",
                                       "use the id of the board in components.yaml, or drop the key"))
        return out

    def resolve(self, locator: Any = None) -> "HexMap":
        """The map with hex ids turned into coordinates; unusable references raise DataError."""
        if locator is not None:
            probs = self.problems(locator)
            if probs:
                raise DataError(probs)
        return HexMap(self, locator)


@dataclass
class HexMap:
    """A validated map in cube coordinates: what checks, movement and layout read (`locator`:
    map.yaml's lines, for errors the layout finds; None for a map made in code)."""
    data: MapFile
    locator: Any = field(default=None, compare=False, repr=False)
    grid: HexGrid = field(init=False)
    labeller: Labeller = field(init=False)
    terrain: dict[Hex, str] = field(init=False)
    river_sides: dict[tuple[Hex, Hex], River] = field(init=False)
    road_steps: set[tuple[Hex, Hex]] = field(init=False)
    road_hexes: set[Hex] = field(init=False)
    crossing_sides: dict[tuple[Hex, Hex], Crossing] = field(init=False)
    places_at: dict[Hex, list[Place]] = field(init=False)
    entry: dict[Hex, Entry] = field(init=False)

    def __post_init__(self) -> None:
        d = self.data
        self.grid, self.labeller = d.hex_grid(), d.labeller()
        self.terrain = {h: d.terrain.default for h in self.grid.hexes()}
        for area in d.terrain.areas:  # later areas win, so a map can paint broad strokes then details
            for label in area.hexes:
                self.terrain[self.hex(label)] = area.terrain
        self.river_sides = {}
        for r in d.rivers:
            for a, b in r.hexsides:
                self.river_sides[hexside(self.hex(a), self.hex(b))] = r
        self.road_steps = set()
        for road in d.roads:
            hs = [self.hex(x) for x in road.path]
            for h1, h2 in zip(hs, hs[1:]):
                if h1.distance(h2) == 1:
                    self.road_steps.add((h1, h2))
                    self.road_steps.add((h2, h1))
        self.road_hexes = {h for step in self.road_steps for h in step}
        self.crossing_sides = {hexside(self.hex(c.hexside[0]), self.hex(c.hexside[1])): c for c in d.crossings
                               if self.hex(c.hexside[0]).distance(self.hex(c.hexside[1])) == 1}
        self.places_at = {}
        for p in d.places:
            self.places_at.setdefault(self.hex(p.hex), []).append(p)
        # Who may enter a hex: a place's rule, else its region's (Paths of the Dead is a region).
        self.entry = {}
        for reg in d.regions:
            if reg.enter:
                for label in reg.hexes:
                    self.entry[self.hex(label)] = reg.enter
        for p in d.places:
            if p.enter:
                self.entry[self.hex(p.hex)] = p.enter

    def hex(self, label: str) -> Hex:
        o = self.labeller.parse(str(label))
        if o is None:
            raise KeyError(label)
        return self.grid.to_cube(o)

    def find(self, label: str) -> Hex | None:
        o = self.labeller.parse(str(label))
        return None if o is None else self.grid.to_cube(o)

    def label(self, h: Hex) -> str:
        return self.labeller.label(self.grid.to_offset(h))

    def on_map(self, h: Hex) -> bool:
        return self.grid.contains(h)

    def neighbours(self, h: Hex) -> list[Hex]:
        return [n for n in h.neighbours() if self.grid.contains(n)]
