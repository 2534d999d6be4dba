"""requirements.lock pins every dependency pyproject.toml names, exactly, with hashes, for every
supported Python; nothing that a locked package needs is left to the resolver (issue 23).

The lock is read here with `packaging` (the reference implementation of the requirement and marker
grammar), not with .ci/lockdiff.py, so the check does not share code with what it checks.
"""
from __future__ import annotations

import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
PYTHONS = ["3.11", "3.12", "3.13"]  # .ci/run tests the first and the last


def _entries() -> list[tuple[Requirement, list[str]]]:
    """Each requirement of the lock with its hashes; continuation lines joined."""
    text = LOCK.read_text(encoding="utf-8")
    logical = re.sub(r"\\\n\s*", " ", text)
    entries = []
    for line in logical.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        hashes = re.findall(r"--hash=(\S+)", line)
        entries.append((Requirement(re.sub(r"\s*--hash=\S+", "", line)), hashes))
    return entries


def _env(python: str) -> dict[str, str]:
    return {"python_version": python, "python_full_version": python + ".0", "sys_platform": "linux",
            "platform_system": "Linux", "os_name": "posix", "platform_machine": "x86_64",
            "implementation_name": "cpython", "platform_python_implementation": "CPython", "extra": ""}


def _pins(python: str) -> dict[str, str]:
    """name -> the version the lock installs on Linux with this Python."""
    pins: dict[str, str] = {}
    for req, _ in _entries():
        if req.marker is None or req.marker.evaluate(_env(python)):
            name = canonicalize_name(req.name)
            assert name not in pins, f"{req.name} pinned twice for Python {python}"
            [spec] = req.specifier
            pins[name] = spec.version
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    reqs += [Requirement(r) for extra in project["optional-dependencies"].values() for r in extra]
    return reqs


def test_every_entry_is_pinned_exactly_with_hashes():
    entries = _entries()
    assert len(entries) >= 18
    for req, hashes in entries:
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==" and "*" not in specs[0].version, str(req)
        assert not req.url and not req.extras, str(req)
        assert hashes and all(h.startswith("sha256:") and len(h) == 7 + 64 for h in hashes), str(req)


@pytest.mark.parametrize("python", PYTHONS)
def test_every_declared_dependency_is_locked_within_its_range(python):
    pins = _pins(python)
    for req in _declared():
        if req.marker is not None and not req.marker.evaluate(_env(python)):
            continue
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} (pyproject.toml) is not in requirements.lock for Python {python}"
        assert SpecifierSet(str(req.specifier)).contains(pins[name], prereleases=True), \
            f"{req.name}: the lock's {pins[name]} is outside pyproject.toml's {req.specifier}"


def test_requires_python_is_what_is_tested():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    allowed = SpecifierSet(project["requires-python"])
    assert [p for p in PYTHONS if allowed.contains(p + ".0")] == PYTHONS
    assert not allowed.contains("3.10.0") and not allowed.contains("3.14.0")


def test_nothing_a_locked_package_needs_is_left_unpinned():
    """Each requirement of each installed locked package (read from its installed metadata, markers
    evaluated for this Python) is itself in the lock: the lock is closed under dependencies."""
    pins = _pins("{}.{}".format(*sys.version_info[:2]))
    checked = 0
    for name in pins:
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        checked += 1
        for text in requires:
            dep = Requirement(text)
            if dep.marker is not None and not dep.marker.evaluate({"extra": ""}):
                continue
            assert canonicalize_name(dep.name) in pins, f"{name} needs {dep.name}, which requirements.lock does not pin"
    assert checked >= 18
