"""reportlab's C accelerator (rl_accel, a dependency) changes no byte: a newcomer's game (`pnp new`)
built with it and without it (its module hidden, so reportlab falls back to its pure-Python
formatting, ASCII85 and string widths) gives the same card sheets and rulebook, byte for byte.
Each build runs in a fresh interpreter; which code reportlab used is read back from it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """\
import json, sys
if sys.argv[3] == "python":
    sys.modules["_rl_accel"] = None  # import fails: reportlab uses its pure-Python functions
from generator import cli
code = cli.main(["build", sys.argv[1], "--out", sys.argv[2], "--jobs", "1", "--no-preflight",
                 "--only", "cards", "--only", "rulebooks"])
from reportlab.lib import rl_accel
print(json.dumps({"code": code, "c": sorted(rl_accel._c_funcs)}))
"""


def _build(game: Path, out: Path, mode: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(game), str(out), mode], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    probe = json.loads(proc.stdout.strip().splitlines()[-1])
    assert probe["code"] in (0, None), proc.stderr[-2000:]
    return probe["c"]


def test_the_accelerator_changes_no_byte(tmp_path: Path) -> None:
    game = tmp_path / "lanterns"
    subprocess.run([sys.executable, "-m", "generator.cli", "new", str(game)], cwd=ROOT, check=True,
                   capture_output=True)
    fast = _build(game, tmp_path / "c", "c")
    slow = _build(game, tmp_path / "python", "python")
    assert {"fp_str", "asciiBase85Encode", "escapePDF", "instanceStringWidthTTF"} <= set(fast)
    assert slow == []
    pdfs = sorted(p.name for p in (tmp_path / "c" / "lanterns").glob("*.pdf"))
    assert any(n.startswith("cards-") for n in pdfs) and any(n.startswith("rulebook-") for n in pdfs), pdfs
    assert pdfs == sorted(p.name for p in (tmp_path / "python" / "lanterns").glob("*.pdf"))
    for name in pdfs:
        a = (tmp_path / "c" / "lanterns" / name).read_bytes()
        b = (tmp_path / "python" / "lanterns" / name).read_bytes()
        assert a == b, name
