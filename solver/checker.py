"""The CP-SAT setup checker: proves a game's setup and its stated constraints at every player count.

For each player count the engine's moves (solver/engine.py) become a flow model: every copy of
every item sits in exactly one zone, each move takes copies from some zones into another, and
no zone goes below zero, so a model that is feasible proves conservation (in play + returned to
the box + set aside = owned, per item). Three kinds of facts are switched on by assumption
literals: each setup step that runs, each item's owned count (and a stated total that binds the
uncounted kinds of a component) and each constraint of setup.yaml. Uncounted kinds are free.
When the model is infeasible the solver's sufficient set of assumptions names the conflicting
steps, counts and rules; the set is confirmed by re-solving it alone (presolve can return a
wrong core, OR-Tools #3017/#5141), retried with presolve off and one worker when it is not, and
shrunk to a minimal set by deletion. When the model is feasible, each constraint is also proved
for every possible deal (and every uncounted count) by showing that its negation is infeasible;
a rule some deal breaks is a warning with a counterexample, one that only some unknown count
breaks is "unproven".

Constraints are data (setup.yaml `constraints:`), so a new game is checked without new code:
`kind: at_least|at_most|exactly` over a Selection (`of`), optionally `per` attribute value, or
`require: <expression>` compiled from the solver/expr.py AST. Functions in expressions:
`count(c)` (in play), `count(c, zone)`, and one per zone: `owned(c)`, `in_play(c)`, `dealt(c)`,
`set_aside(c)`, `returned_to_box(c)`, `placed(c)`, `supply(c)`, `draw_pile(c)`; `c` is a
component id, a pile made by `combine`, or an item id. Names: `players`, `hand_size`.
A constraint's `when:` may also call `variant(id)`: each optional rule of setup.yaml `variants:`
is proved at its own counts with the rules it switches on, and its findings say `variant <id>:`.

Public API: `check_setup(game) -> CheckResult` (registered in solver/checks.py),
`prove_player_count(game, result) -> Verdict` for one count, and `setup_model(game, result)`
(the model with its rules, which solver/wargame.py optimises over).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from . import expr as E
from .engine import (ItemKey, SetupResult, matches, owned_counts, setup_table, step_label,
                     step_location, variant_tables, when_functions)
from .errors import DataError, Problem
from .findings import CheckResult, Finding
from .loader import Game
from .model import Constraint, PlaceStep

# the zones a report zone is made of, as zone_expr computes it
ZONE_PARTS = {"owned": (), "in_play": ("box", "returned", "set_aside"), "returned_to_box": ("returned", "box"),
              "draw_pile": ("pile",)}
UB = 100_000  # no game has this many copies of one thing; bounds the free variables
UNKNOWN_UB = 1_000  # bound of a count the sources do not give
ZONE_FUNCS = ("owned", "in_play", "dealt", "set_aside", "returned_to_box", "placed", "supply", "draw_pile")


@dataclass
class Assumption:
    lit: Any
    kind: str  # step | inventory | constraint
    label: str
    source: str
    item: ItemKey | None = None


@dataclass
class Verdict:
    """The checker's answer at one player count."""
    players: int
    feasible: bool
    core: list[Assumption] = field(default_factory=list)
    core_confirmed: bool = False
    can_fail: list[tuple[Constraint, str]] = field(default_factory=list)  # (rule, counterexample)
    unproven: list[tuple[Constraint, list[ItemKey]]] = field(default_factory=list)  # (rule, uncounted items)
    rules: int = 0  # rules active at this count
    totals: dict[str, dict[str, int]] = field(default_factory=dict)  # zone -> component -> copies


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


def constraint_location(game: Game, index: int) -> str:
    return game.where("setup.yaml", ("constraints", index))


