"""Mutation testing of one module: how much of what its tests promise would they notice breaking?

    .venv/bin/python bench/mutation.py solver/expr.py                 # the tests that import it
    .venv/bin/python bench/mutation.py solver/expr.py --tests tests/test_model_expr.py --jobs 2
    .venv/bin/python bench/mutation.py generator/text/breaking.py --limit 60 --seed 1

Each mutant is one standard change to the module's syntax tree (after mutmut's and cosmic-ray's
operators): a comparison flipped (< to >=, == to !=, in to not in), `and`/`or` swapped, an
arithmetic operator swapped (+ -, * //), a number moved by one, True/False swapped, `not` dropped,
an `if`'s condition negated, a `return` of a value replaced by `return None`, a call made as a
statement deleted, `break`/`continue` swapped. Every mutant is run against the chosen tests in a
copy of the repository (the module's file replaced, nothing else), with `pytest -x`; a run that
fails kills the mutant, one that passes lets it survive, one that runs past its time bound (three
times the unmutated run, plus 10 s) is a timeout and counts as caught.

Equivalent mutants (changes no input can observe) are listed once in bench/mutation-equivalent.txt,
one a line as `module:line: change  # why it cannot change behaviour`, and left out of the score.
The score is killed (timeouts included) over tried, equivalents excluded. Prints a table and every
survivor with its line and change; exit 0 always (a measurement, not a gate: CI never runs it).
"""
from __future__ import annotations

import argparse
import ast
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).with_name("mutation-equivalent.txt")

COMPARE_SWAP = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq,
                ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
              ast.Div: ast.Mult, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult}
SYMBOL = {ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=",
          ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-",
          ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%", ast.Pow: "**"}


@dataclass(frozen=True)
class Mutant:
    index: int          # the node's place in ast.walk order: how the mutant is made again
    kind: str
    line: int
    change: str         # e.g. "< -> >=" or "return x -> return None"

    def label(self, module: str) -> str:
        return f"{module}:{self.line}: {self.change}"


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """Constants that are docstrings: mutating them changes nothing a test can see."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """Every node inside a type annotation (types are not run: `from __future__ import annotations`)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        notes = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            notes.append(node.returns)
            notes += [a.annotation for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs]
        elif isinstance(node, ast.AnnAssign):
            notes.append(node.annotation)
        for n in notes:
            if n is not None:
                out |= {id(x) for x in ast.walk(n)}
    return out


def mutations_of(node: ast.AST, skip: set[int]) -> list[tuple[str, str]]:
    """(kind, change) for every mutation of `node` itself (one per operator that applies)."""
    if id(node) in skip:
        return []
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in COMPARE_SWAP:
        op = type(node.ops[0])
        return [("compare", f"{SYMBOL[op]} -> {SYMBOL[COMPARE_SWAP[op]]}")]
    if isinstance(node, ast.BoolOp):
        return [("boolop", "and -> or" if isinstance(node.op, ast.And) else "or -> and")]
    if isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAP:
        op = type(node.op)
        return [("binop", f"{SYMBOL[op]} -> {SYMBOL[BINOP_SWAP[op]]}")]
    if isinstance(node, ast.AugAssign) and type(node.op) in BINOP_SWAP:
        op = type(node.op)
        return [("binop", f"{SYMBOL[op]}= -> {SYMBOL[BINOP_SWAP[op]]}=")]
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return [("constant", f"{node.value} -> {not node.value}")]
        if isinstance(node.value, (int, float)):
            return [("constant", f"{node.value!r} -> {node.value + 1!r}")]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return [("not", "not x -> x")]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return [("unary", "-x -> x")]
    if isinstance(node, (ast.If, ast.While)):
        return [("condition", "if c -> if not c" if isinstance(node, ast.If) else "while c -> while not c")]
    if isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        return [("return", "return x -> return None")]
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        return [("call", f"{ast.unparse(node.value)[:50]} -> pass")]
    if isinstance(node, ast.Break):
        return [("loop", "break -> continue")]
    if isinstance(node, ast.Continue):
        return [("loop", "continue -> break")]
    return []


def list_mutants(source: str) -> list[Mutant]:
    tree = ast.parse(source)
    skip = _docstring_nodes(tree) | _annotation_nodes(tree)
    out = []
    for i, node in enumerate(ast.walk(tree)):
        for kind, change in mutations_of(node, skip):
            out.append(Mutant(i, kind, getattr(node, "lineno", 0), change))
    return out


class _Apply(ast.NodeTransformer):
    """Rewrites the node at `index` (ast.walk order of the original tree) as `kind` says."""

    def __init__(self, target: ast.AST, kind: str):
        self.target, self.kind = target, kind

    def generic_visit(self, node):
        node = super().generic_visit(node)
        if node is not self.target:
            return node
        return _mutate(node, self.kind)


def _mutate(node, kind: str):  # noqa: C901 - one branch per operator, as mutations_of lists them
    if kind == "compare":
        node.ops = [COMPARE_SWAP[type(node.ops[0])]()]
    elif kind == "boolop":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "binop":
        node.op = BINOP_SWAP[type(node.op)]()
    elif kind == "constant":
        node.value = (not node.value) if isinstance(node.value, bool) else node.value + 1
    elif kind in ("not", "unary"):
        return node.operand
    elif kind == "condition":
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    elif kind == "return":
        node.value = ast.Constant(value=None)
    elif kind == "call":
        return ast.Pass()
    elif kind == "loop":
        return ast.Continue() if isinstance(node, ast.Break) else ast.Break()
    return node


def mutant_source(source: str, mutant: Mutant) -> str:
    tree = ast.parse(source)
    target = list(ast.walk(tree))[mutant.index]
    tree = _Apply(target, mutant.kind).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


def tests_importing(module: str) -> list[str]:
    """Test files that import the module (by dotted name or `from package import name`)."""
    dotted = module.removesuffix(".py").replace("/", ".")
    package, _, name = dotted.rpartition(".")
    pattern = re.compile(rf"\b{re.escape(dotted)}\b|from {re.escape(package)} import [^\n]*\b{name}\b")
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_*.py")
                  if pattern.search(p.read_text(encoding="utf-8")))


