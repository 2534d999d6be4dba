"""Every target of targets.yaml measured exactly at a box's counts: what `pnp design` prints and what
`pnp check` proves again at the counts designed.yaml holds.

The measurement reads the deal as the engine runs it (solver/engine: the pile's make-up at the deal
step, after every removal) and computes its odds with `makeup_odds` of solver/counts/odds.py, the
matched items taken as one role and the rest as another. It shares no code with the CP-SAT tables
of solver/counts/design.py, so a design is proved by a second computation, not by itself.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from solver import expr as E
from solver.engine.items import matches, owned_counts
from solver.engine.results import Draw, ItemKey, SetupResult
from solver.engine.run import player_counts, run_setup, variant_counts
from solver.engine.steps import when_functions
from solver.counts.odds import makeup_odds
from solver.errors import Problem
from solver.findings import CheckResult, Finding
from solver.game.loader import Game
from solver.game.targets import Target, TargetsFile, fraction_of


@dataclass(frozen=True)
class Value:
    """One target's exact value: at one run (player count, optional rule) or for the box."""
    target: str
    kind: str
    value: Fraction
    bound: str
    holds: bool
    players: int | None = None
    variant: str | None = None
    part: str | None = None  # a `per` range's attribute value, e.g. clan=blue
    slack: Fraction | None = None  # a soft target's distance from what it asks
    note: str = ""


def targets_of(game: Game) -> TargetsFile | None:
    return game.extras.get("targets")


def with_counts(game: Game, counts: Mapping[ItemKey, int | None]) -> Game:
    """The game with these items' counts replaced (None: as if the sources stated none)."""
    comps = []
    for c in game.components:
        if not c.items:
            comps.append(c.model_copy(update={"count": counts.get((c.id, c.id), c.count)}))
            continue
        items = [it.model_copy(update={"count": counts[(c.id, it.id)]}) if (c.id, it.id) in counts else it
                 for it in c.items]
        comps.append(c.model_copy(update={"items": items}))
    return dataclasses.replace(game, components=comps, extras=dict(game.extras))


def runs(game: Game) -> list[tuple[int, str | None]]:
    """Every player count, then every optional rule at its counts."""
    out: list[tuple[int, str | None]] = [(n, None) for n in player_counts(game)]
    for var in game.setup.variants if game.setup else []:
        out += [(n, var.id) for n in variant_counts(game, var.id)]
    return out


def applies(target: Target, players: int, variant: str | None) -> bool:
    return target.when is None or bool(E.evaluate(target.when, {"players": players}, when_functions(variant)))


def per_run(target: Target) -> bool:
    return target.kind in ("odds", "seat_expectation")


def attrs_of(game: Game) -> dict[ItemKey, dict[str, Any]]:
    out: dict[ItemKey, dict[str, Any]] = {}
    for c in game.components:
        for it in c.items:
            out[(c.id, it.id)] = {**it.attrs, "id": it.id}
        if not c.items:
            out[(c.id, c.id)] = {**c.attrs, "id": c.id}
    return out


def deal_of(result: SetupResult, pile: str) -> Draw | None:
    """The first deal from `pile` to the players at this run."""
    return next((d for d in result.draws if d.pile == pile and d.dst == "dealt"), None)


def condition(target: Target, players: int) -> tuple[int, int]:
    """An odds target's condition as (fewest, most) matched cards dealt."""
    spec = target.spec
    env = {"players": players}
    lo = int(E.evaluate(spec.dealt_at_least, env)) if spec.dealt_at_least is not None else 0
    hi = int(E.evaluate(spec.dealt_at_most, env)) if spec.dealt_at_most is not None else 10**9
    return lo, hi


def odds_bound(target: Target, players: int) -> str:
    spec = target.spec
    lo, hi = condition(target, players)
    low = lo if isinstance(spec.dealt_at_least, int) else f"{spec.dealt_at_least} = {lo}"
    high = hi if isinstance(spec.dealt_at_most, int) else f"{spec.dealt_at_most} = {hi}"
    what = f"{_sel(spec.where)} dealt " + (f"{low}..{high}" if spec.dealt_at_least is not None and spec.dealt_at_most
                                           is not None else f"≥ {low}" if spec.dealt_at_least is not None else f"≤ {high}")
    side = (f"≥ {spec.probability_at_least}" if spec.probability_at_least is not None
            else f"≤ {spec.probability_at_most}")
    return f"P({what}) {side}"


def _sel(where: dict[str, Any], everything: str = "cards") -> str:
    """`{role: saboteur}` -> 'role=saboteur' (true/false as YAML writes them); {} -> `everything`."""
    def word(v: Any) -> str:
        return str(v).lower() if isinstance(v, bool) else str(v)
    return ", ".join(f"{k}={word(v)}" for k, v in where.items()) or everything


def odds_holds(target: Target, p: Fraction) -> bool:
    spec = target.spec
    if spec.probability_at_least is not None:
        return p >= fraction_of(spec.probability_at_least)
    return p <= fraction_of(spec.probability_at_most)


