"""`pnp check` on targets.yaml and designed.yaml, and the text of designed.yaml.

The check measures every target again (solver/counts/measure.py: the engine's deal and the odds of
solver/counts/odds.py) at the counts a build prints (stated, else designed, else proposed), so a
hand-edited count, a changed setup step or a stale design shows as an error naming the target and
the player count. The designed counts are proved against every rule of setup.yaml as well.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from solver.counts.effective import design_of, effective_counts
from solver.counts.measure import Value, expression_problems, measure, shown, targets_of, with_counts
from solver.findings import CheckResult, Finding
from solver.game.loader import Game

if TYPE_CHECKING:
    from solver.counts.design import DesignResult


def spans(counts: list[int]) -> str:
    """[3, 4, 5, 7] -> '3-5, 7'."""
    out: list[str] = []
    for n in sorted(set(counts)):
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = out[-1].split("-")[0] + f"-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def where_of(v: Value) -> str:
    bits = ([f"{v.players} players"] if v.players is not None else []) + ([f"optional rule {v.variant}"] if v.variant else [])
    return " ".join(bits + ([v.part] if v.part else [])) or "the box"


def _per_target(game: Game, values: list[Value], tid: str) -> list[Finding]:
    mine = [v for v in values if v.target == tid]
    loc = target_location(game, tid)
    failed = [v for v in mine if not v.holds]
    if failed:
        return [Finding("error", "target-missed",
                        f"{v.kind} {tid} fails at {where_of(v)}: {shown(v)} ≈ {float(v.value):.4f} against {v.bound}"
                        f"{f' ({v.note})' if v.note else ''}; run `pnp design {game.id}` or change the target",
                        loc, [v.players] if v.players is not None else []) for v in failed]
    if not mine:
        return []
    v0 = mine[0]
    if v0.kind == "share":
        return [Finding("info", "target-slack", f"share {tid}: {shown(v0)} of the copies ({v0.bound}; slack "
                        f"{v0.slack})", loc)]
    if v0.players is None:
        got = ", ".join(f"{shown(v)}{f' [{v.part}]' if v.part else ''}" for v in mine)
        return [Finding("info", "target-met", f"{v0.kind} {tid} holds: {got} ({v0.bound})", loc)]
    counts = [v.players for v in mine if v.players is not None]
    at = f" at {spans(counts)} players"
    if v0.note:
        return [Finding("info", "target-met", f"{v0.kind} {tid} holds{at}: {v0.bound}, {v0.note}", loc, counts)]
    low = v0.kind == "odds" and "≥" in v0.bound.rsplit(")", 1)[-1]
    worst = min(mine, key=lambda v: v.value) if low else max(mine, key=lambda v: v.value)
    return [Finding("info", "target-met", f"{v0.kind} {tid} holds{at}: {v0.bound}; closest {shown(worst)} "
                    f"≈ {float(worst.value):.4f} at {where_of(worst)}", loc, counts)]


def target_location(game: Game, tid: str) -> str:
    targets = targets_of(game)
    index = next((i for i, t in enumerate(targets.targets) if t.id == tid), 0) if targets else 0
    return game.where("targets.yaml", ("targets", index))


def check_design(game: Game) -> CheckResult:
    """Every target measured at the printed counts; designed.yaml's values and counts proved again."""
    out = CheckResult()
    targets = targets_of(game)
    design = design_of(game)
    if targets is None:
        if design is not None:
            out.findings.append(Finding("warning", "design-without-targets", "designed.yaml is there but targets.yaml "
                                        "is not: delete designed.yaml or restore the targets", game.where("designed.yaml")))
        return out
    problems = expression_problems(game, targets)
    if problems:
        out.findings += [Finding("error", "target-expression", f"{p.what}; {p.todo}", f"{p.path}:{p.line}")
                         for p in problems]
        return out
    known = {k: v for k, (v, _) in effective_counts(game).items() if v is not None}
    values = measure(with_counts(game, known), targets)
    base = [v for v in values if v.variant is None]
    for t in targets.targets:
        out.findings += _per_target(game, base, t.id)
        for var in dict.fromkeys(v.variant for v in values if v.variant is not None):  # optional rules: failures
            for f in _per_target(game, [v for v in values if v.variant == var], t.id):
                if f.severity == "error":
                    f.message = f"variant {var}: {f.message}"
                    out.findings.append(f)
    if design is not None:
        out.findings += _check_file(game, values)
    out.findings += _check_amounts(game)
    # the base game's values (an optional rule's show in the findings when they fail)
    out.derived["targets"] = [value_json(v) for v in base]
    return out