def copy_repo(into: Path) -> Path:
    dest = into / "repo"
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(".git", ".venv", "output", "__pycache__",
                                                              ".pytest_cache", ".hypothesis", "*.egg-info"))
    return dest


def run_tests(repo: Path, tests: list[str], timeout: float) -> str:
    """'killed', 'survived' or 'timeout' for the copy as it stands."""
    env = dict(os.environ, PYTHONPATH=str(repo), PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", *tests]
    try:
        done = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if done.returncode == 0 else "killed"


def equivalents(module: str) -> set[str]:
    if not EQUIVALENT.exists():
        return set()
    out = set()
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        label = line.split("  #", 1)[0].strip()
        if label.startswith(module + ":"):
            out.add(label)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("module", help="the module's path, e.g. solver/expr.py")
    ap.add_argument("--tests", nargs="*", help="test files (default: every test file that imports the module)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--limit", type=int, help="try at most this many mutants (a random sample, --seed)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    module = args.module
    source = (ROOT / module).read_text(encoding="utf-8")
    tests = args.tests or tests_importing(module)
    mutants = list_mutants(source)
    if args.limit and args.limit < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.limit), key=lambda m: m.index)
    known_equivalent = equivalents(module)
    mutants = [m for m in mutants if m.label(module) not in known_equivalent]
    with tempfile.TemporaryDirectory(prefix="pnp-mutation-") as tmp:
        copies = [copy_repo(Path(tmp) / f"w{j}") for j in range(max(1, args.jobs))]
        started = time.monotonic()
        baseline = run_tests(copies[0], tests, timeout=3600)
        base_s = time.monotonic() - started
        if baseline != "survived":
            print(f"the unmutated module fails its tests ({' '.join(tests)}): nothing to measure")
            return 0
        free = list(copies)

        def one(m: Mutant) -> tuple[Mutant, str]:
            repo = free.pop()
            try:
                (repo / module).write_text(mutant_source(source, m), encoding="utf-8")
                return m, run_tests(repo, tests, timeout=3 * base_s + 10)
            finally:
                (repo / module).write_text(source, encoding="utf-8")
                free.append(repo)
        with ThreadPoolExecutor(max_workers=len(copies)) as pool:
            results = list(pool.map(one, mutants))
    _report(module, tests, results, len(known_equivalent), base_s)
    return 0


def _report(module: str, tests: list[str], results: list[tuple[Mutant, str]], equivalent: int, base_s: float) -> None:
    counts = {k: sum(1 for _, r in results if r == k) for k in ("killed", "survived", "timeout")}
    tried = len(results)
    score = 100.0 * (counts["killed"] + counts["timeout"]) / tried if tried else 100.0
    print(f"module     {module}")
    print(f"tests      {len(tests)} files ({base_s:.1f} s unmutated): {' '.join(tests)}")
    print(f"tried      {tried}  (equivalent, left out: {equivalent})")
    print(f"killed     {counts['killed']}")
    print(f"timed out  {counts['timeout']}")
    print(f"survived   {counts['survived']}")
    print(f"score      {score:.1f} %")
    for m, r in results:
        if r == "survived":
            print(f"  survivor {m.label(module)}")


if __name__ == "__main__":
    sys.exit(main())
