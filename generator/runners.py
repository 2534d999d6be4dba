"""Where work units run: in this process, in a local process pool, or on a Dask cluster.

A runner takes (game, unit) pairs and yields each unit's `UnitResult` as it completes. A local
pool's worker is given the validated games and the build's context once, when it starts (forked:
inherited, never pickled; no data file is read there), and a task ships only its unit; before
forking, the build imports the drawing code and reads the fonts its workers would each load
(units.prepare), so that they share it. A Dask worker is sent the game with each unit. What comes
back is the unit's warnings and its files: from this process or a local
pool, paths in a scratch folder inside the output folder (the caller moves them into place, so
no process holds a unit's files in memory); from a Dask worker, bytes, so outputs land only
where `pnp build` runs and a worker needs the project installed (same version) but no shared
disk. We never schedule across machines ourselves: Dask distributed does.

The units of the stages that load the optimiser (OPTIMISER: the checker's OR-Tools, about 65 MB
that no `del` gives back) run, locally, in a process of their own, forked before any unit runs,
as soon as the first game is loaded (while the build holds only the loaded games; a game loaded
after goes to it pickled with its unit; in place while other threads run, as in `pnp serve`)
and gone when they are done: the processes that print never load it, and none holds
both the optimiser and the drawing caches (issue 26: every process of a cold `build --all` under
300 MB). Where a platform cannot fork they run in place.
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from solver.errors import DataError, Problem
from solver.game.objmemo import adopt, travelling

from .context import BuildContext
from .units import Unit, UnitResult, execute, prepare, share_with_optimiser

if TYPE_CHECKING:
    from concurrent.futures import Future

    from solver.game.loader import Game


_WEIGHT = {"rulebooks": 10_000, "maps": 5_000, "manifest": 0}


def _cost(task: tuple[Game, Unit]) -> int:
    """A unit's rough size: rulebooks and maps first, then decks by their piece count."""
    game, unit = task
    if unit.part is not None:
        comp = game.component(unit.part)
        return sum(i.count or 1 for i in comp.items) or (comp.count or 1)
    return _WEIGHT.get(unit.stage, 1_000)


def _largest_first(tasks: list[tuple[Game, Unit]]) -> list[tuple[Game, Unit]]:
    """Longest-processing-time order, so that no core idles at the end waiting on one big unit."""
    return sorted(tasks, key=lambda t: -_cost(t))


def _languages_together(tasks: list[tuple[Game, Unit]]) -> list[list[tuple[Game, Unit]]]:
    """The units of one game's stage and component, in every language, as one task, largest first.
    A worker keeps what a unit drew for the next (a deck's symbol tiles, its faces' PNGs, a map's hex
    tiles, the fonts' glyphs: per-process memos): with each language on whichever worker was free,
    a cold `build --all --jobs 2` drew 42 of its 91 symbol tiles twice."""
    groups: dict[tuple[str, str, str | None], list[tuple[Game, Unit]]] = {}
    for game, unit in tasks:
        groups.setdefault((unit.game, unit.stage, unit.part), []).append((game, unit))
    return sorted(groups.values(), key=lambda g: -sum(_cost(t) for t in g))


# stages whose units load the optimiser (solver/proof: OR-Tools and pandas)
OPTIMISER = {"check"}
# units a worker must have before the build prepares what every worker loads (_forked_pool)
PREPARE_PER_WORKER = 8


# the units to run, a game's at a time as each is loaded (generator/incremental.py `_Loading`)
Tasks = Iterable[list[tuple["Game", Unit]]]


def serial(tasks: Tasks, ctx: BuildContext) -> Iterator[UnitResult]:
    """One unit at a time: the optimiser's first, in their own process, then the rest in this one."""
    with _optimiser_apart(tasks, ctx) as (apart, rest):
        for fut in apart:
            yield from fut.result()
    for game, unit in rest:
        yield execute(game, unit, ctx, ctx.out_root)


def _fork() -> Any:
    import multiprocessing  # here and below, not at the top: a build with no unit to run (a no-op) starts no process

    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _apart_context() -> Any:
    """How the optimiser's process starts: forked from a process that runs no other thread (cheap:
    it shares the loaded games); None (in this process, as before the optimiser ran apart) where
    other threads run (`pnp serve`'s server and watcher): a fork there copies the locks those
    threads hold. (The preview's missed saves once blamed on the checker's process were the page's
    own race, fixed in generator/gallery.py; `pnp serve` keeps the optimiser loaded, as before.)"""
    return _fork() if threading.active_count() == 1 else None


