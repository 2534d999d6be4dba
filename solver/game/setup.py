"""`setup.yaml`: the setup as steps the engine runs, the constraints the checker proves, variants
and the locations off the map that steps put pieces on."""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import Discriminator, Field, Tag, field_validator, model_validator

from .base import Expression, Id, LocalText, Model, check_expr, check_local, check_when
from .components import Scalar


Selector = dict[str, Union[Scalar, list[Scalar]]]


FREE = "free"  # a `remove` amount that `pnp design` chooses per player count (designed.yaml `amounts`)


class Pick(Model):
    """Some items of a component: those whose attrs match `where` (or listed `items`)."""
    component: Id
    where: Selector = {}
    items: list[Id] = []
    each: Expression | None = Field(None, description="copies to take of each matched item (default all); `free`: "
                                                       "`pnp design` chooses it per player count; "
                                                       "was `count` (read until the next release)")

    _e = field_validator("each", mode="before")(classmethod(lambda cls, v: check_expr(v)))


WHEN_HELP = ("expression over `players` and `variant(id)` (true when that optional rule of `variants` "
             "is played), e.g. 'players <= 4' or \"variant('team-play') and players % 2 == 1\"")


SOURCE_HELP = ("the clause of a source text it follows, e.g. 'seed 002, setup 5'; required when game.yaml "
               "declares `sources:`, absent for an original game")


class StepBase(Model):
    when: str | None = Field(None, description=WHEN_HELP)
    source: str | None = None
    note: LocalText | None = None

    _w = field_validator("when", mode="before")(classmethod(lambda cls, v: check_when(v)))
    _n = field_validator("note", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))


class UseStep(StepBase):
    """Put a component (or some of it) into play; `count` for a thing without items."""
    use: Id
    count: Expression | None = None
    _e = field_validator("count", mode="before")(classmethod(lambda cls, v: check_expr(v)))


class RemoveStep(StepBase):
    """Take items out of play, back to the box."""
    remove: Pick


class ShuffleStep(StepBase):
    shuffle: Id


class CombineStep(StepBase):
    """Shuffle several components (or the items of them whose attrs match `where`) into one pile
    (path and action cards into one deck; the nine green cards into the Allied deck)."""
    combine: list[Id]
    into: Id
    where: Selector = Field({}, description="only the items whose attrs match, e.g. {colour: green}")
    name: LocalText | None = Field(None, description="the new pile's name per language, as the rulebook's "
                                   "setup table prints it; default: the combined components' names joined by +")
    _c = field_validator("name", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))


RECIPIENTS_HELP = ("how many players receive, e.g. `1` (the Sauron player) or `players - 1` "
                   "(everyone else); default every player")

TO_HELP = ("a side of `sides` (the Allied player, the Sauron player): only its players receive, "
           "instead of `recipients`")

CHOSEN_HELP = ("a side of `sides` whose players choose which items the step takes (which six cards, "
               "which hobbit's card); the checker proves a valid choice exists at every player count")

MATCH_HELP = ("take, for each card a player was dealt earlier from a pile, `each` of the items whose "
              "attribute matches that card's: {attribute: pile}, e.g. {clan: dwarf-cards} (the pawn of "
              "the clan on the back of your dwarf card); the checker proves the counts for every deal")


def check_match(v: Any) -> Any:
    if v is not None and len(v) != 1:
        raise ValueError("match names one attribute and the pile dealt earlier, e.g. {clan: dwarf-cards}")
    return v


class DealStep(StepBase):
    """Deal `each` cards at random from a pile to each of `recipients` players (a hand or a secret
    role), or to the players of one side (`to`: the Allied player alone draws three)."""
    deal: Id
    each: Expression
    recipients: Expression = Field("players", description=RECIPIENTS_HELP)
    to: Id | None = Field(None, description=TO_HELP)
    hand: bool = Field(True, description="False for cards dealt that are not part of the hand (roles)")
    _e = field_validator("each", "recipients", mode="before")(classmethod(lambda cls, v: check_expr(v)))

    @model_validator(mode="after")
    def _to_or_recipients(self) -> "DealStep":
        if self.to and "recipients" in self.model_fields_set:
            raise ValueError("give `to: <side>` or `recipients`, not both")
        return self


