"""Printing never loads the optimiser: building cards, counters, maps and rulebooks (preflight on)
imports neither OR-Tools nor pandas, nor matplotlib (issue 26). The checker's stage (`--only check`) is what uses
them; every printing stage runs here in a fresh interpreter, and its `sys.modules` is read back."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COUNTERS = """\
  - id: tokens
    kind: counters
    name: {en: Tokens, ja: トークン}
    size: half-inch
    items:
      - id: lantern-token
        count: 4
        front: {label: {en: Lantern, ja: 灯り}, values: '4-3', colour: '#9fc5e8'}
        back: {label: {en: Lantern, ja: 灯り}, values: '2-1', colour: '#cfe2f3'}
"""
TOKEN_LAYOUT = """\
  - id: token-face
    size: half-inch
    background: "{face.colour}"
    fields:
      - {kind: text, box: [0.6, 0.6, 11.5, 4.2], text: "{face.label}", size_pt: 6, wrap: false}
      - {kind: text, box: [0.6, 7.4, 11.5, 4.6], text: "{face.values}", size_pt: 7, wrap: false}
"""

PROBE = """\
import json, sys
from generator import cli
code = cli.main(["build", sys.argv[1], "--out", sys.argv[2], "--jobs", "1",
                 "--only", "cards", "--only", "counters", "--only", "maps", "--only", "rulebooks"])
print(json.dumps({"code": code, "modules": sorted(m.split(".")[0] for m in sys.modules)}))
"""


def _game(tmp: Path) -> Path:
    """A newcomer's game (`pnp new`) with a counter sheet added: every printing stage has work."""
    game = tmp / "lanterns"
    subprocess.run([sys.executable, "-m", "generator.cli", "new", str(game)], cwd=ROOT, check=True,
                   capture_output=True)
    comps = game / "components.yaml"
    comps.write_text(comps.read_text(encoding="utf-8") + COUNTERS, encoding="utf-8")
    layouts = game / "layouts.yaml"
    text = layouts.read_text(encoding="utf-8")
    head, sep, tail = text.rpartition("\ncomponents:\n")
    layouts.write_text(head + "\n" + TOKEN_LAYOUT + sep + tail.rstrip("\n") + "\n"
                       "  tokens: {front: token-face, back: token-face}\n", encoding="utf-8")
    return game


def test_printing_stages_load_no_optimiser(tmp_path: Path) -> None:
    game = _game(tmp_path)
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-c", PROBE, str(game), str(out)], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    probe = json.loads(proc.stdout.strip().splitlines()[-1])
    assert probe["code"] in (0, None), proc.stderr[-2000:]
    # every stage wrote its files: a probe that printed nothing would prove nothing
    names = {p.name for p in (out / "lanterns").iterdir()}
    for prefix in ("cards-lantern-cards-", "counters-tokens-", "map-", "rulebook-"):
        assert any(n.startswith(prefix) and n.endswith(".pdf") for n in names), (prefix, sorted(names))
    loaded = set(probe["modules"])
    assert "reportlab" in loaded and "pypdfium2" in loaded  # it printed, and preflight read the PDFs back
    assert not loaded & {"ortools", "pandas"}, sorted(loaded & {"ortools", "pandas"})
    # the project font's package is found, not imported: importing it loads matplotlib
    assert "matplotlib" not in loaded and "matplotlib_fontja" not in loaded
