"""A process the build forks (a pool's worker, the checker's) collects none of the objects it
inherits (generator/runners.py `_frozen`: a collection writes into each object it walks, and the
kernel copies each page so written).
"""
from __future__ import annotations

import gc
import multiprocessing

import pytest

from generator import runners
from generator.context import BuildContext


def frozen_in_worker(units) -> int:  # a pool's task, run in the worker (see below)
    return gc.get_freeze_count()


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="a forked process")
def test_a_forked_process_collects_none_of_what_it_inherits(monkeypatch):
    monkeypatch.setattr(runners, "_execute_given", frozen_in_worker)  # (the worker, forked, has it too)
    with runners._processes(1, multiprocessing.get_context("fork"), [], BuildContext()) as submit:
        inherited = submit([]).result()
    assert inherited > 10_000  # this process's objects, the modules', the test run's
    assert gc.get_freeze_count() == 0  # given back here
