"""The campaign of issue 30, beside bench/stress.py: interrupted builds after an option change,
builds from another working folder, `pnp serve` probed as a hostile page or LAN neighbour would,
and concurrent exports. Each probe is a row of the table printed at the end.

Run on demand (minutes; not part of the test suite), from the repository root:

    .venv/bin/python bench/stress_serve.py                   # 8 interruptions, 3 export pairs
    .venv/bin/python bench/stress_serve.py --kills 4 --exports 1

Probes:
  interrupt  build on letter, start an A4 build and stop it at a random moment (SIGINT, SIGTERM,
             SIGKILL of the process group, SIGKILL of the parent only), build A4 again: the files
             must be a clean A4 build's, byte for byte (the record aside).
  cwd        the same game built from the repository root and from a temporary folder: same bytes.
  host       foreign Host headers (a rebound name, a look-alike, a wrong port) get no file; ours do.
  dotfile    the build record, the lock and a temporary folder are neither served nor listed.
  link       a link out of the output folder (to a private folder, to /etc) is neither listed nor read.
  slow       half-sent requests are closed by the server within 60 s; the server's threads stay
             bounded while 100 connections stall.
  export     pairs of `pnp export` of one target into one folder at once: both succeed, and the
             files equal a lone export's.
"""
from __future__ import annotations

import argparse
import http.client
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
GAME = "dont-drop-the-ring"
RECORD = ".pnp-build.json"


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != RECORD and p.name != ".pnp-build.lock"}


def pnp(*args: str, cwd: Path = ROOT, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "generator.cli", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, **kw)


def build_args(out: Path, paper: str) -> list[str]:
    return ["build", GAME, "--only", "cards", "--only", "manifest", "--lang", "ja", "--no-preflight", "-j", "2",
            "--paper", paper, "--out", str(out)]


# ------------------------------------------------------------------------------ builds

def probe_interrupt(rng: random.Random, work: Path, trials: int) -> tuple[int, list[str]]:
    clean = work / "clean-a4"
    assert pnp(*build_args(clean, "a4")).returncode == 0
    letter = work / "letter"
    assert pnp(*build_args(letter, "letter")).returncode == 0
    want = files(clean)
    fails = []
    how = ["SIGINT", "SIGTERM", "SIGKILL group", "SIGKILL parent"]
    for i in range(trials):
        out = work / f"interrupt-{i}"
        shutil.copytree(letter, out)
        kind, delay = how[i % len(how)], rng.uniform(0.5, 8.0)
        proc = subprocess.Popen([PY, "-m", "generator.cli", *build_args(out, "a4")], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(delay)
        sig = {"SIGINT": signal.SIGINT, "SIGTERM": signal.SIGTERM}.get(kind, signal.SIGKILL)
        try:
            if kind == "SIGKILL group":
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
        except ProcessLookupError:
            pass
        proc.wait()
        time.sleep(0.5)  # a parent killed alone leaves its pool's workers to notice and exit
        again = pnp(*build_args(out, "a4"))
        got = files(out)
        if again.returncode != 0 or got != want:
            extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
            changed = sorted(k for k in set(got) & set(want) if got[k] != want[k])
            fails.append(f"{kind} after {delay:.1f}s: extra {extra[:3]} missing {missing[:3]} changed {changed[:3]}")
    return trials, fails


def probe_cwd(work: Path) -> tuple[int, list[str]]:
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    outs = []
    for i, cwd in enumerate((ROOT, elsewhere)):
        out = work / f"cwd-{i}"
        r = pnp("build", GAME, "--only", "check", "--only", "manifest", "--no-preflight", "--out", str(out), cwd=cwd)
        if r.returncode != 0:
            return 1, [f"build from {cwd} failed: {r.stderr.strip()[-200:]}"]
        outs.append(files(out))
    differ = sorted(k for k in set(outs[0]) | set(outs[1]) if outs[0].get(k) != outs[1].get(k))
    return 1, [f"differ: {differ}"] if differ else []


# ------------------------------------------------------------------------------ serve

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=70)
    try:
        conn.request("GET", path, headers={"Host": host} if host is not None else {})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def serve_folder(work: Path) -> tuple[Path, Path]:
    out = work / "served"
    game = out / GAME
    game.mkdir(parents=True)
    (game / "manifest.json").write_text('{"title": "A game"}')
    (game / RECORD).write_text('{"secret": "record"}')
    (out / ".pnp-build.lock").write_text("")
    (out / ".cards.ab12.part").mkdir()
    (out / ".cards.ab12.part" / "half.pdf").write_text("half-written")
    private = work / "private"
    private.mkdir()
    (private / "diary-2026.pdf").write_text("%PDF private")
    (private / "manifest.json").write_text('{"title": "Private papers"}')
    (out / "linked").symlink_to(private)
    if Path("/etc").is_dir():
        (out / "etc").symlink_to("/etc")
    return out, private


