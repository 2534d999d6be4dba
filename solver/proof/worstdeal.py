"""The worst deal: how many copies of each matched item every deal the setup can produce needs.

A give or place step with `match: {clan: dwarf-cards}` takes, for each card dealt from the pile,
the item whose attribute is that card's (solver/game/setup.py). Which items that takes depends on
the deal, so a count that serves one deal may run short in another (five yellow dwarves dealt,
four yellow pawns). For every player count and optional rule, the setup's flow model (solver/proof/
feasibility.py) is built without the matched items' counts and without the setup's rules (they are
facts to prove, not limits on a deal), and CP-SAT maximises each attribute value's demand over
every deal the steps and the other counts allow: that maximum is the least the box must hold.
The maximising deal is kept as the example that binds it.

    worst_deals(game, result) -> [WorstDeal]   one count (or variant run), one per attribute value
    all_worst_deals(game) -> [WorstDeal]        every player count and optional rule
    coverage_findings(game, deals, counts, locate) -> findings: a count below the worst deal is an
                                                error at its line naming the counts and the deal
    binding_text(deals) -> "7-9 players: a deal can give 5 dwarf-cards of clan yellow ..."
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ortools.sat.python import cp_model

from solver.engine.results import ItemKey, SetupResult
from solver.engine.run import player_counts, run_setup, variant_counts
from solver.engine.steps import step_label
from solver.findings import Finding
from solver.game.loader import Game
from solver.game.objmemo import kept_for
from solver.game.setup import SetupFile
from solver.proof.cpsat import solve
from solver.proof.feasibility import Matched, SetupModel, flow_model


@dataclass(frozen=True)
class WorstDeal:
    """At `players` (with `variant`): the deal that asks most of the `items` of `component` whose
    `attr` is `value`: `need` copies, for the cards of `deal` (card -> copies dealt)."""
    players: int
    variant: str | None
    component: str
    attr: str
    value: str
    pile: str
    items: list[ItemKey]
    need: int
    deal: dict[ItemKey, int]
    steps: list[int]
    exact: bool  # False when the dealt pile has counts the sources do not give

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.component, self.attr, self.value)


def worst_deals(game: Game, result: SetupResult) -> list[WorstDeal]:
    model = flow_model(game, result)
    if not model.matched:
        return []
    matched = {k[0] for g in model.matched for k in g.move.items}
    # the step literals, in the order of the steps run (SetupModel adds one per step run)
    step_lits = dict(zip(result.steps_run, [a.lit for a in model.assumptions if a.kind == "step"]))
    matching = {g.move.step for g in model.matched}
    for index, lit in step_lits.items():
        # every step holds but the matching ones: their total (a token for every card dealt) would
        # rule out the deals of a card whose value no item has, which are the error to report
        if index not in matching:
            model.m.add(lit == 1)
    for a in model.assumptions:
        # every other count holds; the matched items are free (their need is asked)
        if a.kind == "inventory" and (a.item is None or a.item[0] not in matched):
            model.m.add(a.lit == 1)
    groups: dict[tuple[str, str, str], list[Matched]] = {}
    for g in model.matched:
        assert g.move.match is not None
        groups.setdefault((g.move.items[0][0], g.move.match[0], g.value), []).append(g)
    out = []
    solved: dict[str, tuple[Any, cp_model.CpSolver]] = {}
    for (component, attr, value), parts in groups.items():
        worst = _maximise(model, result, component, attr, value, parts, solved)
        if worst is None:
            return []  # no deal at all: the steps cannot be carried out (the setup proof says which)
        out.append(worst)
    return out


def _maximise(model: SetupModel, result: SetupResult, component: str, attr: str, value: str,
              parts: list[Matched], solved: dict[str, tuple[Any, cp_model.CpSolver]]) -> WorstDeal | None:
    """The worst deal for one attribute value. `solved`: the solves of this model so far, by their
    objective: values whose demands are the same sum (Saboteur's tiles and pieces of a clan, one each
    for each dwarf card of it dealt) ask the same question of the same model, so it is solved once."""
    m = model.m
    demand = sum(p.demand for p in parts)
    cards = {k: v for p in parts for k, v in p.cards.items()}
    exact = not any(k in model.unknown for k in cards)
    m.maximize(demand)
    asked = str(m.proto.objective)
    if asked not in solved:
        solved[asked] = solve(m, [])
    status, sol = solved[asked]
    if status == cp_model.INFEASIBLE:
        return None
    if status != cp_model.OPTIMAL:
        raise RuntimeError(f"CP-SAT gave {sol.status_name(status)} maximising the deal of {component}")
    need = int(round(sol.objective_value)) if not isinstance(demand, int) else demand
    deal = {k: sol.value(v) for k, v in cards.items() if not isinstance(v, int) and sol.value(v)}
    items = sorted({k for p in parts for k in p.items})
    steps = sorted({p.move.step for p in parts})
    assert parts[0].move.match is not None
    return WorstDeal(result.players, result.variant, component, attr, value, parts[0].move.match[1], items,
                     need, deal, steps, exact)


def all_worst_deals(game: Game) -> list[WorstDeal]:
    """Every player count, then every optional rule at its counts. Solved once per game object
    (solver/game/objmemo.py): the setup proof, the proposals' check and their joint model each ask."""
    if game.setup is None or not _has_match(game):
        return []
    setup = game.setup
    return list(kept_for(game, "worst deals", lambda: tuple(_solve_all(game, setup))))


