"""The repository names no machine's absolute paths: a clone anywhere must work (issue 17)."""
from __future__ import annotations

import re
import subprocess

from conftest import ROOT

# Built from pieces so that this file does not match itself.
MACHINE_PATH = re.compile("(?<![\\w.])/(?:" + "|".join(["wo" + "rk", "ho" + "me", "ro" + "ot", "Us" + "ers"]) + ")/[\\w.-]+")
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".csv", ".po", ".json", ".cfg", ".ini", ""}


def _repository_files():
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
        files = [ROOT / f for f in out]
    except (OSError, subprocess.CalledProcessError):  # a copy without .git: every file but build output
        skip = {".venv", "output", ".git", ".pytest_cache", ".hypothesis"}
        files = [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    return [f for f in files if f.suffix in TEXT_SUFFIXES and f.is_file()]


def test_no_file_names_an_absolute_machine_path():
    hits = []
    for f in _repository_files():
        text = f.read_text(encoding="utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                hits.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not hits, "absolute paths of one machine:\n" + "\n".join(hits)


def test_the_pattern_finds_what_it_is_for():
    assert MACHINE_PATH.search('SEEDS = Path("' + "/wo" + 'rk/shared/seeds")')
    assert not MACHINE_PATH.search("see ../shared/seeds or https://example.org/work/x")