def _check_file(game: Game, values: list[Value]) -> list[Finding]:
    """designed.yaml's recorded values must be what the deal gives now, its counts open in the
    sources, and the designed counts must satisfy every rule of setup.yaml."""
    from solver.counts.propose import joint_feasible  # the optimiser, only when a design is there to prove

    design = design_of(game)
    assert design is not None
    where = game.where("designed.yaml")
    found: list[Finding] = []
    now = {(v.target, v.players, v.variant, v.part): shown(v) for v in values}
    for i, rec in enumerate(design.values):
        at = (rec.target, rec.players, rec.variant, rec.part)
        if now.get(at) != rec.value:
            found.append(Finding("error", "design-stale",
                                 f"designed.yaml records {rec.target} = {rec.value} at {rec.players or 'the box'} but the "
                                 f"counts and setup give {now.get(at, 'nothing')}: run `pnp design {game.id}`",
                                 game.where("designed.yaml", ("values", i)),
                                 [rec.players] if rec.players is not None else []))
    stated = {(c.id, it.id): it.count for c in game.components for it in c.items if it.count is not None}
    fixed, same = {}, []
    for i, c in enumerate(design.counts):
        key = (c.component, c.item)
        if key not in stated:
            fixed[key] = c.count
        elif stated[key] == c.count:
            same.append(c.item)
        else:
            found.append(Finding("warning", "design-differs-from-stated",
                                 f"{c.component}/{c.item}: the design chose {c.count}, the data states {stated[key]} "
                                 f"(printed); the targets were measured at the stated count",
                                 game.where("designed.yaml", ("counts", i))))
    if same:
        found.append(Finding("info", "design-reproduces-stated", f"designed.yaml finds the stated counts again "
                             f"from the targets and the rules alone: {', '.join(same)}", where))
    if fixed and not joint_feasible(game, fixed):
        found.append(Finding("error", "design-breaks-rules", f"the counts of designed.yaml do not satisfy the rules of "
                             f"setup.yaml: run `pnp design {game.id}`", where))
    return found


def _check_amounts(game: Game) -> list[Finding]:
    """Every `each: free` step that runs has a designed amount at that count; no amount is for another step."""
    from solver.counts.design_model import free_steps
    from solver.counts.measure import runs
    from solver.engine.run import run_setup

    design = design_of(game)
    frees = free_steps(game)
    found: list[Finding] = []
    for i, a in enumerate(design.amounts if design else []):
        if a.step not in frees:
            found.append(Finding("error", "design-stale", f"designed.yaml has an amount for step {a.step}, which is "
                                 f"not a `remove` with `each: free`: run `pnp design {game.id}`",
                                 game.where("designed.yaml", ("amounts", i))))
    missing = sorted({n for n, var in runs(game) for step in frees if step in run_setup(game, n, var).steps_run
                      and (design is None or design.amount_of(step, n, var) is None)})
    if missing:
        found.append(Finding("warning", "free-amount-not-designed", f"a `remove` with `each: free` has no designed "
                             f"amount at {spans(missing)} players and takes none: run `pnp design {game.id}`",
                             game.where("setup.yaml", ("steps", frees[0])), missing))
    return found


def value_json(v: Value) -> dict:
    """A value as `--json` and the check report give it: the exact fraction as a string "p/q"."""
    row = {"target": v.target, "kind": v.kind, "players": v.players, "variant": v.variant, "part": v.part,
           "value": shown(v), "decimal": round(float(v.value), 6), "bound": v.bound, "holds": v.holds}
    if v.slack is not None:
        row["slack"] = f"{v.slack.numerator}/{v.slack.denominator}"
    if v.note:
        row["note"] = v.note
    return row


def design_yaml(result: "DesignResult", game_id: str, objective: str, labels: dict[int, str]) -> str:
    """designed.yaml as text: a header that says what the file is, the counts, every target's value."""
    q = lambda s: json.dumps(s, ensure_ascii=False)  # noqa: E731
    lines = [f"# Counts designed by `pnp design {game_id}` to meet targets.yaml (solver/counts/design.py).",
             "# Not stated facts: accept one by writing its count into components.yaml; `pnp check` measures",
             "# every target again at these counts; delete this file to drop the design.",
             f"objective: {q(objective)}", "counts:" + ("" if result.counts else " []")]
    lines += [f"  - {{component: {k[0]}, item: {k[1]}, count: {n}}}" for k, n in result.counts.items()]
    if result.amounts:
        lines.append("amounts:")
        lines += [f"  - {{step: {i}, players: {n}{f', variant: {var}' if var else ''}, each: {e}, label: {q(labels.get(i, ''))}}}"
                  for (i, n, var), e in result.amounts.items()]
    lines.append("values:" + ("" if result.values else " []"))
    for v in result.values:
        row = [f"target: {v.target}"] + ([f"players: {v.players}"] if v.players is not None else [])
        row += ([f"variant: {v.variant}"] if v.variant else []) + ([f"part: {q(v.part)}"] if v.part else [])
        row += [f"value: {q(shown(v))}", f"bound: {q(v.bound)}"]
        row += [f"slack: {q(f'{v.slack.numerator}/{v.slack.denominator}')}"] if v.slack is not None else []
        lines.append("  - {" + ", ".join(row) + "}")
    return "\n".join(lines) + "\n"
