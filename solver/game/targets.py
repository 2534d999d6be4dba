"""targets.yaml: what a designer wants of the counts (odds of a deal, ranges, box size, shares),
which `pnp design` turns into counts (solver/counts/design.py) and `pnp check` proves again.

Each target has an `id` and exactly one kind:

    odds              the chance that a deal's make-up meets a condition is at least / at most a fraction
    range             how many items matching a selector the box holds (optionally per attribute value)
    total             how many pieces a component holds in all
    share             a soft target: the matched items' share of the component, near a fraction, weighted
    seat_expectation  the expected number of matched cards each seat is dealt: equal, or within bounds

Fractions are written "9/10", "0.9" or 1 and read exactly (never as floats).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Union

from pydantic import Field, field_validator, model_validator

from ..errors import Problem
from .base import Count, Expression, Id, LocalText, Model, check_expr, check_local
from .setup import WHEN_HELP, Selector

PROBABILITY_HELP = 'a fraction, written "9/10", "0.9", 0 or 1 (read exactly)'
Probability = Annotated[Union[int, str], Field(description=PROBABILITY_HELP)]
TARGET_KINDS = ("odds", "range", "total", "share", "seat_expectation")


def fraction_of(value: Union[int, str]) -> Fraction:
    """The exact fraction a target writes ("9/10", "0.9", 1)."""
    return Fraction(str(value).strip())


def _check_fraction(v: Any, upper: Fraction | None = Fraction(1)) -> Any:
    if v is None:
        return v
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError(f'expected a fraction such as "9/10" or "0.9", not {v!r}')
    try:
        f = fraction_of(v)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f'{v!r} is not a fraction; write it as "9/10" or "0.9"') from None
    if f < 0 or (upper is not None and f > upper):
        raise ValueError(f"{v!r} is not between 0 and {upper}" if upper is not None else f"{v!r} is negative")
    return v


class OddsTarget(Model):
    """The chance that the cards a deal hands out (all seats together) hold at least / at most so many
    of the matched items."""
    deal: Id = Field(description="the pile a `deal` step of setup.yaml deals from")
    where: Selector = Field({}, description="the items counted, by attrs, e.g. {role: saboteur}")
    dealt_at_least: Expression | None = Field(None, description="the condition: at least this many matched cards dealt")
    dealt_at_most: Expression | None = Field(None, description="the condition: at most this many matched cards dealt")
    probability_at_least: Probability | None = Field(None, description="the condition holds at least this often; "
                                                     + PROBABILITY_HELP)
    probability_at_most: Probability | None = Field(None, description="the condition holds at most this often")

    _e = field_validator("dealt_at_least", "dealt_at_most", mode="before")(classmethod(lambda cls, v: check_expr(v)))
    _p = field_validator("probability_at_least", "probability_at_most", mode="before")(
        classmethod(lambda cls, v: _check_fraction(v)))

    @model_validator(mode="after")
    def _complete(self) -> "OddsTarget":
        if self.dealt_at_least is None and self.dealt_at_most is None:
            raise ValueError("give the condition: `dealt_at_least` and/or `dealt_at_most`")
        if (self.probability_at_least is None) == (self.probability_at_most is None):
            raise ValueError("give one of `probability_at_least` and `probability_at_most`")
        return self


class Bounds(Model):
    min: Count | None = Field(None, description="at least this many")
    max: Count | None = Field(None, description="at most this many")

    @model_validator(mode="after")
    def _some(self) -> "Bounds":
        if self.min is None and self.max is None:
            raise ValueError("give `min`, `max` or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"`min` {self.min} is above `max` {self.max}")
        return self


class RangeTarget(Bounds):
    """How many copies of the matched items the box holds; with `per`, for each value of that attribute."""
    component: Id
    where: Selector = {}
    per: str | None = Field(None, description="an attribute: the range holds for each of its values (each suit)")


class TotalTarget(Bounds):
    """How many pieces the component holds in all (the deck or box size)."""
    component: Id


class ShareTarget(Model):
    """Soft: the matched items' share of the component's copies, as near `near` as the other targets allow."""
    component: Id
    where: Selector = {}
    near: Probability = Field(description="the share wanted; " + PROBABILITY_HELP)
    weight: int = Field(1, ge=1, le=1000, description="how much this share counts against the other soft targets")

    _p = field_validator("near", mode="before")(classmethod(lambda cls, v: _check_fraction(v)))


class SeatTarget(Model):
    """The expected number of matched cards each seat is dealt: `equal` for every seat, or within bounds."""
    deal: Id = Field(description="the pile a `deal` step deals from")
    where: Selector = {}
    equal: bool = Field(True, description="every seat expects the same number")
    at_least: Probability | None = Field(None, description="each seat expects at least this many; a fraction")
    at_most: Probability | None = Field(None, description="each seat expects at most this many; a fraction")

    _p = field_validator("at_least", "at_most", mode="before")(classmethod(lambda cls, v: _check_fraction(v, None)))


class Target(Model):
    """One target: an id and exactly one of odds, range, total, share, seat_expectation."""
    id: Id
    odds: OddsTarget | None = None
    range: RangeTarget | None = None
    total: TotalTarget | None = None
    share: ShareTarget | None = None
    seat_expectation: SeatTarget | None = None
    when: str | None = Field(None, description="player counts it applies to; " + WHEN_HELP)
    source: str | None = Field(None, description="why the designer wants it (a note, a playtest, a clause)")
    note: LocalText | None = None

    _w = field_validator("when", mode="before")(classmethod(lambda cls, v: check_expr(v)))
    _n = field_validator("note", mode="before")(classmethod(lambda cls, v: v if v is None else check_local(v)))

    @model_validator(mode="after")
    def _one_kind(self) -> "Target":
        given = [k for k in TARGET_KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a target needs exactly one of: " + ", ".join(TARGET_KINDS))
        return self

    @property
    def kind(self) -> str:
        return next(k for k in TARGET_KINDS if getattr(self, k) is not None)

    @property
    def spec(self) -> Any:
        return getattr(self, self.kind)

    @property
    def soft(self) -> bool:
        return self.kind == "share"


class TargetsFile(Model):
    open: list[Id] = Field([], description="components whose stated counts `pnp design` may set anew "
                                           "(it solves them as if the sources stated none)")
    max_pile: int = Field(60, ge=1, le=400, description="no designed component holds more copies than this")
    targets: list[Target]

    def check_references(self, components: list, locator: Any) -> list[Problem]:
        """Every id a target names is a component of components.yaml; ids are unique."""
        ids = {c.id for c in components}
        problems: list[Problem] = []
        for oi, cid in enumerate(self.open):
            if cid not in ids:
                problems.append(locator.problem(("open", oi), f"unknown component {cid!r}",
                                                "use an id from components.yaml"))
        seen: set[str] = set()
        for ti, t in enumerate(self.targets):
            if t.id in seen:
                problems.append(locator.problem(("targets", ti, "id"), f"a second target {t.id!r}", "give each its own id"))
            seen.add(t.id)
            key = "deal" if t.kind in ("odds", "seat_expectation") else "component"
            if getattr(t.spec, key) not in ids:
                problems.append(locator.problem(("targets", ti, t.kind, key), f"unknown component {getattr(t.spec, key)!r}",
                                                "use an id from components.yaml"))
        return problems
