"""The same work units on Dask distributed (a LocalCluster in this process) give the same bytes as
a local build, and the workers' warnings come back into the build's report."""
# Builds here skip preflight (preflight=False): it only adds warnings, never bytes, and is tested
# in tests/test_preflight.py; it would double each build's time.

from __future__ import annotations

from pathlib import Path

import pytest

from generator.context import BuildContext
from generator.incremental import RECORD, build
from generator.runners import dask, serial

distributed = pytest.importorskip("distributed", reason="Dask distributed not installed (pip install '.[distributed]')")


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != RECORD}


def test_dask_local_cluster_gives_the_same_bytes(game_copy, tmp_path):
    game = game_copy("dont-drop-the-ring")
    # a count nobody states: the card stage warns and prints one copy, on whichever worker runs it
    comps = game / "components.yaml"
    text = comps.read_text(encoding="utf-8")
    assert "        count: 1\n" in text
    comps.write_text(text.replace("        count: 1\n", "        count: null\n"), encoding="utf-8")
    only = {"manifest", "cards"}
    local_ctx, dask_ctx = BuildContext(preflight=False, out_root=tmp_path / "local"), BuildContext(preflight=False, out_root=tmp_path / "dask")
    build([game], local_ctx, only, runner=serial)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        report = build([game], dask_ctx, only, runner=dask(client))
    assert {u.key for u in report.built} >= {"manifest:*:ja", "cards:gem-cards:ja"}
    local, remote = files(tmp_path / "local"), files(tmp_path / "dask")
    assert len(local) > 20 and local == remote
    assert any("start-player" in w and "count unknown" in w for w in dask_ctx.warnings)
    assert dask_ctx.warnings == local_ctx.warnings
