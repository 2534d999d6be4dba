"""A local pool's workers (generator/runners.py) are given the build's games once, when they start,
and find the drawing code already loaded by the build that forked them (units.prepare); what they
print is what one process prints, byte for byte, with the same warnings and preflight findings.

The game is a newcomer's (`pnp new`: cards, a hex map, a rulebook in two languages), built with
preflight on; the oracle for the bytes is the same game built in one process."""
from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main
from generator.context import BuildContext
from generator.incremental import RECORD, build
from generator.runners import pool, serial

ROOT = Path(__file__).resolve().parent.parent

forking = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2,
                             reason="a forked pool of two processes needs fork and two cores")


@pytest.fixture(scope="module")
def newgame(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("new") / "lanterns"
    assert main(["new", str(folder)]) == 0
    return folder


def files_of(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != RECORD}


def findings_of(root: Path) -> dict[str, object]:
    """The preflight findings the build record keeps, by unit."""
    record = json.loads(next(root.rglob(RECORD)).read_text(encoding="utf-8"))
    return {key: entry["preflight"] for key, entry in record["units"].items()}


@forking
def test_a_pool_ships_units_not_games_and_prints_what_one_process_prints(newgame, tmp_path, monkeypatch):
    from solver.game.loader import Game

    def refuse(self, protocol):  # the parent pickling a game for a worker: what the pool no longer does
        raise AssertionError("a game was pickled for a pool's worker")

    pooled, alone = BuildContext(out_root=tmp_path / "pool"), BuildContext(out_root=tmp_path / "alone")
    with monkeypatch.context() as m:
        m.setattr(Game, "__reduce_ex__", refuse, raising=False)
        report = build([newgame], pooled, runner=pool(2))
    assert len(report.built) >= 6 and {u.stage for u in report.built} >= {"cards", "maps", "rulebooks", "check"}
    build([newgame], alone, runner=serial)
    ours, theirs = files_of(pooled.out_root), files_of(alone.out_root)
    assert any(name.endswith(".pdf") for name in ours) and ours == theirs
    assert pooled.warnings == alone.warnings
    assert findings_of(pooled.out_root) == findings_of(alone.out_root)


# a fresh interpreter: the game loaded and planned, `prepare` run, then every unit but the checker's;
# prints the top-level packages the units imported that prepare had not
AFTER_PREPARE = """import json, sys
from pathlib import Path
from generator.context import BuildContext
from generator.units import execute, plan, prepare
from solver.game.loader import load_game
game = load_game(sys.argv[1])
ctx = BuildContext(out_root=Path(sys.argv[2]))
tasks = [(game, u) for u in plan(game, ctx) if u.stage != "check"]
{prepare}
before = set(sys.modules)
for g, unit in tasks:
    result = execute(g, unit, ctx, ctx.out_root)
    assert not result.problems, result.problems
top = lambda names: {{m.split(".")[0] for m in names}}
print(json.dumps(sorted(top(sys.modules) - top(before))))
"""
# the same, printing the hyphenation pattern files the units read (pyphen's HyphDict reads one)
PATTERNS_AFTER_PREPARE = AFTER_PREPARE.replace("before = set(sys.modules)", """import pyphen
read = []
reading = pyphen.HyphDict.__init__
pyphen.HyphDict.__init__ = lambda self, path: (read.append(path.name), reading(self, path))[1]
before = set(sys.modules)""").replace("print(json.dumps(sorted(top(sys.modules) - top(before))))", "print(json.dumps(read))")
HEAVY = {"reportlab", "PIL", "numpy", "pypdfium2", "pypdf", "fontTools"}  # svgwrite: no longer drawn with


@pytest.mark.parametrize("prepared", [True, False])
def test_prepare_leaves_the_units_no_drawing_library_to_import(newgame, tmp_path, prepared):
    """What a pool's worker would import on its first units was imported before it forked; without
    `prepare` (the control) the units import every one of them."""
    code = AFTER_PREPARE.format(prepare="prepare(tasks, ctx)" if prepared else "")
    proc = subprocess.run([sys.executable, "-c", code, str(newgame), str(tmp_path / "out")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    imported = set(json.loads(proc.stdout.splitlines()[-1]))
    assert imported & HEAVY == (set() if prepared else HEAVY)


@pytest.mark.parametrize("prepared", [True, False])
def test_prepare_leaves_the_units_no_hyphenation_patterns_to_read(newgame, tmp_path, prepared):
    """The English patterns (0.13 CPU-s to read) are read before the pool forks, not by each
    worker's first unit that breaks an English word; without `prepare` (the control) a unit reads them."""
    code = PATTERNS_AFTER_PREPARE.format(prepare="prepare(tasks, ctx)" if prepared else "")
    proc = subprocess.run([sys.executable, "-c", code, str(newgame), str(tmp_path / "out")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    read = json.loads(proc.stdout.splitlines()[-1])
    assert read == [] if prepared else [name[:8] for name in read] == ["hyph_en_"]


@forking
def test_a_small_rebuild_starts_its_workers_at_once_and_a_large_build_prepares_them(newgame, tmp_path, monkeypatch):
    """`prepare` costs the build about 0.4 s before any worker starts: a rebuild of a few units (one
    card edited) skips it, a build of PREPARE_PER_WORKER units a worker or more pays it once."""
    import generator.runners as runners

    calls: list[int] = []
    monkeypatch.setattr(runners, "prepare", lambda tasks, ctx: calls.append(len(tasks)))
    ctx = BuildContext(out_root=tmp_path / "out", preflight=False)
    report = build([newgame], ctx, runner=pool(2), only={"cards"})
    assert 2 <= len(report.built) < 2 * runners.PREPARE_PER_WORKER and calls == []
    monkeypatch.setattr(runners, "PREPARE_PER_WORKER", 1)
    build([newgame], BuildContext(out_root=tmp_path / "again", preflight=False), runner=pool(2), only={"cards"})
    assert calls == [len(report.built)]


@forking
def test_a_large_build_runs_the_languages_of_one_component_in_one_worker(newgame, tmp_path, monkeypatch):
    """A worker keeps what a unit drew for the next (a deck's symbol tiles, its PNG faces, a map's hex
    tiles): in a build of PREPARE_PER_WORKER units a worker or more, the languages of one game's
    stage and component run in the same worker, one after the other, and print what one process prints."""
    import generator.runners as runners

    log = tmp_path / "workers.txt"
    real = runners.execute

    def logged(game, unit, ctx, scratch_in=None):  # forked workers inherit it: it names their pid
        with log.open("a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {unit.stage} {unit.part} {unit.lang}\n")
        return real(game, unit, ctx, scratch_in)

    monkeypatch.setattr(runners, "execute", logged)
    monkeypatch.setattr(runners, "PREPARE_PER_WORKER", 1)  # the new game's units are a large build
    pooled = BuildContext(out_root=tmp_path / "pool", preflight=False)
    build([newgame], pooled, runner=pool(2))
    workers: dict[tuple[str, str], set[str]] = {}
    langs: dict[tuple[str, str], set[str]] = {}
    for pid, stage, part, lang in (line.split() for line in log.read_text(encoding="utf-8").splitlines()):
        workers.setdefault((stage, part), set()).add(pid)
        langs.setdefault((stage, part), set()).add(lang)
    several = [key for key, seen in langs.items() if len(seen) > 1]
    assert {"cards", "maps", "rulebooks"} <= {stage for stage, _ in several}
    assert all(len(workers[key]) == 1 for key in several), workers
    alone = BuildContext(out_root=tmp_path / "alone", preflight=False)
    build([newgame], alone, runner=serial)
    assert files_of(pooled.out_root) == files_of(alone.out_root)


# a build in a fresh interpreter, with one job: the modules the optimiser's process (the checker's,
# forked apart) imported, and those the build's own process imported after forking it
IMPORTED_ON_BOTH_SIDES = """import json, sys
import generator.runners as runners
from generator.cli import main
log, at_fork = sys.argv[1], {}
processes, given = runners._processes, runners._execute_given
def forking(*args, **kwargs):  # the optimiser's process is forked from this process as it is now
    at_fork.setdefault("modules", set(sys.modules))
    return processes(*args, **kwargs)
def executing(units):  # in the optimiser's process: what its units imported there
    results = given(units)
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps(sorted(set(sys.modules) - at_fork["modules"])) + "\\n")
    return results
runners._processes, runners._execute_given = forking, executing
assert main(["build", *sys.argv[2:]]) == 0
print(json.dumps(sorted(set(sys.modules) - at_fork["modules"])))
"""


@forking
def test_the_checkers_process_imports_nothing_the_build_imports_again(newgame, tmp_path):
    """What the checker's units import besides OR-Tools (numpy for preflight, the engine, the
    coverage's piece code) is imported before their process forks, once, not there and again by the
    build's own units: the modules of ours and of numpy that both sides imported after the fork
    (before: numpy, preflight's readers, the engine and the map code, about 0.1 CPU-s)."""
    log = tmp_path / "checker.txt"
    proc = subprocess.run([sys.executable, "-c", IMPORTED_ON_BOTH_SIDES, str(log), str(newgame), "--out",
                           str(tmp_path / "out"), "--jobs", "1", "--only", "check", "--only", "missing",
                           "--only", "maps"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    ours = ("generator", "solver", "numpy", "pypdf", "pypdfium2")
    checker = {m for line in log.read_text(encoding="utf-8").splitlines() for m in json.loads(line)}
    builder = set(json.loads(proc.stdout.splitlines()[-1]))
    assert any(m.startswith("ortools") for m in checker), "the check unit ran elsewhere"
    assert any(m.startswith("generator.hexmap") for m in builder), "the maps ran elsewhere"
    assert {m for m in checker & builder if m.split(".")[0] in ours} == set()


# a build of two games in a fresh interpreter, with one job: the pids that worked out a game's
# missing translations (generator/languages.py), and the checker's units' pids
TRANSLATIONS_WORKED_OUT = """import os, sys
import generator.languages as languages
import generator.runners as runners
from generator.cli import main
log = sys.argv[1]
real, given = languages._missing_translations, runners._execute_given
def working_out(game, lang):
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"translations {os.getpid()} {game.id} {lang}\\n")
    return real(game, lang)
def executing(units):
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"unit {os.getpid()} {' '.join(u.key for _, u in units)}\\n")
    return given(units)
languages._missing_translations, runners._execute_given = working_out, executing
from pathlib import Path
from generator.context import BuildContext
from generator.incremental import build
build(sys.argv[2:4], BuildContext(out_root=Path(sys.argv[4]), preflight=False), {"check", "missing"},
      runner=runners.pool(1))
"""


@forking
def test_a_game_sent_to_the_checkers_process_takes_its_planned_translations_along(newgame, tmp_path):
    """The checker's process forks once the first game is planned; a game loaded after is sent to it
    pickled, with what planning worked out for it (which languages lack what: the PO files parsed,
    the model walked), so that it is not worked out there again."""
    second = tmp_path / "beacons"
    assert main(["new", str(second)]) == 0
    log = tmp_path / "worked.txt"
    proc = subprocess.run([sys.executable, "-c", TRANSLATIONS_WORKED_OUT, str(log), str(newgame), str(second),
                           str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    checker = {pid for kind, pid, *keys in lines if kind == "unit" and keys[0].startswith("check:")}
    worked = [(pid, game) for kind, pid, game, *_ in lines if kind == "translations"]
    assert len(checker) == 1 and {game for _, game in worked} == {"lanterns", "beacons"}
    assert [game for pid, game in worked if pid in checker] == []
