"""war-of-the-ring-campaign (seed 004): the inventory, the 18.5 placement and the constraints as data.

The numbers asserted here are read off seed 004 (rules 2.2, 2.3.5, 5.8, 16.23, 18.1-18.5 and the
product notice), so a slip in the YAML shows up as a disagreement with the seed.
"""
from __future__ import annotations

from collections import Counter

import pytest

from solver import expr
from solver.game.loader import load_game
from solver.game.setup import PlaceStep

GAME = "war-of-the-ring-campaign"


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


def _items(game, cid):
    return {it.id: it for it in game.component(cid).items}


def _placed(game):
    """(item id, on) -> pieces, from the place steps of the counters component that name their pieces.

    A step lists one item with a count, or several named pieces with count = how many are listed;
    the chit draws (random values) are left out."""
    out: Counter = Counter()
    for step in game.setup.steps:
        if not (isinstance(step, PlaceStep) and step.place == "counters") or step.items[0].startswith("chit-"):
            continue
        if len(step.items) == 1:
            out[(step.items[0], step.on)] += int(step.count)
        else:
            assert step.count == len(step.items) or step.on == "off-map-west-edge-road", step
            for iid in step.items:
                out[(iid, step.on)] += 1
    return out


def _by(game, placed, key):
    counters = _items(game, "counters")
    out: Counter = Counter()
    for (iid, _on), n in placed.items():
        attrs = counters[iid].attrs
        out[(attrs.get("side"), attrs.get("type"), attrs.get(key))] += n
    return out


def test_meta(game):
    assert game.meta.players.min == game.meta.players.max == 2
    assert game.setup.player_counts == [2]
    assert game.meta.title["ja"] and game.meta.title["en"]
    assert game.meta.source_language == "ja"


def test_stated_totals_and_their_gaps(game):
    stated = {c.id: c.stated_total.value for c in game.components if c.stated_total}
    assert stated == {"counters": 392, "action-cards": 62, "event-cards": 11}
    gap_components = {g.component for g in game.meta.gaps}
    for cid in stated:
        # Every total is unknown (some counts are null), so a gap must say why.
        assert game.component(cid).total is None
        assert cid in gap_components


def test_sheets_map_rulebook_and_player_supplied_things(game):
    assert game.component("map").size.height_mm == 594 and game.component("map").count == 1
    assert game.component("control-sheets").total == 2
    assert game.component("chart-sheet").count == 1
    assert game.component("card-lists").total == 3  # three lists, one item each (gap card-lists-contents-assumed)
    assert game.component("rulebook").attrs["pages"] == 11
    assert game.component("dice").count is None and game.component("dice").attrs["supplied_by"] == "players"
    assert game.component("cup").count == 1 and game.component("cup").attrs["supplied_by"] == "players"


def test_allied_soldiers_placed_by_nation(game):
    by = _by(game, _placed(game), "nation")
    allied = {nation: n for (side, typ, nation), n in by.items() if side == "allied" and typ == "soldier"}
    assert allied == {"west-elves": 3, "rohan": 6, "gondor": 10, "wood-elves": 4, "dwarves": 4, "dale": 3}


def test_dark_soldiers_placed_by_people(game):
    by = _by(game, _placed(game), "nation")
    dark = {nation: n for (side, typ, nation), n in by.items() if side == "dark" and typ == "soldier"}
    assert dark == {"orcs": 8 + 3 + 3 + 12 + 6 + 4, "trolls": 3, "uruk-hai": 2, "umbar": 4,
                    "easterlings": 4, "haradrim": 2}


