"""`pnp serve`: a live preview. Build, serve the output folder on 127.0.0.1, watch the game
folders, rebuild what changed on save, and let the open page reload itself.

The page (generator/gallery.py) polls `/__pnp/state` for the build number and reloads when it
changes. A data error does not touch the output: the page keeps the last good files and shows
the problems on top, as the terminal does. The server answers only with files inside the output
folder: `..`, encoded dots, absolute paths, hidden files (the build record, the lock) and symlinks
that lead out get a 404, and neither the page nor a folder listing names them. It answers only
requests addressed to itself: a Host other than the bound address, localhost or an IP address
(with the port) gets a 421, so a web page cannot rebind its own name to this server and read it.
Each connection is closed after READ_TIMEOUT seconds without a whole request, and at most
MAX_THREADS connections are served at once (more wait to be accepted).
"""
from __future__ import annotations

import dataclasses
import html
import http.server
import ipaddress
import json
import sys
import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import quote, unquote, urlsplit

from solver.errors import DataError

from .context import BuildContext
from .gallery import index_html, listed, within

STATE_PATH = "/__pnp/state"
READ_TIMEOUT = 30.0   # seconds a connection may take to send its request
MAX_THREADS = 32      # connections served at once


@dataclass
class PreviewState:
    """What the page needs to know of the builds: a number that changes with each, and the errors of the last."""
    version: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def seen(self) -> tuple[int, list[str]]:
        """The build number and its errors, read together: a page made from them reloads at the next build."""
        with self.lock:
            return self.version, list(self.errors)

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
    if any(p.startswith(".") for p in parts):  # `..`, and hidden files: the build record, the lock
        return None
    target = root.joinpath(*parts)
    return target.resolve() if within(root, target) else None  # a symlink that points out is refused


def host_allowed(host_header: str | None, bound: str, port: int) -> bool:
    """True for a Host naming this server: localhost, the bound address, or (bound to every
    address) any IP address, each with the port. A name a page could rebind is refused."""
    if not host_header:
        return False
    name, sep, p = host_header.strip().rpartition(":")
    if not sep or p != str(port) or not name:
        return False
    name = name.lower().strip("[]")
    if name in ("localhost", bound.lower().strip("[]")):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback or bound in ("0.0.0.0", "::", "")


def handler_for(out: Path, state: PreviewState | None, live: bool, read_timeout: float = READ_TIMEOUT):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(out), **kwargs)

        def log_message(self, *args, **kwargs) -> None:  # the terminal is for builds and errors
            pass

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "no-store")  # a rebuilt sheet must show on reload
            super().end_headers()

        timeout = read_timeout  # StreamRequestHandler: the socket's timeout; a stalled request is closed

        def send_head(self):
            path = urlsplit(self.path).path
            address = self.server.server_address
            assert isinstance(address, tuple)  # an IP socket: (host, port, ...)
            if not host_allowed(self.headers.get("Host"), str(address[0]), int(address[1])):
                self.send_error(421, "this server answers only to localhost or its address")
                return None
            if path in ("/", "/index.html"):
                version, errors = state.seen() if state else (0, [])
                page = index_html(out, errors=errors, live=live, version=version)
                return self._send_bytes(page.encode(), "text/html; charset=utf-8")
            if path == STATE_PATH:
                version, errors = state.seen() if state else (0, [])
                body = {"version": version, "errors": errors}
                return self._send_bytes(json.dumps(body).encode(), "application/json")
            if inside(out, path) is None:
                self.send_error(404, "not in the build folder")
                return None
            return super().send_head()

        def list_directory(self, path):
            """A folder's listing without hidden files or links that lead out of the output folder."""
            folder = Path(path)
            rows = "".join(f'<li><a href="{html.escape(quote(p.name + ("/" if p.is_dir() else "")))}">'
                           f"{html.escape(p.name)}</a></li>" for p in listed(out, folder))
            return self._send_bytes(f"<!doctype html><meta charset='utf-8'><ul>{rows}</ul>".encode(),
                                    "text/html; charset=utf-8")

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
                live: bool = False, *, read_timeout: float = READ_TIMEOUT,
                max_threads: int = MAX_THREADS) -> http.server.ThreadingHTTPServer:
    """An HTTP server for the build folder `out` (127.0.0.1 unless `host` widens it)."""
    server = BoundedServer((host, port), handler_for(out, state, live, read_timeout), max_threads)
    server.daemon_threads = True
    return server


class BoundedServer(http.server.ThreadingHTTPServer):
    """A thread per connection, at most `max_threads` at once: the accept loop waits for a free one."""

    def __init__(self, address: tuple[str, int], handler, max_threads: int = MAX_THREADS):
        self._slots = threading.BoundedSemaphore(max_threads)
        super().__init__(address, handler)

    def process_request(self, request, client_address) -> None:
        self._slots.acquire()
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


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
        from .cards.images import merged_image_warnings

        for w in merged_image_warnings(ctx.warnings)[:10]:  # one line per picture file
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
