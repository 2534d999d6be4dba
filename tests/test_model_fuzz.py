"""Property: mutating the example data files never produces a traceback, only DataError lines."""
from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from solver.errors import DataError
from solver.game.loader import load_game

from conftest import GAMES

GAME_IDS = sorted(p.name for p in GAMES.iterdir() if (p / "game.yaml").is_file())
TOKENS = ["", "-1", "null", "[", "]", "{", "}", ":", "x: y", "'", '"', "  ", "\t", "é", "指輪", "1.5",
          "true", "players +", "count(", "- ", "&a", "*a", "!!python/object:os.system", "99999999999999999999"]


@st.composite
def mutation(draw, games=tuple(GAME_IDS), only: str | None = None):
    game = draw(st.sampled_from(list(games)))
    files = sorted(str(p.relative_to(GAMES / game)) for p in (GAMES / game).rglob("*")
                   if p.suffix in (".yaml", ".csv") and (only is None or p.name == only))
    name = draw(st.sampled_from(files))
    lines = (GAMES / game / name).read_text(encoding="utf-8").splitlines()
    i = draw(st.integers(0, max(len(lines) - 1, 0)))
    op = draw(st.sampled_from(["delete", "duplicate", "replace-token", "insert-token", "indent", "dedent"]))
    token = draw(st.sampled_from(TOKENS))
    pos = draw(st.integers(0, 200))
    return game, name, i, op, token, pos


def apply(lines: list[str], i: int, op: str, token: str, pos: int) -> list[str]:
    if not lines:
        return [token]
    line = lines[i]
    if op == "delete":
        return lines[:i] + lines[i + 1:]
    if op == "duplicate":
        return lines[:i + 1] + [line] + lines[i + 1:]
    if op == "indent":
        return lines[:i] + ["  " + line] + lines[i + 1:]
    if op == "dedent":
        return lines[:i] + [line[2:]] + lines[i + 1:]
    p = pos % (len(line) + 1)
    if op == "insert-token":
        return lines[:i] + [line[:p] + token + line[p:]] + lines[i + 1:]
    end = line.find(" ", p)
    end = len(line) if end < 0 else end
    return lines[:i] + [line[:p] + token + line[end:]] + lines[i + 1:]


@contextmanager
def mutated_copy(m):
    """A temporary copy of the game folder with the mutation applied to one of its files."""
    game, name, i, op, token, pos = m
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / game
        shutil.copytree(GAMES / game, folder)
        target = folder / name
        target.write_text("\n".join(apply(target.read_text(encoding="utf-8").splitlines(), i, op, token, pos)) + "\n",
                          encoding="utf-8")
        yield folder


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation())
def test_mutated_data_never_tracebacks(m):
    with mutated_copy(m) as folder:
        try:
            load_game(folder)
        except DataError as e:
            assert e.problems
            for p in e.problems:
                text = str(p)
                assert "\n" not in text and text.startswith(str(p.path))


SMALL_GAMES = tuple(g for g in GAME_IDS if g != "war-of-the-ring-campaign")  # its check takes ~1 s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation(games=SMALL_GAMES, only="setup.yaml"))
def test_checking_mutated_setups_never_tracebacks(m):
    """What loads must also check: the engine and CP-SAT checker turn odd but valid data into
    findings or one-line errors, never a crash."""
    from solver.report import check_game

    with mutated_copy(m) as folder:
        try:
            report = check_game(load_game(folder))
        except DataError as e:
            assert e.problems
            return
        assert report["game"] == m[0] and isinstance(report["findings"], list)