def _solve_all(game: Game, setup: SetupFile) -> list[WorstDeal]:
    out = []
    for n in player_counts(game):
        out += worst_deals(game, run_setup(game, n))
    for var in setup.variants:
        for n in variant_counts(game, var.id):
            out += worst_deals(game, run_setup(game, n, var.id))
    return out


def _has_match(game: Game) -> bool:
    return any(getattr(s, "match", None) for s in (game.setup.steps if game.setup else []))


def counts_text(counts: list[int]) -> str:
    """7, 8, 9 -> '7-9 players'; 3, 5 -> '3, 5 players'."""
    counts = sorted(set(counts))
    if len(counts) > 2 and counts[-1] - counts[0] == len(counts) - 1:
        return f"{counts[0]}-{counts[-1]} players"
    return ", ".join(map(str, counts)) + (" player" if counts == [1] else " players")


def deal_text(d: WorstDeal) -> str:
    cards = sum(d.deal.values())
    listed = ", ".join(f"{k[1]}×{v}" for k, v in sorted(d.deal.items()))
    return f"a deal can give {cards} {d.pile} of {d.attr} {d.value}" + (f" ({listed})" if listed else "")


def _runs_text(deals: list[WorstDeal]) -> str:
    variant = deals[0].variant
    return (f"variant {variant}, " if variant else "") + counts_text([d.players for d in deals])


def binding(deals: list[WorstDeal]) -> list[list[WorstDeal]]:
    """The runs whose need is the largest, grouped by optional rule (the base setup first)."""
    top = max(d.need for d in deals)
    by_variant: dict[str | None, list[WorstDeal]] = {}
    for d in deals:
        if d.need == top:
            by_variant.setdefault(d.variant, []).append(d)
    return [by_variant[v] for v in sorted(by_variant, key=lambda v: (v is not None, v or ""))]


def binding_text(game: Game, deals: list[WorstDeal]) -> str:
    """What binds a count: '7-9 players: a deal can give 5 dwarf-cards of clan yellow (...); step
    'place dwarf-pieces' takes 1 for each card'."""
    groups = binding(deals)
    first = groups[0][0]
    each = "; ".join(f"{_runs_text(g)}: {deal_text(g[-1])}" for g in groups)
    steps = ", ".join(f"'{step_label(game, s)}'" for s in first.steps)
    return f"{each}; step {steps} takes the {first.component} of that {first.attr} for each card"


def by_key(deals: list[WorstDeal], per_variant: bool = False) -> dict[tuple[str, ...], list[WorstDeal]]:
    """The runs of each (component, attribute, value); with `per_variant`, each optional rule apart."""
    out: dict[tuple[str, ...], list[WorstDeal]] = {}
    for d in deals:
        out.setdefault(d.key + ((d.variant or "",) if per_variant else ()), []).append(d)
    return out


def coverage_findings(game: Game, deals: list[WorstDeal], counts: dict[ItemKey, int | None],
                      locate: Callable[[ItemKey], str], only: set[ItemKey] | None = None) -> list[Finding]:
    """Each attribute value's copies (in `counts`) against its worst deal: an error at the count's
    line (`locate`, of its first item or, with `only`, of its first item in `only`: the others'
    groups are left out) naming the player counts and a deal that runs short, or an info that it holds."""
    out = []
    for key, runs in by_key(deals, per_variant=True).items():
        found = _coverage(game, runs, counts, locate, only)
        if runs[0].variant is not None:  # an optional rule's findings say so, as the checker's do
            for f in found:
                f.message = f"variant {runs[0].variant}: {f.message}"
        out += found
    return out


def _coverage(game: Game, runs: list[WorstDeal], counts: dict[ItemKey, int | None],
              locate: Callable[[ItemKey], str], only: set[ItemKey] | None) -> list[Finding]:
    """One attribute value of one optional rule (or of the base setup) over its player counts."""
    items = runs[0].items
    players = sorted({d.players for d in runs})
    if not items:
        if not max(d.need for d in runs):
            return []
        d = binding(runs)[0][0]
        return [Finding("error", "worst-deal-no-item",
                        f"no item of {d.component} has {d.attr} {d.value}, but {binding_text(game, runs)}",
                        game.where("setup.yaml", ("steps", d.steps[0], "match")), players)]
    if only is not None:
        if not set(items) & only:
            return []
        items = sorted(items, key=lambda k: k not in only)
    have = [counts.get(k) for k in items]
    if any(h is None for h in have):
        return []
    total = sum(h for h in have if h is not None)
    names = " + ".join(k[1] for k in items)
    short = [d for d in runs if d.need > total]
    if not all(d.exact for d in runs):
        return [Finding("warning", "worst-deal-unproven",
                        f"{names}: the cards of {runs[0].pile} have counts the sources do not give, so the "
                        "most a deal can ask is not known; state them", locate(items[0]))]
    if short:
        need = binding(short)[0][0].need
        return [Finding("error", "worst-deal-short",
                        f"{names} ×{total} does not cover every deal: {binding_text(game, short)}; "
                        f"{need - total} short; count at least {need}", locate(items[0]),
                        sorted({d.players for d in short}))]
    return [Finding("info", "worst-deal-covered",
                    f"{names} ×{total} covers every deal (CP-SAT maximum over the deals: "
                    f"{max(d.need for d in runs)}; {binding_text(game, runs)})", locate(items[0]), players)]
