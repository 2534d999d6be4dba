"""The example games load, list and show; schemas on disk match the model."""
from __future__ import annotations

import json

import pytest

from generator.cli import main
from solver.game.folders import game_ids
from solver.game.loader import load_game
from solver.schema import schemas

from conftest import ROOT

EXPECTED = {"riddle-of-the-ring", "saboteur-the-lost-mines", "dont-drop-the-ring", "lotr-sauron",
            "war-of-the-ring-campaign"}


def test_the_five_games_are_there():
    assert EXPECTED <= set(game_ids())


def test_every_game_loads_with_ja_and_en_titles():
    for gid in game_ids():
        g = load_game(gid)
        assert g.meta.title.get("ja") and g.meta.title.get("en"), gid
        assert g.components, gid
        assert g.meta.players.min >= 1


def test_stated_totals_match_or_the_gap_is_recorded():
    for gid in game_ids():
        g = load_game(gid)
        gap_components = {gap.component for gap in g.meta.gaps}
        for c in g.components:
            if c.stated_total is None:
                continue
            if c.total != c.stated_total.value:
                assert c.id in gap_components, f"{gid}/{c.id}: {c.total} != stated {c.stated_total.value} and no gap"


def test_list_json_lists_every_game(capsys):
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["id"] for r in rows} == set(game_ids())
    assert all(r["players"][0] <= r["players"][1] for r in rows)


def test_show_json_totals(capsys):
    assert main(["show", "dont-drop-the-ring", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    gems = next(c for c in data["components"] if c["id"] == "gem-cards")
    assert gems["total"] == 30 and gems["stated_total"] == 30


def test_dont_drop_the_ring_gems_by_suit_and_rank():
    g = load_game("dont-drop-the-ring")
    gems = g.component("gem-cards")
    by_suit: dict[str, list[int]] = {}
    for it in gems.items:
        by_suit.setdefault(it.attrs["suit"], []).append(it.attrs["rank"])
    assert by_suit == {"amethyst": list(range(1, 8)), "ruby": list(range(2, 8)), "sapphire": list(range(3, 8)),
                       "emerald": list(range(4, 8)), "gray-spinel": [5, 6, 7], "diamond": [6, 7],
                       "coin": [0, 1, 7]}
    assert g.component("hand-cards").items[0].attrs["marks"] == list(range(1, 10))


def test_schemas_on_disk_match_the_model():
    for name, schema in schemas().items():
        path = ROOT / "data" / "schema" / f"{name}.schema.json"
        assert path.is_file(), f"run `pnp schema` to write {path.name}"
        on_disk = json.loads(path.read_text(encoding="utf-8"))
        on_disk.pop("$schema"), on_disk.pop("title")
        fresh = json.loads(json.dumps(schema))
        fresh.pop("title", None)
        assert on_disk == fresh, f"{path.name} is stale: run `pnp schema`"


def test_size_presets_are_the_trade_sizes():
    """Many print tests take a piece's size from size_mm (the renderers' own lookup); here each preset
    is held to the trade size it names, in inches (the print services' trims), worked by hand."""
    from solver.game.components import size_mm

    inch = 25.4
    trades = {"poker": (2.5, 3.5), "bridge": (2.25, 3.5), "mini": (1.75, 2.5), "tarot": (2.75, 4.75),
              "half-inch": (0.5, 0.5), "five-eighths-inch": (0.625, 0.625), "one-inch": (1.0, 1.0)}
    for name, (w, h) in trades.items():
        assert size_mm(name) == (pytest.approx(w * inch), pytest.approx(h * inch)), name
    assert size_mm("square") == (70.0, 70.0)  # no trade size: the project's own 70 mm
