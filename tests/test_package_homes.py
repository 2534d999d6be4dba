"""Homes a newcomer guesses: the game model and its loading in solver/game/, the rules engine in
solver/engine/, each package's docstring mapping its concepts to its modules, and imports that
point one way (generator/ -> solver/; within solver/: checker -> engine -> game model)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["solver", "solver/game", "solver/engine", "solver/proof", "solver/hexmap", "solver/counts", "generator/pieces"]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The absolute module names a file imports from (relative imports resolved)."""
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            # `from solver import expr` imports the module solver.expr
            out |= {f"{module}.{a.name}" for a in node.names if (ROOT / module.replace(".", "/") / f"{a.name}.py").exists()}
    return out


@pytest.mark.parametrize("package", PACKAGES)
def test_package_docstring_names_every_module(package):
    """The package docstring is the map a newcomer reads first: every module of the package is on
    it, and every module it names exists."""
    folder = ROOT / package
    on_disk = {p.name for p in folder.glob("*.py") if p.name != "__init__.py"}
    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""
    named = set(re.findall(r"^\s+(\w+\.py)\b", doc, re.M))
    assert named == on_disk, f"{package}/__init__.py: map {sorted(on_disk - named)}, drop {sorted(named - on_disk)}"


def test_solver_imports_nothing_of_generator():
    found = [f"{p.relative_to(ROOT)}: {m}" for p in sorted((ROOT / "solver").rglob("*.py"))
             for m in _imports(p) if m == "generator" or m.startswith("generator.")]
    assert found == [], "solver/ knows nothing of paper; move the code to generator/ or pass the value in"


# what the game model may use from the rest of solver/: errors, the expression grammar, finding
# records, hex coordinates, and the rulebook's clause model (rules/clauses.yaml is one of its files)
GAME_MAY_USE = {"solver.errors", "solver.expr", "solver.findings", "solver.hexmap.hexes", "solver.rules.model"}
# the engine executes the model by counting: no checker, no solver library
ENGINE_MAY_USE = {"solver.errors", "solver.expr"}


@pytest.mark.parametrize("package, may_use", [("solver/game", GAME_MAY_USE), ("solver/engine", ENGINE_MAY_USE)])
def test_imports_point_one_way(package, may_use):
    """The game model knows nothing of the engine or the checker; the engine nothing of the checker."""
    own = package.replace("/", ".")
    allowed = {own, "solver.game"} | may_use
    found = []
    for p in sorted((ROOT / package).glob("*.py")):
        for m in _imports(p):
            if m.startswith("solver.") and not any(m == a or m.startswith(a + ".") for a in allowed):
                found.append(f"{p.relative_to(ROOT)}: {m}")
    assert found == []


def test_wheel_lists_every_package():
    """pyproject.toml lists the packages by hand (data/ is renamed into the wheel, which `find`
    cannot do): every folder of generator/ and solver/ with an __init__.py is on the list."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    on_disk = {_module_name(p) for folder in ("generator", "solver") for p in (ROOT / folder).rglob("__init__.py")}
    assert listed - {"pnp_forge_data"} == on_disk


def test_no_module_level_import_circle():
    """Imports inside solver/ run one way (errors, expr, findings; the model; the engine; proof,
    hexmap, counts; checks and report): no module imports, at module level, one that imports it
    back, directly or around a longer circle."""
    graph: dict[str, set[str]] = {}
    modules = {_module_name(p): p for p in (ROOT / "solver").rglob("*.py")}
    for name, path in modules.items():
        top = ast.parse(path.read_text(encoding="utf-8"))
        body = [n for n in top.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        tmp = ast.Module(body=body, type_ignores=[])
        found = set()
        for node in ast.walk(tmp):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("solver"):
                found.add(node.module)
                found |= {f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("solver")}
        graph[name] = {m for m in found if m in modules and m != name}
    state: dict[str, int] = {}
    circles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2
    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert circles == []


def test_solver_has_few_loose_modules():
    loose = sorted(p.name for p in (ROOT / "solver").glob("*.py") if p.name != "__init__.py")
    assert len(loose) <= 6, loose


def _exported(path: Path) -> list[str] | None:
    """The names a module's `__all__` lists, read off its source (None: it has no `__all__`)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return None


EXPORTING = sorted(p for top in ("solver", "generator") for p in (ROOT / top).rglob("*.py")
                   if "__all__" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", EXPORTING, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_name_an_all_lists_exists(path):
    """`from module import *` and readers of `__all__` find every name it lists: the module, once
    imported, has each one (generator/pieces/punch.py once listed FaceData, which it never had)."""
    import importlib

    names = _exported(path)
    assert names is not None, f"{path.relative_to(ROOT)} mentions __all__ but does not assign a list"
    module = importlib.import_module(_module_name(path))
    assert [n for n in names if not hasattr(module, n)] == []
    assert len(names) == len(set(names))
