"""A no-op rebuild (nothing changed since the last build into the folder) is mostly start-up, so it
loads only what deciding "nothing to do" needs (issue 26: a no-op in 0.22 s): no drawing library,
no process pool, no progress bar when stderr is no terminal, no translation catalogue when no `--draft` is asked
for. Run in a fresh interpreter on a newcomer's game (`pnp new`); its `sys.modules` is read back,
and a changed input file still rebuilds in the same way."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """\
import json, sys
from generator import cli
code = cli.main(["build", sys.argv[1], "--out", sys.argv[2], "--jobs", "1", "--only", "cards", "--no-preflight"])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _build(game: Path, out: Path) -> tuple[set[str], str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(game), str(out)], cwd=ROOT,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    probe = json.loads(proc.stdout.strip().splitlines()[-1])
    assert probe["code"] in (0, None), proc.stderr[-2000:]
    return set(probe["modules"]), proc.stderr


def test_a_no_op_rebuild_loads_no_drawing_progress_or_catalogue_code(tmp_path: Path) -> None:
    game = tmp_path / "lanterns"
    subprocess.run([sys.executable, "-m", "generator.cli", "new", str(game)], cwd=ROOT, check=True, capture_output=True)
    out = tmp_path / "out"
    first, said = _build(game, out)
    assert "0 unit(s) built" not in said and {"reportlab", "generator.languages"} <= first  # the first build drew
    again, said = _build(game, out)
    assert "0 unit(s) built" in said, said
    tops = {m.split(".")[0] for m in again}
    unneeded = {"reportlab", "PIL", "pypdf", "rich", "polib", "multiprocessing", "concurrent",  # no unit runs: no pool
                "pydantic", "yaml"}  # the game is not loaded, not even its game.yaml read: no model is built
    assert not tops & unneeded, sorted(tops & unneeded)
    assert "generator.languages" not in again and "generator.cards.images" not in again
    assert not again & {"solver.game.loader", "solver.game.components", "solver.game.setup", "solver.game.cross_checks"}
    # the shortcut still notices a change: an edited card list rebuilds
    cards = game / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    assert "Play it only on a red lantern." in text
    cards.write_text(text.replace("Play it only on a red lantern.", "Play it only on a lantern."), encoding="utf-8")
    _, said = _build(game, out)
    assert "0 unit(s) built" not in said, said
