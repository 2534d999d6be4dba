"""A stranger's game folder (issue 31): each hostile case built as a folder and run through `pnp`
in a subprocess, with its wall time and peak memory, printed as a table. A sibling of stress.py
(which mutates the example games at random); these are the cases an independent campaign found.

Run on demand from the repository root (a few minutes; not part of the test suite):

    .venv/bin/python bench/stress_folder.py

Each row: the case, the command, its exit status, whether the result is what the case promises
(`ok`: exit 2 with one located line, or the stated success), wall seconds and peak resident MB of
the `pnp` process. The last case builds the largest game the limits allow (20,000 pieces in the
box, 10,000 copies of one card) in one process: its peak against the 300 MB aim (`--only largest`
runs it alone, `--big-timeout` bounds it).

Measured 2026-11-26 on the 2-core development machine under a load of about 14 (so wall times are
inflated several times): the largest box, `--only cards` (one deck of 19,990 cards: about 5,000 PDF pages
and as many SVG files), peaked at 327 MB before the SVG backend kept its finished pages compressed
and at 274 MB after (23 min wall under that load); the whole build in one process (checker,
rulebooks and every printer, before that change) at 405 MB, 8.5 min: over the 300 MB aim. What
remained was each unit's files held as bytes and reportlab's pages, uncompressed until the PDF was
saved. Since a unit's files are moved into place from a scratch folder in the output folder and
each PDF page is encoded as it is shown, the whole build in one process peaks at 285 MB (17 min wall
under a load of 17). A case that passes its time bound (--timeout, default 120 s) is killed and
reported as a hang; the memory bound (--max-mb, default 2048) is enforced with RLIMIT_AS.
"""
from __future__ import annotations

import argparse
import base64
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RING = ROOT / "data" / "games" / "dont-drop-the-ring"
IMAGES = ROOT / "tests" / "fixtures" / "cards-with-images"
LOCATED = re.compile(r"^\S.*:\d+:\d+: .+; .+$")
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="120">{}</svg>'


def _svg_case(body: str):
    def make(work: Path) -> Path:
        game = work / "game" / "cards-with-images"
        shutil.copytree(IMAGES, game)
        (game / "art" / "shield.svg").write_text(SVG.format(body), encoding="utf-8")
        return game
    return make


def _outward(work: Path) -> Path:
    game = _svg_case('<image href="../../../secret.png" width="9" height="9"/>')(work)
    shutil.copy(game / "art" / "castle.png", work / "secret.png")
    return game


def _fifo(work: Path) -> Path:
    game = _svg_case('<image href="pipe.png" width="9" height="9"/>')(work)
    os.mkfifo(game / "art" / "pipe.png")
    return game


def _fan_out() -> str:
    defs = ['<rect id="l0" width="1" height="1"/>']
    defs += [f'<g id="l{k}">' + f'<use href="#l{k - 1}"/>' * 10 + "</g>" for k in range(1, 8)]
    return '<use href="#l7"/><defs>' + "".join(defs) + "</defs>"


def _ring(edit):
    def make(work: Path) -> Path:
        game = work / "ring"
        shutil.copytree(RING, game)
        edit(game)
        return game
    return make


def _csv_edit(old: str, new: str):
    def edit(game: Path) -> None:
        path = game / "gem-cards.csv"
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    return edit


def _links(game: Path) -> None:
    (game / "passwd.txt").symlink_to("/etc/passwd")
    (game / "notes").symlink_to(game.parent.parent)
    (game / "art.png").symlink_to("/dev/zero")
    (game / "loop").symlink_to(".")
    os.mkfifo(game / "pipe.csv")


def _new_from_links(work: Path) -> Path:
    return _ring(_links)(work)


def _largest_box(game: Path) -> None:
    """Dont Drop the Ring grown to exactly limits.MAX_PIECES: one card at the per-item limit
    (limits.MAX_COPIES), another taking what the box has left (its pieces counted as the limit
    counts them: every item's copies, or the component's own count)."""
    sys.path.insert(0, str(ROOT))
    from solver.game import limits
    from solver.game.loader import load_game

    box = sum(sum(it.count or 0 for it in c.items) if c.items else c.count or 0 for c in load_game(game).components)
    rest = limits.MAX_PIECES - limits.MAX_COPIES - (box - 2)  # amethyst-2 and -3 hold one copy each
    _csv_edit("amethyst-2,1,", f"amethyst-2,{limits.MAX_COPIES},")(game)
    _csv_edit("amethyst-3,1,", f"amethyst-3,{rest},")(game)


