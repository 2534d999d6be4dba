"""Hostile input: each kind of bad file gets located one-line errors, never a traceback (issue 14).

One regression test per failure the stress campaign (bench/stress.py) found, plus the explicit
limits of solver/game/limits.py, each with its own message.
"""
from __future__ import annotations

import re

import pytest

from solver import expr
from solver.game import limits
from solver.errors import DataError
from solver.game.loader import load_game
from solver.rules.po import read_po

LOCATED = re.compile(r"^\S.*:(\d+):(\d+): .+; .+$")


# The limits as README.md's table of bounds states them, written out by hand: the tests below (and
# test_expr_grammar.py, test_svg_references.py) build their inputs and expected messages from
# solver/game/limits.py, so this pins those constants to the documented figures.
DOCUMENTED_LIMITS = {
    "MAX_FILE_BYTES": 8 * 1024 * 1024, "MAX_DEPTH": 64, "MAX_VALUES": 100_000, "MAX_ITEMS": 5_000,
    "MAX_COLUMNS": 200, "MAX_COPIES": 10_000, "MAX_PIECES": 20_000, "MAX_INTEGER": 1_000_000_000,
    "MAX_EXPR_CHARS": 1_000, "MAX_EXPR_DEPTH": 32, "MAX_EXPR_VALUE": 10 ** 12,
    "MAX_IMAGE_BYTES": 40 * 1024 * 1024, "MAX_IMAGE_PIXELS": 60_000_000, "MAX_FONT_BYTES": 30 * 1024 * 1024,
    "MAX_SVG_ELEMENTS": 20_000, "MAX_SVG_PATH_DATA": 1_000_000,
}


def test_the_limits_are_the_documented_figures():
    assert {name: getattr(limits, name) for name in DOCUMENTED_LIMITS} == DOCUMENTED_LIMITS


def problems_of(folder) -> list[str]:
    with pytest.raises(DataError) as e:
        load_game(folder)
    lines = [str(p) for p in e.value.problems]
    for line in lines:
        assert LOCATED.match(line), line
    return lines


def append(path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.mark.parametrize("nested", ["[" * 100_000 + "]" * 100_000, "{a: " * 3000 + "1" + "}" * 3000,
                                    "[" * 65 + "]" * 65])
def test_deep_nesting_is_a_limit_not_a_crash(game_copy, tmp_path, capsys, nested):
    # 100,000 brackets crashed the interpreter (libyaml's composer recurses in C); 3,000 gave a
    # RecursionError traceback. Which layer stops the deepest ones (our depth check or libyaml's
    # own nesting limit, which PyYAML 6.0.4 brought) is not the point, nor its wording: the user
    # gets one located line at the nesting's line, exit 2, no traceback, nothing written.
    from generator.cli import main

    folder = game_copy()
    append(folder / "setup.yaml", f"deep: {nested}\n")
    line_no = (folder / "setup.yaml").read_text(encoding="utf-8").count("\n")
    [line] = problems_of(folder)
    assert re.search(rf"setup\.yaml:{line_no}:\d+: ", line), line
    if len(nested) < 200:  # one level past our limit: our check, our words
        assert f"nest more than {limits.MAX_DEPTH} levels deep" in line
    out = tmp_path / "out"
    capsys.readouterr()
    assert main(["build", str(folder), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    [shown] = err.strip().splitlines()
    assert LOCATED.match(shown) and re.search(rf"setup\.yaml:{line_no}:\d+: ", shown), shown
    written = [p.relative_to(out).as_posix() for p in out.rglob("*")] if out.exists() else []
    assert set(written) <= {".pnp-build.lock"}, written  # the lock that keeps two builds apart


def test_alias_bomb_stops_at_the_value_limit(game_copy):
    folder = game_copy()
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 10)}]" for k in range(1, 9)]
    (folder / "setup.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    [line] = problems_of(folder)
    assert f"more than {limits.MAX_VALUES:,} values" in line


@pytest.mark.parametrize("number", ["1e309", ".nan", "-.inf", "9" * 5000, "2000000000"])
def test_numbers_out_of_range_are_located(game_copy, number):
    folder = game_copy()
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8")
    m = re.search(r"players: \{min: (\d+)", text)
    path.write_text(text[:m.start(1)] + number + text[m.end(1):], encoding="utf-8")
    [line] = problems_of(folder)
    line_no = text[:m.start(1)].count("\n") + 1
    assert line.split(":")[1] == str(line_no) and "number" in line


def test_control_character_is_located_at_its_position(game_copy):
    folder = game_copy()
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8")
    i = text.index("title")
    path.write_text(text[:i] + "\0" + text[i:], encoding="utf-8")
    [line] = problems_of(folder)
    line_no = text[:i].count("\n") + 1
    col = i - text.rfind("\n", 0, i)
    assert f"game.yaml:{line_no}:{col}: character U+0000 is not allowed" in line


def test_invalid_utf8_is_located(game_copy):
    folder = game_copy()
    path = folder / "components.yaml"
    data = path.read_bytes()
    i = data.index(b"\n", 100) + 1  # start of a line
    path.write_bytes(data[:i] + b"\xff" + data[i:])
    [line] = problems_of(folder)
    line_no = data[:i].count(b"\n") + 1
    assert re.search(rf"components\.yaml:{line_no}:1: not UTF-8 text", line), line


def test_file_over_the_size_limit(game_copy, monkeypatch):
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1000)
    folder = game_copy()
    [line, *_] = problems_of(folder)
    assert "more than the limit of 1000 bytes" in line


