"""The program ends without the interpreter's teardown (generator/cli.py `end_now`: freeing every
object one by one cost 0.2-0.3 CPU-s at the end of a cold build), and still does what an ordinary
exit does that matters: its output whole, the functions registered with atexit run, its exit status
kept; while another thread runs, it ends as usual."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from solver.game.folders import game_ids

ROOT = Path(__file__).resolve().parent.parent

# the program as the `pnp` script runs it, with an object whose teardown shows, and an atexit function
PROGRAM = ("import atexit, sys, threading\n"
           "class Torn:\n"
           "    def __del__(self):\n"
           "        sys.stderr.write('torn down\\n')\n"
           "kept = Torn()\n"
           "atexit.register(lambda: print('atexit ran', file=sys.stderr))\n"
           "if '--thread' in sys.argv:\n"
           "    sys.argv.remove('--thread')\n"
           "    threading.Thread(target=threading.Event().wait, daemon=True).start()\n"
           "from generator.cli import main\n"
           "sys.exit(main())\n")


def pnp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_the_program_ends_without_its_teardown_and_keeps_what_an_exit_does(tmp_path):
    listed = pnp("list", "--json")
    assert listed.returncode == 0
    assert "torn down" not in listed.stderr and "atexit ran" in listed.stderr
    assert all(game in listed.stdout for game in game_ids()) and listed.stdout.endswith("\n")
    unusable = pnp("build", "no-such-game-here", "--out", str(tmp_path / "out"))
    assert unusable.returncode == 2 and "no-such-game-here" in unusable.stderr
    assert "torn down" not in unusable.stderr and "atexit ran" in unusable.stderr


def test_while_another_thread_runs_the_program_ends_as_usual():
    listed = pnp("list", "--json", "--thread")
    assert listed.returncode == 0
    assert "torn down" in listed.stderr and "atexit ran" in listed.stderr
