"""What the engine yields: the moves a setup resolves into and the setup's result at one count."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ItemKey = tuple[str, str]  # (component id, item id); an item-less component is its own single item
ZONES = ("box", "pile", "dealt", "set_aside", "placed", "supply", "returned")
IN_PLAY_ZONES = ("pile", "dealt", "placed", "supply")


@dataclass(frozen=True)
class Move:
    """Copies of `items` go from the first zones of `src` that hold them into `dst`.

    Exactly one amount form: `per_item` copies of each item, `total` copies over all the items
    (chosen at random from a pile, by the players otherwise), or neither = every copy there is.
    """
    step: int
    items: tuple[ItemKey, ...]
    src: tuple[str, ...]
    dst: str
    per_item: int | None = None
    total: int | None = None
    pile: str | None = None  # the pile drawn from, for random draws
    # a matched move: (attribute, pile, each): `each` copies of the items whose attribute is that of
    # each card dealt from the pile before it; `total` is then every dealt card times `each`
    match: tuple[str, str, int] | None = None
    chosen_by: str | None = None  # a choice: the side of setup.yaml `sides` that chooses the items
    # return_rest's draw of a pile's rest: every copy still in the pile, whatever the counts; `total`
    # is what the engine's counts leave (the checker's model, whose counts vary, takes all there is)
    rest: bool = False


@dataclass
class Shortage:
    """A step asked for more copies than there were; the engine clamps and records it."""
    step: int
    needed: int
    available: int
    items: tuple[ItemKey, ...]
    pile: str | None = None  # the pile a random draw came from

    def report(self) -> dict[str, Any]:
        return {"step": self.step, "needs": self.needed, "has": self.available}


@dataclass
class Draw:
    """A random draw of `count` copies from a pile whose make-up is `pool` (item -> copies)."""
    step: int
    pile: str
    dst: str
    count: int
    pool: dict[ItemKey, int]
    hand: bool
    each: int
    clean: bool  # no earlier random draw from this pile: `pool` is exact
    to: str | None = None  # the side of setup.yaml `sides` that alone receives (a deal `to:`)
    pile_items: tuple[ItemKey, ...] = ()  # every item of the pile, those with no counted copy too


@dataclass(frozen=True)
class Placement:
    """Where a place or give step puts its pieces, and which face is up (for the rulebook's tables)."""
    step: int
    component: str
    count: int  # copies the step moved (after any shortage)
    on: str
    face: str | None = None
    items: tuple[tuple[ItemKey, int], ...] = ()  # which items, how many copies each (exports place them)
    chosen_by: str | None = None  # the side of setup.yaml `sides` that chooses which items

    def report(self) -> dict[str, Any]:
        row: dict[str, Any] = {"component": self.component, "count": self.count, "on": self.on}
        if self.face:
            row["face"] = self.face
        if self.chosen_by:
            row["chosen_by"] = self.chosen_by
        return row


@dataclass
class SetupResult:
    """What the setup yields at one player count (with optional rule `variant`, if not None).

    Per-zone dicts hold every component (zeros included; `report()` leaves zeros out) and are
    keyed by component id, except that piles (and what is dealt or set aside
    from them) are keyed by the pile id, which is the combine target when components are mixed.
    """
    players: int
    steps_run: list[int]
    moves: list[Move]
    owned: dict[str, int]
    in_play: dict[str, int]
    dealt: dict[str, int]
    set_aside: dict[str, int]
    returned_to_box: dict[str, int]
    placed: dict[str, int]
    supply: dict[str, int]
    draw_pile: int
    hand_size: int
    untouched: dict[str, int]  # copies no step mentions (counted as in the box)
    assumed: dict[str, int]  # uncounted copies a step asked for, taken as there (component -> copies)
    draws: list[Draw]
    shortages: list[Shortage]
    items: dict[ItemKey, dict[str, int]] = field(default_factory=dict)  # per item, before random draws
    placements: list[Placement] = field(default_factory=list)
    variant: str | None = None

    def report(self) -> dict[str, Any]:
        """The DESIGN.md `player_counts` entry for this count (zero entries left out). A count where
        a step runs short has no figures, only `cannot_set_up` (each step's needs and has): the
        engine's clamped numbers (hands of 14 with 54 dealt) are a state no table may show."""
        if self.shortages:
            return {"cannot_set_up": [s.report() for s in self.shortages]}
        row = {
            "in_play": _nonzero(self.in_play),
            "returned_to_box": _nonzero(self.returned_to_box),
            "set_aside": _nonzero(self.set_aside),
            "placed": _nonzero(self.placed),
            "supply": _nonzero(self.supply),
            "hand_size": self.hand_size,
            "dealt": _nonzero(self.dealt),
            "draw_pile": self.draw_pile,
        }
        if self.placements:
            row["placements"] = [p.report() for p in self.placements]
        if self.assumed:  # copies of uncounted kinds the steps needed (the least the box must hold)
            row["uncounted_needed"] = dict(self.assumed)
        dealt_to = {d.pile: d.to for d in self.draws if d.to and d.dst == "dealt"}
        if dealt_to:  # piles dealt to one side only (setup.yaml `sides`)
            row["dealt_to"] = dict(sorted(dealt_to.items()))
        return row


def _nonzero(d: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in sorted(d.items()) if v}