@pytest.mark.parametrize("value", ["{}", "[]", "[1, 2]"])
def test_expression_given_a_list_or_mapping(game_copy, value):
    # campaign failure: `recipients: {}` raised TypeError (unhashable) from the expression cache;
    # a side's `players:` (the hobbits: players - 1) is such an expression
    folder = game_copy("lotr-sauron")
    path = folder / "setup.yaml"
    text = path.read_text(encoding="utf-8")
    assert "players: players - 1," in text
    path.write_text(text.replace("players: players - 1,", f"players: {value},", 1), encoding="utf-8")
    lines = problems_of(folder)
    assert any("an expression is a whole number or text" in x for x in lines), lines


@pytest.mark.parametrize("text, message", [
    ("(" * 200 + "1" + ")" * 200, "nests more than"),
    ("not " * 40 + "true", "nests more than"),
    ("9" * 12, "larger than"),
    ("x" * (limits.MAX_EXPR_CHARS + 1), "more than the limit"),
    ("9**9**9", "expected a number"),
])
def test_expression_limits(text, message):
    with pytest.raises(expr.ExprError, match=message):
        expr.parse(text)


@pytest.mark.parametrize("text", ["players * 999999999 * 999999999 * 999999999", "'a' + 1", "min()", "[1] < 2"])
def test_expression_evaluation_errors_are_expr_errors(text):
    with pytest.raises(expr.ExprError):
        expr.evaluate(text, {"players": 3})


def test_po_file_not_utf8_is_located(tmp_path):
    # campaign failure: a UTF-16 PO file was "not a valid PO file" without a line
    po = tmp_path / "en.po"
    po.write_bytes('msgid ""\nmsgstr ""\n'.encode("utf-16"))
    with pytest.raises(DataError) as e:
        read_po(po)
    [line] = [str(p) for p in e.value.problems]
    assert re.search(r"en\.po:1:1: not UTF-8 text", line), line


@pytest.mark.parametrize("header_extra", [",count", ",,"])
def test_csv_duplicate_and_blank_columns(game_copy, header_extra):
    folder = game_copy()
    path = folder / "gem-cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines = [lines[0] + header_extra] + [x + ",1" * header_extra.count(",") for x in lines[1:]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if header_extra == ",count":
        [line] = problems_of(folder)
        assert re.search(r"gem-cards\.csv:1:\d+: duplicate column 'count'", line), line
    else:  # cells under no header name (solver/game/columns.py check_header)
        lines = problems_of(folder)
        assert all(re.search(r"gem-cards\.csv:1:\d+: column \d+ has values but no header", x) for x in lines), lines


def test_csv_row_limit(game_copy, monkeypatch):
    monkeypatch.setattr(limits, "MAX_ITEMS", 3)
    folder = game_copy()
    [line] = problems_of(folder)
    assert re.search(r"gem-cards\.csv:5:1: more than 3 rows", line), line