class GiveStep(StepBase):
    """Each of `recipients` players (or of side `to`) takes `each` of a per-player component (pedestal, screen, pieces);
    `on` names where the given pieces go (a map place, a track); given pieces count as placed."""
    give: Id
    each: Expression = 1
    recipients: Expression = Field("players", description=RECIPIENTS_HELP)
    on: str | None = Field(None, description="where the given pieces start, e.g. a map place id")
    face: str | None = Field(None, description="which face is up, e.g. up, down, fellowship")
    match: dict[str, Id] | None = Field(None, description=MATCH_HELP + "; `recipients` is then who was dealt")
    to: Id | None = Field(None, description=TO_HELP)
    chosen_by: Id | None = Field(None, description=CHOSEN_HELP)
    _e = field_validator("each", "recipients", mode="before")(classmethod(lambda cls, v: check_expr(v)))
    _m = field_validator("match")(classmethod(lambda cls, v: check_match(v)))

    @model_validator(mode="after")
    def _match_alone(self) -> "GiveStep":
        if (self.match or self.to) and "recipients" in self.model_fields_set:
            raise ValueError("with `match` or `to`, the players who receive are those dealt or that side's: "
                             "drop `recipients`")
        if self.match and self.to:
            raise ValueError("give either `match` (those dealt from the pile) or `to` (one side), not both")
        return self


class SetAsideStep(StepBase):
    """Draw `count` unseen from a pile and put them aside, out of this round (back in the box)."""
    set_aside: Id
    count: Expression
    _e = field_validator("count", mode="before")(classmethod(lambda cls, v: check_expr(v)))


class PlaceStep(StepBase):
    """Place `count` from a component (or all) on the board or table: from the listed `items`, or
    the items whose attrs match `where` (e.g. {side: dark}), or the whole component."""
    place: Id
    count: Expression | None = None
    on: str = "table"
    items: list[Id] = []
    where: Selector = Field({}, description="only items whose attrs match, e.g. {side: dark}")
    face: str | None = Field(None, description="which face is up, e.g. fellowship, black, down")
    match: dict[str, Id] | None = Field(None, description=MATCH_HELP)
    chosen_by: Id | None = Field(None, description=CHOSEN_HELP)
    each: Expression | None = Field(None, description="with `match`: copies per card dealt (default 1)")
    _e = field_validator("count", "each", mode="before")(classmethod(lambda cls, v: check_expr(v)))
    _m = field_validator("match")(classmethod(lambda cls, v: check_match(v)))

    @model_validator(mode="after")
    def _match_alone(self) -> "PlaceStep":
        if self.match and self.count is not None:
            raise ValueError("with `match`, the count is one per card dealt (times `each`): drop `count`")
        return self


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

    _e = field_validator("require", "value", mode="before")(classmethod(lambda cls, v: check_expr(v)))
    _w = field_validator("when", mode="before")(classmethod(lambda cls, v: check_when(v)))

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

    _v = field_validator("name", "note", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))


class Side(Model):
    """A player, side or role the setup names: `to:` deals to it alone, `chosen_by:` lets it choose."""
    id: Id
    name: LocalText
    players: Expression = Field(1, description="how many players it is, e.g. 1 or `players - 1`")
    source: str | None = None

    _v = field_validator("name", mode="before")(classmethod(lambda cls, v: check_local(v)))
    _e = field_validator("players", mode="before")(classmethod(lambda cls, v: check_expr(v)))


class Location(Model):
    """Somewhere off the map that setup puts pieces `on`: a hand, a draw pile, a track, a spot on a board."""
    id: Id
    name: LocalText | None = None
    source: str | None = None

    _v = field_validator("name", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))


class SetupFile(Model):
    player_counts: list[int] | None = Field(None, description="default: every count in game.yaml players")
    variants: list[Variant] = Field([], description="optional rules that change the setup; each is run and proved too")
    locations: list[Location] = Field([], description="places off the map that steps put pieces `on` "
                                                      "(hands, piles, tracks, spots on a board)")
    sides: list[Side] = Field([], description="players, sides or roles that steps deal `to` or that choose "
                                              "(`chosen_by`): the Allied player, the Sauron player")
    steps: list[AnyStep]
    constraints: list[Constraint] = []
    hand_limit: Expression | None = None

    _e = field_validator("hand_limit", mode="before")(classmethod(lambda cls, v: check_expr(v)))


def step_kind(step: Step) -> str:
    for key, cls in STEP_KEYS.items():
        if isinstance(step, cls):
            return key
    raise TypeError(step)
