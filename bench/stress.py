"""The hostile-input campaign (issue 14): mutate the example games with a fixed seed and hold the
promise that every input gives either a result or located one-line errors, never a traceback, a
hang, a half-written file or a read outside the game folder.

Run on demand (minutes; not part of the test suite), from the repository root:

    .venv/bin/python bench/stress.py                      # 10,000 in-process + 300 builds + faults
    .venv/bin/python bench/stress.py --inputs 500 --builds 20 --kills 4   # a quick look

Phases:
  1. in-process: mutated game folders through `load_game` and `check_game` (and PO files through
     the catalogue reader), each under an alarm; categories below.
  2. builds: mutated folders through a whole `pnp build --only STAGE` in a subprocess.
  3. faults: builds SIGKILLed at random moments (every file must be the previous or the new
     version, and the next build must leave no temporary file), and pairs of builds of the same
     game into the same folder at once (both succeed, output equals a lone build's).

Every failing input is kept under --keep (default /tmp/pnp-stress/failures/N/) with a `repro.sh`
holding the command that reproduces it. The table printed at the end is the report.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from solver.errors import DataError, Problem  # noqa: E402

GAMES = ROOT / "data" / "games"
LOCATED = re.compile(r"^\S.*:\d+:\d+: .+; .+$")
HANG_SECONDS = 30


# ------------------------------------------------------------------------------ mutations
# Each mutation takes (rng, folder, ids) and changes files of a copied game folder in place;
# it returns (file it changed relative to the folder, one-line description).

def _files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in suffixes)


def _pick(rng: random.Random, folder: Path, suffixes: tuple[str, ...] = (".yaml",)) -> Path:
    return rng.choice(_files(folder, suffixes))


def _paths(node: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, here + (i,))
    return out


def _set(node: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    node[path[0]] = _set(node[path[0]], path[1:], value)
    return node


def _get(node: Any, path: tuple) -> Any:
    for p in path:
        node = node[p]
    return node


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _load(p: Path) -> Any:
    return yaml.load(p.read_text(encoding="utf-8"), Loader=_LOADER)


def _dump(p: Path, data: Any) -> None:
    p.write_text(yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=False, width=10_000), encoding="utf-8")


LINE_TOKENS = ["", "-1", "null", "[", "]", "{", "}", ":", "x: y", "'", '"', "  ", "\t", "é", "指輪", "1.5",
               "true", "players +", "count(", "- ", "&a", "*a", "!!python/object:os.system", "? ", "|", ">-",
               "!!binary", "<<: *a", "%YAML 1.1", "---", "...", "#", "@", "`"]


def m_lines(rng, folder, ids):
    p = _pick(rng, folder)
    lines = p.read_text(encoding="utf-8").splitlines()
    if not lines:
        lines = [""]
    i = rng.randrange(len(lines))
    op = rng.choice(["delete", "duplicate", "indent", "dedent", "insert", "replace"])
    tok = rng.choice(LINE_TOKENS)
    line = lines[i]
    pos = rng.randint(0, len(line))
    if op == "delete":
        lines.pop(i)
    elif op == "duplicate":
        lines.insert(i, line)
    elif op == "indent":
        lines[i] = "  " + line
    elif op == "dedent":
        lines[i] = line[2:]
    elif op == "insert":
        lines[i] = line[:pos] + tok + line[pos:]
    else:
        end = line.find(" ", pos)
        lines[i] = line[:pos] + tok + (line[end:] if end >= 0 else "")
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p, f"{op} {tok!r} at line {i + 1}"


WRONG_VALUES: list[Any] = [None, True, False, 0, -1, -7, 1.5, 10**9, "", "x", "no-such-id", [], [1, "a"], {},
                           {"a": 1}, [[[]]], {"id": None}, "😀" * 3, "<script>&\"", "1e309"]


def m_wrong_type(rng, folder, ids):
    p = _pick(rng, folder)
    data = _load(p)
    paths = _paths(data)[1:] or [()]
    path = rng.choice(paths)
    value = rng.choice(WRONG_VALUES)
    data = _set(data, path, value)
    _dump(p, data)
    return p, f"value at {'.'.join(map(str, path))} := {value!r}"


def m_drop_key(rng, folder, ids):
    p = _pick(rng, folder)
    data = _load(p)
    dict_paths = [pt for pt in _paths(data) if isinstance(_get(data, pt), dict) and _get(data, pt)]
    if not dict_paths:
        return m_wrong_type(rng, folder, ids)
    pt = rng.choice(dict_paths)
    key = rng.choice(list(_get(data, pt)))
    del _get(data, pt)[key]
    _dump(p, data)
    return p, f"delete key {'.'.join(map(str, pt + (key,)))}"


def m_numbers(rng, folder, ids):
    p = _pick(rng, folder)
    text = p.read_text(encoding="utf-8")
    spots = [m for m in re.finditer(r"(?<=[:\[,] )-?\d+(\.\d+)?(?=[\s,\]}])", text)]
    bad = rng.choice(["1e309", "-1e309", ".nan", ".inf", "-.inf", "9" * rng.choice([12, 400, 5000]), "-1",
                      "0", "0x7fffffffffffffff", "1_000_000_000_000", "2147483648", "0.0000001", "-0"])
    if not spots:
        text = text + f"\nx: {bad}\n"
        p.write_text(text, encoding="utf-8")
        return p, f"append x: {bad}"
    m = rng.choice(spots)
    p.write_text(text[:m.start()] + bad + text[m.end():], encoding="utf-8")
    return p, f"number at offset {m.start()} := {bad[:20]}"


def m_nesting(rng, folder, ids):
    p = _pick(rng, folder)
    lines = p.read_text(encoding="utf-8").splitlines()
    n = rng.choice([65, 200, 3000, 50_000])
    style = rng.choice(["[", "{a: ", "- "])
    if style == "[":
        value = "[" * n + "]" * n
    elif style == "{a: ":
        value = "{a: " * n + "1" + "}" * n
    else:
        value = "\n" + "\n".join("  " * (i + 1) + "- " for i in range(min(n, 3000))) + "x"
    i = rng.randrange(len(lines) + 1)
    lines.insert(i, f"deep{i}: {value}")
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p, f"{n} levels of {style.strip()!r} at line {i + 1}"


def m_alias_bomb(rng, folder, ids):
    p = _pick(rng, folder)
    width, levels = rng.choice([(9, 7), (10, 9), (2, 30), (100, 4)])
    lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    for k in range(1, levels):
        lines.append(f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * width)}]")
    text = p.read_text(encoding="utf-8")
    if rng.random() < 0.5:
        text = "\n".join(lines) + "\n" + text
    else:
        text = text + "\n" + "\n".join(lines) + "\n"
    p.write_text(text, encoding="utf-8")
    return p, f"alias bomb {width}^{levels}"


def m_chars(rng, folder, ids):
    p = _pick(rng, folder, (".yaml", ".csv", ".po"))
    text = p.read_text(encoding="utf-8")
    ch = rng.choice(["\0", "\x07", "\x1b", "\ufffe", "\uffff", '"\\ud800"', '"\\udfff"', "\\x", '"\\q"',
                     "\u202e", "\u0085", "\u2028", "\r", "\r\n", "\x0c"])
    pos = rng.randint(0, len(text))
    p.write_text(text[:pos] + ch + text[pos:], encoding="utf-8", newline="")
    return p, f"insert {ch!r} at char {pos}"


def m_bytes(rng, folder, ids):
    p = _pick(rng, folder, (".yaml", ".csv", ".po", ".xlsx"))
    data = p.read_bytes()
    kind = rng.choice(["invalid-utf8", "truncate", "garbage", "empty", "utf16", "flip"])
    pos = rng.randint(0, len(data))
    if kind == "invalid-utf8":
        data = data[:pos] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82", b"\x80\x80"]) + data[pos:]
    elif kind == "truncate":
        data = data[:pos]
    elif kind == "garbage":
        data = bytes(rng.randrange(256) for _ in range(rng.choice([1, 64, 4096])))
    elif kind == "empty":
        data = b""
    elif kind == "utf16":
        data = data.decode("utf-8", "replace").encode("utf-16")
    else:
        if data:
            b = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(b))
                b[i] = rng.randrange(256)
            data = bytes(b)
    p.write_bytes(data)
    return p, f"{kind} at byte {pos}"


# Keys whose value names an id defined elsewhere (for lists, the key holding the list).
REF_KEYS = {"layout", "front", "back", "extends", "symbol", "on", "component", "use", "shuffle", "deal", "give",
            "place", "return_rest", "supply", "set_aside", "combine", "items", "units"}


def _reference_spots(data: Any, ids: set[str]) -> list[tuple]:
    out = []
    for pt in _paths(data):
        v = _get(data, pt) if pt else None
        key = pt[-2] if pt and isinstance(pt[-1], int) and len(pt) > 1 else (pt[-1] if pt else None)
        if isinstance(v, str) and v in ids and key in REF_KEYS:
            out.append(pt)
    return out


def m_reference(rng, folder, ids):
    """Misspell an id where data refers to it: must be rejected (with a suggestion), never accepted."""
    files = [p for p in _files(folder, (".yaml",)) if _reference_spots(_load(p), ids)]
    if not files:
        return m_wrong_type(rng, folder, ids)
    p = rng.choice(files)
    data = _load(p)
    pt = rng.choice(_reference_spots(data, ids))
    old = _get(data, pt)
    i = rng.randrange(len(old))
    new = old[:i] + rng.choice("qxz") + old[i + 1:]
    if new in ids:
        new = new + "-x"
    _set(data, pt, new)
    _dump(p, data)
    return p, f"reference at {'.'.join(map(str, pt))}: {old!r} -> {new!r}"


EXPR_BOMBS = ["(" * 100 + "1" + ")" * 100, "9**9**9", "9" * 50, "players * 999999999 * 999999999 * 999999999",
              "not " * 60 + "true", "- " * 60 + "1", "count(" * 40 + ")" * 40, "x" * 5000, "'a' + 1",
              "[1, 2] < 3", "min()", "players // 0", "players % 0", "__import__('os')", "1 if 1 else 2",
              "lambda: 1", "players + ", "count(no-such-component) >= 1", "variant(1)", "max([])"]


def m_expression(rng, folder, ids):
    p = folder / "setup.yaml"
    data = _load(p)
    spots = [pt for pt in _paths(data) if pt and pt[-1] in ("when", "require", "count", "each", "recipients",
                                                             "value")]
    bomb = rng.choice(EXPR_BOMBS)
    if not spots:
        return m_wrong_type(rng, folder, ids)
    pt = rng.choice(spots)
    _set(data, pt, bomb)
    _dump(p, data)
    return p, f"expression at {'.'.join(map(str, pt))} := {bomb[:40]!r}"


def _items_csv(folder: Path) -> Path | None:
    files = _files(folder, (".csv",))
    return files[0] if files else None


def m_csv(rng, folder, ids):
    p = _items_csv(folder)
    if p is None:
        return m_wrong_type(rng, folder, ids)
    lines = p.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    kind = rng.choice(["drop-column", "extra-column", "dup-column", "extra-cell", "missing-cell", "bad-count",
                       "quote", "blank-header", "only-header", "no-header", "many-rows", "dup-row"])
    if kind == "drop-column":
        k = rng.randrange(len(header))
        lines = [",".join(c for j, c in enumerate(line.split(",")) if j != k) for line in lines]
    elif kind == "extra-column":
        lines = [lines[0] + ",extra"] + [line + ",1" for line in lines[1:]]
    elif kind == "dup-column":
        k = rng.randrange(len(header))
        lines = [lines[0] + "," + header[k]] + [line + ",dup" for line in lines[1:]]
    elif kind == "extra-cell":
        i = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        lines[i] += ",surplus"
    elif kind == "missing-cell":
        i = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        lines[i] = lines[i].rsplit(",", 1)[0]
    elif kind == "bad-count":
        if "count" in header and len(lines) > 1:
            k = header.index("count")
            i = rng.randrange(1, len(lines))
            cells = lines[i].split(",")
            if k < len(cells):
                cells[k] = rng.choice(["-1", "x", "1.5", "9" * 30, "1e309", "nan"])
            lines[i] = ",".join(cells)
    elif kind == "quote":
        i = rng.randrange(len(lines))
        lines[i] = '"' + lines[i]
    elif kind == "blank-header":
        lines[0] = lines[0] + ","
    elif kind == "only-header":
        lines = lines[:1]
    elif kind == "no-header":
        lines = lines[1:]
    elif kind == "many-rows":
        body = lines[1:] or ["x"]
        lines = lines[:1] + [f"{i}-{body[i % len(body)]}" for i in range(rng.choice([6000, 1500]))]
    else:
        if len(lines) > 1:
            lines.append(lines[1])
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p, f"csv {kind}"


def m_xlsx(rng, folder, ids):
    """Move a component's CSV list into an XLSX workbook, then break the workbook."""
    from openpyxl import Workbook

    csvp = _items_csv(folder)
    if csvp is None:
        return m_wrong_type(rng, folder, ids)
    comps = _load(folder / "components.yaml")
    comp = next(c for c in comps["components"] if c.get("items_file") == csvp.name)
    import csv as _csv
    rows = list(_csv.reader(csvp.read_text(encoding="utf-8").splitlines()))
    kind = rng.choice(["ok", "wrong-sheet", "drop-column", "dup-column", "extra-column", "types", "truncate",
                       "not-zip", "empty-sheet", "formula"])
    wb = Workbook()
    ws = wb.active
    ws.title = "other" if kind == "wrong-sheet" else comp["id"]
    if kind == "drop-column":
        k = rng.randrange(len(rows[0]))
        rows = [[c for j, c in enumerate(r) if j != k] for r in rows]
    elif kind == "dup-column":
        rows = [rows[0] + [rows[0][0]]] + [r + ["dup"] for r in rows[1:]]
    elif kind == "extra-column":
        rows = [rows[0] + ["extra"]] + [r + [1] for r in rows[1:]]
    elif kind == "empty-sheet":
        rows = []
    for r in rows:
        if kind == "types":
            r = [rng.choice([c, 1.5, -3, True, None, "=1/0", 1e300]) for c in r]
        elif kind == "formula":
            r = [c if j else "=A1&A1" for j, c in enumerate(r)]
        ws.append(r)
    xp = folder / (csvp.stem + ".xlsx")
    wb.save(xp)
    if kind == "truncate":
        data = xp.read_bytes()
        xp.write_bytes(data[:rng.randrange(len(data))])
    elif kind == "not-zip":
        xp.write_bytes(b"PK\x03\x04" + bytes(rng.randrange(256) for _ in range(200)))
    comp["items_file"] = xp.name
    _dump(folder / "components.yaml", comps)
    csvp.unlink()
    return xp, f"xlsx {kind}"