def probe_serve(port: int) -> dict[str, tuple[int, list[str]]]:
    rows: dict[str, tuple[int, list[str]]] = {}
    foreign = [f"evil.example:{port}", f"localhost.evil.example:{port}", "localhost", f"localhost:{port + 1}",
               f"127.0.0.1.nip.io:{port}", f"attacker.test:{port}", "", f"[::ffff:127.0.0.1]x:{port}"]
    fails, n = [], 0
    for path in ("/", "/__pnp/state", f"/{GAME}/manifest.json"):
        for host in foreign:
            n += 1
            status, body = _request(port, path, host)
            if status < 400 or b"A game" in body:
                fails.append(f"{host!r} {path}: {status}")
        for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
            n += 1
            if _request(port, path, host)[0] != 200:
                fails.append(f"ours {host!r} {path} refused")
    rows["host"] = (n, fails)
    fails, n = [], 0
    for path in ("/.pnp-build.lock", f"/{GAME}/{RECORD}", "/.cards.ab12.part/half.pdf", f"/{GAME}/%2epnp-build.json"):
        n += 1
        if _request(port, path)[0] != 404:
            fails.append(f"{path} served")
    for path in ("/", f"/{GAME}/"):
        n += 1
        body = _request(port, path)[1]
        if b".pnp-build" in body or b".part" in body:
            fails.append(f"{path} lists a hidden file")
    rows["dotfile"] = (n, fails)
    fails, n = [], 0
    for path in ("/", "/linked/", "/linked/diary-2026.pdf", "/etc/passwd", "/etc/"):
        n += 1
        status, body = _request(port, path)
        if (path == "/" and (b"diary" in body or b"Private papers" in body or b'id="etc"' in body)) or \
                (path != "/" and status != 404):
            fails.append(f"{path}: {status}")
    rows["link"] = (n, fails)
    return rows


def _threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


def probe_slow(port: int, pid: int, stalled: int = 100) -> tuple[int, list[str]]:
    fails = []
    held = []
    for _ in range(stalled):
        s = socket.create_connection(("127.0.0.1", port), timeout=90)
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0")
        held.append(s)
    time.sleep(1)
    threads = _threads(pid) if Path(f"/proc/{pid}").exists() else -1
    if threads > 40:
        fails.append(f"{threads} threads for {stalled} stalled connections")
    start = time.monotonic()
    for s in held:
        try:
            if s.recv(16) != b"":
                fails.append("a stalled connection got an answer")
        except (TimeoutError, OSError) as e:
            fails.append(f"not closed: {type(e).__name__}")
        s.close()
    if time.monotonic() - start > 200:
        fails.append("stalled connections held for more than 200 s in all")
    single = socket.create_connection(("127.0.0.1", port), timeout=90)
    single.sendall(b"GET / HTTP/1.1\r\n")
    t0 = time.monotonic()
    closed = single.recv(16) == b""
    if not closed or time.monotonic() - t0 > 60:
        fails.append(f"a half-sent request held {time.monotonic() - t0:.0f} s")
    single.close()
    return stalled + 1, fails


# ------------------------------------------------------------------------------ exports

def probe_exports(work: Path, pairs: int) -> tuple[int, list[str]]:
    lone = work / "export-lone"
    args = ["export", GAME, "--to", "vassal", "--lang", "en"]
    assert pnp(*args, "--out", str(lone)).returncode == 0
    want = files(lone / GAME / "export")
    fails = []
    for i in range(pairs):
        out = work / f"export-pair-{i}"
        procs = [subprocess.Popen([PY, "-m", "generator.cli", *args, "--out", str(out)], cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        for p in procs:
            _, err = p.communicate()
            if p.returncode != 0:
                fails.append(f"pair {i}: exit {p.returncode}: {err.strip()[-200:]}")
        if files(out / GAME / "export") != want:
            fails.append(f"pair {i}: files differ from a lone export")
        leftovers = [p.name for p in out.rglob(".*") if p.name.endswith((".part", ".old"))]
        if leftovers:
            fails.append(f"pair {i}: left {leftovers}")
    return 2 * pairs, fails


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=8)
    ap.add_argument("--exports", type=int, default=3)
    ap.add_argument("--seed", type=int, default=30)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows: dict[str, tuple[int, list[str]]] = {}
    with tempfile.TemporaryDirectory(prefix="pnp-stress30-") as tmp:
        work = Path(tmp)
        rows["interrupt"] = probe_interrupt(rng, work, args.kills)
        rows["cwd"] = probe_cwd(work)
        out, _ = serve_folder(work)
        port = _free_port()
        server = subprocess.Popen([PY, "-m", "generator.cli", "serve", "--out", str(out), "--port", str(port)],
                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert "serving" in (server.stdout.readline() if server.stdout else "")
            rows.update(probe_serve(port))
            rows["slow"] = probe_slow(port, server.pid)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
        rows["export"] = probe_exports(work, args.exports)
    print(f"\n{'probe':<10} {'trials':>6} {'held':>6} {'failed':>6}")
    for name, (n, fails) in rows.items():
        print(f"{name:<10} {n:>6} {n - len(fails):>6} {len(fails):>6}")
        for f in fails[:5]:
            print(f"    {f}")
    return 1 if any(f for _, f in rows.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
