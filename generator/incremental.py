"""Incremental builds: run only the work units whose inputs or outputs changed.

Each game's output folder keeps `.pnp-build.json`: per unit, the fingerprint of its inputs
(generator/units.py), the outputs it wrote (size and mtime, to notice a file deleted or edited
by hand), its warnings (replayed when the unit is skipped, so build-warnings.txt stays
whole) and the preflight findings of its PDFs by their bytes (generator/preflight.py `file_key`:
a unit that runs again and writes a PDF byte for byte as before does not have it read again).
The record survives an interrupted build: each file is entered as `pending` before it is
written, a unit that did not finish keeps its previous outputs on record with a cleared
fingerprint (so it runs next time and removes what it no longer writes), and every build removes
the pending files no unit claims. After SIGINT, SIGTERM or SIGKILL at any moment the next build
leaves exactly the files a clean build writes. A game whose every input file, option and code file hashes as last time, with its outputs
in place, is not even loaded: that is what makes a no-op `pnp build --all` fast.

Units run through a runner (generator/runners.py: in this process, a process pool, or Dask);
only this module puts files in the output folder, atomically, as results come back (a unit's
file is moved from its scratch folder in the output folder, or written from the bytes a Dask
worker sent; several units' files at once, from a few threads, so that their flushes to the disk
overlap: generator/placing.py), and it keeps only their names: no build holds its outputs in memory.
"""
from __future__ import annotations

import dataclasses
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from solver.errors import DataError, Problem

from .context import BuildContext
from .output import sweep_stale_folders, write_files, write_text
from .fingerprints import fingerprint, game_inputs_digest
from .gcpause import fewer_collections
from .placing import concurrently
from .units import SCRATCH, Unit, UnitResult, plan

if TYPE_CHECKING:
    from solver.game.loader import Game

RECORD = ".pnp-build.json"
RECORD_FORMAT = 1

# a runner takes the units to run a game's at a time, as each game is loaded (`_Loading`), and yields
# their results, the first once it has taken the last game's units
Runner = Callable[[Iterable[list[tuple["Game", Unit]]], BuildContext], Iterator[UnitResult]]


@dataclass
class BuildReport:
    built: list[Unit] = field(default_factory=list)
    skipped: list[Unit] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    loaded: list[str] = field(default_factory=list)  # games that had to be loaded (something changed)
    preflighted: list[str] = field(default_factory=list)  # PDFs preflight read (the rest it knew by their bytes)


