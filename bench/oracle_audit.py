"""Audit: which test asserts take their expectation from project code (issue 37, item 4).

An AST walk over every `test_*` function of tests/. A value is *tainted* by the project functions
it was computed with: a call to a name imported from `solver` or `generator` (or a module of
them), or to a helper of the test file that calls one (transitively), taints the name it is bound
to; names computed from tainted names inherit their taint. For every `assert` comparison the
script prints the project functions on each side; an assert whose expected side (the right-hand
side of `==`, `!=`, `<`, ...; the left of `in`) is tainted is a suspect, to be read and classified by hand:

    (a) the expectation is computed by the module under test or its twin -> rewrite with an
        independent oracle (hand-worked numbers, a brute force in the test, another library);
    (b) fine: the tainted side is the input (a loaded game, a model built by hand), or calling
        the module twice is the promise (a round trip, determinism, idempotence).

Input loaders (`--input NAME`, default load_game and the like) are reported apart, as input.

    python3 bench/oracle_audit.py [--all] [--input load_game ...] [tests/test_x.py ...]

Prints one line per suspect (`file:line test: right <- functions | left <- functions`) and the
totals: test files, test functions, assert comparisons, suspects. `--all` lists every comparison.
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("solver", "generator")
INPUTS = {"load_game", "load_map", "load_rules", "GameContext", "game_dir", "find_game", "games_root"}


def project_names(tree: ast.Module) -> dict[str, str]:
    """Local name -> dotted project origin, for every import from solver/generator."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PROJECT:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in PROJECT:
                    out[(a.asname or a.name).split(".")[0]] = a.name
    return out


def called(node: ast.AST, imported: dict[str, str], helpers: dict[str, set[str]]) -> set[str]:
    """Project functions an expression calls, directly or through a test helper."""
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            root = sub.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name):
                if root.id in imported:
                    found.add(ast.unparse(sub.func) if root is not sub.func else root.id)
                elif root.id in helpers:
                    found |= {f"{root.id}>{f}" for f in helpers[root.id]}
        elif isinstance(sub, ast.Name) and sub.id in imported and isinstance(sub.ctx, ast.Load):
            found.add(sub.id)                       # a constant or class used as a value
    return found


def helper_taints(tree: ast.Module, imported: dict[str, str]) -> dict[str, set[str]]:
    """Module-level helpers (and fixtures) -> the project functions they reach, to a fixed point."""
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("test_")}
    helpers: dict[str, set[str]] = {name: set() for name in defs}
    changed = True
    while changed:
        changed = False
        for name, node in defs.items():
            reach = called(node, imported, helpers) - {f"{name}>{f}" for f in helpers[name]}
            reach = {r.split(">")[-1] for r in reach}
            if not reach <= helpers[name]:
                helpers[name] |= reach
                changed = True
    return {k: v for k, v in helpers.items() if v}


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def bound(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def audit_function(fn: ast.FunctionDef, imported, helpers, fixtures: dict[str, set[str]]):
    """Yield (line, op, left taint, right taint, source) for every assert comparison in fn."""
    taint: dict[str, set[str]] = {a.arg: set(fixtures.get(a.arg, ())) for a in fn.args.args}

    def of(expr: ast.AST) -> set[str]:
        out = called(expr, imported, helpers)
        for n in names_in(expr):
            out |= taint.get(n, set())
        return out

    for _ in range(2):                                   # two passes settle loops and reassignments
        for node in ast.walk(fn):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for name in bound(t):
                        taint[name] = taint.get(name, set()) | of(node.value)
            elif isinstance(node, (ast.For, ast.comprehension)):
                for name in bound(node.target):
                    taint[name] = taint.get(name, set()) | of(node.iter)
            elif (isinstance(node, ast.withitem) and node.optional_vars is not None
                  and not ast.unparse(node.context_expr).startswith("pytest.raises")):
                for name in bound(node.optional_vars):
                    taint[name] = taint.get(name, set()) | of(node.context_expr)
            elif isinstance(node, ast.NamedExpr):
                taint[node.target.id] = taint.get(node.target.id, set()) | of(node.value)
    for node in ast.walk(fn):
        if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
            cmp = node.test
            left, right = of(cmp.left), set().union(*(of(c) for c in cmp.comparators))
            if isinstance(cmp.ops[0], (ast.In, ast.NotIn)):  # `expected in actual`: the left is expected
                left, right = right, left
            yield node.lineno, type(cmp.ops[0]).__name__, left, right, ast.unparse(cmp)


def audit_file(path: Path, inputs: set[str], everything: bool) -> tuple[int, int, list[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = project_names(tree)
    helpers = helper_taints(tree, imported)
    fixtures = {n: helpers.get(n, set()) for n in helpers}
    tests, comparisons, lines = 0, 0, []
    rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    for fn in functions:
        tests += 1
        for line, op, left, right, src in audit_function(fn, imported, helpers, fixtures):
            comparisons += 1
            only_input = right and all(r.split(">")[-1].split(".")[0] in inputs for r in right)
            if right and not only_input:
                lines.append(f"{rel}:{line} {fn.name}: right <- {sorted(right)} | left <- {sorted(left)}"
                             f"\n    {src[:160]}")
            elif everything:
                mark = "input" if only_input else "ok"
                lines.append(f"{rel}:{line} {fn.name}: [{mark}] {src[:120]}")
    return tests, comparisons, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--all", action="store_true", help="list every comparison, not just suspects")
    parser.add_argument("--input", action="append", default=[], help="a project function that only loads input")
    args = parser.parse_args(argv)
    files = args.files or sorted((ROOT / "tests").glob("test_*.py"))
    inputs = INPUTS | set(args.input)
    totals = [0, 0, 0]
    for path in files:
        tests, comparisons, lines = audit_file(path.resolve(), inputs, args.all)
        suspects = sum(1 for ln in lines if " right <- " in ln)
        totals[0] += tests
        totals[1] += comparisons
        totals[2] += suspects
        for ln in lines:
            print(ln)
    print(f"{len(files)} test files, {totals[0]} test functions, {totals[1]} assert comparisons, "
          f"{totals[2]} suspects (expected side computed with project code)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
