"""The component manifest: every physical thing of a game with its counts, as JSON and text.

It is also what `pnp show` prints, so the two never disagree.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.loader import Game
from solver.model import pick, size_mm

from .context import BuildContext
from .output import write_text


def inventory(game: Game, lang: str) -> dict[str, Any]:
    comps = []
    known_total = 0
    unknown = []
    for c in game.components:
        total = c.total
        if total is None:
            unknown.append(c.id)
        else:
            known_total += total
        entry: dict[str, Any] = {
            "id": c.id, "kind": c.kind, "name": pick(c.name, lang), "total": total,
            "items": [{"id": i.id, "name": pick(i.name, lang, i.id), "count": i.count} for i in c.items],
        }
        if c.stated_total:
            entry["stated_total"] = c.stated_total.value
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
    }


def build_manifest(game: Game, ctx: BuildContext) -> list[Path]:
    lang = ctx.language(game.meta.source_language)
    data = inventory(game, lang)
    out = ctx.out_dir(game.id)
    paths = []
    if lang == game.meta.source_language:  # one JSON per game; the text list once per language
        paths.append(write_text(out / "manifest.json", json.dumps(data, ensure_ascii=False, indent=2) + "\n"))
    lines = [f"{data['title']} ({game.id})", ""]
    for c in data["components"]:
        total = "?" if c["total"] is None else c["total"]
        lines.append(f"{total:>5}  {c['name']} [{c['id']}]")
        for i in c["items"]:
            lines.append(f"{'?' if i['count'] is None else i['count']:>11}  {i['name']}")
    lines.append("")
    lines.append(f"{data['total_pieces']:>5}  total (known counts)")
    paths.append(write_text(out / f"manifest-{lang}.txt", "\n".join(lines) + "\n"))
    return paths
