"""Proposed counts: one CP-SAT model completes every count the sources do not state.

The checker (solver/proof/checker.py) proves the setup one player count at a time with uncounted kinds
left free. Here the setup models of every player count and every optional rule (setup.yaml
`variants:`) share one model and one count variable per uncounted item, with every step, stated
count, stated total and rule switched on, so a proposal holds wherever the game is played.
Each kind the sources name exists at least once; an item marked `rest: true` stands for the
pieces the sources do not name and takes what a stated total leaves.

The objective, in this order (each stage keeps the optimum of the ones before):

1. kinds that share a stated total (and no rest item) are spread over it as evenly as possible:
   smallest largest count, then largest smallest count, over each component, then over each
   component and `type` attribute (chits among chits). Their sum is fixed, so this comes first:
   otherwise the next stage would pile the total on a kind no rule ties to another;
2. the smallest mix the rules need: fewest copies of the other named uncounted kinds;
3. fewest copies of the `rest` items (only matters where no stated total fixes them);
4. the other kinds spread as evenly as possible, as in 1 (the rest items among themselves);
5. a tie-break that makes the answer unique: an earlier-listed item takes the larger share.

When no proposal exists, the checker's `explain` names the steps, counts and rules that conflict.
`pnp propose GAME` writes the result to proposed.yaml (solver/game/proposals.py); `pnp check`
reports every proposal as an assumption and proves the file's counts (edited or not) again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.counts.effective import design_of, proposals_of
from solver.engine.items import owned_counts, rest_kinds
from solver.engine.results import ItemKey, SetupResult
from solver.engine.run import player_counts, run_setup, variant_counts
from solver.engine.steps import step_label, step_location
from solver.errors import DataError, Problem
from solver.findings import CheckResult, Finding
from solver.game.loader import Game
from solver.game.proposals import NO_RULE_NAMED, NO_RULE_REST, Proposal, ProposalsFile
from solver.proof.constraints import constraint_location, describe
from solver.proof.cpsat import Assumption, Model, in_stages, solve
from solver.proof.explain import explain
from solver.proof.feasibility import UNKNOWN_UB, counts_hold, setup_model
from solver.proof.worstdeal import WorstDeal, all_worst_deals, binding_text, by_key, coverage_findings

TIME_LIMIT = 60.0  # seconds for each stage of the objective
OBJECTIVE = ("every rule at every player count and optional rule, each kind the sources name at least once; kinds "
             "sharing a stated total spread over it as evenly as possible; then the smallest mix the rules need "
             "of the other kinds, the rest items taking what a stated total leaves, spread evenly; ties go to "
             "the earlier-listed item")


@dataclass
class ProposalResult:
    proposals: list[Proposal] = field(default_factory=list)
    conflict: list[str] = field(default_factory=list)  # when no proposal exists: what cannot hold together
    confirmed: bool = False
    stopped: str = ""  # a stage of the objective its time limit stopped before any answer, said

    def as_file(self) -> ProposalsFile:
        return ProposalsFile(objective=OBJECTIVE, proposals=self.proposals)


class _Joint:
    """Every player count and variant of a game in one CP-SAT model, with shared counts `x`."""

    def __init__(self, game: Game, fixed: dict[ItemKey, int] | None = None):
        self.game = game
        self.m = Model()
        owned = owned_counts(game)
        self.owned = owned
        self.unknown = [k for k, v in owned.items() if v is None]
        self.rest = rest_kinds(game)
        self.x = {k: self.m.new_int_var(0, UNKNOWN_UB, f"count[{k[0]}/{k[1]}]") for k in self.unknown}
        self.assumptions: list[Assumption] = []
        self.stopped = ""
        self.bounds: dict[ItemKey, dict[str, None]] = {k: {} for k in self.unknown}  # ordered set
        for k in self.unknown:
            if k not in self.rest:  # named by the sources, so at least one exists
                lit = self.m.new_bool_var(f"named[{k[1]}]")
                self.m.add(self.x[k] >= 1).only_enforce_if(lit)
                self.assumptions.append(Assumption(lit, "inventory", f"{k[1]} ≥ 1 (the sources name it)", "", k))
            if fixed and k in fixed:
                lit = self.m.new_bool_var(f"proposed[{k[1]}]")
                self.m.add(self.x[k] == fixed[k]).only_enforce_if(lit)
                self.assumptions.append(Assumption(lit, "inventory", f"{k[1]} ×{fixed[k]} (proposed.yaml)", "", k))
        for label, result in setup_runs(game):
            sm = setup_model(game, result, self.m)
            for k in self.unknown:
                self.m.add(sm.owned_var[k] == self.x[k])
            for a in sm.assumptions:
                a.label = f"{label}: {a.label}"
                self.assumptions.append(a)
            for mv in result.moves:
                if mv.per_item is None and mv.total is None:
                    continue
                step = game.step(mv.step)
                for k in set(mv.items) & set(self.bounds):
                    self.bounds[k][f"step '{step_label(game, mv.step)}' ({step.source or step_location(game, mv.step)})"] = None
            for index, con, _lit, referenced, _random in sm.constraint_lits:
                for k in set(referenced) & set(self.bounds):
                    self.bounds[k][f"rule '{con.id}' ({describe(con)}; {con.source or constraint_location(game, index)})"] = None
        self._worst_deals()
        for comp in game.components:
            if comp.stated_total is not None and not self.game.setup and comp.items:
                # without a setup there are no setup models to carry the stated totals
                self.m.add(sum(self.x.get((comp.id, it.id), it.count or 0) for it in comp.items) == comp.stated_total.value)
            if comp.stated_total is not None:
                for it in comp.items:
                    if (comp.id, it.id) in self.bounds:
                        self.bounds[(comp.id, it.id)][f"stated total {comp.stated_total.value} {comp.id} "
                                                      f"({comp.stated_total.source})"] = None

    def _worst_deals(self) -> None:
        """A matched step's items cover the worst deal at every count and optional rule
        (solver/proof/worstdeal.py): the least count is the largest deal's need, and it names that deal."""
        for key, items, known, need, deals in deal_needs(self.game, set(self.x)):
            lit = self.m.new_bool_var(f"worst-deal[{key}]")
            self.m.add(sum(self.x[k] for k in items) + known >= need).only_enforce_if(lit)
            text = binding_text(self.game, deals)
            self.assumptions.append(Assumption(lit, "inventory", f"{' + '.join(k[1] for k in items)} ≥ {need} ({text})", "", items[0]))
            for k in items:
                self.bounds[k][text] = None

    def feasible(self) -> bool:
        # the verdict alone: no solution of this solve is read (`optimise` solves for the counts)
        return solve(self.m, [a.lit for a in self.assumptions], verdict_only=True)[0] in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    def conflict(self) -> tuple[list[str], bool]:
        core, confirmed = explain(self.m, self.assumptions)
        return [f"{a.label}" + (f" ({a.source})" if a.source else "") for a in core], confirmed

    def groups(self, by_type: bool) -> list[list[ItemKey]]:
        """The kinds spread evenly among themselves: the uncounted items of one component, or
        (`by_type`) of one component and one `type` attribute (chits with chits); rest items apart."""
        by: dict[tuple[str, str, bool], list[ItemKey]] = {}
        for comp in self.game.components:
            for it in comp.items:
                key = (comp.id, it.id)
                if key in self.x:
                    kind = str(it.attrs.get("type", "")) if by_type else ""
                    by.setdefault((comp.id, kind, it.rest), []).append(key)
        return [kinds for kinds in by.values() if len(kinds) > 1]

    def shared_total(self) -> set[ItemKey]:
        """Uncounted kinds that share a stated total with no rest item: their sum is fixed, so they
        are spread over it (a rest item would take the remainder instead)."""
        return {(c.id, it.id) for c in self.game.components if c.stated_total is not None
                and not any(i.rest for i in c.items) for it in c.items if (c.id, it.id) in self.x}

    def evenness(self, groups: list[list[ItemKey]], tag: str) -> list[tuple[Any, bool]]:
        """Two stages: the smallest largest count of each group, then the largest smallest."""
        tops, bottoms = [], []
        for gi, kinds in enumerate(groups):
            top = self.m.new_int_var(0, UNKNOWN_UB, f"top[{tag},{gi}]")
            bottom = self.m.new_int_var(0, UNKNOWN_UB, f"bottom[{tag},{gi}]")
            self.m.add_max_equality(top, [self.x[k] for k in kinds])
            self.m.add_min_equality(bottom, [self.x[k] for k in kinds])
            tops.append(top)
            bottoms.append(bottom)
        return [(sum(tops), False), (sum(bottoms), True)] if groups else []

    def optimise(self) -> dict[ItemKey, int]:
        m = self.m
        m.clear_assumptions()
        for a in self.assumptions:
            m.add(a.lit == 1)
        named = [k for k in self.unknown if k not in self.rest]
        rest = [k for k in self.unknown if k in self.rest]
        shared = self.shared_total()
        stages: list[tuple[Any, bool]] = []
        stages += self.evenness([g for g in self.groups(False) if set(g) <= shared], "shared")
        stages += self.evenness([g for g in self.groups(True) if set(g) <= shared], "shared-type")
        stages += [(sum(self.x[k] for k in named if k not in shared), False),
                   (sum(self.x[k] for k in rest), False)]
        stages += self.evenness([g for g in self.groups(False) if not set(g) <= shared], "free")
        stages += self.evenness([g for g in self.groups(True) if not set(g) <= shared], "free-type")
        # one weight per uncounted item in the game's listing order (owned_counts keeps it), rest items
        # included, so that no two items tie
        stages.append((sum(i * self.x[k] for i, k in enumerate(self.unknown)), False))
        # a stage stopped by the time limit keeps its best value found: still a valid proposal
        solver, stopped = in_stages(m, stages, _solver)
        if stopped is not None:  # its time ran out before any answer: the stage before stands
            self.stopped = (f"stage {stopped + 1} of {len(stages)} of the objective found no answer in "
                            f"{TIME_LIMIT:.0f} s: the counts satisfy every rule, the stages from there on are not optimised")
        if solver is None:
            solver = _solver()
            if solver.solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                raise DataError([Problem(str(self.game.folder / "components.yaml"), 0, 0,
                                         f"the solver found no counts within {TIME_LIMIT:.0f} s",
                                         "state some of the counts the sources leave open")])
        return {k: solver.value(self.x[k]) for k in self.unknown}