def m_escape(rng, folder, ids):
    """Point a file reference outside the game folder (plainly, by `..`, or through a symlink)."""
    outside = folder.parent / "outside-secret.csv"
    outside.write_text("id,count\nstolen,1\n", encoding="utf-8")
    kind = rng.choice(["dotdot", "absolute", "symlink", "symlink-dir"])
    if kind == "dotdot":
        target = "../outside-secret.csv"
    elif kind == "absolute":
        target = str(outside)
    elif kind == "symlink":
        (folder / "inside.csv").symlink_to(outside)
        target = "inside.csv"
    else:
        (folder / "sub").symlink_to(folder.parent)
        target = "sub/outside-secret.csv"
    comps = _load(folder / "components.yaml")
    c = rng.choice(comps["components"])
    c.pop("items", None)
    c["items_file"] = target
    _dump(folder / "components.yaml", comps)
    return folder / "components.yaml", f"items_file of {c['id']} := {target} ({kind})"


PO_BREAKS = ['msgstr "\\q"', 'msgstr "unterminated', 'msgid "x"\nmsgid "y"', '"Content-Type: text/plain; charset=latin-1\\n"',
             '"Content-Type: text/plain; charset=bogus-42\\n"', '"Plural-Forms: nplurals=x; plural=n>1;\\n"',
             '"Plural-Forms: nplurals=2; plural=__import__(\'os\');\\n"', 'msgstr[0] "a"', 'msgctxt',
             '#, fuzzy\nmsgctxt "1.1"\nmsgid "a"\nmsgstr "b"', 'msgstr "\\u12"', 'msgstr "\\', '"', '#~ msgid "x"']