def test_leaders_and_fellowship_where_18_5_puts_them(game):
    placed = _placed(game)
    where = {iid: on for (iid, on) in placed}
    assert {k: where[k] for k in ["elrond", "glorfindel", "galadriel", "eomer", "theodred", "erkenbrand",
                                  "faramir", "imrahil", "thranduil", "dain", "brand"]} == {
        "elrond": "rivendell", "glorfindel": "rivendell", "galadriel": "lothlorien", "eomer": "edoras",
        "theodred": "edoras", "erkenbrand": "helms-deep", "faramir": "minas-tirith", "imrahil": "dol-amroth",
        "thranduil": "elvenking-halls", "dain": "erebor", "brand": "dale"}
    assert sorted(i for (i, on) in placed if on == "fellowship-box") == ["aragorn", "frodo", "merry", "pippin", "sam"]
    assert where["fellowship"] == "bree"
    assert placed[("turn-marker", "turn-track-1")] == 1
    assert placed[("denethor-spirit-marker", "denethor-spirit-track-10")] == 1
    # Not placed by 18.5: they start in the allied stock.
    for iid in ["gandalf", "boromir", "legolas", "gimli", "eowyn", "gandalf-the-white", "dunedain-soldier"]:
        assert iid not in where


def test_nine_black_riders_and_their_faces(game):
    counters = _items(game, "counters")
    assert counters["nazgul"].count + counters["witch-king"].count == 9
    for iid in ["nazgul", "witch-king"]:
        c = counters[iid]
        assert (c.front.attrs["type"], c.front.colour) == ("black-rider", "#000000")
        assert (c.back.attrs["type"], c.back.colour) == ("leader", "#c00000")
    step = next(s for s in game.setup.steps if isinstance(s, PlaceStep) and "nazgul" in s.items)
    assert step.count == 9 and step.on == "off-map-west-edge-road"


def test_counter_faces(game):
    for it in game.component("counters").items:
        if it.attrs.get("type") == "unnamed":
            continue
        assert it.front is not None and it.back is not None, it.id
        typ = it.attrs["type"]
        if typ == "soldier":
            assert (it.front.attrs["step"], it.back.attrs["step"]) == (2, 1), it.id
            assert it.attrs["side"] in ("allied", "dark") and it.attrs["nation"], it.id
        if typ == "leader" and it.attrs["side"] == "allied":
            assert it.front.attrs["step"] == 1
            assert it.back.attrs["face"] == ("fellowship" if it.attrs.get("fellowship") else "unused"), it.id
    companions = [it.id for it in game.component("counters").items if it.attrs.get("fellowship")]
    assert sorted(companions) == sorted(["frodo", "sam", "pippin", "merry", "aragorn", "gandalf", "boromir",
                                         "legolas", "gimli"])


def test_chits_and_markers(game):
    counters = _items(game, "counters")
    chits = [it for it in counters.values() if it.attrs.get("type") == "chit"]
    assert sorted(it.attrs["points"] for it in chits) == [1, 2, 3, 4, 5]
    assert all(it.count is None for it in chits)
    (mean,) = game.component("counters").stated_means
    assert (mean.attribute, mean.where, mean.value) == ("points", {"type": "chit"}, "2.34") and "2.2.12" in mean.source
    assert game.component("counters").stock_limit.side == "allied"
    assert counters["corps-marker"].count == 7
    assert counters["x5-marker"].count is None and counters["x10-marker"].count is None
    assert counters["denethor-spirit-marker"].back.attrs["face"] == "despair"
    theoden = next(s for s in game.setup.steps if isinstance(s, PlaceStep) and s.on == "theoden-box")
    assert theoden.count == 5


def test_action_and_event_cards_cited(game):
    cards = _items(game, "action-cards")
    named = {it.attrs["number"]: it.name["ja"] for it in cards.values() if "number" in it.attrs and it.attrs["number"] > 1}
    named[1] = cards["action-01"].name["ja"]
    for number, name in {1: "指輪の先導者", 13: "エルロンドの会議", 17: "セオデンの覚醒", 18: "エルフの贈り物",
                         19: "川下り", 25: "ゴクリの道案内", 26: "デネソールの覚醒", 29: "王の帰還",
                         30: "バギンズ追跡", 31: "冥王軍の進撃"}.items():
        assert named[number] == name
    assert sorted(it.attrs["number"] for it in cards.values() if it.attrs.get("colour") == "green") == list(range(1, 9))
    assert cards["action-30"].attrs["side"] == cards["action-31"].attrs["side"] == "dark"
    assert _items(game, "event-cards")["event-50"].name["ja"] == "デネソールの回復"


