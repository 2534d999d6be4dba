"""An index page for a build folder: every game's files, with SVG and PNG previews.

`pnp serve` writes it and serves the folder on localhost, so a designer can look at sheets,
maps and cards in a browser; the index is also useful on its own (open output/index.html).
"""
from __future__ import annotations

import html
from pathlib import Path

from .output import write_text

_KIND_ORDER = ["rulebook", "booklet", "cards", "counters", "map", "calibration", "manifest"]


def _kind(name: str) -> int:
    for i, prefix in enumerate(_KIND_ORDER):
        if name.startswith(prefix):
            return i
    return len(_KIND_ORDER)


def index_html(out_root: Path) -> str:
    """The page as text: one section per game folder, files grouped by kind, previews for SVG pages."""
    games = sorted(p for p in out_root.iterdir() if p.is_dir()) if out_root.is_dir() else []
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>pnp build</title>",
             "<style>body{font-family:sans-serif;margin:2em;max-width:70em}"
             "figure{display:inline-block;margin:.5em;text-align:center;font-size:.8em}"
             "figure img{max-width:14em;max-height:12em;border:1px solid #ccc;background:#fff}"
             "li{margin:.15em 0}</style></head><body>",
             "<h1>pnp build</h1>"]
    if not games:
        parts.append("<p>Nothing built yet: run <code>pnp build --all</code>.</p>")
    for game in games:
        files = sorted((p for p in game.iterdir() if p.is_file()), key=lambda p: (_kind(p.name), p.name))
        parts.append(f'<h2 id="{html.escape(game.name)}">{html.escape(game.name)}</h2><ul>')
        for f in files:
            if f.suffix in (".pdf", ".json", ".txt"):
                size = f"{f.stat().st_size / 1024:.0f} KB"
                parts.append(f'<li><a href="{html.escape(game.name)}/{html.escape(f.name)}">{html.escape(f.name)}</a> ({size})</li>')
        parts.append("</ul>")
        previews = [f for f in files if f.suffix == ".svg"]
        for f in previews:
            src = f"{html.escape(game.name)}/{html.escape(f.name)}"
            parts.append(f'<figure><a href="{src}"><img src="{src}" alt="{html.escape(f.name)}" loading="lazy"></a>'
                         f"<figcaption>{html.escape(f.name)}</figcaption></figure>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_index(out_root: Path) -> Path:
    return write_text(out_root / "index.html", index_html(out_root))
