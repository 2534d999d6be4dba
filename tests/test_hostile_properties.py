"""Properties, one per file kind: any bytes in a data file give a result or located one-line
errors (`path:line:col: what; what to do`), never a traceback. The long campaign is bench/stress.py."""
from __future__ import annotations

import io
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from solver.errors import DataError
from solver.game.loader import load_game
from solver.rules.po import read_po
from solver.game.sheets import load_xlsx

from conftest import GAMES

LOCATED = re.compile(r"^\S.*:[1-9]\d*:\d+: .+; .+$")
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# characters that matter to the parsers, with plenty of ordinary text around them
HOSTILE_TEXT = st.text(alphabet=st.sampled_from(list(',"\'\n\r\t\0\\:-[]{}#&*!|>%@`x1é指\u2028\ufffe') + ["\ud800"]),
                       max_size=200)


def assert_located(run) -> None:
    try:
        run()
    except DataError as e:
        for p in e.problems:
            assert LOCATED.match(str(p)), str(p)


def _copy(game: str) -> tuple[tempfile.TemporaryDirectory, Path]:
    tmp = tempfile.TemporaryDirectory()
    folder = Path(tmp.name) / game
    shutil.copytree(GAMES / game, folder)
    return tmp, folder


def _splice(data: bytes, at: float, new: bytes, cut: float) -> bytes:
    i = int(at * len(data))
    return data[:i] + new + data[i + int(cut * (len(data) - i)):]


@SETTINGS
@given(st.sampled_from(["game.yaml", "components.yaml", "setup.yaml", "layouts.yaml"]), st.floats(0, 1),
       st.binary(max_size=64) | HOSTILE_TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")), st.floats(0, 0.2))
def test_yaml_any_bytes(name, at, new, cut):
    tmp, folder = _copy("dont-drop-the-ring")
    with tmp:
        path = folder / name
        path.write_bytes(_splice(path.read_bytes(), at, new, cut))
        assert_located(lambda: load_game(folder))


@SETTINGS
@given(st.floats(0, 1), HOSTILE_TEXT, st.floats(0, 0.3))
def test_csv_any_text(at, new, cut):
    tmp, folder = _copy("dont-drop-the-ring")
    with tmp:
        path = folder / "gem-cards.csv"
        path.write_bytes(_splice(path.read_bytes(), at, new.encode("utf-8", "surrogatepass"), cut))
        assert_located(lambda: load_game(folder))


@SETTINGS
@given(st.floats(0, 1), HOSTILE_TEXT | st.sampled_from(['msgstr "\\q"', '"Plural-Forms: nplurals=x;\\n"',
                                                       '"Content-Type: text/plain; charset=latin-1\\n"',
                                                       'msgid "a"\nmsgid "b"', 'msgstr[0] "x"']), st.floats(0, 0.1))
def test_po_any_text(at, new, cut):
    tmp, folder = _copy("dont-drop-the-ring")
    with tmp:
        path = folder / "rules" / "en.po"
        path.write_bytes(_splice(path.read_bytes(), at, new.encode("utf-8", "surrogatepass"), cut))
        assert_located(lambda: read_po(path))


def _workbook() -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "gem-cards"
    for row in (GAMES / "dont-drop-the-ring" / "gem-cards.csv").read_text(encoding="utf-8").splitlines():
        wb.active.append(row.split(","))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


WORKBOOK = _workbook()


@SETTINGS
@given(st.floats(0, 1), st.binary(max_size=32), st.floats(0, 1))
def test_xlsx_any_bytes(at, new, cut):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cards.xlsx"
        path.write_bytes(_splice(WORKBOOK, at, new, cut))
        assert_located(lambda: load_xlsx(path, "gem-cards"))