def read_record(out_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((out_dir / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == RECORD_FORMAT else {}


def _stat(path: Path) -> list[int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def outputs_intact(root: Path, entry: dict[str, Any]) -> bool:
    """Whether every file the entry records has the size and mtime recorded. A no-op build asks this
    of every output (some 1,300 in `build --all`): by path strings, as `_stat` does through Path
    objects, which cost more than the stat itself."""
    base = os.fspath(root)
    for rel, recorded in (entry.get("outputs") or {}).items():
        try:
            st = os.stat(os.path.join(base, rel))
        except OSError:
            if recorded is not None:  # (`_stat` records a file that was gone as None)
                return False
            continue
        if [st.st_size, st.st_mtime_ns] != recorded:
            return False
    return True


@dataclass
class _GamePlan:
    folder: Path
    game_id: str
    digest: str
    record: dict[str, Any]
    game: Game | None = None
    units: list[Unit] = field(default_factory=list)
    fingerprints: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # the plan's own (a language left out)
    pending: set[str] = field(default_factory=set)     # files this build entered before writing them
    queued: set[str] = field(default_factory=set)      # files of results handed to the placing threads, not yet entered
    changed: bool = False  # to be loaded (`_Loading`): an input or output changed since the record
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)  # its record's pending entries
    # `queued`'s own: the build's thread (in a serial build, the one that runs the next unit) never waits
    # on a record being flushed
    queue_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


def build(names: Iterable[str | Path], ctx: BuildContext, only: set[str] | None = None, *,
          force: bool = False, runner: Runner | None = None,
          on_unit: Callable[[Unit, bool], None] | None = None) -> BuildReport:
    """Build the named games into ctx.out_root, skipping unchanged units (all of them with force=False
    and nothing changed). Every changed game is loaded and validated before anything is written.
    The garbage collector runs less often throughout (gcpause.py): loading the games and running
    the units each make hundreds of thousands of short-lived objects, and at Python's thresholds it
    walked the games, fonts and caches the build keeps again and again (0.9 against 0.6-0.7 CPU-s
    of collecting in a one-process build of the examples); the pool's workers and the checker's
    process, forked from this one, start with the same thresholds."""
    with fewer_collections():
        return _build(names, ctx, only, force, runner, on_unit)


def _build(names: Iterable[str | Path], ctx: BuildContext, only: set[str] | None, force: bool,
           runner: Runner | None, on_unit: Callable[[Unit, bool], None] | None) -> BuildReport:
    from .runners import serial

    report = BuildReport()
    _sweep_scratch(ctx.out_root)
    plans = [_plan_game(name, ctx, only, force) for name in names]  # may raise DataError
    _run(_Loading(plans, ctx, only, force, report, on_unit), ctx, only, runner or serial, report, on_unit)
    _replay_warnings(plans, ctx)
    return report


def _plan_game(name: str | Path, ctx: BuildContext, only: set[str] | None, force: bool) -> _GamePlan:
    """A game's plan: its units from the record when nothing it reads changed and its outputs are in
    place (the game is not even loaded), else marked to be loaded (`_Loading`)."""
    from solver.game.folders import resolve_game_dir

    folder = resolve_game_dir(name)
    digest = game_inputs_digest(folder, ctx, only)
    # The id is game.yaml's, validated; a game's id is mostly its folder's name, so that record is
    # tried first: a record whose last inputs are these files (game.yaml among them, by content) was
    # written under the id this very game.yaml validates to, and game.yaml need not be read at all.
    # (".." would name the output root's parent, not a game's folder in it)
    guess = folder.name if folder.name not in ("", "..") else ""
    gp = _GamePlan(folder, guess, digest, read_record(ctx.out_dir(guess)) if guess else {})
    unchanged = not force and _unchanged(gp, ctx)
    if not unchanged:
        from solver.game.loader import load_meta  # pydantic's models: only for a game to load

        game_id = load_meta(folder).id
        if game_id != gp.game_id:
            gp = _GamePlan(folder, game_id, digest, read_record(ctx.out_dir(game_id)))
            unchanged = not force and _unchanged(gp, ctx)
    if unchanged:
        last = gp.record["last"]
        gp.units = [_unit_of(gp.game_id, k) for k in last["units"]]
        gp.warnings = list(last.get("warnings") or [])
    gp.changed = not unchanged
    return gp


class _Loading:
    """The units to run, one game's at a time (in plan order), as each changed game is loaded,
    validated and planned: a runner may start the first game's units before the last game is loaded
    (the checker's process: generator/runners.py), where every game was once loaded before any unit
    started (a cold `build --all`: the second core idled while four more games were loaded and
    planned, some 0.35 CPU-s). Nothing is written till `done` (a runner yields no result before it
    has taken every game's units): a game that cannot be loaded raises before any file or record of
    the build is written."""

    def __init__(self, plans: list[_GamePlan], ctx: BuildContext, only: set[str] | None, force: bool,
                 report: BuildReport, on_unit: Callable[[Unit, bool], None] | None) -> None:
        self.plans, self.ctx, self.only, self.force = plans, ctx, only, force
        self.report, self.on_unit = report, on_unit
        self.done = False

    def __iter__(self) -> Iterator[list[tuple[Game, Unit]]]:
        for gp in self.plans:
            todo: list[tuple[Game, Unit]] = []
            if gp.changed:  # (pydantic's models imported only then: a no-op build loads no game)
                from solver.game.loader import load_game

                from .languages import with_drafts

                gp.game = with_drafts(load_game(gp.folder), self.ctx.drafts)  # raises DataError
                self.report.loaded.append(gp.game_id)
                todo = _changed_units(gp, self.ctx, self.only, self.force)
            running = {u.key for _, u in todo}
            for unit in gp.units:
                if unit.key not in running:
                    self.report.skipped.append(unit)
                    if self.on_unit:
                        self.on_unit(unit, True)
            if todo:
                yield todo
        self.done = True


def _unchanged(gp: _GamePlan, ctx: BuildContext) -> bool:
    """Whether the record says the game's last build read exactly these inputs and left every
    output of its units in place: then nothing needs to run, and the game is not even loaded."""
    last = gp.record.get("last") or {}
    units = gp.record.get("units") or {}
    return (last.get("inputs") == gp.digest and last.get("units") is not None
            and all(k in units and outputs_intact(ctx.out_root, units[k]) for k in last["units"]))


def _changed_units(gp: _GamePlan, ctx: BuildContext, only: set[str] | None,
                   force: bool) -> list[tuple[Game, Unit]]:
    """Plan the units of a loaded game; those whose fingerprint or outputs changed are to run."""
    assert gp.game is not None
    todo: list[tuple[Game, Unit]] = []
    gp.units = plan(gp.game, dataclasses.replace(ctx, warnings=gp.warnings), only)
    units = gp.record.get("units") or {}
    memo: dict = {}  # each part of the game's model dumped and hashed once for all its units
    for unit in gp.units:
        fp = gp.fingerprints[unit.key] = fingerprint(gp.game, unit, ctx, memo)
        entry = units.get(unit.key)
        if force or not entry or entry.get("fingerprint") != fp or not outputs_intact(ctx.out_root, entry):
            todo.append((gp.game, unit))
    return todo


def _run(loading: _Loading, ctx: BuildContext, only: set[str] | None, runner: Runner, report: BuildReport,
         on_unit: Callable[[Unit, bool], None] | None) -> None:
    """Run the units as their games are loaded, put each one's files in place as it comes back, and
    record what ran even when a unit fails or the build is interrupted (once every game is loaded);
    raise the units' problems at the end."""
    results: dict[tuple[str, str], Done] = {}
    problems: list[Problem] = []
    plans = loading.plans
    by_game = {gp.game_id: gp for gp in plans}
    if ctx.preflight:  # the findings of every PDF on record: one whose bytes come back the same is not read again
        ctx = dataclasses.replace(ctx, preflight_known={k: v for gp in plans for k, v in kept_findings(gp.record).items()})
    lock = threading.Lock()
    # the files put in place, as the results name them (relative to the output root), for the records:
    # not worked out again from 1,300 placed paths (relative_to, as_posix)
    placed: set[str] = set()

    def place(result: UnitResult) -> None:  # on a placing thread, several results at once (placing.py)
        # (a file left in its process's scratch folder when this fails goes with that folder: `_sweep_scratch`)
        _enter_pending(by_game[result.unit.game], ctx, set(result.files))
        written = write_files(ctx.out_root, result.files)
        with lock:
            report.written += written
            placed.update(result.files)
            results[(result.unit.game, result.unit.key)] = Done(sorted(result.files), result.warnings, result.preflight)
            report.preflighted += result.preflighted

    try:
        with concurrently() as submit:  # its threads start with the first result: after every fork
            for result in runner(loading, ctx):
                assert loading.done, "a runner yields a result only once it has taken every game's units"
                if not result.problems:
                    gp = by_game[result.unit.game]
                    with gp.queue_lock:  # entered with the first of its game's results placed after it (_enter_pending)
                        gp.queued |= set(result.files)
                    submit(place, result)
                else:  # a unit found unusable input while drawing: nothing of it to write (units.execute)
                    problems += result.problems
                report.built.append(result.unit)
                if on_unit:
                    on_unit(result.unit, False)
    finally:
        if loading.done:  # else a game failed to load (or Ctrl-C came first): nothing was written
            with concurrently() as submit:  # each game's record in its own folder
                for gp in plans:
                    if gp.game is not None:  # (a game not loaded keeps its record)
                        submit(_update_record, gp, ctx, only, results, report, placed)
        _sweep_scratch(ctx.out_root)
    if problems:
        raise DataError(problems)


def _sweep_scratch(out_root: Path) -> None:
    """Remove the units' scratch folders no unit is using: those of a build that was killed, and,
    before or after this process's build, its own (a result the build never took: Ctrl-C), and after
    it those of the processes it ran units in (one folder a process: generator/units.py), gone by
    then."""
    if out_root.is_dir():
        sweep_stale_folders(out_root, SCRATCH, mine=True)


@dataclass
class Done:
    """What the record keeps of a unit that ran: the names of its files, its warnings and the
    preflight findings of its PDFs (by file_key: a PDF that comes back the same is not read again)."""
    files: list[str]
    warnings: list[str]
    preflight: dict[str, list]


def _enter_pending(gp: _GamePlan, ctx: BuildContext, rels: set[str]) -> None:
    """Enter files in the record as pending before they are written, so that a build killed while
    writing them leaves their names behind for the next build to sweep; the record's last inputs
    are cleared, so that next build loads the game and sweeps. The files of the game's other results
    already handed to the placing threads (`queued`) are entered with them: a record written (and
    flushed) for several units, not one each (a cold `build --all`: a component's languages come
    back together, 152 records written one a unit)."""
    with gp.lock:  # results of one game placed at once: each record written holds every name entered
        if rels <= gp.pending:  # entered with another result's
            return
        with gp.queue_lock:
            gp.pending |= rels | gp.queued
            gp.queued = set()
        record = {"format": RECORD_FORMAT, "units": gp.record.get("units") or {},
                  "last": {**(gp.record.get("last") or {}), "inputs": None},
                  "pending": sorted(set(gp.record.get("pending") or []) | gp.pending)}
        write_text(ctx.out_dir(gp.game_id) / RECORD, json.dumps(record, indent=1, sort_keys=True) + "\n")


def _replay_warnings(plans: list[_GamePlan], ctx: BuildContext) -> None:
    """Warnings in plan order, whether the unit ran now or earlier, so that every build reports the
    same; once each (every card unit writes, and preflights, the same calibration page)."""
    warnings: list[str] = []
    for gp in plans:
        warnings += gp.warnings
        units = gp.record.get("units") or {}  # as written: `_update_record` keeps it (one parse a build)
        for unit in gp.units:
            warnings += (units.get(unit.key) or {}).get("warnings", [])
    for w in dict.fromkeys(warnings):
        ctx.warn(w)


def kept_findings(record: dict[str, Any]) -> dict[str, Any]:
    """The preflight findings a record keeps, by file_key (generator/preflight.py), over all its units."""
    kept: dict[str, Any] = {}
    for entry in (record.get("units") or {}).values():
        if isinstance(entry, dict) and isinstance(entry.get("preflight"), dict):
            kept.update(entry["preflight"])
    return kept


def _unit_of(game_id: str, key: str) -> Unit:
    stage, part, lang = key.split(":")
    return Unit(game_id, stage, None if part == "*" else part, lang)


def _update_record(gp: _GamePlan, ctx: BuildContext, only: set[str] | None,
                   results: dict[tuple[str, str], Done], report: BuildReport, written: set[str]) -> None:
    """Record what ran; remove outputs of units that no longer exist (a deck deleted or renamed).
    `written`: the files this build put in place, relative to the output root."""
    if gp.game is None:
        return
    stats: dict[str, list[int] | None] = {}  # each file's once: every file is in place by now, and one
    # written now was asked for twice below (its unit's output, then again for every unit claiming it)

    def stat(rel: str) -> list[int] | None:
        return stats[rel] if rel in stats else stats.setdefault(rel, _stat(ctx.out_root / rel))

    units: dict[str, Any] = dict(gp.record.get("units") or {})
    planned = {u.key for u in gp.units}
    complete = True
    for unit in gp.units:
        result = results.get((unit.game, unit.key))
        if result is not None:
            old = set((units.get(unit.key) or {}).get("outputs", {}))
            units[unit.key] = {"fingerprint": gp.fingerprints[unit.key], "warnings": result.warnings,
                               "outputs": {rel: stat(rel) for rel in sorted(result.files)},
                               "preflight": result.preflight}
            _remove_unclaimed(old - set(result.files), units, ctx, report)
        elif unit.key in units and units[unit.key].get("fingerprint") == gp.fingerprints[unit.key]:
            pass  # skipped: unchanged
        else:  # failed or interrupted: run it next time, and keep its files on record till then
            if unit.key in units:
                units[unit.key] = {**units[unit.key], "fingerprint": None}
            complete = False
    # a file several units write (the cards' calibration page) was rewritten: every claimant sees it new
    for entry in units.values():
        for rel in entry.get("outputs", {}):
            if rel in written:
                entry["outputs"][rel] = stat(rel)
    stages = {u.stage for u in gp.units} | (set(only) if only else set())
    for key in [k for k in units if k not in planned and k.split(":")[0] in stages
                and k.split(":")[2] in {u.lang for u in gp.units}]:
        gone = units.pop(key)
        _remove_unclaimed(set(gone.get("outputs", {})), units, ctx, report)
    # files entered before writing, by this build or a killed one, that no unit claims
    _remove_unclaimed(set(gp.record.get("pending") or []) | gp.pending, units, ctx, report)
    record = {"format": RECORD_FORMAT, "units": dict(sorted(units.items())),
              "last": {"inputs": gp.digest if complete else None, "units": [u.key for u in gp.units],
                       "warnings": gp.warnings}}
    write_text(ctx.out_dir(gp.game_id) / RECORD, json.dumps(record, indent=1, sort_keys=True) + "\n")
    gp.record = record


def _remove_unclaimed(paths: set[str], units: dict[str, Any], ctx: BuildContext, report: BuildReport) -> None:
    claimed = {rel for entry in units.values() for rel in entry.get("outputs", {})}
    for rel in sorted(paths - claimed):
        path = ctx.out_root / rel
        if path.is_file():
            path.unlink()
            report.removed.append(path)
