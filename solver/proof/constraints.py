"""Constraints of setup.yaml compiled into the CP-SAT model, and proved for every possible deal.

A constraint is `require: <expression>` (solver/expr.py's AST) or `kind: at_least|at_most|exactly`
over a selection `of` (optionally `per` attribute value). `RuleCompiler` turns either into a
literal of the setup's flow model (solver/proof/feasibility.py's SetupModel inherits it). Functions in
expressions: `count(c)` (in play), `count(c, zone)`, and one per zone: `owned(c)`, `in_play(c)`,
`dealt(c)`, `set_aside(c)`, `returned_to_box(c)`, `placed(c)`, `supply(c)`, `draw_pile(c)`; `c` is
a component id, a pile made by `combine`, or an item id. Names: `players`, `hand_size`.

When the setup is feasible, `prove_rules_for_every_deal` shows each rule holds for every deal (and
every uncounted count) by proving its negation infeasible; a rule some deal breaks gets a
counterexample, one that only an unknown count breaks is "unproven".
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ortools.sat.python import cp_model

from solver import expr as E
from solver.engine.items import matches
from solver.engine.results import ItemKey
from solver.errors import DataError, Problem
from solver.findings import cite
from solver.game.setup import Constraint
from solver.proof.cpsat import Assumption, Verdict, solve

if TYPE_CHECKING:
    from solver.proof.feasibility import SetupModel
    from solver.game.loader import Game

ZONE_PARTS = {"owned": (), "in_play": ("box", "returned", "set_aside"), "returned_to_box": ("returned", "box"),
              "draw_pile": ("pile",)}
ZONE_FUNCS = ("owned", "in_play", "dealt", "set_aside", "returned_to_box", "placed", "supply", "draw_pile")


def constraint_location(game: Game, index: int) -> str:
    return game.where("setup.yaml", ("constraints", index))


class RuleCompiler:
    """Compiles constraints into literals of a setup's flow model (mixed into SetupModel, whose
    `m`, `game`, `items_named`, `selection`, `attrs`, `unknown` it uses)."""
    m: cp_model.CpModel
    game: Game
    assumptions: list[Assumption]
    attrs: dict[ItemKey, dict[str, Any]]
    unknown: set[ItemKey]
    referenced: set[ItemKey]
    random_ref: bool
    # (constraint index, constraint, literal, items it counts, needs a proof for every deal)
    constraint_lits: list[tuple[int, Constraint, Any, list[ItemKey], bool]]

    def items_named(self, ref: str) -> list[ItemKey]:
        raise NotImplementedError  # SetupModel's

    def selection(self, ref: str, zone: str, where: dict[str, Any]) -> Any:
        raise NotImplementedError  # SetupModel's

    def add_constraint(self, index: int, con: Constraint, env: dict[str, int]) -> None:
        where = constraint_location(self.game, index)
        self.referenced = set()
        self.random_ref = False
        try:
            lit = self._compile_constraint(con, env)
        except E.ExprError as e:
            path, _, line = where.rpartition(":")
            raise DataError([Problem(path, int(line or 0), 0, f"constraint {con.id!r}: {e}",
                                     "see the functions listed in solver/proof/constraints.py's docstring")])
        # a rule over copies nobody has counted is tried against every count they could have:
        # it is proved if none breaks it, and reported as unproved (not as failing) otherwise
        unknown = sorted(self.referenced & self.unknown)
        self.constraint_lits.append((index, con, lit, sorted(self.referenced), self.random_ref or bool(unknown)))
        self.assumptions.append(Assumption(lit, "constraint", f"rule '{con.id}' ({describe(con)})",
                                           cite(where, con.source)))

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
            if not vals:
                raise E.ExprError(f"{node.func}() needs at least one value")
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



def prove_rules_for_every_deal(model: SetupModel, verdict: Verdict, *, quick: bool = False) -> bool:
    """Every rule for every possible deal. A rule that counts no zone a deal or a choice splits has
    one value, which the feasibility solve has shown to hold. For the others: ask for a setup that
    breaks at least one of them; each rule that setup breaks is reported with it as the
    counterexample and dropped, and the question is asked again until no setup breaks any (one
    solve when all hold). Returns True when `verdict` has the rules' outcome.

    `quick`: the solves are asked for their verdict alone (cpsat.py `solve`'s `verdict_only`), which
    is all they need while no rule has a counterexample to show: which rules end up broken does not
    depend on the setups found (a rule is broken in some round exactly when some setup breaks it),
    only a counterexample does. So the first rule with one to show (a rule that counts only stated
    counts), or a solve out of time, stops the rounds: False, `verdict` as it was, and the caller asks
    again without `quick` of a new model (this one holds the quick rounds' additions), which finds
    the counterexamples the report has always shown."""
    m = model.m
    base = [a.lit for a in model.assumptions if a.kind != "constraint"]
    open_rules = [c for c in model.constraint_lits if c[4]]
    can_fail: list[tuple[Constraint, str]] = []
    unproven: list[tuple[Constraint, list[ItemKey]]] = []
    while open_rules:
        violated = m.new_bool_var("some-rule-violated")
        m.add_bool_or([c[2].Not() for c in open_rules]).only_enforce_if(violated)
        status, sol = solve(m, base + [violated], verdict_only=quick)
        if status == cp_model.INFEASIBLE:
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # out of time: claim nothing
            if quick:
                return False
            unproven += [(c[1], []) for c in open_rules]
            break
        broken = [c for c in open_rules if not sol.boolean_value(c[2])]
        for index, con, lit, keys, _ in broken:
            unknown = [k for k in keys if k in model.unknown]
            if unknown:
                unproven.append((con, unknown))
            elif quick:
                return False
            else:
                can_fail.append((con, counterexample(model, sol, keys)))
        done = {c[0] for c in broken}  # by rule index: literals do not compare with ==
        open_rules = [c for c in open_rules if c[0] not in done]
    verdict.can_fail += can_fail
    verdict.unproven += unproven
    return True


def counterexample(model: SetupModel, solver: cp_model.CpSolver, keys: list[ItemKey]) -> str:
    parts = []
    for key in keys:
        st = model.state[key]
        for zone in ("dealt", "set_aside"):
            v = solver.value(st[zone]) if zone in st else 0
            if v:
                parts.append(f"{zone} {key[1]}×{v}")
    return ", ".join(parts[:8]) or "the solver's setup"
