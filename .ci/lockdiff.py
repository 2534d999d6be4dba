"""Print how the packages installed in this Python differ from requirements.lock.

`python .ci/lockdiff.py` prints one line per package whose installed version is not the lock's (and
per package installed that the lock does not name, or locked for this Python and not installed);
`--strict` exits 1 when there is any such line. .ci/run uses it both ways: strict after installing
from the lock (the venv holds exactly what was tested), and as information in the pass on the
newest releases the ranges in pyproject.toml allow.
"""
from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.utils import canonicalize_name

LOCK = Path(__file__).resolve().parent.parent / "requirements.lock"
# Installed by venv, pip or the editable install itself, not by the lock.
OWN = {"pip", "setuptools", "wheel", "pnp-forge"}


def locked() -> dict[str, str]:
    """name -> version of every entry of the lock whose marker holds for this Python."""
    pins = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if not line or line[0] in " #-":
            continue
        spec, _, marker = line.rstrip(" \\").partition(";")
        name, _, version = spec.strip().partition("==")
        if marker.strip() and not Marker(marker.strip()).evaluate():
            continue
        pins[canonicalize_name(name)] = version
    return pins


def installed() -> dict[str, str]:
    return {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}


def differences() -> list[str]:
    lock, here = locked(), installed()
    lines = []
    for name in sorted((set(lock) | set(here)) - OWN):
        a, b = lock.get(name), here.get(name)
        if a != b:
            lines.append(f"{name}: lock {a or '-'}, installed {b or '-'}")
    return lines


def main(argv: list[str]) -> int:
    lines = differences()
    py = ".".join(map(str, sys.version_info[:3]))
    print(f"Python {py}: {len(lines)} package(s) differ from requirements.lock" + (":" if lines else ""))
    for line in lines:
        print("  " + line)
    return 1 if lines and "--strict" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
