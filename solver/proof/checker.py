"""The setup check `pnp check` runs (solver/checks.py): proves a game's setup and its stated
constraints at every player count, and turns the verdicts into findings.

What is proved lives by what it proves: setup feasibility and conservation (solver/proof/feasibility.py),
the constraints of setup.yaml for every deal (solver/proof/constraints.py), the explanation of a conflict
(solver/proof/explain.py), the shared terms and the solver call (solver/proof/cpsat.py), and the odds of
random draws (solver/counts/odds.py). Constraints are data (setup.yaml `constraints:`), so a new game is
checked without new code; a constraint's `when:` may call `variant(id)`: each optional rule of
setup.yaml `variants:` is proved at its own counts, and its findings say `variant <id>:`.

Public API: `check_setup(game) -> CheckResult`, `prove_player_count(game, result) -> Verdict` for
one count, and `setup_model(game, result)` (the model with its rules, which solver/counts/wargame.py
optimises over). The names below stay importable from here.
"""
from __future__ import annotations

from typing import Any

from solver.engine.items import matches, owned_counts
from solver.engine.results import SetupResult
from solver.engine.run import count_reports, setup_table, variant_tables
from solver.engine.steps import step_label, step_location
from solver.findings import CheckResult, Finding, cite
from solver.game.loader import Game
from solver.game.setup import GiveStep, PlaceStep
from solver.proof.constraints import ZONE_FUNCS, ZONE_PARTS, RuleCompiler, constraint_location, describe
from solver.proof.cpsat import Assumption, Verdict, solve
from solver.proof.explain import conflict_finding, explain
from solver.proof.shortage import shortage_finding
from solver.proof.worstdeal import all_worst_deals, coverage_findings
from solver.proof.feasibility import UB, UNKNOWN_UB, SetupModel, item_location, prove_player_count, setup_model, stated_sums

_solve = solve  # the name solver/counts/propose.py imports

__all__ = ["UB", "UNKNOWN_UB", "ZONE_FUNCS", "ZONE_PARTS", "Assumption", "RuleCompiler", "SetupModel", "Verdict",
           "attribute_totals", "check_setup", "constraint_location", "describe", "explain", "face_findings",
           "grouped", "item_location", "proof_findings", "prove_player_count", "setup_model", "solve",
           "stated_sums"]


def check_setup(game: Game) -> CheckResult:
    """Gaps, stated totals, player-count coverage, the engine's tables and the CP-SAT proofs."""
    out = CheckResult()
    if game.setup is None:
        return out
    table = setup_table(game)
    out.player_counts.update(count_reports(table))
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
    out.findings += coverage_findings(game, all_worst_deals(game), owned_counts(game), lambda k: item_location(game, k))
    out.derived["totals"] = attribute_totals(game, table)
    return out


def proof_findings(game: Game, res: SetupResult) -> list[Finding]:
    """The CP-SAT verdict of one count (of the base setup or of a variant) as findings; a variant's
    say `variant <id>: ` first, so they never merge with the base setup's."""
    n = res.players
    raw: list[Finding] = []
    verdict = prove_player_count(game, res)
    constraints = game.setup.constraints if game.setup else []
    if not verdict.feasible:
        # a step that runs short is explained by its sum; other conflicts by the CP-SAT core
        raw.append(shortage_finding(game, res) or conflict_finding(verdict))
    else:
        raw += _consistency_findings(game, res, verdict)
        for con, example in verdict.can_fail:
            index = constraints.index(con)
            raw.append(Finding("warning", "rule-can-fail",
                               f"rule '{con.id}' ({describe(con)}) fails for some deals, e.g. {example}",
                               cite(constraint_location(game, index), con.source), [n]))
        for con, keys in verdict.unproven:
            index = constraints.index(con)
            names = ", ".join(k[1] for k in keys[:6]) + (" …" if len(keys) > 6 else "")
            why = (f"it counts {names}, whose counts the sources do not give, and some counts would break it; "
                   "find the counts or record them as assumptions") if keys else \
                "the solver ran out of time; simplify the rule"
            raw.append(Finding("warning", "rule-unproven",
                               f"rule '{con.id}' ({describe(con)}) cannot be proved: {why}",
                               cite(constraint_location(game, index), con.source), [n]))
        for comp, copies in res.untouched.items():
            raw.append(Finding("info", "not-in-setup",
                               f"{comp}: the setup never mentions these {copies} copies; they stay in the box",
                               game.where("components.yaml", ("components", _comp_index(game, comp))), [n]))
        raw += _choice_findings(game, verdict)
        proved = verdict.rules - len(verdict.can_fail) - len(verdict.unproven)
        raw.append(Finding("info", "setup-proven",
                           "CP-SAT proof: the setup can be carried out, every item is conserved (in play + "
                           f"returned to box + set aside = owned), and {proved} of {verdict.rules} rule(s) hold "
                           "for every deal", game.where("setup.yaml"), [n]))
    if res.variant is not None:
        for f in raw:
            f.message = f"variant {res.variant}: {f.message}"
    return raw


def _choice_findings(game: Game, verdict: Verdict) -> list[Finding]:
    """A step a side chooses (`chosen_by`): the feasible model is a valid choice, shown as the example.
    Rules that count what a choice takes are proved for every choice like any rule over a deal."""
    out = []
    sides = {s.id: s for s in (game.setup.sides if game.setup else [])}
    for step, taken in verdict.choices:
        by = game.step(step).chosen_by  # type: ignore[union-attr]
        who = sides[by].name.get("en") or next(iter(sides[by].name.values()), by) if by in sides else by
        example = ", ".join(f"{k[1]}×{v}" for k, v in sorted(taken.items())[:8]) + (" …" if len(taken) > 8 else "")
        if any(v is None for k, v in owned_counts(game).items() if k in taken):
            example += "; counts the sources do not give are free here"
        out.append(Finding("info", "choice-valid",
                           f"step '{step_label(game, step)}' is chosen by {who}: CP-SAT finds a valid choice "
                           f"(e.g. {example or 'nothing'}); rules over what it takes hold for every choice",
                           step_location(game, step), [verdict.players]))
    return out


GENERIC_FACES = ("up", "down", "front", "back")


def face_findings(game: Game) -> list[Finding]:
    """A `face:` of a place or give step must name a side the pieces have: up, down, front, back,
    or the `face` attr of one of their printed sides (e.g. fellowship on a leader's back)."""
    out = []
    for index, step in enumerate(game.setup.steps if game.setup else []):
        face = getattr(step, "face", None)
        if face is None or face in GENERIC_FACES:
            continue
        if not isinstance(step, (PlaceStep, GiveStep)):
            continue
        cid = step.place if isinstance(step, PlaceStep) else step.give
        comp = game.component(cid)
        chosen = [it for it in comp.items
                  if (not getattr(step, "items", None) or it.id in getattr(step, "items"))
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