def m_po(rng, folder, ids):
    pos_ = _files(folder, (".po",))
    if not pos_:
        return m_wrong_type(rng, folder, ids)
    p = rng.choice(pos_)
    lines = p.read_text(encoding="utf-8").splitlines()
    i = rng.randrange(len(lines) + 1)
    brk = rng.choice(PO_BREAKS)
    if rng.random() < 0.5 and i < len(lines):
        lines[i] = brk
    else:
        lines.insert(i, brk)
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p, f"po line {i + 1} := {brk[:40]!r}"


CATEGORIES: dict[str, Callable] = {
    "yaml-lines": m_lines, "wrong-type": m_wrong_type, "missing-key": m_drop_key, "numbers": m_numbers,
    "nesting": m_nesting, "alias-bomb": m_alias_bomb, "characters": m_chars, "bytes": m_bytes,
    "reference": m_reference, "expression": m_expression, "csv": m_csv, "xlsx": m_xlsx, "escape": m_escape,
    "po": m_po,
}
# how often each category is drawn (the cheap, broad ones most)
WEIGHTS = {"yaml-lines": 4, "wrong-type": 4, "missing-key": 2, "numbers": 2, "nesting": 1, "alias-bomb": 1,
           "characters": 2, "bytes": 2, "reference": 3, "expression": 2, "csv": 2, "xlsx": 1, "escape": 1,
           "po": 2}


