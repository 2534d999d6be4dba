"""solver/game/yamlsrc.py: what a YAML file reads as, and what reading it leaves behind."""
from __future__ import annotations

import gc

import yaml

from solver.game.yamlsrc import parse_yaml

# text, numbers, true/false, null, a date, a quoted number, an alias to text and to a number
SAMPLE = """\
name: Harbour
players: {min: 2, max: 4}
weight: 2.5
open: true
closed: false
nothing: null
when: 2024-05-01
code: "0412"
tags: [&t coast, *t, 7, &n 3, *n]
rows:
  - {id: a, text: "Take 1 coin."}
  - {id: b, text: 'Lose one "coin".'}
"""


def _nodes_alive() -> int:
    gc.collect()
    return sum(isinstance(o, yaml.Node) for o in gc.get_objects())


def test_a_file_reads_as_the_safe_loader_reads_it_with_dates_as_text():
    """The oracle is PyYAML's own safe loader (its whole document constructed at once), on a file
    without the YAML 1.1 booleans (yes, on) that ours reads as text."""
    data, locator = parse_yaml(SAMPLE, "sample.yaml")
    expected = yaml.load(SAMPLE, Loader=yaml.SafeLoader)
    expected["when"] = str(expected["when"])
    assert data == expected
    assert [type(v) for v in data["tags"]] == [str, str, int, int, int]
    assert locator.at(("rows", 1, "text")) == (12, 19)  # after "  - {id: b, text: "


def test_reading_a_file_keeps_none_of_its_nodes():
    """The parsed tree is let go once read: the constructor shared by every file used to keep each
    scalar node it built (and its value), for the life of the process, file after file."""
    before = _nodes_alive()
    for _ in range(3):
        parse_yaml(SAMPLE, "sample.yaml")
    assert _nodes_alive() == before