class SetupModel:
    """The flow model of one player count: `m` (the CpModel), `assumptions`, `owned_var[item]`,
    `zone_expr(item, zone)`; solver/wargame.py optimises over it."""

    def __init__(self, game: Game, result: SetupResult):
        self.game = game
        self.result = result
        self.m = cp_model.CpModel()
        self.assumptions: list[Assumption] = []
        self.owned_var: dict[ItemKey, Any] = {}
        self.state: dict[ItemKey, dict[str, Any]] = {}
        self.attrs: dict[ItemKey, dict[str, Any]] = {}
        self.pile_of: dict[ItemKey, str] = {}
        self.constraint_lits: list[tuple[int, Constraint, Any]] = []
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
        self._build()

    # ----------------------------------------------------------------- flows
    def _build(self) -> None:
        m = self.m
        for comp in self.game.components:
            for it in comp.items or [None]:
                key = (comp.id, it.id if it else comp.id)
                self.attrs[key] = {**(it.attrs if it else comp.attrs), "id": key[1]}
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
                                               self.game.where("components.yaml", ("components", ci, "stated_total"))))
        by_step: dict[int, list] = {}
        for mv in self.result.moves:
            by_step.setdefault(mv.step, []).append(mv)
        for index in self.result.steps_run:
            lit = m.new_bool_var(f"step[{index}]")
            step = self.game.setup.steps[index]  # type: ignore[union-attr]
            src = step.source or step_location(self.game, index)
            self.assumptions.append(Assumption(lit, "step", f"step '{step_label(self.game, index)}'",
                                               f"{step_location(self.game, index)} ({src})"))
            for mv in by_step.get(index, []):
                self._move(mv, lit)
            into = getattr(step, "into", None)
            if into:
                for cid in step.combine:
                    for key in self.pile_of:
                        if key[0] == cid:
                            self.pile_of[key] = into

    def _zone(self, key: ItemKey, zone: str) -> Any:
        return self.state[key].get(zone, 0)

    def _move(self, mv, lit) -> None:
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
            if mv.per_item is None and mv.total is None:  # every copy there is
                for z, prev, t in parts:
                    m.add(t == prev).only_enforce_if(lit)
            elif mv.per_item is not None:
                m.add(amount == mv.per_item).only_enforce_if(lit)
            # zones are taken from in order (pile before box): a later one only once the earlier is empty
            for (_, prev0, t0), (_, _, t1) in zip(parts, parts[1:]):
                emptied = m.new_bool_var("emptied")
                m.add(t0 == prev0).only_enforce_if(emptied)
                m.add(t1 == 0).only_enforce_if(emptied.Not())
            takes.append(amount)
        if mv.total is not None:
            m.add(sum(takes) == mv.total).only_enforce_if(lit)

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

    # ----------------------------------------------------------------- constraints
    def add_constraint(self, index: int, con: Constraint, env: dict[str, int]) -> None:
        where = constraint_location(self.game, index)
        self.referenced = set()
        self.random_ref = False
        try:
            lit = self._compile_constraint(con, env)
        except E.ExprError as e:
            path, _, line = where.rpartition(":")
            raise DataError([Problem(path, int(line or 0), 0, f"constraint {con.id!r}: {e}",
                                     "see the functions listed in solver/checker.py's docstring")])
        # a rule over copies nobody has counted is tried against every count they could have:
        # it is proved if none breaks it, and reported as unproved (not as failing) otherwise
        unknown = sorted(self.referenced & self.unknown)
        self.constraint_lits.append((index, con, lit, sorted(self.referenced), self.random_ref or bool(unknown)))
        self.assumptions.append(Assumption(lit, "constraint", f"rule '{con.id}' ({describe(con)})",
                                           f"{where} ({con.source})"))

    def _compile_constraint(self, con: Constraint, env: dict[str, int]) -> Any:
        if con.require:
            return self.to_lit(self.compile(E.parse(con.require), env))
        assert con.of and con.kind and con.value is not None
        value = self.compile(E.parse(con.value), env)
        sel = con.of
        groups: list[dict[str, Any]] = [dict(sel.where)]
        if con.per:
            values = sorted({str(v) for k in self.items_named(sel.component)
                             if (v := self.attrs[k].get(con.per)) is not None and matches(self.attrs[k], sel.where)})
            groups = [{**sel.where, con.per: v} for v in values]
        op = {"at_least": ">=", "at_most": "<=", "exactly": "=="}[con.kind]
        lits = [self.to_lit(self.compare(op, self.selection(sel.component, sel.zone, g), value)) for g in groups]
        return self.all_of(lits)

    def compile(self, node: E.Node, env: dict[str, int]) -> Any:
        """An expression node to an int, a linear expression or a literal."""
        if isinstance(node, E.Num):
            return node.value
        if isinstance(node, E.Str):
            raise E.ExprError(f"a text {node.value!r} cannot be counted here")
        if isinstance(node, E.Name):
            if node.name in env:
                return env[node.name]
            raise E.ExprError(f"unknown name {node.name!r} (known: {', '.join(sorted(env))})")
        if isinstance(node, E.Call):
            return self.call(node, env)
        if isinstance(node, E.ListLit):
            raise E.ExprError("a list can only follow `in`")
        if isinstance(node, E.Unary):
            v = self.compile(node.operand, env)
            if node.op == "not":
                return (not v) if isinstance(v, bool) else self.to_lit(v).Not()
            return -v
        op = node.op
        if op in ("and", "or"):
            a, b = self.compile(node.left, env), self.compile(node.right, env)
            return self.all_of([self.to_lit(a), self.to_lit(b)]) if op == "and" else self.any_of([self.to_lit(a), self.to_lit(b)])
        if op == "in":
            left = self.compile(node.left, env)
            if not isinstance(node.right, E.ListLit):
                raise E.ExprError("`in` needs a list like [3, 4]")
            options = [self.compile(x, env) for x in node.right.items]
            return self.any_of([self.to_lit(self.compare("==", left, o)) for o in options])
        a, b = self.compile(node.left, env), self.compile(node.right, env)
        if op in ("<", "<=", ">", ">=", "==", "!="):
            return self.compare(op, a, b)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            if not (_const(a) or _const(b)):
                raise E.ExprError("a product needs a constant side (the model stays linear)")
            E.in_range(a if _const(a) else b, "*")  # the coefficient, and the product if constant
            return E.in_range(a * b, "*") if _const(a) and _const(b) else a * b
        if not (_const(a) and _const(b)):
            raise E.ExprError(f"`{op}` works on constants only")
        if b == 0:
            raise E.ExprError("division by zero")
        return a // b if op == "//" else a % b

    def call(self, node: E.Call, env: dict[str, int]) -> Any:
        args = node.args
        if node.func in ("min", "max"):
            vals = [self.compile(a, env) for a in args]
            if not all(_const(v) for v in vals):
                raise E.ExprError(f"{node.func}() works on constants only")
            return (min if node.func == "min" else max)(vals)
        if node.func == "count":
            zone = "in_play"
            if len(args) == 2:
                z = args[1]
                zone = z.value if isinstance(z, E.Str) else getattr(z, "name", "")
            elif len(args) != 1:
                raise E.ExprError("count() takes a component id and optionally a zone")
        elif node.func in ZONE_FUNCS:
            zone = node.func
            if len(args) != 1:
                raise E.ExprError(f"{node.func}() takes one component id")
        else:
            raise E.ExprError(f"unknown function {node.func}() (known: count, min, max, {', '.join(ZONE_FUNCS)})")
        if zone not in ZONE_FUNCS:
            raise E.ExprError(f"unknown zone {zone!r} (known: {', '.join(ZONE_FUNCS)})")
        if not isinstance(args[0], E.Name):
            raise E.ExprError(f"{node.func}() needs a component id")
        ref = args[0].name
        if not self.items_named(ref):
            raise E.ExprError(f"unknown component or pile {ref!r}")
        return self.selection(ref, zone, {})

    # ----------------------------------------------------------------- boolean helpers
    def compare(self, op: str, a: Any, b: Any) -> Any:
        if _const(a) and _const(b):
            return E._BIN[op](a, b)
        lit = self.m.new_bool_var(f"cmp{op}")
        neg = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}[op]
        self.m.add(_rel(op, a, b)).only_enforce_if(lit)
        self.m.add(_rel(neg, a, b)).only_enforce_if(lit.Not())
        return lit

    def to_lit(self, v: Any) -> Any:
        if isinstance(v, bool) or isinstance(v, int):
            lit = self.m.new_bool_var("const")
            self.m.add(lit == (1 if v else 0))
            return lit
        if getattr(v, "is_boolean", False) or type(v).__name__ == "NotBooleanVariable":
            return v
        raise E.ExprError("a rule must be a comparison, e.g. count(deck) >= players")

    def all_of(self, lits: list[Any]) -> Any:
        if len(lits) == 1:
            return lits[0]
        b = self.m.new_bool_var("and")
        self.m.add_bool_and(lits).only_enforce_if(b)
        self.m.add_bool_or([x.Not() for x in lits]).only_enforce_if(b.Not())
        return b

    def any_of(self, lits: list[Any]) -> Any:
        b = self.m.new_bool_var("or")
        self.m.add_bool_or(lits).only_enforce_if(b)
        self.m.add_bool_and([x.Not() for x in lits]).only_enforce_if(b.Not())
        return b


