"""Movement reach (9.14-9.18) on small hand-made maps, and `pnp map GAME reach`."""
from __future__ import annotations

import json

import pytest

from generator.cli import main
from solver.errors import DataError
from solver.game.map import MapFile
from solver.hexmap.movement import reach

# 7 x 1 pointy-top row: hexes 0101..0701 in a straight line west to east.
BASE = {
    "id": "strip", "name": "strip", "reconstruction": True, "paper": "a4",
    "grid": {"orientation": "pointy", "offset": "odd", "hex_mm": 20, "columns": 7, "rows": 1},
    "labels": {"style": "xxyy"},
    "terrain": {"default": "clear", "kinds": {
        "clear": {"name": "clear", "fill": "#eeeeee", "move_cost": 1},
        "forest": {"name": "forest", "fill": "#88aa66", "move_cost": 2},
        "mountain": {"name": "mountain", "fill": "#aa9988", "move_cost": None}}, "areas": []},
    "movement": {"minor_river": 1, "major_river_crossing": 3, "road_cost": 1,
                 "road_march_bonus": [{"upto": 4, "bonus": 2}, {"bonus": 3}],
                 "default_unit": "troops",
                 "units": {"troops": {"all_in": True}, "fellowship": {"all_in": False},
                           "elf": {"all_in": True, "terrain_cost": {"forest": 1}}}},
    "legend": {"title": "t", "note": "n"},
}


def strip(**changes) -> MapFile:
    data = json.loads(json.dumps(BASE))
    for key, value in changes.items():
        data[key] = value
    return MapFile.model_validate(data)


def costs(mapfile: MapFile, start: str, mp: int, unit: str | None = None) -> dict[str, tuple[int, str]]:
    return {r.label: (r.cost, r.mode) for r in reach(mapfile.resolve(), start, mp, unit)}


def with_terrain(**areas) -> dict:
    t = json.loads(json.dumps(BASE["terrain"]))
    t["areas"] = [{"terrain": k, "hexes": v} for k, v in areas.items()]
    return t


def test_clear_terrain_costs_one_per_hex():
    got = costs(strip(), "0101", 3, "fellowship")
    assert got == {"0101": (0, "start"), "0201": (1, "normal"), "0301": (2, "normal"), "0401": (3, "normal")}


def test_forest_costs_two_and_elves_one():
    m = strip(terrain=with_terrain(forest=["0201", "0301"]))
    assert costs(m, "0101", 4, "fellowship")["0301"] == (4, "normal")
    assert "0401" not in costs(m, "0101", 4, "fellowship")
    assert costs(m, "0101", 2, "elf")["0301"] == (2, "normal")


def test_minor_river_adds_one():
    m = strip(rivers=[{"id": "brook", "kind": "minor", "hexsides": [["0201", "0301"]]}])
    got = costs(m, "0101", 3, "fellowship")
    assert got["0201"] == (1, "normal") and got["0301"] == (3, "normal") and "0401" not in got


def test_major_river_only_at_a_crossing_plus_three():
    river = [{"id": "great", "kind": "major", "hexsides": [["0201", "0301"]]}]
    assert "0301" not in costs(strip(rivers=river), "0101", 9, "fellowship")
    crossing = [{"kind": "crossing", "hexside": ["0201", "0301"], "river": "great"}]
    got = costs(strip(rivers=river, crossings=crossing), "0101", 5, "fellowship")
    assert got["0301"] == (5, "normal")      # 1 + (1 + 3)
    assert "0401" not in got


def test_road_costs_one_ignores_terrain_and_rivers_and_opens_mountains():
    m = strip(terrain=with_terrain(mountain=["0301"], forest=["0201"]),
              rivers=[{"id": "great", "kind": "major", "hexsides": [["0201", "0301"]]}],
              roads=[{"id": "r", "path": ["0101", "0201", "0301", "0401"]}])
    got = costs(m, "0101", 3, "fellowship")
    assert got["0201"] == (1, "normal") and got["0301"] == (2, "normal") and got["0401"] == (3, "normal")
    no_road = strip(terrain=with_terrain(mountain=["0301"]))
    assert "0301" not in costs(no_road, "0101", 9, "fellowship")  # mountains only by road (9.16)


def test_mountain_with_road_is_left_only_along_the_road():
    m = strip(grid={"orientation": "pointy", "offset": "odd", "hex_mm": 20, "columns": 3, "rows": 3},
              terrain=with_terrain(mountain=["0202"]),
              roads=[{"id": "r", "path": ["0102", "0202", "0302"]}])
    got = costs(m, "0202", 1, "fellowship")
    assert set(got) == {"0202", "0102", "0302"}  # 2.5.4: only road-connected hexes are adjacent