@contextmanager
def _optimiser_apart(tasks: Tasks, ctx: BuildContext) -> Iterator[tuple[list[Future], list]]:
    """Every task taken, the optimiser's units started in one process of their own as their games
    come (their futures, in order), and the other tasks; the process is gone when the block ends.
    Without one, every task is in `rest`. The process forks as soon as the first game with such a
    unit is loaded, so that it runs while this process loads the other games (a cold `build --all`:
    forked after all were loaded and planned, the second core idled for half a second); a game
    loaded after the fork is pickled with its unit (the checker's unit is one a game: 5-60 ms)."""
    taken: list[tuple[Game, Unit]] = []
    apart: list[Future] = []
    submit: Callable[[list[tuple[Game, Unit]]], Future] | None = None
    decided = False
    with ExitStack() as stack:
        for batch in tasks:
            taken += batch
            mine = [t for t in batch if t[1].stage in OPTIMISER]
            if mine and not decided:
                decided, method = True, _apart_context()
                if method is not None:
                    if len(mine) < len(taken):  # what its units import that the others import too,
                        share_with_optimiser(ctx)  # imported once: here, before it forks
                    submit = stack.enter_context(_processes(1, method, taken, ctx, start=_start_optimiser))
            if submit is not None:
                apart += [submit([task]) for task in mine]
        yield apart, [t for t in taken if submit is None or t[1].stage not in OPTIMISER]


# what a worker was given when it started: the build's games and context (see `_processes`)
_GIVEN: tuple[list[Game], BuildContext] | None = None


@contextmanager
def _processes(workers: int, method: Any, tasks: list[tuple[Game, Unit]], ctx: BuildContext,
               start: Callable[[int, list[Game], BuildContext], None] | None = None,
               ) -> Iterator[Callable[[list[tuple[Game, Unit]]], Future]]:
    """A pool of `workers` processes, each given the tasks' games and the build's context once, when
    it starts (forked: inherited, never pickled; spawned: pickled once a worker), and a function
    that submits a task, units one worker runs in turn (its future: their results): only the units
    cross to the worker. A game pickled with each of its units
    cost a cold `build --all --jobs 2` about a CPU-second in pickling and unpickling, and gave each
    unit a copy of its own, so no memo of the game one unit filled served the next. `start`: what
    each worker does first (`_start_worker` by default)."""
    from concurrent.futures import ProcessPoolExecutor

    games = list({id(game): game for game, _ in tasks}.values())
    index: dict[int, int] = {id(game): i for i, game in enumerate(games)}
    with _frozen(), ProcessPoolExecutor(workers, mp_context=method, initializer=start or _start_worker,
                                        initargs=(os.getpid(), games, ctx)) as ex:
        try:  # a game not given at the start (loaded after the fork: `_optimiser_apart`) goes with its unit,
            # and with what planning worked out for it (solver/game/objmemo.py `travelling`)
            yield lambda group: ex.submit(_execute_given, [(index[id(game)] if id(game) in index else (game, travelling(game)), unit)
                                                           for game, unit in group])
        except BaseException:  # a game that failed to load, Ctrl-C: the units not started are not waited for
            ex.shutdown(cancel_futures=True)
            raise


@contextmanager
def _frozen() -> Iterator[None]:
    """Every object this process holds moved out of the garbage collector's sight while it forks
    processes (`gc.freeze`): their collections then never walk what they inherit (the games, the
    fonts, the drawing code), where each walk wrote into every one of those objects, and the kernel
    copied every page so written for that process. Given back to this process's collector when the
    processes are done (`pnp serve` builds again and again)."""
    import gc

    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _start_worker(parent: int, games: list[Game], ctx: BuildContext) -> None:
    global _GIVEN
    _GIVEN = (games, ctx)
    _die_with_parent(parent)


def _start_optimiser(parent: int, games: list[Game], ctx: BuildContext) -> None:
    """The optimiser's process start-up: OR-Tools' cp_model imported without pandas (solver/proof/nopandas.py:
    about 0.2 CPU-s; it reads pandas only in an API the checker never calls), before any other thread
    of this process runs, then as any worker."""
    from solver.proof.nopandas import import_cp_model_without_pandas

    import_cp_model_without_pandas()
    _start_worker(parent, games, ctx)