def setup_runs(game: Game) -> list[tuple[str, SetupResult]]:
    """(label, run) of every player count setup.yaml covers, then of each optional rule at its counts."""
    if game.setup is None:
        return []
    runs = [(f"{n} players", run_setup(game, n)) for n in player_counts(game)]
    for var in game.setup.variants:
        runs += [(f"variant {var.id}, {n} players", run_setup(game, n, var.id)) for n in variant_counts(game, var.id)]
    return runs


def deal_needs(game: Game, free: set[ItemKey]) -> list[tuple[tuple[str, ...], list[ItemKey], int, int, list[WorstDeal]]]:
    """(key, free items, copies of its other items, need, deals) of each worst deal (exact at
    every run) whose items include one of `free`: those items must cover `need` with the others."""
    owned = owned_counts(game)
    out = []
    for key, deals in by_key(all_worst_deals(game)).items():
        items = [k for k in deals[0].items if k in free]
        if not items or not all(d.exact for d in deals):
            continue
        known = sum(owned[k] or 0 for k in deals[0].items if k not in free)
        out.append((key, items, known, max(d.need for d in deals), deals))
    return out


def joint_feasible(game: Game, fixed: dict[ItemKey, int]) -> bool:
    """Whether `fixed` counts satisfy every rule at every count and optional rule (the joint model's
    verdict), shown where it can be without the joint model (`_holds_apart`)."""
    return _holds_apart(game, fixed) or _Joint(game, fixed).feasible()


