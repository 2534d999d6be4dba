"""Mutation testing of one module: how much of what its tests promise would they notice breaking?

    .venv/bin/python bench/mutation.py solver/expr.py --tests tests/test_expr_grammar.py tests/test_model_expr.py
    .venv/bin/python bench/mutation.py solver/expr.py --tests ... --resume      # go on after an interruption
    .venv/bin/python bench/mutation.py solver/expr.py --tests ... --survivors   # survivors (and untried) again
    .venv/bin/python bench/mutation.py --table                                  # every module measured so far

Each mutant is one standard change to the module's syntax tree (after mutmut's and cosmic-ray's
operators): a comparison flipped (< to >=, == to !=, in to not in), `and`/`or` swapped, an
arithmetic operator swapped (+ -, * //), a number moved by one, True/False swapped, `not` dropped,
unary minus dropped, an `if`'s condition negated, a `return` of a value replaced by `return None`,
a call made as a statement deleted, `break`/`continue` swapped. Every mutant is run against the
chosen tests (list the fastest, most targeted first: the run stops at the first failure) in a copy
of the repository (the module's file replaced, nothing else) with `pytest -x -n 0`; a run that fails
kills the mutant, one that passes lets it survive, one that runs past its time bound (`--timeout`,
by default three times the unmutated run plus 10 s) is ended and counts as caught. Each run is a
fork of this process with the third-party packages already imported (`--no-fork`: a fresh
interpreter), the project's own modules imported afresh from the copy.

Results go to bench/mutation-results/<module>.txt as each mutant ends, one line a mutant
(`killed|survived|timeout  #<node> <module>:<line>: <change>`), under a header naming the module's
source hash and the test files: `--resume` keeps them and runs the rest, `--survivors` runs the
survivors again and any mutant not tried yet (after tests were added: a killed mutant stays killed
as long as the tests that killed it are still run: a saved node id, tests/x.py::test_y, is run
when it or its file is given), both only while the module is unchanged.

Equivalent mutants (changes no input can observe) are listed once in bench/mutation-equivalent.txt,
one a line as `module:line: change  # why it cannot change behaviour`, and left out of the score
(every mutant of that line and change). The score is killed (timeouts included) over tried,
equivalents excluded. Prints the counts and every survivor with its line and change; exit 0 always
(a measurement, not a gate: CI never runs it).
"""
from __future__ import annotations

import argparse
import ast
import gc
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).with_name("mutation-equivalent.txt")
RESULTS = Path(__file__).with_name("mutation-results")

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
    found = [(i, kind, getattr(node, "lineno", 0), change)
             for i, node in enumerate(ast.walk(tree)) for kind, change in mutations_of(node, skip)]
    # the same change twice on one line is told apart by its place, outermost first: "(2 of 2)"
    alike = Counter((line, change) for _, _, line, change in found)
    seen: Counter = Counter()
    out = []
    for i, kind, line, change in found:
        if alike[line, change] > 1:
            seen[line, change] += 1
            change = f"{change} ({seen[line, change]} of {alike[line, change]})"
        out.append(Mutant(i, kind, line, change))
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


# Third-party packages the tests import, loaded once in this process so each forked run starts warm.
# Never the project's own packages: each run imports those afresh from its copy, the mutant with them.
WARM = ("pytest", "xdist", "pydantic", "yaml", "ortools.sat.python.cp_model", "reportlab.pdfgen.canvas",
        "reportlab.pdfbase.ttfonts", "pyphen", "pypdf", "pikepdf", "pdfplumber", "PIL.Image", "lxml.etree",
        "fontTools.ttLib", "hypothesis", "polib", "openpyxl", "svglib.svglib")


def warm_up() -> None:
    import importlib
    for name in WARM:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a package no test here needs is simply not warmed
            pass
    gc.freeze()  # what is loaded now is never collected again: each run's collections stay small


def pytest_args(tests: list[str]) -> list[str]:
    """Stop at the first failure (a killed mutant costs one failing test), one process, no cache; and
    nothing that only reports (rewritten assertions' messages, the anyio plugin that loads every event
    loop, the garbage collections hunting unraisable exceptions): a run passes or fails all the same."""
    return ["-x", "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "no:anyio", "-p", "no:unraisableexception",
            "-p", "no:threadexception", "--assert=plain", *tests]


def start_run(repo: Path, tests: list[str], fork: bool) -> int:
    """Start the tests on the copy as it stands; the process id (its own process group)."""
    if not fork:
        env = dict(os.environ, PYTHONPATH=str(repo), PYTHONDONTWRITEBYTECODE="1")
        return subprocess.Popen([sys.executable, "-m", "pytest", *pytest_args(tests)], cwd=repo, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True).pid
    pid = os.fork()
    if pid:
        return pid
    code = 3
    try:
        os.setpgid(0, 0)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.chdir(repo)
        os.environ.update(PYTHONPATH=str(repo), PYTHONDONTWRITEBYTECODE="1")
        sys.dont_write_bytecode = True
        sys.path.insert(0, str(repo))
        import pytest
        code = int(pytest.main(pytest_args(tests)))
    finally:
        os._exit(code)