# ------------------------------------------------------------------------------ classification

class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


# A hang is measured in CPU seconds of the process (all threads), not wall time: on a machine
# shared with other work a slow input is not a hang, and an endless loop still is one.
_TIMER = (signal.ITIMER_PROF, signal.SIGPROF)


def game_ids_of(folder: Path) -> set[str]:
    """Every id defined in a game: the targets a misspelt reference must not silently miss."""
    ids: set[str] = set()
    for p in _files(folder, (".yaml",)):
        data = _load(p)
        for pt in _paths(data):
            if pt and pt[-1] == "id" and isinstance(_get(data, pt), str):
                ids.add(_get(data, pt))
    return ids


def located(problem: Problem) -> bool:
    return problem.line >= 1 and bool(problem.what) and bool(problem.todo)


def run_in_process(folder: Path, category: str) -> tuple[str, str]:
    """(outcome, detail): ok | error | traceback | hang | unlocated | escape | unresolved."""
    from solver.game.loader import load_game
    from solver.report import check_game

    signal.signal(_TIMER[1], _alarm)
    signal.setitimer(_TIMER[0], HANG_SECONDS)
    try:
        if category == "po":
            from solver.rules.qa import check_translation
            game = load_game(folder)
            for p in _files(folder, (".po",)):
                check_translation(game, p.stem)
            return "ok", ""
        game = load_game(folder)
        check_game(game)
        if category == "escape":
            stolen = any(i.id == "stolen" for c in game.components for i in c.items)
            return ("escape", "an items_file outside the folder was read") if stolen else ("ok", "")
        if category == "reference":
            return "unresolved", "a misspelt reference passed load and check"
        return "ok", ""
    except Hang:
        return "hang", f"more than {HANG_SECONDS} s of CPU"
    except DataError as e:
        bad = [str(p) for p in e.problems if not located(p)]
        return ("unlocated", bad[0]) if bad else ("error", str(e.problems[0]))
    except RecursionError:
        return "traceback", traceback.format_exc(limit=-3)
    except Exception:
        return "traceback", traceback.format_exc(limit=-6)
    finally:
        signal.setitimer(_TIMER[0], 0)


