"""A terminal that cannot print Japanese (ASCII stdout: a legacy console, Windows with output
redirected) gets '?' for what it lacks, never a UnicodeEncodeError traceback (issue 31, item 5)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("argv", [["list"], ["show", "dont-drop-the-ring"], ["check", "dont-drop-the-ring"],
                                  ["show", "no-such-game"]])
def test_commands_on_an_ascii_terminal(argv):
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C", "LANG": "C"}
    done = subprocess.run([sys.executable, "-m", "generator.cli", *argv], cwd=ROOT, env=env,
                          capture_output=True, timeout=300)
    err = done.stderr.decode("ascii")  # everything written is ASCII: this raises otherwise
    out = done.stdout.decode("ascii")
    assert "Traceback" not in err and "UnicodeEncodeError" not in err, err
    if argv[-1] == "no-such-game":
        assert done.returncode == 2 and len(err.strip().splitlines()) == 1, err
    else:
        assert done.returncode == 0, err
        assert "dont-drop-the-ring" in out