def _holds_apart(game: Game, fixed: dict[ItemKey, int]) -> bool:
    """True when the joint model with `fixed` is shown feasible run by run; False: not shown so.

    When `fixed` gives every uncounted kind a count, the joint model's shared counts are constants
    within their bounds, so it is feasible exactly when each named kind has a copy, each worst
    deal's need is covered, and each run's own model (solver/proof/feasibility.py `counts_hold`,
    which the setup proof has mostly answered on its own models) holds with those counts. Building
    and solving the joint model cost `pnp check --all` about 0.2 CPU-s; the runs' own solves, 0.09."""
    owned = owned_counts(game)
    unknown = [k for k, v in owned.items() if v is None]
    if game.setup is None or not unknown or any(k not in fixed or not 0 <= fixed[k] <= UNKNOWN_UB for k in unknown):
        return False
    rest = rest_kinds(game)
    if any(fixed[k] < 1 for k in unknown if k not in rest):
        return False
    if any(sum(fixed[k] for k in items) + known < need for _, items, known, need, _ in deal_needs(game, set(unknown))):
        return False
    counts = {k: fixed[k] for k in unknown}
    return all(counts_hold(game, result, counts) for _, result in setup_runs(game))


def _solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic: the same data gives the same proposal
    solver.parameters.max_time_in_seconds = TIME_LIMIT
    return solver