FAILURES = ("traceback", "hang", "unlocated", "escape", "unresolved", "half-written", "temp-files")


def keep_failure(keep: Path, n: int, folder: Path, category: str, desc: str, outcome: str, detail: str,
                 command: str) -> Path:
    dest = keep / f"{n:05d}-{category}-{outcome}"
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(folder, dest / folder.name, symlinks=True)
    (dest / "repro.sh").write_text(f"# {category}: {desc}\n# {outcome}: {detail.strip()[-2000:]}\n"
                                   f"cd {ROOT} && {command.replace(str(folder), str(dest / folder.name))}\n",
                                   encoding="utf-8")
    return dest


def _one_input(job: tuple[int, int, str, str]) -> tuple[int, str, str, float, str]:
    """Mutate and run input n (its own rng from the seed and n: the same input whatever the workers)."""
    seed, n, work, keep = job
    rng = random.Random(seed * 1_000_003 + n)
    games = _GAME_LIST
    game = rng.choice(games)
    cats = list(CATEGORIES)
    cat = rng.choices(cats, [WEIGHTS[c] for c in cats])[0]
    box = Path(work) / f"{n}"
    folder = box / game
    shutil.copytree(GAMES / game, folder)
    try:
        _, desc = CATEGORIES[cat](rng, folder, _IDS[game])
    except Exception as e:  # a mutation that does not apply to this game: the input is the original
        desc = f"mutation skipped ({type(e).__name__})"
    started = time.time()
    outcome, detail = run_in_process(folder, cat)
    seconds = time.time() - started
    line = ""
    if outcome in FAILURES:
        cmd = (f"{sys.executable} -c \"from solver.game.loader import load_game; from solver.report import "
               f"check_game; check_game(load_game('{folder}'))\"")
        kept = keep_failure(Path(keep), n, folder, cat, desc, outcome, detail, cmd)
        last = detail.strip().splitlines()[-1] if detail.strip() else ""
        line = f"{cat}: {outcome}: {desc}\n  {last}\n  kept {kept}"
    shutil.rmtree(box, ignore_errors=True)
    return n, cat, outcome, seconds, line