def _env(game, owned: dict[str, int]):
    """owned()/count() over a made-up counter mix: item ids from `owned`, components as their sums."""
    known = {it.id: it.count or 0 for c in game.components for it in c.items}

    def f(ref):
        if ref in owned:
            return owned[ref]
        if ref in known:
            return known[ref]
        comp = game.component(ref)
        return sum(owned.get(it.id, it.count or 0) for it in comp.items) if comp.items else (comp.count or 0)
    return {"owned": f, "count": f}


def _constraint(game, cid):
    return next(c for c in game.setup.constraints if c.id == cid)


def test_constraint_references_are_known_ids(game):
    ids = {c.id for c in game.components} | {it.id for c in game.components for it in c.items}
    for con in game.setup.constraints:
        if con.require:
            for call in expr.calls(expr.parse(con.require)):
                for arg in call.args:
                    assert isinstance(arg, expr.Name) and arg.name in ids, (con.id, arg)


def test_pelargir_and_stock_constraints(game):
    con = _constraint(game, "allied-stock-gondor")
    assert "16.23" in con.source and "2.1.2" in con.source
    ok = _env(game, {"gondor-soldier": 14})
    short = _env(game, {"gondor-soldier": 13})
    assert expr.evaluate(con.require, {"players": 2}, ok) is True
    assert expr.evaluate(con.require, {"players": 2}, short) is False
    for nation, need in {"rohan": 6, "west-elves": 3, "wood-elves": 4, "dwarves": 4, "dale": 3}.items():
        con = _constraint(game, f"allied-stock-{nation}")
        item = {"west-elves": "west-elf-soldier", "wood-elves": "wood-elf-soldier", "dwarves": "dwarf-soldier",
                "rohan": "rohan-soldier", "dale": "dale-soldier"}[nation]
        assert expr.evaluate(con.require, {}, _env(game, {item: need})) is True
        assert expr.evaluate(con.require, {}, _env(game, {item: need - 1})) is False


def test_chit_mean_constraints(game):
    mean_234 = {"chit-1": 17, "chit-2": 13, "chit-3": 10, "chit-4": 6, "chit-5": 4}   # 117 / 50 = 2.34
    mean_250 = {"chit-1": 10, "chit-2": 10, "chit-3": 10, "chit-4": 6, "chit-5": 4}   # 100 / 40 = 2.5
    ids = ["chit-range-one-to-five", "chit-mean-2-34"]
    assert all(expr.evaluate(_constraint(game, c).require, {}, _env(game, mean_234)) for c in ids)
    assert not all(expr.evaluate(_constraint(game, c).require, {}, _env(game, mean_250)) for c in ids)


def test_card_and_unit_constraints(game):
    env = _env(game, {"event-50": 1, "events-not-named": 10})
    assert expr.evaluate(_constraint(game, "events-three-per-stage").require, {}, env) is True
    assert expr.evaluate(_constraint(game, "nine-black-riders").require, {}, _env(game, {})) is True
    green = _constraint(game, "green-cards-nine")
    assert (green.kind, green.of.where, green.value) == ("exactly", {"colour": "green"}, 9)
    allied = _constraint(game, "allied-deck-with-gifts")
    assert expr.evaluate(allied.value, {}) == 13


def test_gaps_recorded(game):
    gaps = {g.id: g for g in game.meta.gaps}
    for gid in ["title-unstated", "counter-mix-unstated", "chit-mix-unstated", "action-cards-mostly-unnamed",
                "event-cards-not-in-contents", "event-cards-mostly-unnamed", "named-units-single",
                "allied-opening-draw", "dark-opening-deck-choice", "dark-setup-substitutes",
                "reinforcement-areas-three-named", "rule-13-7-numbering", "counter-size-unstated",
                "card-size-unstated", "dice-count-unstated", "races-from-the-novel"]:
        assert gid in gaps, gid
        assert gaps[gid].clause.startswith("seed 004"), gid
        assert gaps[gid].resolution, gid
    assert gaps["event-cards-not-in-contents"].kind == "discrepancy"
    assert gaps["rule-13-7-numbering"].kind == "erratum"
