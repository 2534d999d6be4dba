"""The typed game model: what every data file of a game folder means.

Plain pydantic models with `extra="forbid"`, so an unknown key is an error that points at its
line. Everything downstream (engine, checker, layout, renderers) reads these objects, never YAML.
The JSON Schemas in `data/schema/` are generated from these classes (`pnp schema`).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import (BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator, model_validator)

from .limits import MAX_INTEGER
from . import expr as _expr

ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Id = Annotated[str, Field(pattern=ID_PATTERN, description="lower-case kebab id, e.g. dwarf-blue-loyal")]
LANG_PATTERN = r"^[a-z]{2,3}(?:-[A-Za-z0-9]+)?$"


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True)


class Text(dict):
    """A localised string, `{ja: ..., en: ...}`. A plain string is accepted as every language."""


def _check_local(v: Any) -> dict[str, str]:
    if isinstance(v, str):
        return {"und": v}
    if not isinstance(v, dict):
        raise ValueError("expected a localised text like {ja: ..., en: ...} or a plain string")
    for k, s in v.items():
        if not isinstance(k, str) or not re.match(LANG_PATTERN, k):
            raise ValueError(f"language code {k!r} is not like 'ja' or 'en'")
        if not isinstance(s, str):
            raise ValueError(f"text for {k!r} must be a string")
    return dict(v)


LocalText = Annotated[dict[str, str], Field(json_schema_extra={"description": "{ja: ..., en: ...}"})]


def pick(text: dict[str, str] | None, lang: str, fallback: str = "") -> str:
    """The text in `lang`, else the language-neutral one, else the first given."""
    if not text:
        return fallback
    return text.get(lang) or text.get("und") or next(iter(text.values()))


Count = Annotated[int, Field(ge=0, le=MAX_INTEGER)]
Expression = Annotated[Union[int, str], Field(description="an integer or an expression such as 'players + 1'")]


def _check_expr(v: Any) -> Any:
    if v is None or isinstance(v, int):
        return v
    try:
        _expr.parse(v)
    except _expr.ExprError as e:
        raise ValueError(f"bad expression {v!r}: {e}") from None
    return v


# --------------------------------------------------------------------------- game.yaml

class Range(Model):
    min: Count
    max: Count

    @model_validator(mode="after")
    def _ordered(self) -> "Range":
        if self.min > self.max:
            raise ValueError(f"min {self.min} is greater than max {self.max}")
        return self


class SourceRef(Model):
    """Where facts came from: a seed text (by file) or a public source."""
    id: Id
    file: str | None = None
    title: str | None = None
    url_note: str | None = Field(None, description="how to find it; no live address needed")
    language: str | None = None


GapKind = Literal["assumption", "erratum", "unspecified", "discrepancy"]


class Gap(Model):
    """Something a source is silent on, ambiguous about or wrong about, made explicit."""
    id: Id
    kind: GapKind
    clause: str = Field(description="the seed and clause it concerns, e.g. 'seed 001, ドワーフカード'")
    text: LocalText
    player_counts: list[int] = []
    component: str | None = None
    resolution: LocalText | None = Field(None, description="what the data does about it")
    source: str | None = Field(None, description="the source of the resolution, if not the seed")

    _v = field_validator("text", "resolution", mode="before")(classmethod(lambda cls, v: v if v is None else _check_local(v)))


class GameMeta(Model):
    id: Id
    title: LocalText
    subtitle: LocalText | None = None
    designer: list[LocalText] = Field([], description="names; {ja: ..., en: ...} where the name is written "
                                                        "differently per language, else a plain string")
    publisher: list[LocalText] = []
    year: int | None = None
    players: Range
    play_time_minutes: Range | None = None
    age_min: int | None = None
    source_language: str = Field(pattern=LANG_PATTERN)
    languages: list[str] = Field(default_factory=lambda: ["ja", "en"])
    fonts: dict[Annotated[str, Field(pattern=LANG_PATTERN)], str] = Field(
        default_factory=dict, description="text face per language, e.g. {en: source-serif, ja: ipaex-gothic}; "
                                          "default: ipaex-gothic for ja/zh/ko, source-serif for other languages")
    sources: list[SourceRef] = []
    gaps: list[Gap] = []
    notes: LocalText | None = None

    _v = field_validator("title", "subtitle", "notes", mode="before")(classmethod(lambda cls, v: v if v is None else _check_local(v)))
    _names = field_validator("designer", "publisher", mode="before")(
        classmethod(lambda cls, v: [_check_local(n) for n in v] if isinstance(v, list) else v))


# --------------------------------------------------------------------------- components.yaml

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

    _v = field_validator("label", mode="before")(classmethod(lambda cls, v: v if v is None else _check_local(v)))


class Item(Model):
    """A card, counter, tile or token kind inside a component; `count` copies of it exist."""
    id: Id
    name: LocalText | None = None
    count: Count | None = Field(1, description="copies; null when the source does not say")
    text: LocalText | None = Field(None, description="rule text printed on it")
    attrs: dict[str, AttrValue] = {}
    front: Face | None = None
    back: Face | None = None
    layout: Id | None = None
    source: str | None = None
    note: LocalText | None = None
    rest: bool = Field(False, description="stands for the pieces the sources do not name: a proposal "
                       "(pnp propose) gives it what the stated total leaves after the named kinds")

    _v = field_validator("name", "text", "note", mode="before")(classmethod(lambda cls, v: v if v is None else _check_local(v)))


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
    count: Count | None = Field(None, description="how many of a thing without items (dice: 6); null if unknown")
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
    back: Face | None = Field(None, description="the common back of every item (cards)")
    layout: Id | None = None
    group: str | None = Field(None, description="for grouping in lists, e.g. 'play-cards'")
    attrs: dict[str, AttrValue] = {}
    source: str | None = None
    note: LocalText | None = None

    _v = field_validator("name", "note", mode="before")(classmethod(lambda cls, v: v if v is None else _check_local(v)))

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


# --------------------------------------------------------------------------- setup.yaml

Selector = dict[str, Union[Scalar, list[Scalar]]]


class Pick(Model):
    """Some items of a component: those whose attrs match `where` (or listed `items`)."""
    component: Id
    where: Selector = {}
    items: list[Id] = []
    each: Expression | None = Field(None, description="copies to take of each matched item (default all); "
                                                       "was `count` (read until the next release)")

    _e = field_validator("each", mode="before")(classmethod(lambda cls, v: _check_expr(v)))


WHEN_HELP = ("expression over `players` and `variant(id)` (true when that optional rule of `variants` "
             "is played), e.g. 'players <= 4' or \"variant('team-play') and players % 2 == 1\"")


SOURCE_HELP = ("the clause of a source text it follows, e.g. 'seed 002, setup 5'; required when game.yaml "
               "declares `sources:`, absent for an original game")


class StepBase(Model):
    when: str | None = Field(None, description=WHEN_HELP)
    source: str | None = None
    note: LocalText | None = None

    _w = field_validator("when", mode="before")(classmethod(lambda cls, v: _check_expr(v)))


class UseStep(StepBase):
    """Put a component (or some of it) into play; `count` for a thing without items."""
    use: Id
    count: Expression | None = None
    _e = field_validator("count", mode="before")(classmethod(lambda cls, v: _check_expr(v)))


class RemoveStep(StepBase):
    """Take items out of play, back to the box."""
    remove: Pick


class ShuffleStep(StepBase):
    shuffle: Id


class CombineStep(StepBase):
    """Shuffle several components into one pile (path and action cards into one deck)."""
    combine: list[Id]
    into: Id


RECIPIENTS_HELP = ("how many players receive, e.g. `1` (the Sauron player) or `players - 1` "
                   "(everyone else); default every player")


class DealStep(StepBase):
    """Deal `each` cards at random from a pile to each of `recipients` players (a hand or a secret role)."""
    deal: Id
    each: Expression
    recipients: Expression = Field("players", description=RECIPIENTS_HELP)
    hand: bool = Field(True, description="False for cards dealt that are not part of the hand (roles)")
    _e = field_validator("each", "recipients", mode="before")(classmethod(lambda cls, v: _check_expr(v)))


class GiveStep(StepBase):
    """Each of `recipients` players takes `each` of a per-player component (pedestal, screen, pieces);
    `on` names where the given pieces go (a map place, a track); given pieces count as placed."""
    give: Id
    each: Expression = 1
    recipients: Expression = Field("players", description=RECIPIENTS_HELP)
    on: str | None = Field(None, description="where the given pieces start, e.g. a map place id")
    face: str | None = Field(None, description="which face is up, e.g. up, down, fellowship")
    _e = field_validator("each", "recipients", mode="before")(classmethod(lambda cls, v: _check_expr(v)))


class SetAsideStep(StepBase):
    """Draw `count` unseen from a pile and put them aside, out of this round (back in the box)."""
    set_aside: Id
    count: Expression
    _e = field_validator("count", mode="before")(classmethod(lambda cls, v: _check_expr(v)))


class PlaceStep(StepBase):
    """Place `count` from a component (or all) on the board or table: from the listed `items`, or
    the items whose attrs match `where` (e.g. {side: dark}), or the whole component."""
    place: Id
    count: Expression | None = None
    on: str = "table"
    items: list[Id] = []
    where: Selector = Field({}, description="only items whose attrs match, e.g. {side: dark}")
    face: str | None = Field(None, description="which face is up, e.g. fellowship, black, down")
    _e = field_validator("count", mode="before")(classmethod(lambda cls, v: _check_expr(v)))


class ReturnRestStep(StepBase):
    """What is left of a component goes back to the box: the copies no step took out of the box,
    and what is left in its pile after draws and deals (undealt roles, unseen)."""
    return_rest: Id


class SupplyStep(StepBase):
    """Put a component beside the board as a common supply (tokens, chips)."""
    supply: Id


Step = Union[UseStep, RemoveStep, ShuffleStep, CombineStep, DealStep, GiveStep, SetAsideStep,
             PlaceStep, ReturnRestStep, SupplyStep]
STEP_KEYS = {"use": UseStep, "remove": RemoveStep, "shuffle": ShuffleStep, "combine": CombineStep,
             "deal": DealStep, "give": GiveStep, "set_aside": SetAsideStep, "place": PlaceStep,
             "return_rest": ReturnRestStep, "supply": SupplyStep}


Zone = Literal["owned", "in_play", "dealt", "returned_to_box", "set_aside", "draw_pile", "placed", "supply"]


class Selection(Model):
    """What a constraint counts: items of a component in a zone, optionally filtered by attrs."""
    component: Id
    zone: Zone = "in_play"
    where: Selector = {}


ConstraintKind = Literal["at_least", "at_most", "exactly"]


class Constraint(Model):
    """A rule the checker proves for every player count where `when` holds.

    Either `require` (an expression using count(component), players...) or a generic kind:
    `kind` over `of`, compared to `value`, optionally for each value of attribute `per`.
    """
    id: Id
    require: str | None = None
    kind: ConstraintKind | None = None
    of: Selection | None = None
    per: str | None = None
    value: Expression | None = None
    when: str | None = Field(None, description=WHEN_HELP)
    source: str | None = Field(None, description=SOURCE_HELP)
    message: LocalText | None = None

    _e = field_validator("require", "value", "when", mode="before")(classmethod(lambda cls, v: _check_expr(v)))

    @model_validator(mode="after")
    def _one_form(self) -> "Constraint":
        generic = self.kind is not None or self.of is not None or self.value is not None
        if self.require and generic:
            raise ValueError("give either `require` or `kind`/`of`/`value`, not both")
        if not self.require and not (self.kind and self.of and self.value is not None):
            raise ValueError("give `require: <expression>` or all of `kind`, `of` and `value`")
        return self


def _step_kind(raw: Any) -> str | None:
    if isinstance(raw, dict):
        kinds = [k for k in raw if k in STEP_KEYS]
        return kinds[0] if len(kinds) == 1 else None
    return getattr(raw, "kind", None)


if TYPE_CHECKING:  # the union below, spelt out for type checkers (it is built from STEP_KEYS)
    AnyStep = Union[UseStep, RemoveStep, ShuffleStep, CombineStep, DealStep, GiveStep, SetAsideStep, PlaceStep,
                    ReturnRestStep, SupplyStep]
else:
    AnyStep = Annotated[
        Union[tuple(Annotated[cls, Tag(key)] for key, cls in STEP_KEYS.items())],
        Discriminator(_step_kind, custom_error_type="step-kind",
                      custom_error_message="a step needs exactly one of: " + ", ".join(STEP_KEYS)),
    ]


class Variant(Model):
    """An optional rule that changes the setup (team play, an extended two-player game).

    The engine runs the base setup, then the setup once more with each variant on, at the counts
    it applies to; steps and constraints say what a variant changes by `when: variant('id')`."""
    id: Id
    name: LocalText
    source: str | None = Field(None, description="the clause that states the optional rule; " + SOURCE_HELP)
    player_counts: list[int] | None = Field(None, description="counts it applies to (a subset of the setup's); default all")
    note: LocalText | None = None

    _v = field_validator("name", "note", mode="before")(classmethod(lambda cls, v: v if v is None else _check_local(v)))


class Location(Model):
    """Somewhere off the map that setup puts pieces `on`: a hand, a draw pile, a track, a spot on a board."""
    id: Id
    name: LocalText | None = None
    source: str | None = None

    _v = field_validator("name", mode="before")(classmethod(lambda cls, v: v if v is None else _check_local(v)))


class SetupFile(Model):
    player_counts: list[int] | None = Field(None, description="default: every count in game.yaml players")
    variants: list[Variant] = Field([], description="optional rules that change the setup; each is run and proved too")
    locations: list[Location] = Field([], description="places off the map that steps put pieces `on` "
                                                      "(hands, piles, tracks, spots on a board)")
    steps: list[AnyStep]
    constraints: list[Constraint] = []
    hand_limit: Expression | None = None

    _e = field_validator("hand_limit", mode="before")(classmethod(lambda cls, v: _check_expr(v)))


def step_kind(step: Step) -> str:
    for key, cls in STEP_KEYS.items():
        if isinstance(step, cls):
            return key
    raise TypeError(step)