_GAME_LIST = sorted(p.name for p in GAMES.iterdir() if (p / "game.yaml").is_file())
_IDS: dict[str, set[str]] = {}


def _init_worker() -> None:
    _IDS.update({g: game_ids_of(GAMES / g) for g in _GAME_LIST})


def in_process_campaign(args, rng, table, keep) -> None:
    import multiprocessing

    work = Path(tempfile.mkdtemp(prefix="pnp-stress-"))
    jobs = [(args.seed, n, str(work), str(keep)) for n in range(args.inputs)]
    t0 = time.time()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.workers, initializer=_init_worker, maxtasksperchild=200) as pool:
        for done, (n, cat, outcome, seconds, line) in enumerate(pool.imap_unordered(_one_input, jobs, chunksize=4)):
            if args.max_minutes and time.time() - t0 > args.max_minutes * 60:
                print(f"stopped after {args.max_minutes} minutes at {done} inputs (--max-minutes)", flush=True)
                pool.terminate()
                break
            table[cat][outcome] += 1
            table[cat]["inputs"] += 1
            table[cat]["seconds"] += seconds
            if line and args.verbose:
                print(line, flush=True)
            if args.verbose and done % 1000 == 0:
                print(f"... {done} inputs, {time.time() - t0:.0f} s", flush=True)
    shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------ builds