def _huge_png() -> str:
    """A PNG declaring 20000 x 20000 pixels (its data one empty block), base64."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    return base64.b64encode(png).decode()


# (case, folder maker, pnp arguments after the folder ('{out}' is the output folder), expected exit)
CASES = [
    ("svg href outside the folder", _outward, ["build", "{game}", "--out", "{out}", "--only", "cards"], 2),
    ("svg href /dev/zero", _svg_case('<image href="/dev/zero" width="9" height="9"/>'),
     ["build", "{game}", "--out", "{out}", "--only", "cards"], 2),
    ("svg href to a FIFO", _fifo, ["build", "{game}", "--out", "{out}", "--only", "cards"], 2),
    ("svg <use> 7 levels of 10", _svg_case(_fan_out()), ["build", "{game}", "--out", "{out}", "--only", "cards"], 2),
    ("svg data: 20000x20000 png", _svg_case(f'<image href="data:image/png;base64,{_huge_png()}" width="9" height="9"/>'),
     ["build", "{game}", "--out", "{out}", "--only", "cards"], 2),
    ("new --from over links", _new_from_links, ["new", "{out}/copy", "--from", "{game}"], 0),
    ("count 1,000,000,000", _ring(_csv_edit("amethyst-2,1,", "amethyst-2,1000000000,")),
     ["build", "{game}", "--out", "{out}"], 2),
    ("count 200,000", _ring(_csv_edit("amethyst-2,1,", "amethyst-2,200000,")), ["build", "{game}", "--out", "{out}"], 2),
    ("unbalanced CSV quote", _ring(_csv_edit("Amethyst 2,", '"Amethyst 2,')), ["show", "{game}"], 2),
    ("NUL in a CSV cell", _ring(_csv_edit("Amethyst 2", "Amet\0hyst 2")), ["show", "{game}"], 2),
    ("ESC as a YAML escape", _ring(lambda g: (g / "game.yaml").write_text(re.sub(
        r"^(\s*en: ).+$", r'\1"A\\eB"', (g / "game.yaml").read_text(encoding="utf-8"), count=1, flags=re.M),
        encoding="utf-8")), ["check", "{game}"], 2),
    ("ASCII terminal: show", _ring(lambda g: None), ["show", "{game}"], 0),
    # the largest game the limits allow: 10,000 copies of one card, 9,950 of another, 20,000 pieces in the
    # box; one process (--jobs 1: the checker and every printer in it), the source language. Aim: 300 MB
    ("largest allowed box (20,000)", _ring(_largest_box), ["build", "{game}", "--out", "{out}", "--jobs", "1", "--lang", "ja"], 0),
]


def _limit(max_mb: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (max_mb * 1024 * 1024, max_mb * 1024 * 1024))
    return apply


def _run(argv: list[str], env: dict, timeout: float, max_mb: int, work: Path) -> tuple[int | None, str, float, float]:
    """(exit status or None for a hang, stderr, wall seconds, peak resident MB of this process)."""
    err_path = work / "stderr.txt"
    with open(err_path, "wb") as err, open(os.devnull, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "generator.cli", *argv], cwd=ROOT, env=env, stdout=out,
                                stderr=err, preexec_fn=_limit(max_mb))
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                code: int | None = os.waitstatus_to_exitcode(status)
                break
            if time.perf_counter() - start > timeout:
                proc.kill()
                _, _, usage = os.wait4(proc.pid, 0)
                code = None
                break
            time.sleep(0.05)
        proc.returncode = code if code is not None else -9  # reaped here; keep Popen from waiting again
        wall = time.perf_counter() - start
    return code, err_path.read_text(encoding="utf-8", errors="replace"), wall, usage.ru_maxrss / 1024


def run_case(name, make, argv, expected, timeout: float, max_mb: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="pnp-folder-stress-"))
    try:
        game = make(work)
        args = [a.format(game=game, out=work / "out") for a in argv]
        env = {**os.environ, "PYTHONIOENCODING": "ascii"} if name.startswith("ASCII") else dict(os.environ)
        status, err, wall, peak = _run(args, env, timeout, max_mb, work)
        lines = [x for x in err.strip().splitlines() if not x.startswith("warning:")]
        ok = status == expected and "Traceback" not in err and (
            expected != 2 or (len(lines) == 1 and bool(LOCATED.match(lines[0]))))
        if name.startswith("new --from"):
            copy = work / "out" / "copy"
            ok = ok and copy.is_dir() and not any(p.is_symlink() for p in copy.rglob("*")) \
                and not (copy / "passwd.txt").exists() and err.count("warning:") == 5
        leaked = expected == 2 and any(work.glob("out/**/*.pdf"))
        return {"case": name, "command": args[0], "exit": status, "ok": ok and not leaked, "wall": wall,
                "peak_mb": peak, "line": (lines[:1] or [""])[0][-90:]}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds before a case counts as a hang")
    ap.add_argument("--big-timeout", type=float, default=1800.0, help="the same for the largest allowed box")
    ap.add_argument("--only", default=None, help="run only the cases whose name contains this")
    ap.add_argument("--max-mb", type=int, default=2048, help="address-space limit of each pnp process")
    args = ap.parse_args()
    rows = [run_case(*case, timeout=args.big_timeout if case[0].startswith("largest") else args.timeout,
                     max_mb=args.max_mb) for case in CASES if not args.only or args.only in case[0]]
    print(f"{'case':30} {'command':8} {'exit':>4} {'ok':>3} {'wall s':>7} {'peak MB':>8}  first line")
    for r in rows:
        print(f"{r['case']:30} {r['command']:8} {str(r['exit']):>4} {'yes' if r['ok'] else 'NO':>3} "
              f"{r['wall']:7.1f} {r['peak_mb']:8.0f}  {r['line']}")
    bad = [r for r in rows if not r["ok"]]
    print(f"{len(rows) - len(bad)} of {len(rows)} cases held their promise")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
