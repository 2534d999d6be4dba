"""The page of a build folder: per game, the checker's report per player count, each deck's and
counter sheet's pages and pieces as images, the maps, the rulebooks and every file.

`pnp build` writes it as output/index.html; `pnp serve` renders it on every request with the
last build's data errors on top and a small script that reloads the page when a rebuild ends.
Every name from the folder or the data is escaped: a file or a game can be called anything.
Only what is inside the folder is shown or read: hidden files (the build record, the lock, a
build's temporary files) and links that lead out of it are passed over (`within`, `listed`: the
rule `pnp serve` answers file requests by).
"""
from __future__ import annotations

import functools
import html
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .output import write_bytes

_KIND_ORDER = ["rulebook", "booklet", "missing", "cards", "counters", "tokens", "tiles", "standees", "boards", "tuckbox", "dice", "map",
               "calibration", "manifest", "check"]
_SHEET = re.compile(r"^(cards|counters|tokens|tiles|standees|boards|tuckbox|dice)-(?P<part>.+)-(?P<lang>[a-z]{2,3}(?:\+[a-z]{2,3})?)(?:-p(?P<page>\d+))?\.(?P<ext>svg|pdf)$")
STYLE = ("body{font-family:sans-serif;margin:2em;max-width:80em}"
         "figure{display:inline-block;margin:.5em;text-align:center;font-size:.8em;vertical-align:top}"
         "figure img{max-width:14em;max-height:12em;border:1px solid #ccc;background:#fff}"
         ".pieces img{height:5em;margin:2px;border:1px solid #ddd;background:#fff}"
         ".errors{border:2px solid #b00;background:#fee;padding:.5em 1em;white-space:pre-wrap;font-family:monospace}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
         ".error{color:#b00}.warning{color:#a60}li{margin:.15em 0}")

# the live page asks the server for its build number and reloads when it differs from the one
# it was made at (written in by the server: a build that ends while the page loads still counts)
LIVE_SCRIPT = """<script>
(function () {
  var seen = %d;
  function poll() {
    fetch('/__pnp/state', {cache: 'no-store'}).then(function (r) { return r.json(); }).then(function (s) {
      if (s.version !== seen) { location.reload(); return; }
      setTimeout(poll, 300);
    }).catch(function () { setTimeout(poll, 1000); });
  }
  poll();
})();
</script>"""


def _kind(name: str) -> int:
    for i, prefix in enumerate(_KIND_ORDER):
        if name.startswith(prefix):
            return i
    return len(_KIND_ORDER)


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


@functools.lru_cache(maxsize=4096)
def _quoted(part: str) -> str:
    return quote(part)


def _url(*parts: str) -> str:
    return "/".join(_quoted(p) for p in parts)


def within(root: Path, path: Path) -> bool:
    """True when `path`, links followed, is `root` or lies inside it."""
    return _inside(root.resolve(), path)


def _inside(base: Path, path: Path) -> bool:
    """`within` for a root already resolved to `base`."""
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # a link loop
        return False
    return target == base or target.is_relative_to(base)


def listed(root: Path, folder: Path, kind: str | None = None) -> list[Path]:
    """The entries of `folder` (inside `root`) a page may name: not hidden, not leading out; with
    `kind` "file" or "dir", only those (links followed). An entry that is no link is where its
    folder resolves to: only links and a folder out of `root` are resolved one by one, and the
    folder is read once for names and kinds (a build's output folder has hundreds of files)."""
    return [folder / name for name in _names(root.resolve(), folder, kind)]


def _names(base: Path, folder: Path, kind: str | None = None, inside: bool | None = None) -> list[str]:
    """`listed`'s entries by name, for a root already resolved to `base` (and `inside`: whether
    `folder` resolves inside it, when known): the page names a deck's hundreds of card images by
    their names alone, which need no Path object each."""
    try:
        with os.scandir(folder) as scan:  # names in one folder sort as their paths do
            entries = sorted(((e.name, e) for e in scan if not e.name.startswith(".")), key=lambda n_e: n_e[0])
    except OSError:
        return []
    if inside is None:
        inside = _inside(base, folder)
    return [name for name, entry in entries
            if (inside and not _is(entry, "link") or _inside(base, folder / name)) and (kind is None or _is(entry, kind))]


_ASK = {"file": os.DirEntry.is_file, "dir": os.DirEntry.is_dir, "link": os.DirEntry.is_symlink}


def _is(entry: os.DirEntry[str], kind: str) -> bool:
    """Whether a folder entry is a "file", a "dir" or a "link", as Path.is_file and the like answer:
    False where it cannot be told."""
    try:
        return bool(_ASK[kind](entry))
    except OSError:
        return False