STAGES = ["manifest"] * 6 + ["cards", "counters", "maps", "rulebooks"]  # mostly the quick stage
PART = re.compile(r"\.part$|\.tmp$|~$")


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a running process has used, from /proc (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def pnp(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run `pnp` in a subprocess; a hang is `timeout` CPU seconds (wall time on a shared machine
    says little), with a wall-clock backstop of ten times that."""
    cmd = [sys.executable, "-m", "generator.cli", *argv]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err, text=True)
        started = time.time()
        while proc.poll() is None:
            if _cpu_seconds(proc.pid) > timeout or time.time() - started > timeout * 10:
                proc.kill()
                proc.wait()
                raise subprocess.TimeoutExpired(cmd, timeout)
            time.sleep(0.5)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(cmd, proc.returncode, out.read(), err.read())


def temp_files(out: Path) -> list[Path]:
    """Files a finished build should not leave: partial writes, and dot-files other than the ones the
    build keeps on purpose (its lock, and the incremental build's record of what it made)."""
    from generator.incremental import RECORD
    from generator.output import LOCK_NAME

    kept = {LOCK_NAME, RECORD}
    return [p for p in out.rglob("*") if PART.search(p.name) or p.name.startswith(".") and p.is_file()
            and p.name not in kept]


def half_written(out: Path) -> list[str]:
    """Files that are not complete: a PDF without its trailer, JSON that does not parse, a PNG
    without its IEND chunk, SVG that is not well-formed XML."""
    from xml.etree import ElementTree

    bad = []
    for p in out.rglob("*"):
        if not p.is_file():
            continue
        data = p.read_bytes()
        try:
            if p.suffix == ".pdf" and b"%%EOF" not in data[-64:]:
                bad.append(str(p))
            elif p.suffix == ".json":
                json.loads(data)
            elif p.suffix == ".png" and not data.endswith(b"IEND\xaeB`\x82"):
                bad.append(str(p))
            elif p.suffix == ".svg":
                ElementTree.fromstring(data)
        except Exception:
            bad.append(str(p))
    return bad


def classify_build(proc: subprocess.CompletedProcess) -> tuple[str, str]:
    err = proc.stderr
    if "Traceback (most recent call last)" in err:
        return "traceback", err[-3000:]
    if proc.returncode == 2:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        bad = [ln for ln in lines if not LOCATED.match(ln)]
        return ("unlocated", bad[0]) if bad or not lines else ("error", lines[0])
    if proc.returncode not in (0, 1):
        return "traceback", f"exit {proc.returncode}: {err[-2000:]}"
    return "ok", ""


def _one_build(seed: int, n: int, work: Path, keep: Path, verbose: bool) -> tuple[str, str, float, str]:
    """Mutate input n (its own rng) and run a whole `pnp build --only STAGE` on it in a subprocess."""
    rng = random.Random(seed * 7_000_003 + n)
    cats = list(CATEGORIES)
    game = rng.choice(_GAME_LIST)
    cat = cats[n % len(cats)]
    stage = "rulebooks" if cat == "po" and rng.random() < 0.3 else rng.choice(STAGES)
    box = work / f"{n}"
    folder = box / game
    shutil.copytree(GAMES / game, folder)
    try:
        _, desc = CATEGORIES[cat](rng, folder, _IDS[game])
    except Exception as e:
        desc = f"mutation skipped ({type(e).__name__})"
    out = box / "out"
    argv = ["build", str(folder), "--out", str(out), "--only", stage]
    started = time.time()
    try:
        proc = pnp(*argv, timeout=HANG_SECONDS * 4)
        outcome, detail = classify_build(proc)
    except subprocess.TimeoutExpired:
        outcome, detail = "hang", "build did not finish"
    seconds = time.time() - started
    if outcome in ("ok", "error") and out.exists():
        if temp_files(out):
            outcome, detail = "temp-files", str(temp_files(out)[:3])
        elif half_written(out):
            outcome, detail = "half-written", str(half_written(out)[:3])
    if outcome == "ok" and cat == "escape" and "stolen" in "".join(
            p.read_text(errors="replace") for p in out.rglob("*.json")):
        outcome, detail = "escape", "a file outside the folder reached the output"
    line = ""
    if outcome in FAILURES:
        cmd = f"{sys.executable} -m generator.cli " + " ".join(argv)
        kept = keep_failure(keep, 90000 + n, folder, f"build-{cat}", desc, outcome, detail, cmd)
        last = detail.strip().splitlines()[-1] if detail.strip() else ""
        line = f"build {cat}/{stage}: {outcome}: {desc}\n  {last}\n  kept {kept}"
    shutil.rmtree(box, ignore_errors=True)
    return f"build:{cat}", outcome, seconds, line


def build_campaign(args, rng, table, keep) -> None:
    """Builds in subprocesses, a few at a time (each is a process of its own)."""
    from concurrent.futures import ThreadPoolExecutor

    _init_worker()
    work = Path(tempfile.mkdtemp(prefix="pnp-stress-build-"))
    t0 = time.time()
    with ThreadPoolExecutor(args.workers) as pool:
        futures = [pool.submit(_one_build, args.seed, n, work, keep, args.verbose) for n in range(args.builds)]
        for done, f in enumerate(futures):
            if args.max_minutes and time.time() - t0 > args.max_minutes * 60:
                print(f"stopped after {args.max_minutes} minutes at {done} builds (--max-minutes)", flush=True)
                for g in futures:
                    g.cancel()
                break
            row, outcome, seconds, line = f.result()
            table[row]["inputs"] += 1
            table[row][outcome] += 1
            table[row]["seconds"] += seconds
            if line and args.verbose:
                print(line, flush=True)
    shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------ faults

def digest(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and not p.name.startswith(".pnp-build")}


def fault_campaign(args, rng, table, keep) -> None:
    """SIGKILL builds at random moments; run pairs of builds at once into one folder."""
    work = Path(tempfile.mkdtemp(prefix="pnp-stress-fault-"))
    game = args.fault_game
    common = ["--only", "manifest", "--only", "cards", "--lang", "en"]
    old_argv = ["build", game, "--bleed", "2", *common]
    new_argv = ["build", game, "--bleed", "3", *common]
    ref_old, ref_new = work / "ref-old", work / "ref-new"
    t0 = time.time()
    if pnp(*old_argv, "--out", str(ref_old)).returncode not in (0, 1):
        raise SystemExit("reference build failed")
    duration = time.time() - t0
    pnp(*new_argv, "--out", str(ref_new))
    old, new = digest(ref_old), digest(ref_new)
    row = table["fault:kill"]
    for n in range(args.kills):
        out = work / f"kill-{n}"
        shutil.copytree(ref_old, out)
        proc = subprocess.Popen([sys.executable, "-m", "generator.cli", *new_argv, "--out", str(out)], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, duration * 1.1))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        row["inputs"] += 1
        now = digest(out)
        mixed = [f for f, h in now.items() if h not in (old.get(f), new.get(f))]
        outcome, detail = "ok", ""
        if mixed:
            outcome, detail = "half-written", f"neither old nor new: {mixed[:3]}"
        else:
            again = pnp(*new_argv, "--out", str(out))
            if again.returncode not in (0, 1):
                outcome, detail = "traceback", again.stderr[-2000:]
            elif temp_files(out):
                outcome, detail = "temp-files", str(temp_files(out)[:3])
            elif digest(out) != new:
                diff = [f for f in set(new) | set(digest(out)) if new.get(f) != digest(out).get(f)]
                outcome, detail = "half-written", f"after the repair build, differs from a clean build: {diff[:3]}"
        row[outcome] += 1
        if outcome in FAILURES:
            (keep / f"kill-{n}.txt").write_text(f"{outcome}: {detail}\nPYTHONPATH=. .venv/bin/python -m generator.cli "
                                                f"{' '.join(new_argv)} --out DIR  # killed\n", encoding="utf-8")
            if args.verbose:
                print(f"kill {n}: {outcome}: {detail[:300]}")
        shutil.rmtree(out, ignore_errors=True)
    row = table["fault:concurrent"]
    for n in range(args.concurrent):
        out = work / f"conc-{n}"
        if n % 2:
            shutil.copytree(ref_old, out)
        procs = [subprocess.Popen([sys.executable, "-m", "generator.cli", *new_argv, "--out", str(out)], cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        results = [(p.wait(), p.stderr.read()) for p in procs]
        row["inputs"] += 1
        outcome, detail = "ok", ""
        if any(rc not in (0, 1) for rc, _ in results):
            outcome, detail = "traceback", " | ".join(e[-500:] for _, e in results)
        elif temp_files(out):
            outcome, detail = "temp-files", str(temp_files(out)[:3])
        elif digest(out) != new:
            outcome, detail = "half-written", "output differs from a lone build's"
        row[outcome] += 1
        if outcome in FAILURES:
            (keep / f"concurrent-{n}.txt").write_text(f"{outcome}: {detail}\n", encoding="utf-8")
            if args.verbose:
                print(f"concurrent {n}: {outcome}: {detail[:300]}")
        shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------ report

COLUMNS = ["inputs", "seconds", "ok", "error", "traceback", "hang", "unlocated", "half-written", "temp-files", "escape",
           "unresolved"]


def print_table(table: dict[str, Counter]) -> int:
    head = f"{'category':<22}" + "".join(f"{c:>13}" for c in COLUMNS)
    print(head)
    print("-" * len(head))
    total: Counter = Counter()
    for cat in table:
        print(f"{cat:<22}" + "".join(f"{table[cat][c]:>13.0f}" for c in COLUMNS))
        total.update(table[cat])
    print("-" * len(head))
    print(f"{'total':<22}" + "".join(f"{total[c]:>13.0f}" for c in COLUMNS))
    return sum(total[c] for c in FAILURES)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--inputs", type=int, default=10_000, help="mutated games through load and check")
    ap.add_argument("--builds", type=int, default=300, help="mutated games through `pnp build --only STAGE`")
    ap.add_argument("--kills", type=int, default=20, help="builds killed at a random moment")
    ap.add_argument("--concurrent", type=int, default=6, help="pairs of builds at once into one folder")
    ap.add_argument("--workers", type=int, default=2, help="processes for the in-process phase")
    ap.add_argument("--max-minutes", type=float, default=0, help="stop the in-process and build phases after this long (each)")
    ap.add_argument("--fault-game", default="dont-drop-the-ring")
    ap.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "pnp-stress" / "failures")
    ap.add_argument("--only", choices=["inputs", "builds", "faults"], action="append")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    args.keep.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    table: dict[str, Counter] = defaultdict(Counter)
    phases = set(args.only or ["inputs", "builds", "faults"])
    t0 = time.time()
    if "inputs" in phases:
        in_process_campaign(args, rng, table, args.keep)
    if "builds" in phases:
        build_campaign(args, rng, table, args.keep)
    if "faults" in phases:
        fault_campaign(args, rng, table, args.keep)
    failures = print_table(table)
    print(f"\nseed {args.seed}, {time.time() - t0:.0f} s; failing inputs kept in {args.keep}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
