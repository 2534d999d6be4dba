"""The checker report of DESIGN.md ("Checker report"): player_counts, findings, derived.

`check_game(game) -> dict` is the one entry point (`pnp check`, the build's check-report.json and
the tests use it; the rulebook's setup table reads only its `player_counts`, which the engine gives
without the checker: solver/engine/run.py `count_reports`). A game whose setup.yaml declares optional rules (`variants:`) also gets `variants`: for each
variant id, its per-count tables in the shape of `player_counts`; `player_counts` is always the
base setup, and a report without variants has no `variants` key at all. It reports what the data itself says (the gaps of game.yaml, stated totals against item
sums, player counts the setup leaves uncovered), then runs every check registered in
solver/checks.py CHECKS (the CP-SAT setup checker, the odds, the wargame models, map checks,
translation QA...) and merges their findings, derived tables and per-count setup tables.
Findings are sorted (severity, code, source, message), so the same data gives the same bytes.
"""
from __future__ import annotations

from typing import Any

from solver import expr as E
from .checks import check_functions
from .engine.run import player_counts, variant_tables
from .findings import SEVERITY_ORDER, Finding, Severity
from .game.base import pick
from .game.loader import Game
from .game.setup import RemoveStep, step_kind

CASE_KINDS = {"use", "deal", "give", "place", "set_aside", "combine", "supply"}
GAP_SEVERITY: dict[str, Severity] = {"assumption": "assumption", "unspecified": "warning", "erratum": "warning", "discrepancy": "warning"}


def check_game(game: Game) -> dict[str, Any]:
    """The JSON report of one game: {game, ok, player_counts, findings, derived}."""
    findings = gap_findings(game) + stated_total_findings(game) + uncovered_count_findings(game)
    counts: dict[str, dict[str, Any]] = {}
    derived: dict[str, Any] = {}
    for check in check_functions():
        result = check(game)
        findings += result.findings
        derived.update(result.derived)
        for n, table in result.player_counts.items():
            counts.setdefault(n, {}).update(table)
    findings.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.code, f.source, f.message, f.player_counts))
    report: dict[str, Any] = {
        "game": game.id,
        "ok": not any(f.severity == "error" for f in findings),
        "player_counts": {n: counts[n] for n in sorted(counts, key=int)},
    }
    variants = variant_tables(game)
    if variants:
        report["variants"] = {vid: {str(n): res.report() for n, res in table.items()}
                              for vid, table in variants.items()}
    report["findings"] = [f.to_json() for f in findings]
    report["derived"] = derived
    return report


def gap_findings(game: Game) -> list[Finding]:
    """Every explicit assumption, erratum, discrepancy and silence of the sources, as a finding."""
    out = []
    for gap in game.meta.gaps:
        text = pick(gap.text, "en")
        if gap.resolution:
            text += " → " + pick(gap.resolution, "en")
        if gap.source:
            text += f" (source: {gap.source})"
        out.append(Finding(GAP_SEVERITY[gap.kind], f"gap-{gap.kind}", f"{gap.id}: {text}", gap.clause,
                           sorted(gap.player_counts)))
    return out


def stated_total_findings(game: Game) -> list[Finding]:
    """A component's stated total (from the rules) against the sum of its item counts."""
    out = []
    for ci, comp in enumerate(game.components):
        unknown = [i.id for i in comp.items if i.count is None] if comp.items else ([] if comp.count is not None else [comp.id])
        where = game.where("components.yaml", ("components", ci))
        if unknown:
            stated = f"; the rules state {comp.stated_total.value} in all" if comp.stated_total else ""
            out.append(Finding("warning" if comp.stated_total else "info", "count-unknown",
                               f"{comp.id}: the sources give no count for {', '.join(unknown[:8])}"
                               f"{' …' if len(unknown) > 8 else ''}{stated}; find the count or record an assumption",
                               where))
            continue
        if comp.stated_total is None:
            continue
        total = comp.total
        where = game.where("components.yaml", ("components", ci, "stated_total"))
        if total != comp.stated_total.value:
            parts = ", ".join(f"{i.id} ×{i.count}" for i in comp.items[:12])
            out.append(Finding("error", "stated-total-mismatch",
                               f"{comp.id}: items add up to {total} ({parts}{' …' if len(comp.items) > 12 else ''}) "
                               f"but {comp.stated_total.source} states {comp.stated_total.value}; fix the counts",
                               where))
        else:
            out.append(Finding("info", "stated-total-matches",
                               f"{comp.id}: items add up to the stated {total} ({comp.stated_total.source})", where))
    return out


def uncovered_count_findings(game: Game) -> list[Finding]:
    """Player counts of game.yaml's range that setup.yaml does not cover.

    Two ways a count is uncovered: setup.yaml's `player_counts` list leaves it out, or a family
    of steps written as a case table (two or more steps of the same kind on the same component,
    each guarded by a `when`, no two true together) has no case for it. Only steps that bring
    things into play make case tables: "no removal" is a natural case of its own (7 players use
    every dwarf card), "no deal" is not. A count that a gap of
    game.yaml names is covered by that explicit assumption and is not reported again.
    """
    if game.setup is None:
        return []
    lo, hi = game.meta.players.min, game.meta.players.max
    everyone = set(range(lo, hi + 1))
    by_gap = {n for gap in game.meta.gaps for n in gap.player_counts}
    out = []
    listed = set(player_counts(game))
    missing = sorted(everyone - listed - by_gap)
    if missing:
        out.append(Finding("warning", "player-count-uncovered",
                           f"setup.yaml lists player counts {sorted(listed)} but game.yaml allows {lo}-{hi}; "
                           "add a setup for the others or record a gap naming them",
                           game.where("setup.yaml", ("player_counts",)), missing))
    families: dict[tuple[str, str], list[tuple[int, set[int]]]] = {}
    for index, step in enumerate(game.setup.steps):
        if step.when is None:
            continue
        kind = step_kind(step)
        if kind not in CASE_KINDS:
            continue
        target = step.remove.component if isinstance(step, RemoveStep) else str(getattr(step, kind))
        if any(c.func == "variant" for c in E.calls(E.parse(step.when))):
            continue  # a step an optional rule switches on or off is no case of the base setup's tables
        true_for = {n for n in everyone if E.evaluate(step.when, {"players": n})}
        families.setdefault((kind, target), []).append((index, true_for))
    for (kind, target), cases in families.items():
        if len(cases) < 2:
            continue
        sets = [s for _, s in cases]
        if any(a & b for i, a in enumerate(sets) for b in sets[i + 1:]):
            continue  # overlapping guards are cumulative rules, not a case table
        gaps = sorted((everyone & listed) - set().union(*sets) - by_gap)
        if gaps:
            out.append(Finding("warning", "player-count-uncovered",
                               f"the {kind} steps on {target} give cases for {_ranges(set().union(*sets))} players "
                               f"but none for {_ranges(set(gaps))}; add a case or record a gap",
                               game.where("setup.yaml", ("steps", cases[0][0])), gaps))
    return out


def _ranges(ns: set[int]) -> str:
    out: list[list[int]] = []
    run: list[int] = []
    for n in sorted(ns):
        if run and n == run[-1] + 1:
            run.append(n)
        else:
            if run:
                out.append(run)
            run = [n]
    if run:
        out.append(run)
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in out)