def _execute_given(units: list[tuple[int | tuple[Game, dict], Unit]]) -> list[UnitResult]:
    """Units, each of the n-th game the worker was given (or of the game sent with it, with the answers
    kept for it there), one after the other in the build's context."""
    assert _GIVEN is not None, "a task reached a process not started by _processes"
    games, ctx = _GIVEN
    results = []
    for given, unit in units:
        if isinstance(given, int):
            game = games[given]
        else:
            game, answers = given
            adopt(game, answers)
        results.append(execute(game, unit, ctx, ctx.out_root))
    return results


def _die_with_parent(parent: int) -> None:
    """Pool worker start-up: exit as soon as the build that started the pool is gone.

    A forked worker inherits the build's open files, the output folder's lock among them. When
    the build is SIGKILLed (no `finally` runs), its workers would otherwise wait for tasks forever,
    holding that lock, and every later build into the folder would wait on them (found by the
    kill trials of bench/stress.py). Workers only compute (the parent writes every file), so
    exiting at once loses nothing."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


def pool(jobs: int):
    """A runner over `jobs` local processes (forked where the platform allows, else spawned)."""
    def run(tasks: Tasks, ctx: BuildContext) -> Iterator[UnitResult]:
        if jobs <= 1:
            yield from serial(tasks, ctx)
            return
        # the optimiser's process is forked as the games load, the pool's once all are loaded; for
        # the few seconds the optimiser's units take, one process more than `jobs` runs
        with _optimiser_apart(tasks, ctx) as (apart, rest):
            if len(apart) + len(rest) <= 1:  # one unit: no pool, as `serial` runs it
                for fut in apart:
                    yield from fut.result()
                for game, unit in rest:
                    yield execute(game, unit, ctx, ctx.out_root)
                return
            yield from _pooled(jobs, apart, rest, ctx)
    return run


def _pooled(jobs: int, apart: list[Future], rest: list[tuple[Game, Unit]], ctx: BuildContext) -> Iterator[UnitResult]:
    """The results of the optimiser's units (`apart`) and of the rest, run in a pool, as they complete."""
    from concurrent.futures import as_completed

    with _forked_pool(jobs, rest, ctx) as submit:
        # a big build sends each component's languages to one worker; a small one (an edit)
        # spreads them, so that the one component it rebuilds uses every core
        groups = (_languages_together(rest) if len(rest) >= PREPARE_PER_WORKER * jobs
                  else [[task] for task in _largest_first(rest)])
        futures = apart + [submit(group) for group in groups]
        for fut in as_completed(futures):
            yield from fut.result()


@contextmanager
def _forked_pool(jobs: int, tasks: list[tuple[Game, Unit]],
                 ctx: BuildContext) -> Iterator[Callable[[list[tuple[Game, Unit]]], Future]]:
    """`_processes` for the pool's tasks, forked where the platform allows (else spawned). Before it
    forks, this process does what each worker would do first (units.prepare: the drawing code
    imported, the fonts registered), so that the workers share it instead of each doing it again.
    Only for a build of many units (PREPARE_PER_WORKER a worker): it costs this process about 0.4 s
    before any worker starts, which a small rebuild (one card edited) would feel as delay."""
    import multiprocessing

    fork = _fork()
    workers = max(1, min(jobs, len(tasks)))
    if fork is not None and len(tasks) >= PREPARE_PER_WORKER * workers:
        prepare(tasks, ctx)
    with _processes(workers, fork or multiprocessing.get_context("spawn"), tasks, ctx) as submit:
        yield submit


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def dask(address: Any):
    """A runner on an existing Dask distributed scheduler (`tcp://host:8786`), or on a `Client`."""
    def run(batches: Tasks, ctx: BuildContext) -> Iterator[UnitResult]:
        tasks = [task for batch in batches for task in batch]  # every game loaded before a unit is sent
        try:
            from distributed import Client, as_completed as dask_completed
        except ImportError:
            raise DataError([Problem("--scheduler", 0, 0, "Dask distributed is not installed",
                                     "install the extra: pip install 'pnp-forge[distributed]'")])
        if not tasks:
            return
        own = isinstance(address, str)
        try:
            client: Any = Client(address, timeout="10s") if own else address
        except OSError as e:
            raise DataError([Problem("--scheduler", 0, 0, f"cannot reach {address} ({e})",
                                     "start a scheduler (dask scheduler) and workers, or drop --scheduler")])
        try:
            futures = [client.submit(execute, game, unit, ctx, pure=False) for game, unit in _largest_first(tasks)]
            for fut in dask_completed(futures):
                yield fut.result()
        finally:
            if own:
                client.close()
    return run