def propose(game: Game) -> ProposalResult:
    """Counts for every item whose count the data leaves null, or the conflict that prevents them."""
    joint = _Joint(game)
    if not joint.unknown:
        return ProposalResult()
    if not joint.feasible():
        conflict, confirmed = joint.conflict()
        return ProposalResult(conflict=conflict, confirmed=confirmed)
    counts = joint.optimise()
    return ProposalResult(stopped=joint.stopped, proposals=[
        Proposal(component=k[0], item=k[1], count=counts[k], bound_by=list(joint.bounds[k]) or
                 [NO_RULE_REST if k in joint.rest else NO_RULE_NAMED])
        for k in joint.unknown])


def check_proposals(game: Game) -> CheckResult:
    """`pnp check`: every proposal as an assumption naming its bounds; stale and missing proposals;
    and the counts of proposed.yaml (edited or not) proved against every rule again."""
    out = CheckResult()
    file = proposals_of(game)
    owned = owned_counts(game)
    designed = design_of(game)  # counts designed.yaml gives need no proposal
    unknown = [k for k, v in owned.items() if v is None and (designed is None or designed.count_of(*k) is None)]
    if file is None:
        if unknown:
            out.findings.append(Finding(
                "warning", "counts-not-proposed",
                f"{len(unknown)} counts are unknown and there is no proposed.yaml; the build prints only stated "
                f"counts: run `pnp propose {game.id}`", game.where("components.yaml")))
        return out
    where = game.where("proposed.yaml")
    out.findings.append(Finding("info", "proposal-objective", f"proposed.yaml objective: {file.objective}", where))
    fixed: dict[ItemKey, int] = {}
    for pi, p in enumerate(file.proposals):
        key = (p.component, p.item)
        loc = game.where("proposed.yaml", ("proposals", pi))
        if key not in owned:
            out.findings.append(Finding(
                "warning", "proposal-unknown-item",
                f"{p.component}/{p.item}: no such item in components.yaml; the proposal is ignored "
                f"(run `pnp propose {game.id}`)", loc))
            continue
        if owned[key] is not None:
            out.findings.append(Finding(
                "info", "proposal-stale",
                f"{p.component}/{p.item}: the data now states {owned[key]}; the proposal of {p.count} is ignored "
                f"(delete it, or run `pnp propose {game.id}`)", loc))
            continue
        fixed[key] = p.count
        bounds = "; ".join(p.bound_by) if p.bound_by else "no rule"
        out.findings.append(Finding(
            "assumption", "proposed-count",
            f"{p.component}/{p.item}: {p.count} proposed (the sources state no count); bound by: {bounds}", loc))
    missing = [k for k in unknown if k not in fixed]
    if missing:
        out.findings.append(Finding(
            "warning", "count-not-proposed",
            f"{len(missing)} unknown counts have no proposal ({', '.join(k[1] for k in missing[:8])}"
            f"{' …' if len(missing) > 8 else ''}): run `pnp propose {game.id}`", where))
    proposed_at = {(p.component, p.item): pi for pi, p in enumerate(file.proposals)}
    counts = {k: (fixed[k] if k in fixed else v) for k, v in owned.items()}
    out.findings += coverage_findings(game, all_worst_deals(game), counts,
                                      lambda k: game.where("proposed.yaml", ("proposals", proposed_at[k])), set(fixed))
    if fixed and not _holds_apart(game, fixed):
        joint = _Joint(game, fixed)
        if not joint.feasible():
            conflict, _ = joint.conflict()
            out.findings.append(Finding(
                "error", "proposal-breaks-rules",
                "the counts of proposed.yaml do not satisfy the rules; these cannot hold together: "
                + "; ".join(conflict[:8]) + f" (fix the counts or run `pnp propose {game.id}`)", where))
    return out


def proposals_yaml(file: ProposalsFile, game_id: str) -> str:
    """proposed.yaml as text: a header that says what the file is, then one entry per count.
    Strings are written as JSON strings, which YAML reads as double-quoted scalars."""
    import json
    q = lambda s: json.dumps(s, ensure_ascii=False)  # noqa: E731
    lines = [f"# Counts proposed by `pnp propose {game_id}` where the sources state none (solver/counts/propose.py).",
             "# Not stated facts: accept one by writing its count into components.yaml, override one by",
             "# editing its count here, drop them all by deleting this file (`pnp build --stated-only` ignores it).",
             f"objective: {q(file.objective)}",
             "proposals:" + ("" if file.proposals else " []")]
    for p in file.proposals:
        lines += [f"  - component: {p.component}", f"    item: {p.item}", f"    count: {p.count}", "    bound_by:"]
        lines += [f"      - {q(b)}" for b in p.bound_by] or ["      []"]
    return "\n".join(lines) + "\n"
