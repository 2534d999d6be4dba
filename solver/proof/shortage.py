"""Why a step runs short, in numbers: the arithmetic of the binding step at one player count.

The engine (solver/engine/runner.py) records a `Shortage` when a step asks for more copies than
there are; the CP-SAT core then lists every count of the pile, which makes the reader do the sum.
`shortage_finding` says it instead: `step 'deal deck' [setup.yaml:4] deals 14 × 4 players = 56;
the deck has 54 (cards.csv:2-39)`, what earlier steps took from it, and what would fit. The kinds
of a pile are named only when they matter: when the step takes some kinds only (`where:`, a given
item), never for a random draw from the whole pile.
"""
from __future__ import annotations

from solver import expr as E
from solver.engine.results import ItemKey, SetupResult, Shortage
from solver.engine.steps import step_label, step_location
from solver.findings import Finding, cite
from solver.game.loader import Game
from solver.game.setup import DealStep, GiveStep, step_kind
from solver.proof.explain import short
from solver.proof.feasibility import item_location

MAX_KINDS = 6  # kinds named in a message; more are counted


def shortage_finding(game: Game, res: SetupResult) -> Finding | None:
    """The first shortage of `res` as one located finding, or None when the engine found none."""
    if not res.shortages:
        return None
    s = res.shortages[0]
    step = game.step(s.step)
    where = cite(step_location(game, s.step), step.source)
    label = f"step '{step_label(game, s.step)}' [{short(where)}]"
    owned = sum(_owned(res, k) for k in s.items)
    has = _holding(game, res, s, owned)
    ask = _asks(game, s, res.players)
    fix = _fix(game, s, res.players)
    message = f"setup cannot be carried out: {label} {ask}; {has}; {fix}"
    return Finding("error", "setup-infeasible", message, where.split(" (")[0], [res.players])


def _fix(game: Game, s: Shortage, players: int) -> str:
    """What would fit: fewer each (when any fit), fewer in all, or more in the box."""
    verb = step_kind(game.step(s.step)).replace("_", " ")
    add = f"add {s.needed - s.available} to the box"
    each = _each(game, s, players)
    if each is not None and s.needed // each > 1:
        fits = s.available // (s.needed // each)
        return f"{verb} at most {fits} each at {players} players, or {add}" if fits else add
    return f"{verb} at most {s.available}, or {add}" if s.available else add


def _owned(res: SetupResult, key: ItemKey) -> int:
    """Copies of an item in the box (every zone of the engine's state: copies are conserved)."""
    return sum(res.items.get(key, {}).values())


VERBS = {"deal": "deals", "give": "gives", "place": "places", "set_aside": "sets aside", "remove": "removes",
         "supply": "puts in the supply"}


def _each(game: Game, s: Shortage, players: int) -> int | None:
    """Copies per recipient of a deal or give (not a matched give): `each` at this count."""
    step = game.step(s.step)
    if getattr(step, "match", None) or not isinstance(step, (DealStep, GiveStep)):
        return None
    try:
        each = E.evaluate(step.each, {"players": players})
    except E.ExprError:
        return None
    return each if isinstance(each, int) and each > 0 and s.needed % each == 0 else None


def _asks(game: Game, s: Shortage, players: int) -> str:
    """What the step asks for, as the sum a player would do: `deals 14 × 4 players = 56`."""
    verb = VERBS.get(step_kind(game.step(s.step)), "needs")
    each = _each(game, s, players)
    if each is None and s.pile is None and len(s.items) == 1:  # so many of each kind: this one is short
        return f"{verb} {s.needed} of {s.items[0][1]}"
    if each is None:
        return f"{verb} {s.needed}"
    recipients = s.needed // each
    if recipients == 1:
        return f"{verb} {each} to one player"
    who = f"{recipients} players" if recipients == players else f"{recipients} recipients"
    return f"{verb} {each} × {who} = {s.needed}"


def _holding(game: Game, res: SetupResult, s: Shortage, owned: int) -> str:
    """`the deck has 54 (cards.csv:2-39)`, and what earlier steps took when fewer are left."""
    pile = s.pile or _whole_component(game, s.items)
    if pile:
        what = f"'{pile}' has {owned}"
    else:
        what = f"the box has {owned}" + ("" if len(s.items) == 1 else f" of {_kinds(s.items)}")
    text = f"{what} ({_lines(game, s.items)})"
    if s.available < owned:
        earlier = _earlier_steps(game, res, s)
        by = f" after {', '.join(earlier)}" if earlier else ""
        text += f", {s.available} of them left there{by}"
    return text


def _whole_component(game: Game, items: tuple[ItemKey, ...]) -> str | None:
    """The component's id when `items` are all of one component's kinds (the kinds do not matter)."""
    comps = {k[0] for k in items}
    if len(comps) != 1:
        return None
    comp = game.component(next(iter(comps)))
    every = {(comp.id, it.id) for it in comp.items} or {(comp.id, comp.id)}
    return comp.id if set(items) == every else None


def _kinds(items: tuple[ItemKey, ...]) -> str:
    """`forest-tile, lake-tile` (the kinds a selective step takes, which matter to the sum)."""
    names = [k[1] for k in items[:MAX_KINDS]]
    more = f" and {len(items) - MAX_KINDS} more kinds" if len(items) > MAX_KINDS else ""
    return ", ".join(names) + more


def _lines(game: Game, items: tuple[ItemKey, ...]) -> str:
    """`cards.csv:2-39` or `components.yaml:12, 15`: where the counts of these items are written."""
    by_file: dict[str, list[int]] = {}
    for key in items:
        name, _, line = short(item_location(game, key)).rpartition(":")
        if line.isdigit():
            by_file.setdefault(name, []).append(int(line))
    return "; ".join(f"{name}:{_ranges(sorted(set(lines)))}" for name, lines in by_file.items())


def _ranges(lines: list[int]) -> str:
    """[2, 3, 4, 9] -> `2-4, 9`."""
    out: list[str] = []
    for n in lines:
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def _earlier_steps(game: Game, res: SetupResult, s: Shortage) -> list[str]:
    """The steps before the short one that moved these items somewhere other than the pile."""
    first = next(i for i, mv in enumerate(res.moves) if mv.step == s.step)
    items = set(s.items)
    steps = dict.fromkeys(mv.step for mv in res.moves[:first] if mv.dst != "pile" and items & set(mv.items))
    return [f"step '{step_label(game, i)}' [{short(step_location(game, i))}]" for i in steps]
