"""`components.yaml`: every physical thing in the box, its items (cards, counters, tiles) and sizes."""
from __future__ import annotations

from typing import Literal, Union

from pydantic import Field, field_validator

from .base import Copies, Count, Id, LocalText, Model, check_local


# Card presets are the print services' trims in inches, exactly (poker 2.5x3.5 in, bridge 2.25x3.5,
# mini 1.75x2.5, tarot 2.75x4.75; The Game Crafter's and MakePlayingCards' products), so an export
# to a shop needs no resizing. `square` has no common trade size; 70 mm is ours.
CARD_PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini": (44.45, 63.5),
    "tarot": (69.85, 120.65),
    "square": (70.0, 70.0),
}
COUNTER_PRESETS: dict[str, float] = {"half-inch": 12.7, "five-eighths-inch": 15.875, "one-inch": 25.4}


class Size(Model):
    width_mm: float = Field(gt=0, le=1200)
    height_mm: float = Field(gt=0, le=1200)


SizeSpec = Union[Literal["poker", "bridge", "mini", "tarot", "square", "half-inch", "five-eighths-inch", "one-inch"], Size]


def size_mm(spec: SizeSpec | None) -> tuple[float, float] | None:
    if spec is None:
        return None
    if isinstance(spec, Size):
        return (spec.width_mm, spec.height_mm)
    if spec in CARD_PRESETS:
        return CARD_PRESETS[spec]
    side = COUNTER_PRESETS[spec]
    return (side, side)


Scalar = Union[str, int, float, bool, None]
AttrValue = Union[Scalar, list[Scalar], dict[str, str]]


class Face(Model):
    """One side of a counter or double-sided tile: its printed values and text."""
    label: LocalText | None = None
    values: str | None = Field(None, description="printed factors, e.g. '4-3-6'")
    attrs: dict[str, AttrValue] = {}
    colour: str | None = None

    _v = field_validator("label", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))


class Item(Model):
    """A card, counter, tile or token kind inside a component; `count` copies of it exist."""
    id: Id
    name: LocalText | None = None
    count: Copies | None = Field(1, description="copies; null when the source does not say")
    text: LocalText | None = Field(None, description="rule text printed on it")
    attrs: dict[str, AttrValue] = {}
    front: Face | None = None
    back: Face | None = None
    layout: Id | None = None
    source: str | None = None
    note: LocalText | None = None
    rest: bool = Field(False, description="stands for the pieces the sources do not name: a proposal "
                       "(pnp propose) gives it what the stated total leaves after the named kinds; a build "
                       "prints only its `spares`")
    spares: int = Field(0, ge=0, le=1000, description="with rest: true, how many blank spares of it a build prints "
                        "(default none; pnp build --spares N overrides)")

    _v = field_validator("name", "text", "note", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))


# the printer of each kind (layouts.yaml `print_as` chooses another); a kind not here is not printed
# by a piece printer (maps and booklets have their own stages; boxes and others are left out)
PRINTER_BY_KIND = {"deck": "cards", "counters": "counters", "chits": "counters", "tokens": "tokens", "tiles": "tiles",
                   "pieces": "standees", "board": "boards", "sheet": "boards", "dice": "dice"}
# keys of a component that one kind of printer reads and every other ignores: given to a component
# another printer prints, they would change nothing, so loading refuses them (solver/game/loader.py)
PRINTER_KEYS: dict[str, tuple[str, ...]] = {"tuck_box": ("cards",), "card_thickness_mm": ("cards",),
                                            "faces": ("dice",), "shape": ("tokens", "tiles", "boards")}

ComponentKind = Literal["deck", "counters", "tiles", "tokens", "chits", "dice", "board", "map",
                        "sheet", "booklet", "pieces", "box", "other"]


class StatedTotal(Model):
    value: Count
    source: str
    note: LocalText | None = None


class StatedMean(Model):
    """A mean the sources state for an attribute of some items, e.g. War of the Ring's chits:
    `{attribute: points, where: {type: chit}, value: "2.34", source: "seed 004, 2.2.12"}`."""
    attribute: str = Field(description="the item attribute averaged over every copy, e.g. points")
    where: dict[str, Union[Scalar, list[Scalar]]] = Field({}, description="the items it is over, e.g. {type: chit}")
    value: str = Field(pattern=r"^\d+(\.\d+)?$", description="the mean as the source writes it, e.g. '2.34' (read exactly)")
    source: str


class StockLimit(Model):
    """The counters in the box bound what a side can bring in (War of the Ring 2.1.2: no
    reinforcement the allied stock cannot supply; the dark side has no limit)."""
    side: str = Field(description="the `side` attribute value of the items it binds, e.g. allied")
    source: str


class Component(Model):
    """Every physical thing in the box: a deck and its cards, a counter sheet, dice, a board..."""
    id: Id
    kind: ComponentKind
    name: LocalText
    count: Copies | None = Field(None, description="how many of a thing without items (dice: 6); null if unknown")
    per_player: bool = Field(False, description="one set per player seat (pedestal cards, screens)")
    max_players: int | None = Field(None, description="with per_player: seats the box provides")
    items: list[Item] = []
    items_file: str | None = Field(None, description=(
        "CSV or XLSX with one row per item: id, count, name and text (in the source language), name_<lang> "
        "and text_<lang> (other languages), layout, source; every other column is an attribute (numbers "
        "read as numbers)"))
    stated_total: StatedTotal | None = None
    stated_means: list[StatedMean] = Field([], description="means the sources state for item attributes (chit values)")
    stock_limit: StockLimit | None = None
    size: SizeSpec | None = None
    shape: Literal["square", "rounded", "round"] | None = Field(None, description=(
        "how tokens, chips and tiles are cut: round (a disc in the size's square), square, rounded "
        "(square with 2 mm corners); default round for tokens, square for tiles"))
    left_out: LocalText | None = Field(None, description=(
        "why the build does not print it, a sentence per language (e.g. part of the base game); "
        "manifest.json says it under `left_out`"))
    faces: list[Face] = Field([], description=(
        "a die whose faces are not a standard die's: its six faces in order (1 and 6, 2 and 5, 3 and 4 "
        "opposite), printed as a fold-and-glue net; a die without faces is a standard die, left out"))
    card_thickness_mm: float | None = Field(None, gt=0, le=5, description=(
        "a deck's card thickness, mm, for its tuck box's depth (default 0.3: a 300 gsm card)"))
    tuck_box: bool | None = Field(None, description=(
        "whether a deck gets a tuck box; by default it does when the box is at least 3 mm deep (9 cards "
        "of 0.3 mm): a thinner box's sides are too narrow to fold, and its sheet is paper spent for nothing"))
    back: Face | None = Field(None, description="the common back of every item (cards)")
    layout: Id | None = None
    group: str | None = Field(None, description="for grouping in lists, e.g. 'play-cards'")
    attrs: dict[str, AttrValue] = {}
    source: str | None = None
    note: LocalText | None = None

    _v = field_validator("name", "note", "left_out", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))

    @field_validator("faces")
    @classmethod
    def _six_faces(cls, v: list[Face]) -> list[Face]:
        if v and len(v) != 6:
            raise ValueError(f"{len(v)} faces: a die prints as a net of six faces; give six (repeat one for fewer values)")
        return v

    @property
    def total(self) -> int | None:
        """Physical pieces: sum of item counts, else `count`; None when any count is unknown."""
        if self.items:
            if any(i.count is None for i in self.items):
                return None
            return sum(i.count for i in self.items)  # type: ignore[misc]
        return self.count


class ComponentsFile(Model):
    components: list[Component]