def test_xlsx_damaged_or_misnamed_is_located(game_copy):
    from openpyxl import Workbook

    folder = game_copy()
    comps = folder / "components.yaml"
    comps.write_text(comps.read_text(encoding="utf-8").replace("items_file: gem-cards.csv", "items_file: gem-cards.xlsx"),
                     encoding="utf-8")
    wb = Workbook()
    wb.active.title = "other"
    wb.active.append(["id", "count", "id"])
    wb.save(folder / "gem-cards.xlsx")
    [line] = problems_of(folder)
    assert re.search(r"gem-cards\.xlsx:1:1: no sheet named 'gem-cards'", line), line
    data = (folder / "gem-cards.xlsx").read_bytes()
    (folder / "gem-cards.xlsx").write_bytes(data[: len(data) // 2])
    [line] = problems_of(folder)
    assert "not a readable XLSX workbook" in line


def test_items_file_outside_the_folder_through_a_symlink(game_copy, tmp_path):
    folder = game_copy()
    secret = tmp_path / "secret.csv"
    secret.write_text("id,count\nstolen,1\n", encoding="utf-8")
    (folder / "gem-cards.csv").unlink()
    (folder / "gem-cards.csv").symlink_to(secret)
    [line] = problems_of(folder)
    assert "leaves the game folder" in line


def test_missing_items_file_is_located_at_its_key(game_copy):
    # campaign failure (seed 14, input 8279): a components.yaml cut short named `play-cards.cs`,
    # and "file not found" pointed at no line of any file
    folder = game_copy()
    comps = folder / "components.yaml"
    text = comps.read_text(encoding="utf-8")
    comps.write_text(text.replace("items_file: gem-cards.csv", "items_file: gem-cards.cs"), encoding="utf-8")
    line_no = next(i for i, t in enumerate(text.splitlines(), 1) if "items_file: gem-cards.csv" in t)
    [line] = problems_of(folder)
    assert re.search(rf"components\.yaml:{line_no}:\d+: items_file 'gem-cards\.cs' not found; .*gem-cards\.csv", line), line


def test_unknown_stage_is_a_usage_error_listing_the_choices(capsys):
    from generator import cli
    from generator.build import STAGE_NAMES

    with pytest.raises(SystemExit) as e:
        cli.main(["build", "dont-drop-the-ring", "--only", "card", "--out", "/nonexistent/never-written"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    # what argparse says around it is argparse's, and its quoting differs between Python releases: the
    # option, the wrong value and every choice are named, no traceback
    assert "--only" in err and re.search(r"(?<![\w-])card(?![\w-])", err), err
    assert all(name in err for name in STAGE_NAMES) and "Traceback" not in err


@pytest.mark.parametrize("require", ["min() >= 1", "max() <= 1", "players * 999999999 * 999999999 >= 1"])
def test_constraint_that_cannot_be_computed_is_located(game_copy, require):
    # campaign failures: `require: min()` raised ValueError in the checker, a huge product
    # overflowed CP-SAT's 64-bit arithmetic
    from solver.report import check_game

    folder = game_copy()
    path = folder / "setup.yaml"
    text = path.read_text(encoding="utf-8")
    m = re.search(r"require: (\"[^\"]*\"|'[^']*'|[^\n]*)", text)
    path.write_text(text[:m.start(1)] + f'"{require}"' + text[m.end(1):], encoding="utf-8")
    with pytest.raises(DataError) as e:
        check_game(load_game(folder))
    [line] = [str(p) for p in e.value.problems]
    assert re.match(r"^\S.*setup\.yaml:\d+:\d+: constraint .+; .+$", line), line


def test_csv_header_that_csv_cannot_read(game_copy):
    # campaign/property failure: a bare carriage return inside the header raised csv.Error
    folder = game_copy()
    path = folder / "gem-cards.csv"
    path.write_bytes(b"id,co\runt,x\n" + path.read_bytes().split(b"\n", 1)[1])
    # a bare carriage return ends a line, as in a CR-only file: the header is `id,co`, and the rows
    # under it have more cells than it
    lines = problems_of(folder)
    assert lines and all("gem-cards.csv:" in x for x in lines), lines


def test_a_field_box_past_any_paper_is_located_not_an_overflow(game_copy):
    """Regression (stress campaign, lead's run, input 90211): a field box height of 1e9 mm passed
    validation and the counter drawing died with an OverflowError traceback."""
    folder = game_copy("war-of-the-ring-campaign")
    layouts = folder / "layouts.yaml"
    lines = layouts.read_text(encoding="utf-8").splitlines()
    n = next(i for i, t in enumerate(lines) if re.search(r"box: \[[\d.]+, [\d.]+, [\d.]+, [\d.]+\]", t))
    lines[n] = re.sub(r"(box: \[[\d.]+, [\d.]+, [\d.]+, )[\d.]+\]", r"\g<1>1000000000]", lines[n])
    layouts.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as e:
        load_game(folder)
    assert any(str(p).startswith(f"{layouts}:{n + 1}:") and "1200" in str(p) for p in e.value.problems), \
        [str(p) for p in e.value.problems]


def _set_counts(folder, rows: dict[int, str]) -> None:
    """Set the count of data rows (1-based, after the header) of dont-drop-the-ring's card list."""
    path = folder / "gem-cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    for row, count in rows.items():
        cells = lines[row].split(",")
        cells[1] = count
        lines[row] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("rows, line_no", [({2: "1000000000"}, 3), ({2: "200000"}, 3),
                                            ({1: "10000", 2: "10000", 3: "10000"}, 4)])
def test_copies_are_bounded_at_the_counts_line_before_drawing(game_copy, tmp_path, capsys, command, rows, line_no):
    # campaign failure: a count of 1,000,000,000 (or 200,000) was inside the documented limit and
    # `pnp build` grew to 15 GB; now a count past limits.MAX_COPIES, or the count with which the box
    # passes limits.MAX_PIECES, is refused at its line by check and build alike, before drawing.
    from generator.cli import main

    folder = game_copy()
    _set_counts(folder, rows)
    [line] = problems_of(folder)
    assert re.search(rf"gem-cards\.csv:{line_no}:\d+: ", line), line
    out = tmp_path / "out"
    capsys.readouterr()
    argv = [command, str(folder)] + (["--out", str(out)] if command == "build" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and LOCATED.match(err[0]) and f"gem-cards.csv:{line_no}:" in err[0], err
    written = [p.relative_to(out).as_posix() for p in out.rglob("*")] if out.exists() else []
    assert set(written) <= {".pnp-build.lock"}, written


def test_a_box_at_the_piece_limit_is_accepted(game_copy):
    folder = game_copy()
    game = load_game(folder)
    others = sum((sum(i.count or 0 for i in c.items) if c.items else (c.count or 0))
                 for c in game.components if c.id != "gem-cards")
    _set_counts(folder, {1: str(limits.MAX_COPIES), 2: str(limits.MAX_PIECES - limits.MAX_COPIES - others - 28)})
    game = load_game(folder)  # 30 rows: two set, 28 of one copy each
    total = sum((sum(i.count or 0 for i in c.items) if c.items else (c.count or 0)) for c in game.components)
    assert total == limits.MAX_PIECES


def test_an_unbalanced_quote_in_a_csv_is_located_where_it_opens(game_copy):
    # campaign failure: the open quote swallowed the 28 rows after it; `pnp show` listed 2 cards
    folder = game_copy()
    path = folder / "gem-cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    n = next(i for i, t in enumerate(lines) if t.startswith("amethyst-2,"))
    cells = lines[n].split(",")
    cells[3] = '"' + cells[3]
    lines[n] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [line] = problems_of(folder)
    col = lines[n].index('"') + 1
    assert re.search(rf"gem-cards\.csv:{n + 1}:{col}: ", line), line


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f"])
def test_control_characters_in_a_csv_cell_are_located(game_copy, char):
    folder = game_copy()
    path = folder / "gem-cards.csv"
    text = path.read_text(encoding="utf-8")
    i = text.index("Amethyst 2") + 4
    path.write_text(text[:i] + char + text[i:], encoding="utf-8")
    [line] = problems_of(folder)
    line_no = text[:i].count("\n") + 1
    col = i - text.rfind("\n", 0, i)
    assert re.search(rf"gem-cards\.csv:{line_no}:{col}: character U\+{ord(char):04X} ", line), line


@pytest.mark.parametrize("escape, code", [("\\0", 0), ("\\e", 0x1B), ("\\x07", 7)])
def test_control_characters_written_as_yaml_escapes_are_located(game_copy, escape, code):
    folder = game_copy()
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^(\s*en: )(.+)$", text, re.MULTILINE)
    path.write_text(text[:m.start(2)] + f'"A{escape}B"' + text[m.end(2):], encoding="utf-8")
    [line] = problems_of(folder)
    line_no = text[:m.start(2)].count("\n") + 1
    assert re.search(rf"game\.yaml:{line_no}:\d+: character U\+{code:04X} ", line), line


def test_a_cr_only_csv_is_read_like_any_other(game_copy):
    folder = game_copy()
    before = load_game(folder)
    path = folder / "gem-cards.csv"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r"))
    after = load_game(folder)
    assert [(i.id, i.count, i.name) for i in after.component("gem-cards").items] == \
        [(i.id, i.count, i.name) for i in before.component("gem-cards").items]


def test_a_semicolon_separated_csv_is_named_as_such(game_copy):
    folder = game_copy()
    path = folder / "gem-cards.csv"
    path.write_text(path.read_text(encoding="utf-8").replace(",", ";"), encoding="utf-8")
    [line] = problems_of(folder)
    assert re.search(r"gem-cards\.csv:1:1: .*';'", line), line


def test_a_fifo_items_file_is_not_a_regular_file(game_copy):
    # campaign: a FIFO was "not found" while the hint listed it among the files present
    import os

    folder = game_copy()
    (folder / "gem-cards.csv").unlink()
    os.mkfifo(folder / "gem-cards.csv")
    [line] = problems_of(folder)
    assert re.search(r"components\.yaml:\d+:\d+: items_file 'gem-cards\.csv' is not a regular file", line), line