def _read_json(root: Path, path: Path) -> Any:
    if not within(root, path):
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def index_html(out_root: Path, *, errors: list[str] | None = None, live: bool = False, version: int = 0) -> str:
    """The page as text. `errors`: lines to show on top (a failed rebuild); `live`: add the reload
    script, which reloads the page once the server's build number is no longer `version`."""
    games = listed(out_root, out_root, "dir") if out_root.is_dir() else []
    manifests = [_read_json(out_root, game / "manifest.json") for game in games]  # read once: title and section
    heading = _e(page_title(games, manifests))
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{heading}</title>", f"<style>{STYLE}</style></head><body>", f"<h1>{heading}</h1>"]
    if errors:
        parts.append('<div class="errors" id="errors"><strong>The last change could not be built; '
                     "the files below are from the last good build.</strong>\n"
                     + "\n".join(_e(line) for line in errors) + "</div>")
    if not games:
        parts.append("<p>Nothing built yet: run <code>pnp build --all</code>.</p>")
    for game, manifest in zip(games, manifests):
        parts += _game_section(game, manifest)
    if live:
        parts.append(LIVE_SCRIPT % version)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def page_title(games: list[Path], manifests: list[Any]) -> str:
    """The page is titled by what it shows: each game's title (its manifest's, else its folder
    name), joined by " · "; "pnp build" only while nothing is built."""
    titles = []
    for game, manifest in zip(games, manifests):
        title = manifest.get("title") if isinstance(manifest, dict) else None
        titles.append(title if isinstance(title, str) and title else game.name)
    return " · ".join(titles) or "pnp build"


def _game_section(game: Path, manifest: Any) -> list[str]:
    root = game.parent
    base = root.resolve()
    # the game folder's files by name (a Path each cost the page more than the rest of its work)
    files = sorted(_names(base, game, "file"), key=lambda n: (_kind(n), n))
    manifest = manifest or {}
    names = {c.get("id"): c.get("name") for c in manifest.get("components", []) if isinstance(c, dict)}
    title = manifest.get("title")
    out = [f'<section id="{_e(game.name)}"><h2>{_e(title) + " — " if title else ""}{_e(game.name)}</h2>']
    out += _check_section(_read_json(root, game / "check-report.json"))
    out += _missing_section(game)
    out += _sheets_section(game, base, files, names)

    maps = [f for f in files if f.startswith("map-") and f.endswith(".svg")]  # (its suffix: ".svg")
    if maps:
        out.append("<h3>Maps</h3>")
        for f in maps:
            src = _url(game.name, f)
            out.append(f'<figure><a href="{src}"><img src="{src}" alt="{_e(f)}" loading="lazy"></a>'
                       f"<figcaption>{_e(f)}</figcaption></figure>")

    books = [f for f in files if f.startswith(("rulebook-", "booklet-")) and f.endswith(".pdf")]
    if books:
        out.append("<h3>Rulebooks</h3><ul>")
        out += [f'<li><a href="{_url(game.name, f)}">{_e(f)}</a></li>' for f in books]
        out.append("</ul>")

    out += _ink_section(game)
    out.append("<h3>Files</h3><ul>")
    for f in files:
        if _suffix(f) in (".pdf", ".json", ".txt"):
            size = f"{(game / f).stat().st_size / 1024:.0f} KB"
            out.append(f'<li><a href="{_url(game.name, f)}">{_e(f)}</a> ({size})</li>')
    out.append("</ul></section>")
    return out


def _suffix(name: str) -> str:
    """Path(name).suffix, for a name of one folder entry."""
    i = name.rfind(".")
    return name[i:] if 0 < i < len(name) - 1 else ""


def _sheets_section(game: Path, base: Path, files: list[str], names: dict[Any, Any]) -> list[str]:
    """Each sheet's SVG pages, its PDF and its pieces' images (the files named by `files`)."""
    out: list[str] = []
    png = game / "png"
    png_dirs = set(_names(base, png, "dir"))  # the card images' folders, where they lie inside the root
    sheets: dict[tuple[str, str, str], list[tuple[int, str]]] = {}
    for f in files:
        m = _SHEET.match(f)
        if m and m["ext"] == "svg":
            sheets.setdefault((f.split("-", 1)[0], m["part"], m["lang"]), []).append((int(m["page"] or 0), f))
    if sheets:
        out.append("<h3>Printed pieces</h3>")
    for (kind, part, lang), pages in sheets.items():
        out.append(f'<h4 id="{_e(game.name)}-{_e(part)}">{_e(names.get(part) or part)} '
                   f"<small>({_e(kind)}, {_e(lang)})</small></h4>")
        pdf = f"{kind}-{part}-{lang}.pdf"
        if (game / pdf).is_file():
            out.append(f'<p><a href="{_url(game.name, pdf)}">{_e(pdf)}</a></p>')
        for _, f in sorted(pages):
            src = _url(game.name, f)
            out.append(f'<figure><a href="{src}"><img src="{src}" alt="{_e(f)}" loading="lazy"></a>'
                       f"<figcaption>{_e(f)}</figcaption></figure>")
        # card images: png/<deck>/ in the source language, png/<deck>-<lang>/ in the others
        folder = next((png / d for d in (f"{part}-{lang}", part) if _png_folder(base, png, png_dirs, d)), None)
        # (a name not hidden that ends in ".png" is one whose Path.suffix is ".png", its stem the rest)
        pngs = [n for n in _names(base, folder, "file", inside=True) if n.endswith(".png")] if folder else []
        if folder and pngs:
            out.append('<div class="pieces">' + "".join(_piece_image(_url(game.name, "png", folder.name), n) for n in pngs)
                       + "</div>")
    return out


