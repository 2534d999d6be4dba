"""Setup feasibility: the flow model of one player count, and the proof that the setup can be carried out.

The engine's moves (solver/engine/runner.py) become a flow model: every copy of every item sits in exactly
one zone, each move takes copies from some zones into another, and no zone goes below zero, so a
feasible model proves conservation (in play + returned to the box + set aside = owned, per item).
Three kinds of facts are switched on by assumption literals (solver/proof/cpsat.py): each setup step that
runs, each item's owned count (and a stated total that binds the uncounted kinds of a component)
and each constraint of setup.yaml (solver/proof/constraints.py). Uncounted kinds are free. When the
model is infeasible, solver/proof/explain.py names the conflicting facts.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver import expr as E
from solver.counts.effective import proposed_counts
from solver.engine.items import matches, owned_counts
from solver.engine.results import ItemKey, Move, SetupResult
from solver.engine.steps import step_label, step_location, when_functions
from solver.errors import DataError, Problem
from solver.findings import cite
from solver.game.loader import Game
from solver.game.objmemo import kept_for
from solver.game.setup import CombineStep
from solver.proof.constraints import ZONE_PARTS, RuleCompiler, constraint_location, prove_rules_for_every_deal
from solver.proof.cpsat import Assumption, Model, Verdict, copy_model, solve
from solver.proof.explain import explain

UB = 100_000  # no game has this many copies of one thing; bounds the free variables
UNKNOWN_UB = 1_000  # bound of a count the sources do not give


def stated_sums(game: Game) -> list[tuple[int, Any]]:
    """(component index, component) of components whose stated total must bind uncounted items."""
    return [(ci, c) for ci, c in enumerate(game.components)
            if c.stated_total is not None and c.items and any(i.count is None for i in c.items)]


def item_location(game: Game, key: ItemKey) -> str:
    for ci, comp in enumerate(game.components):
        if comp.id != key[0]:
            continue
        if not comp.items:
            return game.where("components.yaml", ("components", ci, "count"))
        for ii, it in enumerate(comp.items):
            if it.id == key[1]:
                if comp.items_file:
                    return game.where(comp.items_file, (ii,))
                return game.where("components.yaml", ("components", ci, "items", ii, "count"))
    return game.where("components.yaml")


@dataclass
class Matched:
    """One attribute value of a matched move: the `items` it takes, `each` per card of that value
    dealt from its pile (`cards`); `demand` is that number as a linear expression of the deal."""
    move: Move
    value: str
    items: list[ItemKey]
    cards: dict[ItemKey, Any]  # card -> its copies dealt so far (a model expression)
    demand: Any


class SetupModel(RuleCompiler):
    """The flow model of one player count: `m` (the CpModel), `assumptions`, `owned_var[item]`,
    `zone_expr(item, zone)`; solver/counts/wargame.py optimises over it."""

    def __init__(self, game: Game, result: SetupResult, m: cp_model.CpModel | None = None,
                 free: dict[int, Any] | None = None):
        self.game = game
        self.result = result
        self.free = free or {}  # step -> a variable amount per item (`each: free`, solver/counts/design.py)
        # `m`: an existing model to add to (several player counts in one model)
        self.m = m if m is not None else Model()
        self.assumptions: list[Assumption] = []
        self.owned_var: dict[ItemKey, Any] = {}
        self.state: dict[ItemKey, dict[str, Any]] = {}
        self.attrs: dict[ItemKey, dict[str, Any]] = {}
        self.pile_of: dict[ItemKey, str] = {}
        self.constraint_lits = []
        self.referenced: set[ItemKey] = set()  # items the constraint being compiled counts
        self.random_ref = False  # ...and whether it counts a zone that a deal or a choice splits
        # item -> zones that a move of several items into or out of leaves to chance or choice;
        # a rule over other zones has one value once the steps and counts hold
        self.random_zones: dict[ItemKey, set[str]] = {}
        for mv in result.moves:
            if mv.total is not None and len(mv.items) > 1:
                for k in mv.items:
                    self.random_zones.setdefault(k, set()).update(mv.src + (mv.dst,))
        self.unknown = {k for k, v in owned_counts(game).items() if v is None}
        self.matched: list[Matched] = []  # the demands of matched moves, per attribute value
        self.choices: list[tuple[Move, dict[ItemKey, Any]]] = []  # a side's choice: what each item gives
        self._build()

    # ----------------------------------------------------------------- flows
    def _build(self) -> None:
        m = self.m
        for comp in self.game.components:
            for it in comp.items:
                self.attrs[(comp.id, it.id)] = {**it.attrs, "id": it.id}
            if not comp.items:  # the component stands for its own pieces
                self.attrs[(comp.id, comp.id)] = {**comp.attrs, "id": comp.id}
        # Tight domains matter: proving a negated rule infeasible takes 200 ms with loose bounds, 5 ms
        # with these. A relaxed inventory never needs more copies than all the moves ask for.
        demand = sum((mv.total or 0) + (mv.per_item or 0) * len(mv.items) for mv in self.result.moves)
        self.bound: dict[ItemKey, int] = {}
        for key, count in owned_counts(self.game).items():
            # an unknown count may need more copies than the setup moves (a stated mean, a stock)
            self.bound[key] = min(UB, (count or 0) + demand + 1) if count is not None else max(UNKNOWN_UB, demand + 1)
            s = m.new_int_var(0, self.bound[key], f"owned[{key[1]}]")
            self.owned_var[key] = s
            self.state[key] = {"box": s}
            self.pile_of[key] = key[0]
            if count is not None:
                lit = m.new_bool_var(f"inventory[{key[1]}]")
                m.add(s == count).only_enforce_if(lit)
                self.assumptions.append(Assumption(lit, "inventory", f"{key[1]} ×{count}",
                                                   item_location(self.game, key), key))
        # The uncounted kinds of a component with a stated total share that total (the engine counts
        # the rest as one anonymous item; here each kind is free and only their sum is known).
        for ci, comp in stated_sums(self.game):
            lit = m.new_bool_var(f"stated[{comp.id}]")
            m.add(sum(self.owned_var[(comp.id, it.id)] for it in comp.items) == comp.stated_total.value).only_enforce_if(lit)
            self.assumptions.append(Assumption(lit, "inventory", f"{comp.id} ×{comp.stated_total.value} in all",
                                               self.game.where("components.yaml", ("components", ci, "stated_total")),
                                               (comp.id, "")))
        by_step: dict[int, list] = {}
        for mv in self.result.moves:
            by_step.setdefault(mv.step, []).append(mv)
        for index in self.result.steps_run:
            lit = m.new_bool_var(f"step[{index}]")
            step = self.game.step(index)
            self.assumptions.append(Assumption(lit, "step", f"step '{step_label(self.game, index)}'",
                                               cite(step_location(self.game, index), step.source)))
            for mv in by_step.get(index, []):
                self._move(mv, lit)
            if isinstance(step, CombineStep):  # the items it moved (those `where` matches) join the pile
                for mv in by_step.get(index, []):
                    for key in mv.items:
                        if key in self.pile_of:
                            self.pile_of[key] = step.into

    def _zone(self, key: ItemKey, zone: str) -> Any:
        return self.state[key].get(zone, 0)

    def _varies(self, mv: Move) -> bool:
        """A rest draw whose size the engine could not know: free amounts or uncounted kinds before it."""
        return mv.rest and bool(self.free or self.unknown & set(mv.items))

    def _move(self, mv: Move, lit: Any) -> None:
        m = self.m
        takes = []
        for key in mv.items:
            if key not in self.state:
                continue  # copies the engine assumed for uncounted items: the model's free counts cover them
            parts = []
            for z in mv.src:
                prev = self._zone(key, z)
                if isinstance(prev, int) and prev == 0:
                    continue
                t = m.new_int_var(0, self.bound[key], f"take[{mv.step},{key[1]},{z}]")
                new = m.new_int_var(0, self.bound[key], f"{z}[{mv.step},{key[1]}]")
                m.add(new == prev - t)
                self.state[key][z] = new
                parts.append((z, prev, t))
            amount = sum(t for _, _, t in parts) if parts else 0
            if parts:
                dst = m.new_int_var(0, self.bound[key], f"{mv.dst}[{mv.step},{key[1]}]")
                m.add(dst == self._zone(key, mv.dst) + amount)
                self.state[key][mv.dst] = dst
            if (mv.per_item is None and mv.total is None) or self._varies(mv):  # every copy there is
                for z, prev, t in parts:
                    m.add(t == prev).only_enforce_if(lit)
            elif mv.per_item is not None:
                m.add(amount == self.free.get(mv.step, mv.per_item)).only_enforce_if(lit)
            # zones are taken from in order (pile before box): a later one only once the earlier is empty
            for (_, prev0, t0), (_, _, t1) in zip(parts, parts[1:]):
                emptied = m.new_bool_var("emptied")
                m.add(t0 == prev0).only_enforce_if(emptied)
                m.add(t1 == 0).only_enforce_if(emptied.Not())
            takes.append((key, amount))
        if mv.total is not None and not self._varies(mv):
            m.add(sum(t for _, t in takes) == mv.total).only_enforce_if(lit)
        if mv.match is not None:
            self._match(mv, dict(takes), lit)
        if mv.chosen_by is not None:
            self.choices.append((mv, dict(takes)))

    def _match(self, mv: Move, takes: dict[ItemKey, Any], lit: Any) -> None:
        """A matched move: for each value of the attribute, the items taken with that value are
        `each` per card of that value dealt from the pile so far (solver/proof/worstdeal.py
        maximises these demands over every deal)."""
        assert mv.match is not None
        attr, pile, each = mv.match
        cards = [k for k, p in self.pile_of.items() if p == pile and self.attrs.get(k, {}).get(attr) is not None]
        values = sorted({str(self.attrs[k][attr]) for k in cards} | {str(self.attrs[k][attr]) for k in mv.items
                                                                     if self.attrs.get(k, {}).get(attr) is not None})
        for v in values:
            dealt = {k: self._zone(k, "dealt") for k in cards if str(self.attrs[k][attr]) == v}
            items = [k for k in mv.items if k in takes and str(self.attrs[k].get(attr)) == v]
            demand = each * sum(dealt.values())
            if not items and isinstance(demand, int):
                continue  # no card of this value is dealt: nothing to take
            if items:  # a value with no item to take is worstdeal.py's error, not a limit on the deal
                self.m.add(sum(takes[k] for k in items) == demand).only_enforce_if(lit)
            self.matched.append(Matched(mv, v, items, dealt, demand))

    # ----------------------------------------------------------------- selections
    def zone_expr(self, key: ItemKey, zone: str) -> Any:
        st = self.state[key]
        if zone == "owned":
            return self.owned_var[key]
        if zone == "in_play":
            # = pile + dealt + placed + supply; written through conservation so that a random split
            # between pile and dealt does not enter (propagation alone then bounds it exactly)
            return self.owned_var[key] - st.get("box", 0) - st.get("returned", 0) - st.get("set_aside", 0)
        if zone == "returned_to_box":
            return st.get("returned", 0) + st.get("box", 0)
        if zone == "draw_pile":
            return st.get("pile", 0)
        return st.get(zone, 0)

    def items_named(self, ref: str) -> list[ItemKey]:
        """A component's items, else a combined pile's, else the items with that id."""
        keys = [k for k in self.state if k[0] == ref]
        return keys or [k for k, p in self.pile_of.items() if p == ref] or [k for k in self.state if k[1] == ref]

    def selection(self, ref: str, zone: str, where: dict[str, Any]) -> Any:
        keys = [k for k in self.items_named(ref) if matches(self.attrs[k], where)]
        self.referenced.update(keys)
        parts = ZONE_PARTS.get(zone, (zone,))
        if any(self.random_zones.get(k, set()) & set(parts) for k in keys):
            self.random_ref = True
        return sum(self.zone_expr(k, zone) for k in keys)


def setup_model(game: Game, result: SetupResult, m: cp_model.CpModel | None = None,
                free: dict[int, Any] | None = None) -> SetupModel:
    """The flow model of one player count with every active constraint of setup.yaml added
    (into `m` when given, so that several counts share one model; `free`: step -> variable amount)."""
    model = SetupModel(game, result, m, free)
    if m is None and not free and model.matched:  # the worst deals ask for this flow model (`flow_model`)
        kept_for(game, ("flow model", result.players, result.variant), lambda: _as_built(model, None))
    env = {"players": result.players, "hand_size": result.hand_size}
    for index, con in enumerate(game.setup.constraints if game.setup else []):
        if con.when is not None:
            try:
                active = E.evaluate(con.when, env, when_functions(result.variant))
            except E.ExprError as e:
                where = constraint_location(game, index)
                path, _, line = where.rpartition(":")
                raise DataError([Problem(path, int(line or 0), 0, f"constraint {con.id!r} when: {e}",
                                         "use `players`, `hand_size`, numbers and variant()")])
            if not active:
                continue
        model.add_constraint(index, con, env)
    return model


def flow_model(game: Game, result: SetupResult) -> SetupModel:
    """The flow model of a run (no rules), for the caller to add to: a copy of the one the setup
    proof built (`setup_model` keeps it, kept per loaded game and run: solver/game/objmemo.py), else
    of one built here. A copy is 0.3 ms, a build 4 (Saboteur's 7 runs with matched moves)."""
    kept = kept_for(game, ("flow model", result.players, result.variant),
                    lambda: _as_built(SetupModel(game, result), None))
    return _as_built(kept, game)


def _as_built(model: SetupModel, game: Game | None) -> SetupModel:
    """`model` as it is now, apart from what is added to either later: its CpModel copied, and the
    lists that compiling a rule appends to (RuleCompiler.add_constraint); the rest it only reads.
    `game`: its game (None in the one kept for the game, which must not hold it: it would never
    be let go, solver/game/objmemo.py)."""
    out = copy.copy(model)
    out.game = game  # type: ignore[assignment]
    out.m = copy_model(model.m)
    out.assumptions = list(model.assumptions)
    out.constraint_lits = list(model.constraint_lits)
    return out


def prove_player_count(game: Game, result: SetupResult) -> Verdict:
    n = result.players
    model = setup_model(game, result)
    m = model.m
    status, solver = solve(m, [a.lit for a in model.assumptions])
    if status == cp_model.INFEASIBLE:
        core, confirmed = explain(m, model.assumptions)
        return Verdict(n, False, core, confirmed)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT gave {solver.status_name(status)} on a setup model")
    verdict = Verdict(n, True, totals=_totals(model, solver))
    # a choice (`chosen_by`): the model is free in what it takes, so its solution is a valid choice
    verdict.choices = [(mv.step, {k: solver.value(t) for k, t in takes.items() if solver.value(t)})
                       for mv, takes in model.choices]
    verdict.rules = sum(1 for a in model.assumptions if a.kind == "constraint")
    # Solving the rules on a model of only the items coupled to them was tried: on these games
    # that part is most of the model, and building it costs more than the smaller solves save.
    as_built, model.m = model.m, copy_model(model.m)  # the quick rounds add to a copy (0.3 ms, not 4 to build)
    if not prove_rules_for_every_deal(model, verdict, quick=True):
        # a rule some deal breaks: its counterexample is the setup the usual solves find, asked of
        # the model as built; what follows asks of the quick rounds' model, as it always has
        quick, model.m = model.m, as_built
        prove_rules_for_every_deal(model, verdict)
        model.m = quick
    proposed = proposed_counts(game)
    if proposed:  # the proposals' check asks this of every run (solver/counts/propose.py): here, on this model
        counts_hold(game, result, proposed, model)
    return verdict


def counts_hold(game: Game, result: SetupResult, counts: dict[ItemKey, int], model: SetupModel | None = None) -> bool:
    """Whether the setup of this run can be carried out, every rule on, with the copies `counts`
    gives of every uncounted kind (False too when the solver runs out of time). Kept per loaded game,
    run and counts (solver/game/objmemo.py): the setup proof answers it for proposed.yaml's counts on
    the `model` it has built (a model is only added to: this adds the counts under a literal of
    their own), and the proposals' check then solves no model of its own."""
    key = ("counts hold", result.players, result.variant, tuple(sorted(counts.items())))
    return kept_for(game, key, lambda: _counts_hold(model or setup_model(game, result), counts))


def _counts_hold(model: SetupModel, counts: dict[ItemKey, int]) -> bool:
    lit = model.m.new_bool_var("counts given")
    for key, copies in counts.items():
        model.m.add(model.owned_var[key] == copies).only_enforce_if(lit)
    # the verdict alone: no solution of this solve is read
    status, _ = solve(model.m, [a.lit for a in model.assumptions] + [lit], verdict_only=True)
    return status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _totals(model: SetupModel, solver: cp_model.CpSolver) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for key in model.state:
        for zone in ("in_play", "returned_to_box"):
            v = solver.value(model.zone_expr(key, zone))
            if v:
                d = out.setdefault(zone, {})
                d[key[0]] = d.get(key[0], 0) + v
    return out