def _const(v: Any) -> bool:
    return isinstance(v, (int, bool))


def _rel(op: str, a: Any, b: Any) -> Any:
    return {"<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
            "==": lambda: a == b, "!=": lambda: a != b}[op]()


def describe(con: Constraint) -> str:
    if con.require:
        return con.require
    sel = con.of
    assert sel is not None
    where = "".join(f" {k}={v}" for k, v in sel.where.items())
    per = f" per {con.per}" if con.per else ""
    sign = {"at_least": ">=", "at_most": "<=", "exactly": "=="}[con.kind or "exactly"]
    return f"{sel.zone}({sel.component}{where}){per} {sign} {con.value}"


# --------------------------------------------------------------------------- solving

def _solve(model: cp_model.CpModel, lits: list[Any], *, presolve: bool = False) -> tuple[int, cp_model.CpSolver]:
    """Solve under assumptions, with one worker (fastest on tiny models, and deterministic).

    Presolve is off: on these models it costs more than it saves (40 ms against 4 ms). The full
    LP relaxation (linearization level 2) is on: proving that no deal breaks a rule is reasoning
    over sums of sums, which bounds propagation alone does by search (Saboteur at 3 players:
    8 s at level 0, 0.08 s at level 2)."""
    model.clear_assumptions()
    model.add_assumptions(lits)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = presolve
    solver.parameters.linearization_level = 2
    # probing, symmetry detection and Gomory/MIR cuts pay off on hard models, not on these: off,
    # the ~45 solves of `pnp check --all` take 0.73 s of CPU instead of 1.0 s, with the same verdicts
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.symmetry_level = 0
    solver.parameters.add_cg_cuts = False
    solver.parameters.add_mir_cuts = False
    solver.parameters.max_time_in_seconds = 10.0
    status = solver.solve(model)
    return status, solver