def measure_deal(game: Game, target: Target, result: SetupResult, variant: str | None) -> Value | None:
    """An odds or seat target at one run, from the engine's deal and odds.makeup_odds."""
    spec, n = target.spec, result.players
    draw = deal_of(result, spec.deal)
    if draw is None:
        return None
    attrs = attrs_of(game)
    a = sum(c for k, c in draw.pool.items() if k in attrs and matches(attrs[k], spec.where))
    b = sum(draw.pool.values()) - a
    base: dict[str, Any] = dict(target=target.id, kind=target.kind, players=n, variant=variant)
    if not draw.clean:
        return Value(value=Fraction(0), bound="a deal from a known pile", holds=False,
                     note=f"the pile of {spec.deal} is not known exactly at the deal", **base)
    if draw.count > a + b:  # known, but short: no deal of that size exists to measure
        return Value(value=Fraction(0), bound="a deal the pile covers", holds=False,
                     note=f"the pile of {spec.deal} holds {a + b} cards at the deal, fewer than the {draw.count} dealt",
                     **base)
    if target.kind == "odds":
        lo, hi = condition(target, n)
        table = makeup_odds({"match": a, "other": b}, draw.count)
        p = sum((q for key, q in table.items() if lo <= dict(key)["match"] <= hi), Fraction(0))
        return Value(value=p, bound=odds_bound(target, n), holds=odds_holds(target, p), **base)
    return measure_seats(target, n, draw, a, b, base)


def measure_seats(target: Target, n: int, draw: Draw, a: int, b: int, base: dict) -> Value:
    """Expected matched cards per seat: `each` cards of a shuffled pile of a matched in a + b."""
    spec = target.spec
    seats = draw.count // draw.each if draw.each else 0
    dealt = Fraction(draw.each * a, a + b) if a + b else Fraction(0)
    per_seat = [dealt] * seats + [Fraction(0)] * (n - seats)
    holds = True
    words = []
    note = ""
    if spec.equal:
        words.append("equal at every seat")
        if seats == n:
            note = (f"holds by symmetry: every seat is dealt {draw.each} from one shuffled pile, "
                    f"so each expects the same")
        holds = max(per_seat) == min(per_seat)
    if spec.at_least is not None:
        words.append(f"≥ {spec.at_least}")
        holds = holds and min(per_seat) >= fraction_of(spec.at_least)
    if spec.at_most is not None:
        words.append(f"≤ {spec.at_most}")
        holds = holds and max(per_seat) <= fraction_of(spec.at_most)
    return Value(value=dealt, bound=f"E({_sel(spec.where)} per seat) " + ", ".join(words), holds=holds,
                 note=note, **base)


def measure_box(game: Game, target: Target) -> list[Value]:
    """A range, total or share target on the box's counts."""
    spec = target.spec
    comp = game.component(spec.component)
    counts = owned_counts(game)
    attrs = attrs_of(game)
    keys = [k for k in counts if k[0] == comp.id]
    if any(counts[k] is None for k in keys):
        return [Value(target.id, target.kind, Fraction(0), "known counts", False,
                      note=f"a count of {comp.id} is unknown")]
    where = getattr(spec, "where", {})
    chosen = [k for k in keys if matches(attrs[k], where)]
    if target.kind == "share":
        total = sum(counts[k] or 0 for k in keys)
        share = Fraction(sum(counts[k] or 0 for k in chosen), total) if total else Fraction(0)
        near = fraction_of(spec.near)
        return [Value(target.id, "share", share, f"share of {_sel(where, comp.id)} near {spec.near}", True,
                      slack=abs(share - near))]
    if target.kind == "total":
        chosen = keys
    groups: dict[str | None, list[ItemKey]] = {}
    per = getattr(spec, "per", None)
    for k in chosen:
        groups.setdefault(f"{per}={attrs[k].get(per)}" if per else None, []).append(k)
    bound = (f"{spec.min}..{spec.max}" if spec.min is not None and spec.max is not None
             else f"≥ {spec.min}" if spec.min is not None else f"≤ {spec.max}")
    out = []
    for part, ks in (sorted(groups.items(), key=lambda kv: str(kv[0])) or [(None, [])]):
        v = sum(counts[k] or 0 for k in ks)
        ok = (spec.min is None or v >= spec.min) and (spec.max is None or v <= spec.max)
        out.append(Value(target.id, target.kind, Fraction(v), f"copies of {_sel(where, comp.id)}: {bound}", ok, part=part))
    return out


def measure(game: Game, targets: TargetsFile) -> list[Value]:
    """Every target at the game's own counts (stated, or substituted by `with_counts`)."""
    values: list[Value] = []
    results = {r: run_setup(game, *r) for r in runs(game)} if any(per_run(t) for t in targets.targets) else {}
    for t in targets.targets:
        if not per_run(t):
            values += measure_box(game, t)
            continue
        for (n, var), res in results.items():
            if applies(t, n, var):
                v = measure_deal(game, t, res, var)
                if v is not None:
                    values.append(v)
    return values


def expression_problems(game: Game, targets: TargetsFile) -> list[Problem]:
    """A target's `when` or `dealt_` expression that does not evaluate at some run, located."""
    problems: list[Problem] = []
    for ti, t in enumerate(targets.targets):
        fields = [("when", t.when, ("targets", ti, "when"))] + [
            (f, getattr(t.spec, f), ("targets", ti, "odds", f)) for f in ("dealt_at_least", "dealt_at_most")
            if t.kind == "odds"]
        for name, text, loc in fields:
            if text is None or isinstance(text, int):
                continue
            for n, var in runs(game):
                try:
                    E.evaluate(text, {"players": n}, when_functions(var))
                except E.ExprError as e:
                    path, _, line = game.where("targets.yaml", loc).rpartition(":")
                    problems.append(Problem(path, int(line or 0), 0, f"{name}: {e}",
                                            "use `players`, numbers, + - * // % min() max() and variant()"))
                    break
    return problems


def shown(v: Value) -> str:
    """A value as designed.yaml and --json write it: "p/q" (or an integer count)."""
    return str(v.value.numerator) if v.kind in ("range", "total") else f"{v.value.numerator}/{v.value.denominator}"
