"""`pnp serve` in a real browser: headless Chromium opens the preview, the test saves an edit to
the game's data, and the open page shows the new text by itself (it reloads: a marker the test
left in the old page is gone); a data error then shows in the page over the last good build. A
build that ends while the page loads still reloads it: the page knows the build it was made at.

Chromium is driven over its DevTools pipe (`--remote-debugging-pipe`: JSON messages ending in
NUL on file descriptors 3 and 4), so no driver library is needed. .ci/run installs Debian's
`chromium`; elsewhere the test skips, saying so.
"""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from generator.serve import PreviewState, make_server

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (Debian: apt-get install chromium)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Chromium:
    """A headless Chromium and one page in it, spoken to over the DevTools pipe."""

    def __init__(self, profile: Path):
        to_r, self._to_w = os.pipe()
        self._from_r, from_w = os.pipe()

        def on_fds_3_and_4():  # in the child, before exec: the pipe ends become fds 3 and 4
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen([CHROMIUM, *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={profile}"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     preexec_fn=on_fds_3_and_4, pass_fds=(3, 4))
        os.close(to_r)
        os.close(from_w)
        self._buf = b""
        self._id = 0
        self.session: str | None = None

    def send(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_r], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    def open(self, url: str) -> None:
        target = self.send("Target.createTarget", {"url": url})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def js(self, expression: str):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self.session)
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float) -> float:
        """Seconds until `expression` is true in the page; fails after `timeout`."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                if self.js(expression):
                    return time.monotonic() - start
            except RuntimeError:  # the page is between two documents
                pass
            time.sleep(0.1)
        raise AssertionError(f"not true within {timeout} s: {expression}; page text: {self.js('document.body.innerText')!r:.600}")

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_w)
        os.close(self._from_r)


def start_serve(game: Path, out: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "serve", str(game), "--out", str(out), "--port", "0",
                             "--only", "manifest", "--only", "check", "--only", "cards", "--jobs", "1"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 180
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        m = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        if m:
            return proc, m.group(1)
    proc.kill()
    raise AssertionError("pnp serve did not start:\n" + "".join(seen))


def test_saved_edit_shows_in_the_open_page(game_copy, tmp_path):
    game = game_copy("dont-drop-the-ring")
    comps = game / "components.yaml"
    text = comps.read_text(encoding="utf-8")
    old = "name: {ja: 台座カード, en: Pedestal cards, fr: Cartes Socle}"
    assert old in text
    server, url = start_serve(game, tmp_path / "out")
    browser = Chromium(tmp_path / "profile")
    try:
        browser.open(url)
        browser.wait_for("document.body.innerText.includes('台座カード')", 90)
        assert browser.js("document.querySelectorAll('img').length") > 10  # sheets and cards as images
        assert browser.js("document.body.innerText.includes('Check: ok')")
        browser.js("window.pnpMarker = 'old page'")

        comps.write_text(text.replace(old, "name: {ja: 台座カード改, en: Pedestal cards, fr: Cartes Socle}"), encoding="utf-8")
        seconds = browser.wait_for("document.body.innerText.includes('台座カード改')", 60)
        print(f"edit shown in the page after {seconds:.1f} s")
        assert browser.js("window.pnpMarker === undefined")  # reloaded by itself, not by us

        # a data error: the page says where and what to do, and keeps the last good build
        comps.write_text(text.replace(old, "name: {ja: 台座カード改, en: Pedestal cards, fr: Cartes Socle}\n    colour: red"), encoding="utf-8")
        browser.wait_for("!!document.getElementById('errors')", 60)
        errors = browser.js("document.getElementById('errors').innerText")
        assert re.search(r"components\.yaml:\d+:\d+: unknown key 'colour'", errors), errors
        assert browser.js("document.body.innerText.includes('台座カード改')")
    finally:
        browser.close()
        server.terminate()
        server.wait(10)


class BuildEndsAsThePageIsMade(PreviewState):
    """A build that ends right after the page was made and before its script first asks."""

    def seen(self):
        made = super().seen()
        if made[0] == 0:
            self.finished(["data/x.yaml:3:5: unknown key 'colour'; remove it"])
        return made


def test_a_build_that_ends_while_the_page_loads_still_reloads_it(tmp_path):
    out = tmp_path / "out"
    (out / "game").mkdir(parents=True)
    state = BuildEndsAsThePageIsMade()
    server = make_server(out, 0, state=state, live=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = Chromium(tmp_path / "profile")
    try:
        browser.open(f"http://127.0.0.1:{server.server_address[1]}/")
        browser.wait_for("!!document.getElementById('errors')", 30)  # the page was made at build 0 and the server is at 1
        assert "unknown key 'colour'" in browser.js("document.getElementById('errors').innerText")
    finally:
        browser.close()
        server.shutdown()
        server.server_close()