def poll_run(pid: int, started: float, timeout: float) -> str | None:
    """'killed', 'survived' or 'timeout' once the run is over (a run past its bound is ended); else None."""
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        return "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
    if time.monotonic() - started <= timeout:
        return None
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    return "timeout"


def run_once(repo: Path, tests: list[str], fork: bool, timeout: float = 3600) -> str:
    pid, started = start_run(repo, tests, fork), time.monotonic()
    while (result := poll_run(pid, started, timeout)) is None:
        time.sleep(0.05)
    return result


def equivalents(module: str) -> set[str]:
    """The labels bench/mutation-equivalent.txt lists for the module (`module:line: change  # why`)."""
    if not EQUIVALENT.exists():
        return set()
    out = set()
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        label = line.split("  #", 1)[0].strip()
        if label.startswith(module + ":"):
            out.add(label)
    return out


# --- results files: bench/mutation-results/<module>.txt, one line a mutant, written as each ends ----

RESULT_LINE = re.compile(r"^(killed|survived|timeout)\s+#(\d+)\s+(.*)$")


def results_path(module: str) -> Path:
    return RESULTS / (module.removesuffix(".py").replace("/", ".") + ".txt")


def read_results(path: Path) -> tuple[dict[str, str], dict[int, tuple[str, str]]]:
    """(header fields, {mutant index: (result, label)}) of a results file; empty when there is none."""
    header: dict[str, str] = {}
    done: dict[int, tuple[str, str]] = {}
    if not path.exists():
        return header, done
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and " " in line[2:]:
            key, _, value = line[2:].partition(" ")
            header.setdefault(key, value.strip())
        elif m := RESULT_LINE.match(line):
            done[int(m.group(2))] = (m.group(1), m.group(3))
    return header, done