def test_road_march_bonus_when_the_whole_move_follows_the_road():
    m = strip(roads=[{"id": "r", "path": ["0101", "0201", "0301", "0401", "0501", "0601", "0701"]}])
    got = costs(m, "0101", 2)
    assert got["0301"] == (2, "normal")
    assert got["0501"] == (4, "road-march") and "0601" not in got  # 2 MP + 2 bonus (MP <= 4)
    assert costs(m, "0101", 5)["0701"] == (6, "road-march")        # 5 MP + 3 bonus reaches the end


def test_all_in_lets_a_combat_unit_enter_one_hex_it_cannot_afford():
    m = strip(terrain=with_terrain(forest=["0301"]))
    assert costs(m, "0101", 2, "troops")["0301"] == (2, "all-in")
    assert "0301" not in costs(m, "0101", 2, "fellowship")         # 9.18 not for the Fellowship
    walled = strip(terrain=with_terrain(mountain=["0301"]))
    assert "0301" not in costs(walled, "0101", 2, "troops")        # other limits still apply


def test_entry_limits_and_costs_of_special_hexes():
    place = {"id": "gate", "hex": "0201", "name": "gate", "kind": "special",
             "enter": {"cost": 4, "units": ["fellowship"]}}
    m = strip(places=[place])
    assert "0201" not in costs(m, "0101", 9, "troops")
    assert costs(m, "0101", 4, "fellowship")["0201"] == (4, "normal")


def test_bad_queries_are_unusable_input():
    with pytest.raises(DataError, match="not a hex"):
        reach(strip().resolve(), "9999", 3)
    with pytest.raises(DataError, match="unknown unit kind"):
        reach(strip().resolve(), "0101", 3, "dragon")


def test_cli_reach_on_the_wargame(capsys):
    assert main(["map", "war-of-the-ring-campaign", "reach", "M17", "--mp", "4", "--json"]) == 0
    rows = {r["hex"]: (r["cost"], r["mode"]) for r in json.loads(capsys.readouterr().out)}
    assert rows["M17"] == (0, "start")
    assert rows["N18"] == (4, "normal")          # across Rauros: 1 + 3 (9.15)
    assert rows["M18"] == (1, "normal")
    assert main(["map", "war-of-the-ring-campaign", "reach", "ZZ99", "--mp", "4"]) == 2
    assert "not a hex" in capsys.readouterr().err


def test_special_road_only_hexes_keep_to_their_road_and_pathless_ones_release_their_guests():
    grid = {"orientation": "pointy", "offset": "odd", "hex_mm": 20, "columns": 3, "rows": 3}
    paths = {"id": "paths", "name": "paths", "hexes": ["0202"], "enter": {"cost": 2, "units": ["troops"]}}
    m = strip(grid=grid, terrain=with_terrain(mountain=["0202"]), regions=[paths],
              roads=[{"id": "r", "path": ["0102", "0202", "0302"]}])
    assert set(costs(m, "0202", 3, "troops")) >= {"0102", "0302"}
    assert "0201" not in costs(m, "0202", 1, "troops")       # 2.5.4: only along the road
    gate = {"id": "gate", "hex": "0202", "name": "gate", "kind": "special", "enter": {"cost": 4, "units": ["fellowship"]}}
    pass_ = strip(grid=grid, terrain=with_terrain(mountain=["0202"]), places=[gate])
    assert costs(pass_, "0102", 4, "fellowship")["0202"] == (4, "normal")
    assert "0201" in costs(pass_, "0202", 1, "fellowship")   # a pass without a road can be left


def test_a_bad_query_names_the_argument_it_came_from_not_a_line_of_a_file():
    """What the command line gave wrongly is named as the user typed it (the hex, --unit, --mp; the map
    when it has no movement rules), with no line or column: none of it is in a file."""
    hm = strip().resolve()
    calls = [(lambda: reach(hm, "9999", 3), "9999"), (lambda: reach(hm, "0101", 3, "dragon"), "--unit"),
             (lambda: reach(hm, "0101", -1), "--mp")]
    data = json.loads(json.dumps(BASE))
    del data["movement"]
    bare = MapFile.model_validate(data).resolve()
    calls.append((lambda: reach(bare, "0101", 3), f"map {bare.data.id}"))
    for call, where in calls:
        with pytest.raises(DataError) as raised:
            call()
        (problem,) = raised.value.problems
        assert (problem.path, problem.line, problem.column) == (where, 0, 0)


def test_no_march_bonus_past_the_last_rule_that_applies():
    """road_march_bonus rules are read in order; past every `upto` and with no open-ended rule, none."""
    capped = json.loads(json.dumps(BASE))
    capped["movement"]["road_march_bonus"] = [{"upto": 2, "bonus": 2}]
    capped["roads"] = [{"id": "r", "path": ["0101", "0201", "0301", "0401", "0501", "0601", "0701"]}]
    m = MapFile.model_validate(capped)
    assert all(mode != "road-march" for _, mode in costs(m, "0101", 3).values())  # 3 MP: past upto 2
    assert any(mode == "road-march" for _, mode in costs(m, "0101", 2).values())   # 2 MP: the bonus
