"""A key that only one printer reads (a deck's `tuck_box` and `card_thickness_mm`, a die's
`faces`, a token's `shape`) on a component that another printer prints would change nothing on
paper: loading refuses it at its line, with what to do, instead of ignoring it in silence. On a
game written as a newcomer would (`pnp new`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main

BOATS = "    max_players: 4            # ...for up to four players\n"  # the scaffold's boats: kind pieces


def _game(tmp_path: Path, boats_extra: str) -> Path:
    folder = tmp_path / "lanterns"
    assert main(["new", str(folder)]) == 0
    comps = folder / "components.yaml"
    text = comps.read_text(encoding="utf-8")
    assert BOATS in text
    comps.write_text(text.replace(BOATS, BOATS + boats_extra, 1), encoding="utf-8")
    return folder


def _line_of(folder: Path, key: str) -> int:
    lines = (folder / "components.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.strip().startswith(f"{key}:"))


@pytest.mark.parametrize("key, value", [("tuck_box", "true"), ("card_thickness_mm", "0.5"), ("shape", "round")])
def test_a_key_the_printer_does_not_read_is_refused_at_its_line(tmp_path, capsys, key, value):
    folder = _game(tmp_path, f"    {key}: {value}\n")
    assert main(["check", str(folder)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1, err
    assert f"components.yaml:{_line_of(folder, key)}:" in err[0]
    assert key in err[0] and "'boats'" in err[0] and "standees" in err[0] and "print_as" in err[0]


def test_the_same_key_is_read_where_layouts_print_it_as_cards(tmp_path, capsys):
    # print_as: cards makes the boats a deck for the printer: its tuck box is then read, not refused
    folder = _game(tmp_path, "    tuck_box: false\n")
    lay = folder / "layouts.yaml"
    text = lay.read_text(encoding="utf-8")
    assert "\ncomponents:\n" in text, "the scaffold's layouts.yaml names its components"
    lay.write_text(text.replace("\ncomponents:\n", "\ncomponents:\n  boats: {print_as: cards}\n", 1), encoding="utf-8")
    assert main(["check", str(folder)]) == 0, capsys.readouterr().err
