"""The Runner: a game's setup.yaml executed at one player count by counting.

Each step kind has its own method, which resolves the step into `Move`s; `emit` records a move
and `apply` executes it on the per-item zone counts (`state`). `result` sums the counts by
component and pile into a `SetupResult`. The zones are listed in the package docstring
(solver/engine/__init__.py).
"""
from __future__ import annotations

from typing import Any, Callable

from solver import expr as _expr
from ..errors import DataError, Problem
from ..game.loader import Game
from ..game.setup import (FREE, CombineStep, DealStep, GiveStep, PlaceStep, RemoveStep, ReturnRestStep, SetAsideStep,
                          ShuffleStep, SupplyStep, UseStep)
from .items import UNCOUNTED, counting_stock, item_keys, owned_counts, select_items
from .results import ZONES, Draw, ItemKey, Move, Placement, SetupResult, Shortage
from .steps import when_functions


class Runner:
    """One run of the setup at `players` players (with optional rule `variant`): `run()`, then `result()`."""

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
            what, todo = f"{field_name}: {e}", "use `players`, numbers and + - * // % min() max() variant()"
        else:
            if isinstance(v, int):  # a condition (True/False) counts as 1 or 0
                return int(v)
            what, todo = f"{field_name}: {expression} is {v!r}, not a whole number", "use a whole number or players + 1"
        raise DataError([Problem(*self._loc("setup.yaml", ("steps", index, field_name)), what, todo)])

    def recipients(self, expression: Any, index: int) -> int:
        v = self.value(expression, index, "recipients")
        if not 0 <= v <= self.players:
            raise DataError([Problem(*self._loc("setup.yaml", ("steps", index, "recipients")),
                                     f"recipients: {expression} is {v} at {self.players} players",
                                     "give a number of players from 0 to `players`, e.g. 1 or players - 1")])
        return v

    def side_players(self, side: str, index: int) -> int:
        """How many players a side of setup.yaml `sides` is at this count (the loader has checked the id)."""
        sides = self.game.setup.sides if self.game.setup else []
        found = next(s for s in sides if s.id == side)
        v = _expr.evaluate(found.players, self.env, self.functions)
        if not 0 <= int(v) <= self.players:
            raise DataError([Problem(*self._loc("setup.yaml", ("sides", sides.index(found), "players")),
                                     f"side {side!r} is {v} players at {self.players} players",
                                     "give a number of players from 0 to `players`, e.g. 1 or players - 1")])
        return int(v)

    def _loc(self, file: str, path: tuple[Any, ...]) -> tuple[str, int, int]:
        path_, _, line = self.game.where(file, path).rpartition(":")
        return path_, int(line or 0), 0

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
            unknown = [k for k in move.items if k in self.unknown]
            if move.total > available and unknown:  # uncounted kinds make up the draw
                self.assume_in_pile(unknown[0][0], move.pile, move.total - available)
                available = move.total
            take = min(move.total, available)
            if move.total > available:
                self.shortages.append(Shortage(move.step, move.total, available, move.items, move.pile))
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

    def from_rest(self, key: ItemKey) -> None:
        """An uncounted kind picked out of a component with a stated total (the nine green cards
        of 62): its copies, at proposed.yaml's count, leave the total's anonymous rest for the item
        itself, so the pile it joins has its size. Without a proposal it stays uncounted."""
        proposals = self.game.extras.get("proposed")
        rest = (key[0], UNCOUNTED)
        if key not in self.unknown or proposals is None or rest not in self.state:
            return
        copies = min(proposals.count_of(*key) or 0, self.state[rest]["box"])
        self.state[rest]["box"] -= copies
        self.owned[rest] -= copies
        self.state[key]["box"] += copies
        self.owned[key] = self.owned.get(key, 0) + copies

    def assume_in_pile(self, component: str, pile: str, copies: int) -> None:
        """Copies of uncounted kinds that a draw from `pile` needs: taken out of the component's
        uncounted rest while it lasts, else assumed (as `assume` does), into an anonymous item of the pile."""
        key = (component, f"{UNCOUNTED} {pile}")
        st = self.state.setdefault(key, {z: 0 for z in ZONES})
        self.pile_of[key] = pile
        rest = self.state.get((component, UNCOUNTED), {}).get("box", 0)
        from_rest = min(copies, rest)
        if from_rest:
            self.state[(component, UNCOUNTED)]["box"] -= from_rest
            self.owned[(component, UNCOUNTED)] -= from_rest
        st["pile"] += copies
        self.owned[key] = self.owned.get(key, 0) + copies
        if copies > from_rest:
            self.assumed[component] = self.assumed.get(component, 0) + copies - from_rest

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
        """Resolve step `i` by the method named for its kind (its key in setup.yaml)."""
        handlers: dict[type, Callable[[int, Any], None]] = {
            UseStep: self.use, RemoveStep: self.remove, ShuffleStep: self.shuffle, CombineStep: self.combine,
            DealStep: self.deal, SetAsideStep: self.set_aside, GiveStep: self.give, PlaceStep: self.place,
            ReturnRestStep: self.return_rest, SupplyStep: self.supply}
        handlers[type(step)](i, step)

    def use(self, i: int, step: UseStep) -> None:
        items = self.items_of(step.use)
        if step.count is None:
            self.emit(Move(i, items, ("box",), "pile"))
        else:
            self.emit(Move(i, items, ("box",), "pile", total=self.value(step.count, i, "count")))

    def remove(self, i: int, step: RemoveStep) -> None:
        self.touched.add(step.remove.component)
        items = tuple(select_items(self.game, step.remove.component, step.remove.where, step.remove.items))
        each = step.remove.each
        per = None if each is None else self.free_amount(i) if each == FREE else self.value(each, i, "remove")
        self.emit(Move(i, items, ("pile", "box"), "returned", per_item=per))

    def free_amount(self, i: int) -> int:
        """`each: free`: the amount designed.yaml holds for this step and count (`pnp design`), else 0."""
        designed = self.game.extras.get("designed")
        return (designed.amount_of(i, self.players, self.variant) if designed is not None else None) or 0

    def shuffle(self, i: int, step: ShuffleStep) -> None:
        self.items_in_pile(step.shuffle)  # changes no count; marks the pile as used

    def combine(self, i: int, step: CombineStep) -> None:
        for cid in step.combine:
            items = self.items_of(cid)
            if step.where:
                items = tuple(k for k in items if k in set(select_items(self.game, cid, step.where)))
                if not items:
                    self.no_match(i, "where", cid)
                for k in items:
                    self.from_rest(k)
            self.emit(Move(i, items, ("box",), "pile"))
            for k in items:
                self.pile_of[k] = step.into

    def deal(self, i: int, step: DealStep) -> None:
        each = self.value(step.each, i, "each")
        recipients = self.side_players(step.to, i) if step.to else self.recipients(step.recipients, i)
        self.random_draw(i, step.deal, "dealt", recipients * each, hand=step.hand, each=each, to=step.to)
        if step.hand:
            # `hand_size` is what every player holds; a hand of some players only (the Sauron
            # player's) still leaves its pile as a draw pile
            if recipients == self.players:
                self.hand_size += each
            if step.deal not in self.hand_piles:
                self.hand_piles.append(step.deal)

    def set_aside(self, i: int, step: SetAsideStep) -> None:
        self.random_draw(i, step.set_aside, "set_aside", self.value(step.count, i, "count"), hand=False, each=0)

    def give(self, i: int, step: GiveStep) -> None:
        if step.match:
            move = self.matched(i, step.give, step.match, self.value(step.each, i, "each"))
            self.placed_move(move, step.give, step.on or "players", step.face)
            return
        items = self.items_of(step.give)
        recipients = self.side_players(step.to, i) if step.to else self.recipients(step.recipients, i)
        given = recipients * self.value(step.each, i, "each")
        self.placed_move(Move(i, items, ("box", "pile"), "placed", total=given, chosen_by=step.chosen_by),
                         step.give, step.on or "players", step.face)

    def matched(self, i: int, component: str, match: dict[str, str], each: int) -> Move:
        """`each` items of `component` for every card dealt from the pile `match` names, the item
        whose attribute is that card's. Which items a deal takes is the deal's business: the engine
        counts the total (in item order, as for a choice); the checker (solver/proof/worstdeal.py)
        proves every deal."""
        (attr, pile), = match.items()
        dealt = self.drawn.get((pile, "dealt"), 0)
        if not dealt and not any(d.pile == pile and d.dst == "dealt" for d in self.draws):
            self.match_error(i, f"match: nothing is dealt from {pile} before this step",
                             "put the deal step first, or name the pile that was dealt")
        cards = [k for k in self.items_in_pile(pile) if self.attr_of(k, attr) is not None]
        items = tuple(k for k in self.items_of(component) if self.attr_of(k, attr) is not None)
        if not cards or not items:
            self.match_error(i, f"match: {attr!r} is not an attribute of both {pile} and {component}",
                             "give the dealt cards and the matched items the same attribute, e.g. clan")
        return Move(i, items, ("box", "pile"), "placed", total=dealt * each, match=(attr, pile, each))

    def attr_of(self, key: ItemKey, attr: str) -> Any:
        if key[1].startswith(UNCOUNTED):
            return None
        comp = self.game.component(key[0])
        return comp.attrs.get(attr) if not comp.items else next((it.attrs.get(attr) for it in comp.items if it.id == key[1]), None)

    def match_error(self, index: int, what: str, todo: str) -> None:
        raise DataError([Problem(*self._loc("setup.yaml", ("steps", index, "match")), what, todo)])

    def place(self, i: int, step: PlaceStep) -> None:
        # `count` pieces in all (from the listed or matching items, if any), chosen by the
        # players; without `count`, every copy of those items (or of the component)
        if step.match:
            each = 1 if step.each is None else self.value(step.each, i, "each")
            self.touched.add(step.place)
            move = self.matched(i, step.place, step.match, each)
            self.placed_move(move, step.place, step.on, step.face)
            return
        if step.items or step.where:
            items = tuple(select_items(self.game, step.place, step.where or None, step.items))
            if not items:
                self.no_match(i, "where" if step.where else "items", step.place)
        else:
            items = self.items_of(step.place)
        self.touched.add(step.place)
        total = None if step.count is None else self.value(step.count, i, "count")
        self.placed_move(Move(i, items, ("pile", "box"), "placed", total=total, chosen_by=step.chosen_by),
                         step.place, step.on, step.face)

    def supply(self, i: int, step: SupplyStep) -> None:
        # items a `combine` moved into another pile stay there
        items = tuple(k for k in self.items_of(step.supply) if self.pile_of.get(k, k[0]) == step.supply)
        self.emit(Move(i, items, ("box", "pile"), "supply"))

    def placed_move(self, move: Move, component: str, on: str, face: str | None = None) -> None:
        # counted over the whole component: copies of uncounted kinds land on its anonymous item
        before = self.placed_copies(component)
        per_item = {k: st["placed"] for k, st in self.state.items() if k[0] == component}
        self.emit(move)
        after = self.placed_copies(component)
        moved = tuple((k, st["placed"] - per_item.get(k, 0)) for k, st in self.state.items()
                      if k[0] == component and st["placed"] > per_item.get(k, 0))
        self.placements.append(Placement(move.step, component, after - before, on, face, moved, move.chosen_by))

    def no_match(self, index: int, field_name: str, component: str) -> None:
        attrs = sorted({k for it in self.game.component(component).items for k in it.attrs})
        raise DataError([Problem(*self._loc("setup.yaml", ("steps", index, field_name)),
                                 f"{field_name}: no item of {component} matches",
                                 f"name item ids or attrs it has ({', '.join(attrs) or 'none'})")])

    def placed_copies(self, component: str) -> int:
        return sum(st["placed"] for k, st in self.state.items() if k[0] == component)

    def return_rest(self, i: int, step: ReturnRestStep) -> None:
        """The copies still in the box, then what is left of the component's pile after draws and
        deals, go back to the box."""
        component = step.return_rest
        items = self.items_of(component)
        self.emit(Move(i, items, ("box",), "returned"))
        pile = self.pile_of.get(items[0], component) if items else component
        # a pile nobody drew from is the component in play (`use: dice, count: players + 1`)
        rest = self.pile_size(pile) if pile in self.random_piles else 0
        if rest > 0 or (pile in self.random_piles and self.unknown & set(self.items_in_pile(pile))):
            # the whole rest, as random as the deal (uncounted kinds: the model's counts may leave copies)
            self.emit(Move(i, self.items_in_pile(pile), ("pile",), "returned", total=rest, pile=pile, rest=True))

    def random_draw(self, i: int, pile: str, dst: str, count: int, *, hand: bool, each: int,
                    to: str | None = None) -> None:
        items = self.items_in_pile(pile)
        pool = {k: self.state[k]["pile"] for k in items if self.state[k]["pile"]}
        clean = pile not in self.random_piles
        self.draws.append(Draw(i, pile, dst, count, pool, hand, each, clean, to, items))
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
