"""The component manifest: every physical thing of a game with its counts, as JSON and text.

It is also what `pnp show` prints, so the two never disagree.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.counts.ledger import ledger
from solver.game.base import pick
from solver.game.components import size_mm
from solver.game.loader import Game

from .context import BuildContext
from .output import write_text


PROPOSED_MARK = "*"
NO_TUCK_BOX = {  # why a printed deck has no tuck box (generator/pieces/tuckbox.py `boxed`), by whether the data said so
    True: "components.yaml says tuck_box: false",
    False: "too few cards for a box that folds; `tuck_box: true` in components.yaml makes one",
}


def inventory(game: Game, lang: str, stated_only: bool = False, spares: int | None = None) -> dict[str, Any]:
    """Every component with its counts: stated, else proposed (proposed.yaml; `"proposed": true`
    on the item and the component), else null. `stated_only` leaves the proposals out. A
    component with `rest: true` items says how many pieces the sources describe and how many a
    build prints (`described`, `printed`; each rest item its `printed` spares)."""
    comps = []
    known_total = 0
    unknown = []
    for line in ledger(game, stated_only, spares):
        c, total = line.component, line.total
        if total is None:
            unknown.append(c.id)
        else:
            known_total += total
        items = []
        for i in line.items if c.items else ():
            items.append({"id": i.item.id, "name": pick(i.item.name, lang, i.item.id), "count": i.count}
                         | ({"proposed": True} if i.proposed else {})
                         | ({"rest": True, "printed": i.printed} if i.rest else {}))
        entry: dict[str, Any] = {
            "id": c.id, "kind": c.kind, "name": pick(c.name, lang), "total": total, "items": items,
        }
        if line.proposed:  # the total rests on a proposal; a stated total never does
            entry["proposed"] = True
        if c.stated_total:
            entry["stated_total"] = c.stated_total.value
        if any(i.rest for i in line.items):  # of a stated total, what the sources describe and what is printed
            entry["described"], entry["printed"] = line.described, line.printed
        if c.size is not None:
            entry["size_mm"] = list(size_mm(c.size) or [])
        if c.per_player:
            entry["per_player"] = True
        comps.append(entry)
    m = game.meta
    return {
        "game": game.id,
        "title": pick(m.title, lang),
        "players": [m.players.min, m.players.max],
        "play_time_minutes": [m.play_time_minutes.min, m.play_time_minutes.max] if m.play_time_minutes else None,
        "components": comps,
        "total_pieces": known_total,
        "unknown_counts": unknown,
        "proposed_counts": sum(1 for c in comps for i in c["items"] if i.get("proposed"))
                           + sum(1 for c in comps if c.get("proposed") and not c["items"]),
    }


def built_languages(game: Game) -> list[str]:
    """The languages a full build writes (each whose translation is complete), source first."""
    from .languages import languages_to_build

    return languages_to_build(game, None, lambda _message: None)


def build_manifest(game: Game, ctx: BuildContext) -> list[Path]:
    """manifest.json (in the source language's build) and manifest-<lang>.txt; every component
    with `printed_in` or `left_out` (generator/coverage.py); one warning per component with neither."""
    from .coverage import by_language, coverage, neither

    lang = ctx.language(game.meta.source_language)
    data = inventory(game, lang, ctx.stated_only, ctx.spares)
    langs = built_languages(game)
    cov = coverage(game, ctx, langs)
    here = {comp.id: by_language(game, comp, ctx, langs) for comp in game.components}  # the text lists its own
    for entry in data["components"]:
        entry.update(cov[entry["id"]])
    if lang == game.meta.source_language:
        for line in neither(game, cov):
            ctx.warn(line)
    out = ctx.out_dir(game.id)
    paths = []
    from .fonts import game_font_notes

    if game_font_notes(game):  # the designer's own font files, with their licences
        data["fonts"] = game_font_notes(game)
    if ctx.packed:  # sheets one component at a time, packed, and the area bound (pieces/packed.py)
        from .coverage import add_packed
        from .pieces.packed import sheet_figures
        data["sheets"] = sheet_figures(game, ctx)
        add_packed(data["components"], set(data["sheets"].get("not_packed", [])), ctx, langs, here)
    if lang == game.meta.source_language:  # one JSON per game; the text list once per language
        paths.append(write_text(out / "manifest.json", json.dumps(data, ensure_ascii=False, indent=2) + "\n"))
    lines = [f"{data['title']} ({game.id})", ""]
    def shown(count: int | None, proposed: bool | None) -> str:
        return "?" if count is None else f"{count}{PROPOSED_MARK if proposed else ''}"

    for c in data["components"]:
        lines.append(f"{shown(c['total'], c.get('proposed')):>6}  {c['name']} [{c['id']}]")
        if "described" in c:
            lines.append(f"{'':>6}  ({c['described']} described by the sources, {c['printed']} printed)")
        for i in c["items"]:
            lines.append(f"{shown(i['count'], i.get('proposed')):>12}  {i['name']}"
                         + (f" (not described: {i['printed']} printed as blank spares)" if i.get("rest") else ""))
        lines.append(_printed_line(c, here[c['id']].get(lang, []), lang))
        if c.get("tuck_box") is False:
            lines.append(f"{'':>8}  (no tuck box: {NO_TUCK_BOX[game.component(c['id']).tuck_box is False]})")
    lines.append("")
    lines.append(f"{data['total_pieces']:>6}  total (known counts)")
    if data["proposed_counts"]:
        lines.append(f"{PROPOSED_MARK} proposed by the solver (proposed.yaml, `pnp propose`), not stated by the sources")
    if data["unknown_counts"]:
        lines.append("? unknown: not printed")
    if "sheets" in data:
        from .pieces.packed import packed_stem
        sh = data["sheets"]
        lines.append(f"sheets: {sh['per_component']} one component at a time, {sh['packed']} packed "
                     f"({packed_stem(lang, ctx)}.pdf), area bound {sh['area_bound']} ({sh['packed'] - sh['area_bound']} above it)")
    paths.append(write_text(out / f"manifest-{lang}.txt", "\n".join(lines) + "\n"))
    return paths


def _printed_line(c: dict[str, Any], mine: list[str], lang: str) -> str:
    """Where the component is printed (`mine`: this language's files), or why it is not."""
    if c.get("printed_in"):
        return f"{'':>8}→ {', '.join(mine or c['printed_in'])}"
    if c.get("left_out"):
        return f"{'':>8}— {c['left_out'].get(lang) or next(iter(c['left_out'].values()))}"
    return f"{'':>8}— ?"