def _png_folder(base: Path, png: Path, png_dirs: set[str], name: str) -> bool:
    """Whether png/<name> is a folder inside the root (`listed`'s rule, which passes over hidden
    names: one of those is asked of the disk)."""
    if name.startswith("."):
        return (png / name).is_dir() and _inside(base, png / name)
    return name in png_dirs


def _piece_image(folder_url: str, name: str) -> str:
    stem = _e(name[:-4])
    return f'<img src="{folder_url}/{_quoted(name)}" alt="{stem}" title="{stem}" loading="lazy">'


INK_FOLDERS = {"ink-saver": "ink saver", "ink-mono": "greyscale"}  # pnp build --ink saver|mono (context.py)


def _ink_section(game: Path) -> list[str]:
    """The ink-saving prints (`pnp build --ink saver|mono`), which go to output/<game>/ink-<mode>/ so
    they never replace the normal print: their PDFs, linked by folder."""
    out: list[str] = []
    for folder, what in INK_FOLDERS.items():
        d = game / folder
        inside = d.is_dir() and within(game.parent, d)
        pdfs = [p for p in listed(game.parent, d, "file") if p.suffix == ".pdf"] if inside else []
        if pdfs:
            out.append(f"<h3>Printed with {_e(what)} ink <small>({_e(folder)}/)</small></h3><ul>")
            out += [f'<li><a href="{_url(game.name, folder, p.name)}">{_e(p.name)}</a></li>' for p in sorted(pdfs)]
            out.append("</ul>")
    return out


def _missing_section(game: Path) -> list[str]:
    """What the sources do not give, per language (missing-<lang>.txt), with its PDF."""
    out = []
    for txt in sorted(game.glob("missing-*.txt")):
        lang = txt.stem.removeprefix("missing-")
        pdf = txt.with_suffix(".pdf")
        link = f' <small><a href="{_url(game.name, pdf.name)}">{_e(pdf.name)}</a></small>' if pdf.is_file() else ""
        out.append(f'<h3 id="{_e(game.name)}-missing-{_e(lang)}">What the sources do not give ({_e(lang)}){link}</h3><ul>')
        out += [f"<li>{_e(line)}</li>" for line in txt.read_text(encoding="utf-8").splitlines() if line.strip()]
        out.append("</ul>")
    return out


def _check_section(report: Any) -> list[str]:
    """The checker's verdict, what is in play per player count, and its findings."""
    if not isinstance(report, dict):
        return []
    verdict = "ok" if report.get("ok") else "errors"
    out = [f'<h3>Check: <span class="{"ok" if verdict == "ok" else "error"}">{verdict}</span></h3>']
    counts = report.get("player_counts") or {}
    ns = sorted(counts, key=lambda n: int(n) if str(n).isdigit() else 0)
    comps = sorted({c for n in ns for c in (counts[n].get("in_play") or {})})
    if ns and comps:
        out.append('<table class="check"><tr><th>in play</th>' + "".join(f"<th>{_e(n)} players</th>" for n in ns) + "</tr>")
        for c in comps:
            cells = "".join(f"<td>{_e('–' if 'cannot_set_up' in counts[n] else (counts[n].get('in_play') or {}).get(c, 0))}</td>"
                            for n in ns)
            out.append(f"<tr><td>{_e(c)}</td>{cells}</tr>")
        out.append("</table>")
    findings = report.get("findings") or []
    if findings:
        out.append("<ul>")
        for f in findings:
            sev = str(f.get("severity", ""))
            pcs = f.get("player_counts") or []
            at = f" ({', '.join(str(n) for n in pcs)} players)" if pcs else ""
            out.append(f'<li class="{_e(sev)}">{_e(sev)}: {_e(f.get("message", ""))}{_e(at)} '
                       f"<small>[{_e(f.get('source', ''))}]</small></li>")
        out.append("</ul>")
    return out


def write_index(out_root: Path) -> Path:
    """output/index.html, written (atomically, flushed) only when its text changes: a rebuild that
    changed nothing leaves it as it is."""
    target = out_root / "index.html"
    data = index_html(out_root).encode("utf-8")
    try:
        if not target.is_symlink() and target.read_bytes() == data:
            return target
    except OSError:  # none yet, or unreadable: written anew
        pass
    return write_bytes(target, data)
