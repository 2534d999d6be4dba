"""One home for each concept, checked over the source: one atomic writer, and registries that import
what they list instead of naming it in "module:function" strings."""
from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("solver", "generator") for p in (ROOT / folder).rglob("*.py"))
WRITER = ROOT / "generator" / "output.py"


def test_one_atomic_writer():
    """Renaming a whole temporary file or folder over its target happens in generator/output.py
    only; everything that writes output goes through it (and solver/ writes nothing at all)."""
    mechanism = re.compile(r"os\.replace\(|os\.rename\(|\.rename\(|mkstemp\(|mkdtemp\(|NamedTemporaryFile\("
                           r"|tmp\w*\.replace\(")
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in SOURCES if p != WRITER
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if mechanism.search(line)]
    assert found == [], "use generator/output.py (write_bytes, write_text, atomic_path, atomic_folder)"
    assert mechanism.search(WRITER.read_text(encoding="utf-8"))  # the one writer is where it should be


def test_solver_writes_no_files():
    """solver/ returns documents (schemas, PO files, reports); the commands write them."""
    writes = re.compile(r"\.write_(?:text|bytes)\(|\bopen\([^)]*['\"][wax]b?['\"]|\.save\(")
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in SOURCES if p.is_relative_to(ROOT / "solver")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if writes.search(line)]
    assert found == []


def test_no_module_function_string_registries():
    """A string like "solver.proof.checker:check_setup" naming an importable module hides an import."""
    pattern = re.compile(r"^((?:solver|generator)(?:\.\w+)*):(\w+)$")
    found = []
    for p in SOURCES:
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and (m := pattern.match(node.value)):
                if importlib.util.find_spec(m.group(1)) is not None:
                    found.append(f"{p.relative_to(ROOT)}:{node.lineno}: {node.value}")
    assert found == [], "import the function and list it instead"
