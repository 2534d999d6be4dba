"""Putting a build's files in place from a few threads at once, so that their flushes overlap.

Each file a unit returns is flushed to the disk before it is renamed into place (generator/output.py),
and each unit's file names are entered in its game's build record, itself flushed, before that
(generator/incremental.py). A flush waits on the disk, 2-15 ms on the 2-core machine of issue 26,
and a cold `build --all` makes some 1,900 of them (1,297 files, 152 pending records and their
folders). Made one after another by the build's own process, they left it behind the workers at
the end: the last units' files and the records were put in place with every core idle, 0.3-1.2 s
after the last unit ended (`--jobs 2`). Flushes made from several threads overlap (the file system
commits them together: 150 small files 0.07-0.35 s against 1.4-2.4 s one by one, same CPU). The
threads only wait on the disk: the drawing stays in the units' processes.

Used only once every process a build forks is started (a fork copies the locks the threads hold).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator

if TYPE_CHECKING:
    from concurrent.futures import Future

# enough to overlap the flushes; more only adds threads waiting on the same journal commits
THREADS = 4


@contextmanager
def concurrently(threads: int = THREADS) -> Iterator[Callable[..., None]]:
    """A function that runs `fn(*args)` on one of `threads` threads; when the block ends, every call
    has ended, and the first that raised raises here (a disk that filled up: its DataError). When
    the block itself raises (Ctrl-C), the calls not yet started are dropped: the caller's record of
    what was placed must not wait on them. No thread starts before the first call (a no-op build
    makes none)."""
    futures: list[Future[Any]] = []
    pool: list[Any] = []

    def submit(fn: Callable[..., Any], *args: Any) -> None:
        if not pool:
            from concurrent.futures import ThreadPoolExecutor

            pool.append(ThreadPoolExecutor(threads, thread_name_prefix="pnp-place"))
        futures.append(pool[0].submit(fn, *args))

    try:
        yield submit
    except BaseException:
        if pool:
            pool[0].shutdown(cancel_futures=True)
        raise
    finally:
        if pool:
            pool[0].shutdown()
    for fut in futures:
        fut.result()
