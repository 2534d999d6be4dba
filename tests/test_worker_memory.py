"""A process the build forks (a pool's worker, the checker's) collects none of the objects it
inherits (generator/runners.py `_frozen`: a collection writes into each object it walks, and the
kernel copies each page so written), and keeps the memory it frees for its next allocations (generator/runners.py `_keep_freed_memory`): at glibc's own thresholds each large buffer
its units allocate again and again was a fresh mapping, every page of it faulted in and zeroed by the
kernel again. Measured in a fresh interpreter (glibc's thresholds grow with the blocks a process has
freed, so this one's say nothing), started as a worker starts or not (the control): the minor page
faults of sixteen buffers of 1 to 16 MB, each filled, then freed."""
from __future__ import annotations

import gc
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator import runners
from generator.context import BuildContext

ROOT = Path(__file__).resolve().parent.parent

BUFFERS = """import os, resource, sys
from generator.context import BuildContext
from generator.runners import _start_worker
if sys.argv[1] == "worker":
    _start_worker(os.getppid(), [], BuildContext())
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for mb in range(1, 17):
    buffer = bytearray(mb << 20)
    del buffer
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""
PAGES_OF_THE_LARGEST = (16 << 20) // 4096


def faults(start: str) -> int:
    proc = subprocess.run([sys.executable, "-c", BUFFERS, start], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return int(proc.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux") or "glibc" not in (os.confstr("CS_GNU_LIBC_VERSION") or ""),
                    reason="glibc's malloc")
def test_a_forked_process_reuses_the_memory_it_freed():
    worker, control = faults("worker"), faults("control")
    assert worker < 1.5 * PAGES_OF_THE_LARGEST < control, (worker, control)


def frozen_in_worker(units) -> int:  # a pool's task, run in the worker (see below)
    return gc.get_freeze_count()


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="a forked process")
def test_a_forked_process_collects_none_of_what_it_inherits(monkeypatch):
    monkeypatch.setattr(runners, "_execute_given", frozen_in_worker)  # (the worker, forked, has it too)
    with runners._processes(1, multiprocessing.get_context("fork"), [], BuildContext()) as submit:
        inherited = submit([]).result()
    assert inherited > 10_000  # this process's objects, the modules', the test run's
    assert gc.get_freeze_count() == 0  # given back here
