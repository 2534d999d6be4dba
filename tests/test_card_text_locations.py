"""Issue 29 items 1 and 7: mistakes in card text are found at the CSV cell that holds them, and an
unknown `:icon:` does not stop a deck that has no layouts.yaml. A newcomer's game (started with
`pnp new`, its layouts.yaml deleted, as a newcomer who wants no layout yet would) is edited cell by
cell; each problem must come back at `cards.csv:line:column`.
"""
from __future__ import annotations

import json
from pathlib import Path

import pdfplumber

from generator.cli import main

BUILD = ["--lang", "en", "--only", "cards", "--no-preflight"]


def new_game(root: Path, layouts: bool = False) -> Path:
    folder = root / "harbour"
    assert main(["new", str(folder)]) == 0
    if not layouts:
        (folder / "layouts.yaml").unlink()
    return folder


def set_cell(folder: Path, row_id: str, column: str, value: str) -> tuple[int, int]:
    """Write `value` into the CSV cell and return its (line, column), counted by hand."""
    path = folder / "cards.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    if column not in header:
        header.append(column)
        lines = [",".join(header)] + [ln + "," for ln in lines[1:]]
    col = header.index(column)
    for n, ln in enumerate(lines):
        cells = ln.split(",")
        if cells[0] == row_id:
            cells += [""] * (len(header) - len(cells))
            cells[col] = value
            lines[n] = ",".join(cells)
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return n + 1, col + 1
    raise AssertionError(row_id)


def findings(folder: Path, capsys) -> list[dict]:
    capsys.readouterr()
    main(["check", str(folder), "--json"])
    return json.loads(capsys.readouterr().out)["findings"]


def test_an_unknown_icon_without_layouts_prints_as_typed_and_warns_at_its_cell(tmp_path, capsys):
    folder = new_game(tmp_path)
    line, col = set_cell(folder, "red-4", "text", "Take :lamp: and play it.")
    [w] = [f for f in findings(folder, capsys) if f["code"] == "unknown-symbol"]
    assert w["severity"] == "warning" and w["source"].endswith(f"cards.csv:{line}:{col}")
    assert "':lamp:'" in w["message"] and "src: icons/lamp.png" in w["message"]
    assert main(["build", str(folder), "--out", str(tmp_path / "out"), *BUILD]) == 0
    [pdf] = (tmp_path / "out" / "harbour").glob("cards-*-en.pdf")
    with pdfplumber.open(pdf) as doc:
        assert any("Take :lamp: and play it." in (p.extract_text() or "") for p in doc.pages)


def test_a_near_symbol_name_is_suggested(tmp_path, capsys):
    folder = new_game(tmp_path, layouts=True)
    with (folder / "layouts.yaml").open("a", encoding="utf-8") as f:
        f.write("symbols:\n  - {id: lamps, shapes: [{kind: circle, cx: 5, cy: 5, r: 4, fill: current}]}\n")
    line, col = set_cell(folder, "blue-2", "text", "Light a :lamp:.")
    [w] = [f for f in findings(folder, capsys) if f["code"] == "unknown-symbol"]
    assert w["source"].endswith(f"cards.csv:{line}:{col}") and "did you mean 'lamps'?" in w["message"]


def test_a_character_no_font_has_is_an_error_at_its_cell(tmp_path, capsys):
    folder = new_game(tmp_path)
    line, col = set_cell(folder, "red-4", "text", "Take \U0001F525 and play it.")
    capsys.readouterr()
    assert main(["build", str(folder), "--out", str(tmp_path / "out"), *BUILD]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if "U+1F525" in ln]
    assert len(err) == 1 and f"cards.csv:{line}:{col}:" in err[0] and "red-4" in err[0]


def test_a_missing_picture_named_in_the_csv_is_an_error_at_its_cell(tmp_path, capsys):
    folder = new_game(tmp_path, layouts=True)
    layouts = folder / "layouts.yaml"
    layouts.write_text(layouts.read_text(encoding="utf-8").replace(
        "      - {name: footer,", '      - {name: art, kind: image, box: [8, 30, 47, 30], src: "{art}"}\n'
        "      - {name: footer,", 1), encoding="utf-8")
    rows = folder / "cards.csv"
    cells = {set_cell(folder, row.split(",")[0], "art", "art/missing.png")
             for row in rows.read_text(encoding="utf-8").splitlines()[1:]}
    capsys.readouterr()
    assert main(["build", str(folder), "--out", str(tmp_path / "out"), *BUILD]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if "missing.png" in ln]
    assert err
    for ln in err:
        where = ln.split(": ", 1)[0]  # path:line:column
        path, line, col = where.rsplit(":", 2)
        assert path.endswith("cards.csv") and (int(line), int(col)) in cells
