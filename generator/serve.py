"""`pnp serve`: a live preview. Build, serve the output folder on 127.0.0.1, watch the game
folders, rebuild what changed on save, and let the open page reload itself.

The page (generator/gallery.py) polls `/__pnp/state` for the build number and reloads when it
changes. A data error does not touch the output: the page keeps the last good files and shows
the problems on top, as the terminal does. The server answers only with files inside the output
folder: `..`, encoded dots, absolute paths and symlinks that lead out get a 404.
"""
from __future__ import annotations

import dataclasses
import http.server
import json
import sys
import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

from solver.errors import DataError

from .context import BuildContext
from .gallery import index_html

STATE_PATH = "/__pnp/state"


@dataclass
class PreviewState:
    """What the page needs to know of the builds: a number that changes with each, and the errors of the last."""
    version: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def finished(self, errors: list[str]) -> None:
        with self.lock:
            self.errors = list(errors)
            self.version += 1


def inside(root: Path, url_path: str) -> Path | None:
    """The file an URL path names under `root`, or None when it would lead anywhere else."""
    path = unquote(url_path)
    if "\x00" in path or "\\" in path:
        return None
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None
    base = root.resolve()
    target = base.joinpath(*parts).resolve()  # follows symlinks: one that points out is refused
    return target if target == base or target.is_relative_to(base) else None


def handler_for(out: Path, state: PreviewState | None, live: bool):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(out), **kwargs)

        def log_message(self, *args, **kwargs) -> None:  # the terminal is for builds and errors
            pass

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "no-store")  # a rebuilt sheet must show on reload
            super().end_headers()

        def send_head(self):
            path = urlsplit(self.path).path
            if path in ("/", "/index.html"):
                errors = list(state.errors) if state else []
                return self._send_bytes(index_html(out, errors=errors, live=live).encode(), "text/html; charset=utf-8")
            if path == STATE_PATH:
                body = {"version": state.version if state else 0, "errors": list(state.errors) if state else []}
                return self._send_bytes(json.dumps(body).encode(), "application/json")
            if inside(out, path) is None:
                self.send_error(404, "not in the build folder")
                return None
            return super().send_head()

        def translate_path(self, path: str) -> str:
            target = inside(out, urlsplit(path).path)
            return str(target) if target is not None else str(out.resolve() / "\x00missing")

        def _send_bytes(self, data: bytes, ctype: str):
            import io

            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            return io.BytesIO(data)

    return Handler


def make_server(out: Path, port: int, host: str = "127.0.0.1", state: PreviewState | None = None,
                live: bool = False) -> http.server.ThreadingHTTPServer:
    """An HTTP server for the build folder `out` (127.0.0.1 unless `host` widens it)."""
    server = http.server.ThreadingHTTPServer((host, port), handler_for(out, state, live))
    server.daemon_threads = True
    return server


# stages that run the checker (seconds, not tenths): a rebuild shows the sheets first, then these
CHECKER_STAGES = {"check", "rulebooks"}


class Rebuilder:
    """Runs an incremental build of the watched games and reports it to the state and the terminal.

    A rebuild runs in two passes when it can: the drawing stages first (the page reloads with the
    new sheets), then the stages that run the checker (the page reloads again)."""

    def __init__(self, names: list[str], ctx: BuildContext, state: PreviewState, only: set[str] | None = None,
                 log: Callable[[str], None] = lambda s: print(s, file=sys.stderr, flush=True)):
        self.names, self.ctx, self.state, self.only, self.log = names, ctx, state, only, log

    def passes(self) -> list[set[str]]:
        from .build import STAGE_NAMES

        wanted = set(self.only or STAGE_NAMES)
        return [p for p in (wanted - CHECKER_STAGES, wanted & CHECKER_STAGES) if p]

    def __call__(self, runner=None) -> bool:
        return all(self._run(stages, runner) for stages in self.passes())

    def _run(self, stages: set[str], runner) -> bool:
        from .gallery import write_index
        from .incremental import build

        from .output import build_lock

        ctx = dataclasses.replace(self.ctx, warnings=[])
        try:
            with build_lock(ctx.out_root):  # a `pnp build` into the same folder waits, and so do we
                report = build(self.names, ctx, stages, runner=runner)
        except DataError as e:
            lines = [str(p) for p in e.problems]
            for line in lines:
                self.log(line)
            self.log("(the preview keeps the last good build; fix the data and save)")
            self.state.finished(lines)
            return False
        except Exception as e:  # a bug of ours must not end the preview: show it and keep serving
            lines = [f"internal error: {type(e).__name__}: {e}"] + traceback.format_exc().splitlines()[-6:]
            for line in lines:
                self.log(line)
            self.state.finished(lines)
            return False
        write_index(ctx.out_root)
        for w in ctx.warnings[:10]:
            self.log(f"warning: {w}")
        if report.built:
            self.log(f"built {len(report.built)} unit(s): {', '.join(u.key for u in report.built)}")
            self.state.finished([])
        elif self.state.errors:  # the error is fixed, and nothing else changed
            self.state.finished([])
        return True


def watch(folders: list[Path], rebuild: Rebuilder, stop: threading.Event) -> None:
    """Rebuild whenever a file under `folders` changes, until `stop` is set. Changes in the output
    folder (when it lies inside a game folder) and hidden files do not count: a build's own writes
    must not start another build."""
    from watchfiles import DefaultFilter
    from watchfiles import watch as watch_files

    out = rebuild.ctx.out_root.resolve()
    default = DefaultFilter()

    def wanted(change, path: str) -> bool:
        p = Path(path)
        return default(change, path) and not p.name.startswith(".") and not (
            p == out or p.resolve().is_relative_to(out))

    for _changes in watch_files(*folders, watch_filter=wanted, stop_event=stop, debounce=100, step=50,
                                raise_interrupt=False):
        rebuild()
