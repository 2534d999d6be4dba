"""`pip install .` (not editable) works from any folder: the wheel carries the example games,
`pnp list` lists them, a game id or a folder anywhere builds, and output goes to ./output of the
current folder. The wheel is installed without its dependencies into a scratch folder put first
on PYTHONPATH (the dependencies come from this environment), and run from an empty folder."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"  # build from a copy: the build must not leave files in the repository
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "output", "__pycache__", "*.egg-info", "build"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"), str(src)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next((work / "dist").glob("pnp_forge-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("pnp_forge_data/games/") and n.endswith("/game.yaml") for n in names)
    site = work / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return site


def pnp(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("PNP_DATA", None)
    return subprocess.run([sys.executable, "-c", "import sys; from generator.cli import main; sys.exit(main())", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_installed_wheel_lists_and_builds_from_another_folder(installed, tmp_path):
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    where = pnp(installed, empty, "--help")
    assert where.returncode == 0
    probe = subprocess.run([sys.executable, "-c", "import generator, solver.game.loader as l; print(generator.__file__); print(l.GAMES_DIR)"],
                           cwd=empty, env={**os.environ, "PYTHONPATH": str(installed)}, capture_output=True, text=True)
    code_file, games_dir = probe.stdout.split()
    assert Path(code_file).is_relative_to(installed) and Path(games_dir).is_relative_to(installed)

    listed = pnp(installed, empty, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    ids = [g["id"] for g in json.loads(listed.stdout)]
    source_ids = sorted(p.name for p in (ROOT / "data" / "games").iterdir() if (p / "game.yaml").is_file())
    assert ids == source_ids

    built = pnp(installed, empty, "build", ids[0], "--only", "manifest")
    assert built.returncode == 0, built.stderr
    manifest = json.loads((empty / "output" / ids[0] / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["game"] == ids[0] and manifest["components"]

    mine = tmp_path / "mygame"  # a game folder of one's own, anywhere
    shutil.copytree(ROOT / "data" / "games" / ids[0], mine)
    built = pnp(installed, empty, "build", str(mine), "--only", "manifest", "--out", str(tmp_path / "mine-out"))
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "mine-out" / ids[0] / "manifest.json").is_file()
