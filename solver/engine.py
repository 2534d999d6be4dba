"""The rules engine: a game's setup.yaml executed for every player count, by counting.

Each setup step is first resolved into primitive `Move`s (take copies of some items from some
zones into another zone). The engine executes the moves by plain counting; the CP-SAT checker
(solver/checker.py) compiles the very same moves into a model, so the two read the setup one way.

Zones an item copy can be in during setup:

    box       still in the box, not yet touched by the setup
    pile      in play as part of a pile (a component's own deck, or a `combine` target)
    dealt     dealt to the players (hands and secret roles)
    set_aside drawn unseen and put out of this round
    placed    placed on the board/table or given to a player (pedestals, start cards)
    supply    a common supply beside the board
    returned  put back in the box by a step

`deal` and `give` go to `recipients` players (default every player: `1` is the Sauron player,
`players - 1` everyone else). `return_rest` puts back what no step took out of the box and, once
a pile has been dealt or drawn from, what is left of it (Saboteur's undealt dwarf cards, unseen): which kinds are
left is as random as the deal, so that move is a draw of the whole rest of the pile.
A shuffle changes no count. A draw of `total` copies from a pile of several item kinds is random;
the engine keeps it as a count per pile (which kinds are drawn is the odds module's business).
Copies the sources do not count: a component's stated total less its counted items is one
anonymous item, and copies a step asks of uncounted kinds beyond that are taken as there and
reported (`SetupResult.assumed`, `uncounted_needed` in the report), so the tables stay right.

Optional rules that change the setup are setup.yaml `variants:`; a step or constraint guarded by
`when: variant('team-play')` applies only when that variant is played (`variant()` is false in the
base setup). Each variant is run at the counts it applies to, on top of the base setup.

Public API (stable, used by the checker, the report and the rulebook):
    run_setup(game, players, variant=None) -> SetupResult
    setup_table(game) -> dict[int, SetupResult]   every player count the game supports
    variant_tables(game) -> {variant id: {count: SetupResult}}   each variant at its counts
    when_functions(variant) -> the functions a `when:` may call (`variant(id)`)
    SetupResult.report() -> the DESIGN.md "player_counts" entry of one count, plus `placements`
                            (where each place/give step puts how many, and which face is up)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from . import expr as _expr
from .errors import DataError, Problem
from .game.loader import Game
from .game.components import Component
from .game.setup import (CombineStep, DealStep, GiveStep, PlaceStep, RemoveStep, ReturnRestStep, SetAsideStep,
                         ShuffleStep, SupplyStep, UseStep, step_kind)

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


@dataclass
class Shortage:
    """A step asked for more copies than there were; the engine clamps and records it."""
    step: int
    needed: int
    available: int
    items: tuple[ItemKey, ...]


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


@dataclass(frozen=True)
class Placement:
    """Where a place or give step puts its pieces, and which face is up (for the rulebook's tables)."""
    step: int
    component: str
    count: int  # copies the step moved (after any shortage)
    on: str
    face: str | None = None
    items: tuple[tuple[ItemKey, int], ...] = ()  # which items, how many copies each (exports place them)

    def report(self) -> dict[str, Any]:
        row: dict[str, Any] = {"component": self.component, "count": self.count, "on": self.on}
        if self.face:
            row["face"] = self.face
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
        """The DESIGN.md `player_counts` entry for this count (zero entries left out)."""
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
        return row


def _nonzero(d: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in sorted(d.items()) if v}


def player_counts(game: Game) -> list[int]:
    """The counts setup.yaml covers (its list, else the game's whole player range)."""
    if game.setup and game.setup.player_counts:
        return sorted(set(game.setup.player_counts))
    return list(range(game.meta.players.min, game.meta.players.max + 1))


def variant_counts(game: Game, variant: str) -> list[int]:
    """The counts an optional rule applies to: its own list, else every count of the setup."""
    var = next(v for v in game.setup.variants if v.id == variant)  # type: ignore[union-attr]
    return sorted(set(var.player_counts)) if var.player_counts else player_counts(game)


def when_functions(variant: str | None) -> dict[str, Any]:
    """The functions a `when:` may call: `variant(id)` is true only for the variant being run.
    The loader has already refused ids that setup.yaml's `variants:` does not declare."""
    return {"variant": lambda vid: vid == variant}


def item_keys(comp: Component) -> list[ItemKey]:
    if comp.items:
        return [(comp.id, i.id) for i in comp.items]
    return [(comp.id, comp.id)]


def owned_counts(game: Game) -> dict[ItemKey, int | None]:
    """Copies of each item in the box; None when the data does not know."""
    out: dict[ItemKey, int | None] = {}
    for comp in game.components:
        if comp.items:
            for it in comp.items:
                out[(comp.id, it.id)] = it.count
        else:
            out[(comp.id, comp.id)] = comp.count
    return out


UNCOUNTED = "(uncounted)"


def counting_stock(game: Game) -> dict[ItemKey, int]:
    """What the engine counts with: known counts as they are, unknown ones as 0, except that a
    component with a stated total gets the copies its counted items do not explain as one
    anonymous item `(component, "(uncounted)")`: the Saboteur deck is 40 + 23 cards even
    though no kind's count is known, so hands and the draw pile still come out right."""
    stock = {k: v or 0 for k, v in owned_counts(game).items()}
    for comp in game.components:
        if comp.stated_total is None or not comp.items or all(i.count is not None for i in comp.items):
            continue
        rest = comp.stated_total.value - sum(i.count or 0 for i in comp.items)
        if rest > 0:
            stock[(comp.id, UNCOUNTED)] = rest
    return stock


def matches(attrs: dict[str, Any], where: dict[str, Any]) -> bool:
    """Does an item with `attrs` match a selector (a value, or a list of accepted values)?"""
    for key, want in where.items():
        have = attrs.get(key)
        wants = want if isinstance(want, list) else [want]
        haves = have if isinstance(have, list) else [have]
        if not any(_same(h, w) for h in haves for w in wants):
            return False
    return True


def _same(a: Any, b: Any) -> bool:
    return a == b or (a is not None and b is not None and str(a) == str(b))


def select_items(game: Game, component: str, where: dict[str, Any] | None = None,
                 ids: Iterable[str] = ()) -> list[ItemKey]:
    comp = game.component(component)
    wanted = set(ids)
    if not comp.items:
        return [(comp.id, comp.id)]
    out = []
    for it in comp.items:
        attrs = {**it.attrs, "id": it.id}
        if wanted and it.id not in wanted:
            continue
        if where and not matches(attrs, where):
            continue
        out.append((comp.id, it.id))
    return out


def step_location(game: Game, index: int) -> str:
    return game.where("setup.yaml", ("steps", index))


def step_label(game: Game, index: int) -> str:
    """A short human name of a step: its kind and target, e.g. `remove dwarf-cards {role: loyal}`."""
    step = game.setup.steps[index]  # type: ignore[union-attr]
    kind = step_kind(step)
    if isinstance(step, RemoveStep):
        target = step.remove.component
        sel: dict[str, Any] = step.remove.where or ({"items": step.remove.items} if step.remove.items else {})
        if sel:
            target += " " + ", ".join(f"{k}={v}" for k, v in sel.items())
        if step.remove.each is not None:
            target += f" ×{step.remove.each}"
    elif isinstance(step, CombineStep):
        target = "+".join(step.combine) + f" into {step.into}"
    else:
        target = str(getattr(step, kind))
    guard = f" when {step.when}" if step.when else ""
    return f"{kind} {target}{guard}"


class _Runner:
    def __init__(self, game: Game, players: int, variant: str | None = None):
        self.game = game
        self.players = players
        self.variant = variant
        self.env = {"players": players}
        self.functions = when_functions(variant)
        owned = counting_stock(game)
        self.state: dict[ItemKey, dict[str, int]] = {
            k: {z: 0 for z in ZONES} | {"box": v or 0} for k, v in owned.items()}
        self.owned = dict(owned)
        self.unknown = {k for k, v in owned_counts(game).items() if v is None}
        self.assumed: dict[str, int] = {}
        self.pile_of: dict[ItemKey, str] = {k: k[0] for k in owned}
        self.touched: set[str] = set()
        self.drawn: dict[tuple[str, str], int] = {}  # (pile, dst) -> copies drawn at random
        self.random_piles: set[str] = set()
        self.moves: list[Move] = []
        self.draws: list[Draw] = []
        self.shortages: list[Shortage] = []
        self.hand_size = 0
        self.hand_piles: list[str] = []
        self.steps_run: list[int] = []
        self.placements: list[Placement] = []

    # ------------------------------------------------------------------ helpers
    def value(self, expression: Any, index: int, field_name: str) -> int:
        try:
            v = _expr.evaluate(expression, self.env, self.functions)
        except _expr.ExprError as e:
            loc = self.game.where("setup.yaml", ("steps", index, field_name))
            path, _, line = loc.rpartition(":")
            raise DataError([Problem(path, int(line or 0), 0, f"{field_name}: {e}",
                                     "use `players`, numbers and + - * // % min() max() variant()")])
        if isinstance(v, bool) or not isinstance(v, int):
            v = int(v)
        return v

    def recipients(self, expression: Any, index: int) -> int:
        v = self.value(expression, index, "recipients")
        if not 0 <= v <= self.players:
            loc = self.game.where("setup.yaml", ("steps", index, "recipients"))
            path, _, line = loc.rpartition(":")
            raise DataError([Problem(path, int(line or 0), 0,
                                     f"recipients: {expression} is {v} at {self.players} players",
                                     "give a number of players from 0 to `players`, e.g. 1 or players - 1")])
        return v

    def items_of(self, component: str) -> tuple[ItemKey, ...]:
        self.touched.add(component)
        keys = item_keys(self.game.component(component))
        uncounted = (component, UNCOUNTED)
        return tuple(keys + [uncounted] if uncounted in self.state else keys)

    def items_in_pile(self, pile: str) -> tuple[ItemKey, ...]:
        """Items whose pile is `pile` (a component's own or a combine target)."""
        if self.game.has_component(pile):
            self.touched.add(pile)
        # every item that belongs to the pile, even with no copies counted: the checker's model
        # gives uncounted kinds their own free counts
        return tuple(k for k, p in self.pile_of.items() if p == pile)

    def pile_size(self, pile: str) -> int:
        held = sum(self.state[k]["pile"] for k, p in self.pile_of.items() if p == pile)
        return held - sum(v for (p, _), v in self.drawn.items() if p == pile)

    def emit(self, move: Move) -> None:
        self.moves.append(move)
        self.apply(move)

    def apply(self, move: Move) -> None:
        if move.total is not None and move.pile is not None:
            available = self.pile_size(move.pile)
            take = min(move.total, available)
            if move.total > available:
                self.shortages.append(Shortage(move.step, move.total, available, move.items))
            self.drawn[(move.pile, move.dst)] = self.drawn.get((move.pile, move.dst), 0) + take
            return
        if move.total is not None:  # chosen by the players: take in item order
            left = move.total
            for k in move.items:
                left -= self.take(k, move.src, move.dst, left)
            if left and all(k in self.unknown for k in move.items):
                self.assume(move.items[0][0], move.src, move.dst, left)
            elif left:
                have = move.total - left
                self.shortages.append(Shortage(move.step, move.total, have, move.items))
            return
        for k in move.items:
            if move.per_item is None:
                self.take(k, move.src, move.dst, None)
            else:
                got = self.take(k, move.src, move.dst, move.per_item)
                if got < move.per_item and k in self.unknown:
                    self.assume(k[0], move.src, move.dst, move.per_item - got)
                elif got < move.per_item:
                    self.shortages.append(Shortage(move.step, move.per_item, got, (k,)))

    def assume(self, component: str, src: tuple[str, ...], dst: str, copies: int) -> None:
        """Copies of uncounted items that a step asks for. They come from the component's
        uncounted rest (its stated total less its counted items) while that lasts; beyond it they
        are the least the setup needs, taken as there and reported as `assumed`."""
        key = (component, UNCOUNTED)
        st = self.state.setdefault(key, {z: 0 for z in ZONES})
        self.pile_of.setdefault(key, component)
        copies -= self.take(key, src, dst, copies)
        if copies:
            st[dst] += copies
            self.owned[key] = self.owned.get(key, 0) + copies
            self.assumed[component] = self.assumed.get(component, 0) + copies

    def take(self, k: ItemKey, src: tuple[str, ...], dst: str, want: int | None) -> int:
        st = self.state[k]
        got = 0
        for z in src:
            n = st[z] if want is None else min(st[z], want - got)
            st[z] -= n
            got += n
        st[dst] += got
        return got

    # ------------------------------------------------------------------ steps
    def run(self) -> None:
        setup = self.game.setup
        if setup is None:
            return
        for index, step in enumerate(setup.steps):
            if step.when is not None and not self.value(step.when, index, "when"):
                continue
            self.steps_run.append(index)
            self.step(index, step)

    def step(self, i: int, step: Any) -> None:
        n = self.players
        if isinstance(step, UseStep):
            items = self.items_of(step.use)
            if step.count is None:
                self.emit(Move(i, items, ("box",), "pile"))
            else:
                self.emit(Move(i, items, ("box",), "pile", total=self.value(step.count, i, "count")))
        elif isinstance(step, RemoveStep):
            self.touched.add(step.remove.component)
            items = tuple(select_items(self.game, step.remove.component, step.remove.where, step.remove.items))
            per = None if step.remove.each is None else self.value(step.remove.each, i, "remove")
            self.emit(Move(i, items, ("pile", "box"), "returned", per_item=per))
        elif isinstance(step, ShuffleStep):
            self.items_in_pile(step.shuffle)
        elif isinstance(step, CombineStep):
            for cid in step.combine:
                items = self.items_of(cid)
                self.emit(Move(i, items, ("box",), "pile"))
                for k in items:
                    self.pile_of[k] = step.into
        elif isinstance(step, DealStep):
            each = self.value(step.each, i, "each")
            recipients = self.recipients(step.recipients, i)
            self.random_draw(i, step.deal, "dealt", recipients * each, hand=step.hand, each=each)
            if step.hand:
                # `hand_size` is what every player holds; a hand of some players only (the Sauron
                # player's) still leaves its pile as a draw pile
                if recipients == n:
                    self.hand_size += each
                if step.deal not in self.hand_piles:
                    self.hand_piles.append(step.deal)
        elif isinstance(step, SetAsideStep):
            self.random_draw(i, step.set_aside, "set_aside", self.value(step.count, i, "count"), hand=False, each=0)
        elif isinstance(step, GiveStep):
            items = self.items_of(step.give)
            recipients = self.recipients(step.recipients, i)
            given = recipients * self.value(step.each, i, "each")
            self.placed_move(Move(i, items, ("box", "pile"), "placed", total=given), step.give, step.on or "players", step.face)
        elif isinstance(step, PlaceStep):
            # `count` pieces in all (from the listed or matching items, if any), chosen by the
            # players; without `count`, every copy of those items (or of the component)
            if step.items or step.where:
                items = tuple(select_items(self.game, step.place, step.where or None, step.items))
                if not items:
                    self.no_match(i, "where" if step.where else "items", step.place)
            else:
                items = self.items_of(step.place)
            self.touched.add(step.place)
            total = None if step.count is None else self.value(step.count, i, "count")
            self.placed_move(Move(i, items, ("pile", "box"), "placed", total=total), step.place, step.on, step.face)
        elif isinstance(step, ReturnRestStep):
            self.return_rest(i, step.return_rest)
        elif isinstance(step, SupplyStep):
            self.emit(Move(i, self.items_of(step.supply), ("box", "pile"), "supply"))

    def placed_move(self, move: Move, component: str, on: str, face: str | None = None) -> None:
        # counted over the whole component: copies of uncounted kinds land on its anonymous item
        before = self.placed_copies(component)
        per_item = {k: st["placed"] for k, st in self.state.items() if k[0] == component}
        self.emit(move)
        after = self.placed_copies(component)
        moved = tuple((k, st["placed"] - per_item.get(k, 0)) for k, st in self.state.items()
                      if k[0] == component and st["placed"] > per_item.get(k, 0))
        self.placements.append(Placement(move.step, component, after - before, on, face, moved))

    def no_match(self, index: int, field_name: str, component: str) -> None:
        loc = self.game.where("setup.yaml", ("steps", index, field_name))
        path, _, line = loc.rpartition(":")
        attrs = sorted({k for it in self.game.component(component).items for k in it.attrs})
        raise DataError([Problem(path, int(line or 0), 0, f"{field_name}: no item of {component} matches",
                                 f"name item ids or attrs it has ({', '.join(attrs) or 'none'})")])

    def placed_copies(self, component: str) -> int:
        return sum(st["placed"] for k, st in self.state.items() if k[0] == component)

    def return_rest(self, i: int, component: str) -> None:
        """The copies still in the box, then what is left of the component's pile after draws and
    deals, go back to the box."""
        items = self.items_of(component)
        self.emit(Move(i, items, ("box",), "returned"))
        pile = self.pile_of.get(items[0], component) if items else component
        # a pile nobody drew from is the component in play (`use: dice, count: players + 1`)
        rest = self.pile_size(pile) if pile in self.random_piles else 0
        if rest > 0:
            # which kinds are left is as random as the deal was: a draw of the whole rest
            self.emit(Move(i, self.items_in_pile(pile), ("pile",), "returned", total=rest, pile=pile))

    def random_draw(self, i: int, pile: str, dst: str, count: int, *, hand: bool, each: int) -> None:
        items = self.items_in_pile(pile)
        pool = {k: self.state[k]["pile"] for k in items if self.state[k]["pile"]}
        clean = pile not in self.random_piles
        self.draws.append(Draw(i, pile, dst, count, pool, hand, each, clean))
        self.random_piles.add(pile)
        self.emit(Move(i, items, ("pile",), dst, total=count, pile=pile))

    # ------------------------------------------------------------------ result
    def result(self) -> SetupResult:
        by_comp: dict[str, dict[str, int]] = {}
        for k, st in self.state.items():
            key = self.pile_of[k]
            zone_key = {"pile": key, "placed": k[0], "supply": k[0], "returned": k[0], "box": k[0]}
            for z, v in st.items():
                if z in zone_key:
                    d = by_comp.setdefault(z, {})
                    d[zone_key[z]] = d.get(zone_key[z], 0) + v
        drawn: dict[str, dict[str, int]] = {}
        for (pile, dst), v in self.drawn.items():
            drawn.setdefault(dst, {})[pile] = drawn.setdefault(dst, {}).get(pile, 0) + v
        pile_left = {p: by_comp.get("pile", {}).get(p, 0) - sum(v for (q, _), v in self.drawn.items() if q == p)
                     for p in by_comp.get("pile", {})}
        dealt = drawn.get("dealt", {})
        set_aside = drawn.get("set_aside", {})
        returned = dict(by_comp.get("returned", {}))
        for pile, v in drawn.get("returned", {}).items():  # the rest of a dealt pile, back unseen
            returned[pile] = returned.get(pile, 0) + v
        in_play: dict[str, int] = {}
        for part in (pile_left, dealt, by_comp.get("placed", {}), by_comp.get("supply", {})):
            for key, v in part.items():
                in_play[key] = in_play.get(key, 0) + v
        untouched = {c: v for c, v in by_comp.get("box", {}).items() if v and c not in self.touched}
        for c, v in by_comp.get("box", {}).items():  # copies the setup leaves in the box stay there
            returned[c] = returned.get(c, 0) + v
        owned_by_comp: dict[str, int] = {}
        for k, v in self.owned.items():
            owned_by_comp[k[0]] = owned_by_comp.get(k[0], 0) + v
        return SetupResult(
            players=self.players, steps_run=self.steps_run, moves=self.moves, owned=owned_by_comp,
            in_play=in_play, dealt=dealt, set_aside=set_aside, returned_to_box=returned,
            placed=by_comp.get("placed", {}), supply=by_comp.get("supply", {}),
            draw_pile=sum(pile_left.get(p, 0) for p in self.hand_piles), hand_size=self.hand_size,
            untouched=untouched, assumed=dict(sorted(self.assumed.items())), draws=self.draws, shortages=self.shortages,
            items={k: dict(st) for k, st in self.state.items()}, placements=self.placements,
            variant=self.variant)


def run_setup(game: Game, players: int, variant: str | None = None) -> SetupResult:
    """Execute setup.yaml for `players` players, with optional rule `variant` played if given.
    Raises DataError for a bad expression."""
    runner = _Runner(game, players, variant)
    runner.run()
    return runner.result()


def setup_table(game: Game) -> dict[int, SetupResult]:
    """The setup at every player count of the game (game.yaml's range), keyed by count."""
    lo, hi = game.meta.players.min, game.meta.players.max
    return {n: run_setup(game, n) for n in range(lo, hi + 1)}


def variant_tables(game: Game) -> dict[str, dict[int, SetupResult]]:
    """Each optional rule of setup.yaml `variants:` (in the file's order) at every count it applies to."""
    if game.setup is None:
        return {}
    return {v.id: {n: run_setup(game, n, v.id) for n in variant_counts(game, v.id)}
            for v in game.setup.variants}
