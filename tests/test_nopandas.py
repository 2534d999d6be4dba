"""The checker's own process imports OR-Tools' cp_model without pandas (solver/proof/nopandas.py,
generator/runners.py `_start_optimiser`); pandas comes in at the first use of a name of it, the real
one. Tried once against the real import: a cp_model that reads more of pandas at import, or that
cannot solve with the stand-in, gets the real pandas. Nowhere else: a build that runs the checker in
place (another thread running, as `pnp serve` does; a platform that cannot fork) and a Dask worker
import cp_model with pandas, as before. Each case runs in a fresh interpreter: the test process may
have imported pandas already."""
from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gamefiles import write_game

forking = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                             reason="the checker's own process needs fork")

GAME = {
    "game.yaml": "id: lamps\ntitle: {en: Lamps}\nplayers: {min: 2, max: 3}\nsource_language: en\nlanguages: [en]\n",
    "components.yaml": "components:\n  - id: deck\n    kind: deck\n    name: {en: Deck}\n    size: poker\n"
                       "    items:\n      - {id: lamp, name: {en: Lamp}, count: 6}\n",
    "setup.yaml": "steps:\n  - use: deck\n  - shuffle: deck\n  - deal: deck\n    each: 2\n",
}


def run(code: str, *args: str, cwd: Path | None = None) -> dict:
    """`code` run by a fresh interpreter; what it prints last, as JSON."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_cp_model_imported_without_pandas_loads_the_real_one_at_first_use():
    got = run("""
        import json, sys
        from solver.proof.nopandas import import_cp_model_without_pandas
        done = import_cp_model_without_pandas()
        from ortools.sat.python import cp_model
        before = "pandas" in sys.modules
        m = cp_model.CpModel()
        x = m.new_int_var(0, 9, "x")
        m.add(x >= 4)
        m.minimize(x)
        s = cp_model.CpSolver()
        solved = s.solve(m) == cp_model.OPTIMAL and s.value(x) == 4
        after_solve = "pandas" in sys.modules
        import pandas
        series = m.new_int_var_series("y", pandas.Index([1, 2]), 0, 3)  # pandas used by cp_model
        print(json.dumps({"done": done, "before": before, "solved": solved, "after_solve": after_solve,
                          "series": isinstance(series, pandas.Series), "frame": hasattr(pandas, "DataFrame"),
                          "bound": cp_model.pd is pandas}))
    """)
    assert got == {"done": True, "before": False, "solved": True, "after_solve": False, "series": True,
                   "frame": True, "bound": True}


def test_with_pandas_imported_already_cp_model_is_imported_as_usual():
    got = run("""
        import json, pandas
        from solver.proof.nopandas import import_cp_model_without_pandas
        done = import_cp_model_without_pandas()
        from ortools.sat.python import cp_model
        print(json.dumps({"done": done, "bound": cp_model.pd is pandas}))
    """)
    assert got == {"done": False, "bound": True}


FAKES = {
    # reads a name of pandas at import that the stand-in does not have (a newer OR-Tools, say)
    "reads_more": "import fakehelper\nimport pandas as pd\nALIAS = pd.Index\nFRAME = pd.DataFrame\n",
    # imports, but its model uses pandas where the checker's calls go
    "solves_not": "import fakehelper\nimport pandas as pd\nALIAS = pd.Series\nOPTIMAL = 4\n"
                  "class CpModel:\n    def __init__(self):\n        self.frame = pd.DataFrame()\n",
}


@pytest.mark.parametrize("fake", sorted(FAKES))
def test_a_cp_model_that_needs_more_of_pandas_gets_the_real_one(tmp_path, fake):
    (tmp_path / "fakecp.py").write_text(FAKES[fake], encoding="utf-8")
    (tmp_path / "fakehelper.py").write_text("import pandas as pd\n", encoding="utf-8")  # bound the stand-in too
    got = run("""
        import json, sys
        sys.path.insert(0, sys.argv[1])
        from solver.proof.nopandas import import_cp_model_without_pandas
        done = import_cp_model_without_pandas("fakecp")
        import fakecp, fakehelper, pandas
        print(json.dumps({"done": done, "cp": fakecp.pd is pandas, "helper": fakehelper.pd is pandas,
                          "frame": hasattr(pandas, "DataFrame")}))
    """, str(tmp_path))
    assert got == {"done": False, "cp": True, "helper": True, "frame": True}


# a build of `lamps` (its check unit only) in the way `mode` says; the unit's process tells whether
# it had pandas and what cp_model's `pd` was once the unit ran
BUILD = """
    import json, os, sys, threading
    from pathlib import Path
    from generator import runners
    from generator.context import BuildContext
    from generator.incremental import build
    mode, folder, out, probe = sys.argv[1:5]
    real = runners.execute

    def execute(game, unit, ctx, scratch_in=None):
        result = real(game, unit, ctx, scratch_in)
        cp = sys.modules["ortools.sat.python.cp_model"]
        pandas = sys.modules.get("pandas")
        Path(probe).write_text(json.dumps({"pid": os.getpid(), "pandas": pandas is not None,
                                           "pd": type(cp.pd).__name__, "real": cp.pd is pandas}))
        return result

    runners.execute = execute  # inherited by a forked process
    ctx = BuildContext(out_root=Path(out), preflight=False)
    runner = runners.serial
    if mode == "thread":  # `pnp serve`: its server and watcher threads run
        threading.Thread(target=threading.Event().wait, daemon=True).start()
    elif mode == "nofork":
        runners._fork = lambda: None
    if mode == "dask":
        import distributed
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            build([Path(folder)], ctx, {"check"}, runner=runners.dask(client))
    else:
        build([Path(folder)], ctx, {"check"}, runner=runner)
    got = json.loads(Path(probe).read_text())
    got["here"] = got.pop("pid") == os.getpid()
    got["ok"] = json.loads((Path(out) / "lamps" / "check-report.json").read_text())["ok"]
    got["pandas here"] = "pandas" in sys.modules
    print(json.dumps(got))
"""


def build_lamps(tmp_path: Path, mode: str) -> dict:
    folder = write_game(tmp_path / "lamps", GAME)
    return run(BUILD, mode, str(folder), str(tmp_path / "out"), str(tmp_path / "probe.json"))


@forking
def test_the_checkers_own_process_runs_without_pandas(tmp_path):
    got = build_lamps(tmp_path, "fork")
    assert got == {"here": False, "pandas": False, "pd": "_PandasOnUse", "real": False, "ok": True,
                   "pandas here": False}


@pytest.mark.parametrize("mode", ["thread", "nofork"])
def test_a_checker_run_in_place_has_the_real_pandas(tmp_path, mode):
    got = build_lamps(tmp_path, mode)
    assert got == {"here": True, "pandas": True, "pd": "module", "real": True, "ok": True, "pandas here": True}


def test_a_dask_worker_has_the_real_pandas(tmp_path):
    pytest.importorskip("distributed", reason="Dask distributed not installed (pip install '.[distributed]')")
    got = build_lamps(tmp_path, "dask")
    assert got == {"here": True, "pandas": True, "pd": "module", "real": True, "ok": True, "pandas here": True}