def explain(model: cp_model.CpModel, assumptions: list[Assumption]) -> tuple[list[Assumption], bool]:
    """A confirmed, minimal set of assumptions that cannot hold together.

    The first core comes from a solve with presolve on; it is trusted only if re-solving the core
    alone is infeasible too, else the solve is repeated with presolve off (OR-Tools #3017, #5141)."""
    by_index = {a.lit.Index(): a for a in assumptions}
    lits = [a.lit for a in assumptions]
    core: list[Assumption] = []
    confirmed = False
    for presolve in (True, False):
        status, solver = _solve(model, lits, presolve=presolve)
        if status != cp_model.INFEASIBLE:
            return [], False
        core = [by_index[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in by_index]
        if core and _solve(model, [a.lit for a in core])[0] == cp_model.INFEASIBLE:
            confirmed = True
            break
    if not confirmed:
        return assumptions, False
    # deletion-based minimisation: drop every assumption the conflict does not need
    i = 0
    while i < len(core) and len(core) <= 60:
        trial = core[:i] + core[i + 1:]
        if _solve(model, [a.lit for a in trial])[0] == cp_model.INFEASIBLE:
            core = trial
        else:
            i += 1
    return core, True


def setup_model(game: Game, result: SetupResult) -> SetupModel:
    """The flow model of one player count with every active constraint of setup.yaml added."""
    model = SetupModel(game, result)
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


def prove_player_count(game: Game, result: SetupResult) -> Verdict:
    n = result.players
    model = setup_model(game, result)
    m = model.m
    status, solver = _solve(m, [a.lit for a in model.assumptions])
    if status == cp_model.INFEASIBLE:
        core, confirmed = explain(m, model.assumptions)
        return Verdict(n, False, core, confirmed)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT gave {solver.status_name(status)} on a setup model")
    verdict = Verdict(n, True, totals=_totals(model, solver))
    verdict.rules = sum(1 for a in model.assumptions if a.kind == "constraint")
    # Solving the rules on a model of only the items coupled to them was tried: on these games
    # that part is most of the model, and building it costs more than the smaller solves save.
    _prove_rules_for_every_deal(model, verdict)
    return verdict


def _prove_rules_for_every_deal(model: SetupModel, verdict: Verdict) -> None:
    """Every rule for every possible deal. A rule that counts no zone a deal or a choice splits has
    one value, which the feasibility solve has shown to hold. For the others: ask for a setup that
    breaks at least one of them; each rule that setup breaks is reported with it as the
    counterexample and dropped, and the question is asked again until no setup breaks any (one
    solve when all hold)."""
    m = model.m
    base = [a.lit for a in model.assumptions if a.kind != "constraint"]
    open_rules = [c for c in model.constraint_lits if c[4]]
    while open_rules:
        violated = m.new_bool_var("some-rule-violated")
        m.add_bool_or([c[2].Not() for c in open_rules]).only_enforce_if(violated)
        status, sol = _solve(m, base + [violated])
        if status == cp_model.INFEASIBLE:
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # out of time: claim nothing
            verdict.unproven += [(c[1], []) for c in open_rules]
            break
        broken = [c for c in open_rules if not sol.boolean_value(c[2])]
        for index, con, lit, keys, _ in broken:
            unknown = [k for k in keys if k in model.unknown]
            if unknown:
                verdict.unproven.append((con, unknown))
            else:
                verdict.can_fail.append((con, _counterexample(model, sol, keys)))
        done = {c[0] for c in broken}  # by rule index: literals do not compare with ==
        open_rules = [c for c in open_rules if c[0] not in done]


def _totals(model: SetupModel, solver: cp_model.CpSolver) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for key in model.state:
        for zone in ("in_play", "returned_to_box"):
            v = solver.value(model.zone_expr(key, zone))
            if v:
                d = out.setdefault(zone, {})
                d[key[0]] = d.get(key[0], 0) + v
    return out


def _counterexample(model: SetupModel, solver: cp_model.CpSolver, keys: list[ItemKey]) -> str:
    parts = []
    for key in keys:
        st = model.state[key]
        for zone in ("dealt", "set_aside"):
            v = solver.value(st[zone]) if zone in st else 0
            if v:
                parts.append(f"{zone} {key[1]}×{v}")
    return ", ".join(parts[:8]) or "the solver's setup"


# --------------------------------------------------------------------------- the registered check

def check_setup(game: Game) -> CheckResult:
    """Gaps, stated totals, player-count coverage, the engine's tables and the CP-SAT proofs."""
    out = CheckResult()
    if game.setup is None:
        return out
    table = setup_table(game)
    for n, res in table.items():
        out.player_counts[str(n)] = res.report()
    raw: list[Finding] = []
    for res in table.values():
        # one model and solve per count: a model of every count at once solves 5-30x slower
        # (CP-SAT's LP grows with it), though it saves the per-solve set-up
        raw += proof_findings(game, res)
    # each optional rule at its counts; its tables are in the report's `variants` (solver/report.py)
    for results in variant_tables(game).values():
        for res in results.values():
            raw += proof_findings(game, res)
    out.findings += grouped(raw) + face_findings(game)
    out.derived["totals"] = attribute_totals(game, table)
    return out


def proof_findings(game: Game, res: SetupResult) -> list[Finding]:
    """The CP-SAT verdict of one count (of the base setup or of a variant) as findings; a variant's
    say `variant <id>: ` first, so they never merge with the base setup's."""
    n = res.players
    raw: list[Finding] = []
    verdict = prove_player_count(game, res)
    if not verdict.feasible:
        raw.append(_conflict_finding(verdict))
    else:
        raw += _consistency_findings(game, res, verdict)
        for con, example in verdict.can_fail:
            index = game.setup.constraints.index(con)
            raw.append(Finding("warning", "rule-can-fail",
                               f"rule '{con.id}' ({describe(con)}) fails for some deals, e.g. {example}",
                               f"{constraint_location(game, index)} ({con.source})", [n]))
        for con, keys in verdict.unproven:
            index = game.setup.constraints.index(con)
            names = ", ".join(k[1] for k in keys[:6]) + (" …" if len(keys) > 6 else "")
            why = (f"it counts {names}, whose counts the sources do not give, and some counts would break it; "
                   "find the counts or record them as assumptions") if keys else \
                "the solver ran out of time; simplify the rule"
            raw.append(Finding("warning", "rule-unproven",
                               f"rule '{con.id}' ({describe(con)}) cannot be proved: {why}",
                               f"{constraint_location(game, index)} ({con.source})", [n]))
        for comp, copies in res.untouched.items():
            raw.append(Finding("info", "not-in-setup",
                               f"{comp}: the setup never mentions these {copies} copies; they stay in the box",
                               game.where("components.yaml", ("components", _comp_index(game, comp))), [n]))
        proved = verdict.rules - len(verdict.can_fail) - len(verdict.unproven)
        raw.append(Finding("info", "setup-proven",
                           "CP-SAT proof: the setup can be carried out, every item is conserved (in play + "
                           f"returned to box + set aside = owned), and {proved} of {verdict.rules} rule(s) hold "
                           "for every deal", game.where("setup.yaml"), [n]))
    if res.variant is not None:
        for f in raw:
            f.message = f"variant {res.variant}: {f.message}"
    return raw


GENERIC_FACES = ("up", "down", "front", "back")


def face_findings(game: Game) -> list[Finding]:
    """A `face:` of a place or give step must name a side the pieces have: up, down, front, back,
    or the `face` attr of one of their printed sides (e.g. fellowship on a leader's back)."""
    out = []
    for index, step in enumerate(game.setup.steps if game.setup else []):
        face = getattr(step, "face", None)
        if face is None or face in GENERIC_FACES:
            continue
        cid = step.place if isinstance(step, PlaceStep) else step.give
        comp = game.component(cid)
        chosen = [it for it in comp.items
                  if (not getattr(step, "items", None) or it.id in step.items)
                  and matches({**it.attrs, "id": it.id}, getattr(step, "where", {}) or {})]
        sides = {str(f.attrs["face"]) for it in chosen for f in (it.front, it.back) if f and "face" in f.attrs}
        if face not in sides:
            known = ", ".join(list(GENERIC_FACES) + sorted(sides))
            out.append(Finding("warning", "setup-face-unknown",
                               f"step '{step_label(game, index)}' turns face {face!r} up, but its pieces have no such "
                               f"side; use one of: {known}", game.where("setup.yaml", ("steps", index, "face"))))
    return out


def grouped(findings: list[Finding]) -> list[Finding]:
    """Merge findings that differ only by player count into one listing every count."""
    merged: dict[tuple, Finding] = {}
    for f in findings:
        key = (f.severity, f.code, f.message, f.source)
        if key in merged:
            merged[key].player_counts = sorted(set(merged[key].player_counts) | set(f.player_counts))
        else:
            merged[key] = Finding(f.severity, f.code, f.message, f.source, sorted(f.player_counts))
    return list(merged.values())


def _comp_index(game: Game, cid: str) -> int:
    return next(i for i, c in enumerate(game.components) if c.id == cid)


def _conflict_finding(verdict: Verdict) -> Finding:
    """One line naming every rule, step and count of the (minimal) conflict, with locations.

    `rule 'a' (expr) [setup.yaml:17, source clause] + step 'b' [setup.yaml:4, ...] + counts
    x ×1, y ×2 [components.yaml:6, 7] cannot all hold`; the finding's source is the rule's line."""
    order = ("constraint", "step", "inventory")
    core = sorted(verdict.core, key=lambda a: order.index(a.kind))
    parts = [f"{a.label} [{_short(a.source)}]" for a in core if a.kind != "inventory"]
    counts = [a for a in core if a.kind == "inventory"]
    if counts:
        by_file: dict[str, list[str]] = {}
        for a in counts:
            name, _, line = _short(a.source).rpartition(":")
            by_file.setdefault(name, []).append(line)
        lines = "; ".join(f"{name}:{', '.join(dict.fromkeys(ls))}" for name, ls in by_file.items())
        parts.append("counts " + ", ".join(a.label for a in counts) + f" [{lines}]")
    confirmed = "" if verdict.core_confirmed else " (core not confirmed: every assumption listed)"
    source = core[0].source.split(" (")[0] if core else "setup.yaml"
    return Finding("error", "setup-infeasible",
                   "setup cannot be carried out: " + " + ".join(parts) + " cannot all hold" + confirmed
                   + "; change one of them", source, [verdict.players])


def _short(source: str) -> str:
    """`data/games/x/setup.yaml:17 (seed 001, ...)` -> `setup.yaml:17 (seed 001, ...)`."""
    head, sep, tail = source.partition(" (")
    return head.rsplit("/", 1)[-1] + (f" ({tail}" if sep else "")


def _consistency_findings(game: Game, res: SetupResult, verdict: Verdict) -> list[Finding]:
    """The engine's counting and the model's solution must agree on the totals."""
    if any(v is None for v in owned_counts(game).values()):
        return []
    engine = {"in_play": res.in_play, "returned_to_box": res.returned_to_box}
    out = []
    for zone, totals in engine.items():
        got = verdict.totals.get(zone, {})
        if sum(totals.values()) != sum(got.values()):
            out.append(Finding("error", "engine-model-mismatch",
                               f"{zone}: engine counts {sum(totals.values())}, CP-SAT model {sum(got.values())}",
                               game.where("setup.yaml"), [res.players]))
    return out


def attribute_totals(game: Game, table: dict[int, SetupResult]) -> dict[str, Any]:
    """Copies per attribute value of each component (suits, ranks, roles...), owned and per count in play."""
    out: dict[str, Any] = {}
    for comp in game.components:
        if len(comp.items) < 2 or any(i.count is None for i in comp.items):
            continue
        attrs: dict[str, dict[str, int]] = {}
        for it in comp.items:
            for key, v in it.attrs.items():
                if isinstance(v, (str, int)) and not isinstance(v, bool):
                    d = attrs.setdefault(key, {})
                    d[str(v)] = d.get(str(v), 0) + (it.count or 0)
        attrs = {k: dict(sorted(v.items())) for k, v in sorted(attrs.items()) if 1 < len(v) <= 40}
        if not attrs:
            continue
        entry: dict[str, Any] = {"owned": attrs, "in_play": {}}
        for n, res in table.items():
            if any(d.pile == comp.id or comp.id in {k[0] for k in d.pool} for d in res.draws if d.dst == "set_aside"):
                continue  # random which kinds stay in play
            per_n: dict[str, dict[str, int]] = {}
            for it in comp.items:
                st = res.items[(comp.id, it.id)]
                copies = sum(st[z] for z in ("pile", "placed", "supply"))
                for key in attrs:
                    v = it.attrs.get(key)
                    if v is not None:
                        d = per_n.setdefault(key, {})
                        d[str(v)] = d.get(str(v), 0) + copies
            entry["in_play"][str(n)] = {k: dict(sorted(v.items())) for k, v in sorted(per_n.items())}
        out[comp.id] = entry
    return out