def write_results(path: Path, module: str, digest: str, tests: list[str], base_s: float,
                  done: dict[int, tuple[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# module {module}", f"# source {digest}", f"# tests {' '.join(tests)}",
             f"# unmutated {base_s:.1f} s"]
    lines += [f"{r:<9}#{i} {label}" for i, (r, label) in sorted(done.items())]
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)


def relabel(module: str, digest: str, done: dict[int, tuple[str, str]]) -> dict[int, tuple[str, str]]:
    """The results with today's labels for their mutants (the node index is what identifies one),
    when the module is still the source they were measured on."""
    path = ROOT / module
    if not path.exists():
        return done
    source = path.read_text(encoding="utf-8")
    if hashlib.sha256(source.encode()).hexdigest()[:16] != digest:
        return done
    labels = {m.index: m.label(module) for m in list_mutants(source)}
    return {i: (r, labels.get(i, label)) for i, (r, label) in done.items()}


def summary(module: str, done: dict[int, tuple[str, str]]) -> dict[str, float]:
    """Counts and score of a module's results, leaving out the mutants now listed as equivalent."""
    known = equivalents(module)
    kept = [r for r, label in done.values() if label not in known]
    out: dict[str, float] = {k: sum(1 for r in kept if r == k) for k in ("killed", "survived", "timeout")}
    out["tried"] = len(kept)
    out["equivalent"] = len(done) - len(kept)
    out["score"] = 100.0 * (out["killed"] + out["timeout"]) / len(kept) if kept else 100.0
    return out


def print_table() -> None:
    """One row a results file; `of` is how many mutants the module has (a run cut short tried fewer)."""
    print(f"{'module':<34} {'of':>4} {'tried':>5} {'killed':>6} {'t/out':>5} {'surv':>5} {'equiv':>5} {'score':>7}")
    for path in sorted(RESULTS.glob("*.txt")):
        header, done = read_results(path)
        module = header.get("module", path.stem)
        s = summary(module, relabel(module, header.get("source", ""), done))
        source = (ROOT / module).read_text(encoding="utf-8") if (ROOT / module).exists() else ""
        total = len(list_mutants(source)) if source else 0
        print(f"{module:<34} {total:>4} {s['tried']:>5.0f} {s['killed']:>6.0f} {s['timeout']:>5.0f} "
              f"{s['survived']:>5.0f} {s['equivalent']:>5.0f} {s['score']:>6.1f} %")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("module", nargs="?", help="the module's path, e.g. solver/expr.py")
    ap.add_argument("--tests", nargs="*", help="test files, fastest and most targeted first "
                                               "(default: every test file that imports the module)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once, each in its own copy (default 1)")
    ap.add_argument("--timeout", type=float, help="seconds a mutant's run may take (default: 3 x unmutated + 10)")
    ap.add_argument("--limit", type=int, help="try at most this many mutants (a random sample, --seed)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-fork", action="store_true", help="a fresh interpreter per run (slower; no os.fork)")
    ap.add_argument("--resume", action="store_true", help="keep the results file's mutants, run the rest")
    ap.add_argument("--survivors", action="store_true",
                    help="run the results file's survivors again, and the mutants not tried yet (same tests or more)")
    ap.add_argument("--table", action="store_true", help="print the table of every module's saved results")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # `kill` cleans up as Ctrl-C does
    if args.table or not args.module:
        print_table()
        return 0
    return measure(args)


def measure(args: argparse.Namespace) -> int:
    module = args.module
    source = (ROOT / module).read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    tests = args.tests or tests_importing(module)
    path = results_path(module)
    header, done = read_results(path) if (args.resume or args.survivors) else ({}, {})
    if header and header.get("source") != digest:
        print(f"{path}: made from another version of {module}; measuring afresh")
        header, done = {}, {}
    done = relabel(module, digest, done)
    if args.resume and header and header.get("tests", "").split() != tests:
        print(f"{path}: measured with other tests ({header.get('tests')}); measuring afresh")
        header, done = {}, {}
    if args.survivors:
        # a saved test is run again when it is given, or its file is (tests/x.py covers tests/x.py::test_y)
        missing = {t for t in header.get("tests", "").split() if t not in tests and t.split("::")[0] not in tests}
        if missing:
            print(f"--survivors needs every test file of the saved run; missing: {' '.join(sorted(missing))}")
            return 2
    mutants = list_mutants(source)
    if args.limit and args.limit < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.limit), key=lambda m: m.index)
    known_equivalent = equivalents(module)
    mutants = [m for m in mutants if m.label(module) not in known_equivalent]
    if args.survivors:
        mutants = [m for m in mutants if done.get(m.index, ("survived",))[0] == "survived"]
    else:
        mutants = [m for m in mutants if m.index not in done]
    fork = hasattr(os, "fork") and not args.no_fork
    if fork:
        warm_up()
    with tempfile.TemporaryDirectory(prefix="pnp-mutation-") as tmp:
        copies = [copy_repo(Path(tmp) / f"w{j}") for j in range(max(1, args.jobs))]
        started = time.monotonic()
        if run_once(copies[0], tests, fork) != "survived":
            print(f"the unmutated module fails its tests ({' '.join(tests)}): nothing to measure")
            return 0
        base_s = time.monotonic() - started
        bound = args.timeout or 3 * base_s + 10

        def save(m: Mutant, result: str) -> None:
            done[m.index] = (result, m.label(module))
            write_results(path, module, digest, tests, base_s, done)
        write_results(path, module, digest, tests, base_s, done)
        run_all(module, source, mutants, copies, tests, fork, bound, save)
    _report(module, tests, done, base_s, path)
    return 0


def run_all(module: str, source: str, mutants: list[Mutant], copies: list[Path], tests: list[str],
            fork: bool, bound: float, save) -> None:
    """Each mutant in a free copy (its module's file replaced), at most one run per copy at a time."""
    pending, free = list(mutants), list(copies)
    running: dict[int, tuple[Mutant, Path, float]] = {}
    try:
        while pending or running:
            while pending and free:
                m, repo = pending.pop(0), free.pop()
                (repo / module).write_text(mutant_source(source, m), encoding="utf-8")
                running[start_run(repo, tests, fork)] = (m, repo, time.monotonic())
            for pid, (m, repo, started) in list(running.items()):
                result = poll_run(pid, started, bound)
                if result is not None:
                    del running[pid]
                    (repo / module).write_text(source, encoding="utf-8")
                    free.append(repo)
                    save(m, result)
            time.sleep(0.05)
    finally:  # interrupted: end the runs still going (what is saved stays, for --resume)
        for pid in running:
            try:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


def _report(module: str, tests: list[str], done: dict[int, tuple[str, str]], base_s: float, path: Path) -> None:
    s = summary(module, done)
    print(f"module     {module}")
    print(f"tests      {len(tests)} files ({base_s:.1f} s unmutated): {' '.join(tests)}")
    print(f"tried      {s['tried']:.0f}  (equivalent, left out: {s['equivalent']:.0f} run, "
          f"{len(equivalents(module))} listed)")
    print(f"killed     {s['killed']:.0f}")
    print(f"timed out  {s['timeout']:.0f}")
    print(f"survived   {s['survived']:.0f}")
    print(f"score      {s['score']:.1f} %")
    print(f"results    {path.relative_to(ROOT)}")
    known = equivalents(module)
    for _, (r, label) in sorted(done.items()):
        if r == "survived" and label not in known:
            print(f"  survivor {label}")


if __name__ == "__main__":
    sys.exit(main())
