"""OR-Tools' CP-SAT front end (ortools.sat.python.cp_model) imported without pandas, for the
checker's own process only (generator/runners.py starts it so).

cp_model.py imports pandas at its top for its Series API (`new_int_var_series` and kin), which the
checker never calls; importing pandas was some 0.2 of that process's 1.6 CPU-seconds in a cold
`build --all`. While cp_model.py is imported, `import pandas` there gives a stand-in that has only
the two names it reads at import (`pd.Index`, `pd.Series`: a Union alias and annotations); once
imported, its `pd` is replaced by a module that imports the real pandas at the first name read, so
that every call of cp_model that uses pandas at run time behaves as with pandas imported up front.
The stand-in is in sys.modules only during that import: a later `import pandas` anywhere in the
process gets the real one.

Tried once against the real import: if cp_model.py reads any other name of pandas at import (a newer
OR-Tools), fails to import, or cannot solve a small model with the stand-in in place, every module
that bound the stand-in is dropped and cp_model is imported with the real pandas, as before.

Only for a process that this build started and that runs nothing else (a forked process in which
no other thread imports): a thread importing pandas during that import would get the stand-in.
`pnp serve` (other threads), a platform that cannot fork (the checker in place) and Dask's workers
import cp_model as usual.
"""
from __future__ import annotations

import importlib
import sys
import types
from typing import Any

CP_MODEL = "ortools.sat.python.cp_model"
# the names of pandas that cp_model.py reads while it is imported (OR-Tools 9.x)
_AT_IMPORT = ("Index", "Series")


def _stand_in() -> types.ModuleType:
    """`pandas` as cp_model.py sees it while imported: a class of its own for each name it reads;
    any other name is an AttributeError, which fails the import."""
    stand_in = types.ModuleType("pandas", "stand-in for pandas while OR-Tools' cp_model is imported")
    for name in _AT_IMPORT:
        setattr(stand_in, name, type(name, (), {"__module__": "pandas (stand-in)"}))
    return stand_in


class _PandasOnUse(types.ModuleType):
    """cp_model's `pd` after its import: the real pandas, imported at the first name read (then
    bound in its place, so that later reads cost nothing)."""

    def __init__(self, user: types.ModuleType) -> None:
        super().__init__("pandas", "the real pandas, imported at its first use")
        self._user = user

    def __getattr__(self, name: str) -> Any:
        pandas = importlib.import_module("pandas")
        setattr(self._user, "pd", pandas)
        return getattr(pandas, name)


def import_cp_model_without_pandas(name: str = CP_MODEL) -> bool:
    """Import `name` (cp_model) with pandas left out until used; whether that was done (False: it or
    pandas was imported already, or it only imports with the real pandas, which it now has)."""
    if "pandas" in sys.modules or name in sys.modules:
        return False
    stand_in, before = _stand_in(), set(sys.modules)
    sys.modules["pandas"] = stand_in
    module: types.ModuleType | None = None
    try:
        module = importlib.import_module(name)
    except Exception:  # reads more of pandas than the stand-in has, or fails on it otherwise
        pass
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    if module is None or getattr(module, "pd", None) is not stand_in or not _solves(module):
        _import_again(stand_in, before, name)
        return False
    setattr(module, "pd", _PandasOnUse(module))
    return True


def _solves(cp_model: types.ModuleType) -> bool:
    """Whether a small model is solved and its solution read, as the checker's proofs do, with the
    stand-in in place (a pandas name read on the way fails it)."""
    try:
        model = cp_model.CpModel()
        x = model.new_int_var(0, 3, "x")
        b = model.new_bool_var("b")
        model.add(x >= 2).only_enforce_if(b)
        model.add_bool_or([b])
        model.minimize(x)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        return bool(solver.solve(model) == cp_model.OPTIMAL and solver.value(x) == 2)
    except Exception:
        return False


def _import_again(stand_in: types.ModuleType, before: set[str], name: str) -> None:
    """Every module imported during the attempt that bound the stand-in, dropped and imported again
    with the real pandas (cp_model itself among them)."""
    bound = [m for m in set(sys.modules) - before
             if m == name or any(v is stand_in for v in getattr(sys.modules[m], "__dict__", {}).values())]
    for m in bound:
        del sys.modules[m]
    importlib.import_module("pandas")
    importlib.import_module(name)
