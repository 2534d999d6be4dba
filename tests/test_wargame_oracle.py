"""A wargame's counter mix, stock and chit pool (solver/counts/wargame.py) against answers worked out here.

A small original two-side wargame written as a newcomer writes one: a counter sheet whose soldier
counts the rules leave open (`count: null`), a setup that places some of them (three hill soldiers,
one sea soldier per player) and a rule that the hill side keeps five soldiers in all, chits valued
1, 2 and 4 with a stated mean. The smallest mix is read off the rules by hand; the chit pools are
found by going through every mix of chits (c1, c2, c4) size by size in the test, with the mean
compared as a fraction; every finding is located at the line a text search of the file gives.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from gamefiles import line_of, write_game
from solver.counts import wargame
from solver.counts.wargame import check_wargame, count_mixes
from solver.game.loader import load_game

GAME = {"id": "border-war", "title": {"en": "Border War"}, "players": {"min": 2, "max": 3}, "source_language": "en"}


def items(soldiers: int | None = None) -> list[dict]:
    def it(i, attrs, count):
        return {"id": i, "name": {"en": i}, "count": count, "attrs": attrs}
    return [it("hill-soldier", {"side": "hill", "nation": "highland", "type": "soldier"}, soldiers),
            it("hill-lord", {"side": "hill", "nation": "highland", "type": "leader"}, 1),
            it("sea-soldier", {"side": "sea", "nation": "coast", "type": "soldier"}, soldiers),
            it("sea-raider", {"side": "sea", "type": "soldier"}, 2),
            it("chit-1", {"type": "chit", "points": 1}, 3),
            it("chit-2", {"type": "chit", "points": 2}, 3),
            it("chit-4", {"type": "chit", "points": 4}, 3),
            it("chit-blank", {"type": "chit", "points": "none"}, 1),
            it("turn", {}, 1)]


def counters(total: int | None = 24, mean: str | None = "2.33", stock: str | None = "hill",
             soldiers: int | None = None) -> dict:
    comp: dict = {"id": "counters", "kind": "counters", "name": {"en": "Counters"}, "items": items(soldiers)}
    if total is not None:
        comp["stated_total"] = {"value": total, "source": "rules 1.2"}
    if mean is not None:
        comp["stated_means"] = [{"attribute": "points", "where": {"type": "chit"}, "value": mean, "source": "rules 3.1"}]
    if stock is not None:
        comp["stock_limit"] = {"side": stock, "source": "rules 2.1"}
    return comp


SETUP = {"steps": [{"use": "counters"},
                   {"place": "counters", "items": ["hill-soldier"], "count": 3},
                   {"place": "counters", "items": ["sea-soldier"], "count": "players"},
                   {"place": "counters", "items": ["chit-1", "chit-2", "chit-4"], "count": 2},
                   {"place": "counters", "items": ["turn"], "count": 1},
                   {"place": "counters", "items": ["sea-raider"], "count": 2}],
         "constraints": [{"id": "hill-keeps-five", "require": "owned(hill-soldier) >= 5", "source": "rules 2.2"}]}


def make(tmp_path: Path, comps: list[dict], setup: dict | None = SETUP) -> Path:
    dump = lambda d: yaml.safe_dump(d, sort_keys=False, allow_unicode=True)  # noqa: E731
    files = {"game.yaml": dump(GAME), "components.yaml": dump({"components": comps})}
    if setup is not None:
        files["setup.yaml"] = dump(setup)
    return write_game(tmp_path / "border-war", files)


def at(folder: Path, name: str, needle: str) -> str:
    text = (folder / name).read_text(encoding="utf-8")
    return f"{folder / name}:{line_of(text, needle)}"


def run(folder: Path):
    return check_wargame(load_game(folder))


def of(result, code: str):
    return [f for f in result.findings if f.code == code]


# ---------------------------------------------------------------------- the oracle for chit pools
def mixes_of(size: int, mean: Fraction, exact: bool, most: int = 1000) -> list[tuple[int, int, int]]:
    """Every (c1, c2, c4) of `size` chits, 1 and 4 at least once, whose mean is the stated one
    (exactly, or within half a hundredth below and under half a hundredth above)."""
    out = []
    for c1 in range(1, min(size, most) + 1):
        for c4 in range(1, min(size - c1, most) + 1):
            c2 = size - c1 - c4
            if c2 > most:
                continue
            m = Fraction(c1 + 2 * c2 + 4 * c4, size)
            if (m == mean) if exact else (mean - Fraction(1, 200) <= m < mean + Fraction(1, 200)):
                out.append((c1, c2, c4))
    return out


def least_pool(mean: Fraction, exact: bool, need: int, most: int = 1000):
    for size in range(max(need, 2), 3 * most + 1):
        found = mixes_of(size, mean, exact, most)
        if found:
            return size, found
    return None, []


def test_the_oracle_by_hand():
    # 7/3 rounds to 2.33 with one chit of each value; 2.33 itself needs 100 chits (233/100 in lowest terms)
    assert least_pool(Fraction("2.33"), False, 2) == (3, [(1, 1, 1)])
    assert least_pool(Fraction("2.33"), True, 2)[0] == 100


# ---------------------------------------------------------------------- the smallest mix and the stock
def test_the_smallest_mix_its_table_and_the_stock(tmp_path):
    """hill soldiers: 3 placed, 5 by rule 2.2, so 5; sea soldiers: one per player, so 3 (the
    most at any count); every stated count as it is."""
    folder = make(tmp_path, [counters(total=24)])
    result = run(folder)
    [mix] = of(result, "counter-mix-min")
    assert mix.message == ("smallest counts the setup and rules need for the 2 uncounted counter kinds: "
                           "hill-soldier 5, sea-soldier 3")
    assert mix.source == at(folder, "setup.yaml", "id: hill-keeps-five")
    assert result.derived["counter_mix_min"] == {
        "hill": {"highland": {"leader": 1, "soldier": 5}},
        "neutral": {"-": {"chit": 3 + 3 + 3 + 1, "other": 1}},
        "sea": {"-": {"soldier": 2}, "coast": {"soldier": 3}}}
    # after setup at 2 players (the first count): placed, the least owned, what the stock keeps
    assert result.derived["stock_after_setup"] == {
        "hill-soldier": {"side": "hill", "placed_at_setup": 3, "owned_min": 5, "stock": 2, "later_needs": True},
        "sea-soldier": {"side": "sea", "placed_at_setup": 2, "owned_min": 3, "stock": 1, "later_needs": True},
        "sea-raider": {"side": "sea", "placed_at_setup": 2, "owned_min": 2, "stock": 0, "later_needs": False}}
    [stock] = of(result, "stock-limit")
    assert (stock.message, stock.source) == ("hill stock after setup with the smallest mix (reinforcements beyond it "
                                             "are lost): hill-soldier 2", "rules 2.1")


def test_a_place_step_without_a_count_places_every_copy_of_an_uncounted_item(tmp_path):
    """Setup places the hill soldiers with no count (every copy: rules 18.5), and the manifest does
    not say how many there are: the row says the number placed is not stated, naming the rule,
    instead of 0 placed and the whole smallest mix (5) left in the stock."""
    setup = {**SETUP, "steps": [dict(s) for s in SETUP["steps"]]}
    setup["steps"][1] = {"place": "counters", "items": ["hill-soldier"], "source": "rules 18.5"}
    result = run(make(tmp_path, [counters(total=24)], setup))
    assert result.derived["stock_after_setup"] == {
        "hill-soldier": {"side": "hill", "placed_at_setup": None, "owned_min": 5, "stock": 0, "later_needs": False,
                         "placed_note": "every copy, and how many is not stated (rules 18.5)"},
        "sea-soldier": {"side": "sea", "placed_at_setup": 2, "owned_min": 3, "stock": 1, "later_needs": True},
        "sea-raider": {"side": "sea", "placed_at_setup": 2, "owned_min": 2, "stock": 0, "later_needs": False}}
    [stock] = of(result, "stock-limit")
    assert stock.message.endswith("(reinforcements beyond it are lost): none left")


@pytest.mark.parametrize("total,fits", [(24, True), (22, True), (21, False)])
def test_the_mix_against_the_stated_total(tmp_path, total, fits):
    """The least mix holds 5 + 1 + 3 + 2 soldiers and lords, 3 + 3 + 3 + 1 chits and a turn marker: 22."""
    need = 5 + 1 + 3 + 2 + 3 + 3 + 3 + 1 + 1
    folder = make(tmp_path, [counters(total=total)])
    found = [f for f in run(folder).findings if f.code.startswith("counter-mix-") and f.code != "counter-mix-min"]
    loc = at(folder, "components.yaml", f"value: {total}")  # stated_total, at its first key
    tail = "" if fits else "; the manifest cannot hold the setup"
    assert [(f.severity, f.code, f.message, f.source) for f in found] == [
        ("info" if fits else "error", "counter-mix-fits" if fits else "counter-mix-exceeds-total",
         f"counters: the rules need at least {need} counters; rules 1.2 states {total}{tail}", loc)]


def test_other_components_beside_the_counters_are_left_out(tmp_path):
    """A deck with a stated total listed before the counter sheet and dice after it: the table,
    the stock and the totals are the counters' alone; without a stated total nothing is compared."""
    deck = {"id": "cards", "kind": "deck", "name": {"en": "Cards"}, "size": "poker",
            "stated_total": {"value": 1, "source": "rules 9.9"},
            "items": [{"id": "order", "name": {"en": "Order"}, "count": 3, "attrs": {"side": "hill", "type": "soldier"}}]}
    dice = {"id": "dice", "kind": "dice", "name": {"en": "Dice"}, "count": 2}
    alone = run(make(tmp_path / "alone", [counters(total=None)]))
    result = run(make(tmp_path / "beside", [deck, counters(total=None), dice]))
    assert result.derived["counter_mix_min"] == alone.derived["counter_mix_min"]
    assert result.derived["stock_after_setup"] == alone.derived["stock_after_setup"]
    assert "order" not in result.derived["stock_after_setup"]
    assert not [f for f in result.findings if f.code in ("counter-mix-fits", "counter-mix-exceeds-total")]


def test_every_counter_counted_derives_no_mix(tmp_path):
    result = run(make(tmp_path, [counters(soldiers=6)]))
    assert "counter_mix_min" not in result.derived and "stock_after_setup" not in result.derived
    assert not of(result, "counter-mix-min") and not of(result, "stock-limit")
    assert "chit_pool" in result.derived  # the chits are checked all the same


def test_no_stock_limit_no_stock_finding(tmp_path):
    result = run(make(tmp_path, [counters(stock=None)]))
    assert result.derived["stock_after_setup"]["hill-soldier"]["stock"] == 2 and not of(result, "stock-limit")


def test_a_game_without_setup_or_counters_is_not_a_wargame(tmp_path):
    assert run(make(tmp_path / "a", [counters()], setup=None)).findings == []
    deck = {**counters(soldiers=2), "kind": "tokens"}
    result = run(make(tmp_path / "b", [deck], setup={"steps": [{"use": "counters"}]}))
    assert result.findings == [] and result.derived == {}


def test_rules_that_cannot_hold_give_no_mix(tmp_path):
    setup = {**SETUP, "constraints": [{"id": "never", "require": "owned(hill-lord) >= 2"}]}
    result = run(make(tmp_path, [counters()], setup=setup))
    assert "counter_mix_min" not in result.derived and not of(result, "counter-mix-min")


# ---------------------------------------------------------------------- chit pools
@pytest.mark.parametrize("mean", ["2.33", "2.5", "3.2", "1.5"])
def test_the_chit_pool_against_every_mix(tmp_path, mean):
    folder = make(tmp_path, [counters(mean=mean, soldiers=6)])
    result = run(folder)
    pool = result.derived["chit_pool"]
    m = Fraction(mean)
    assert (pool["stated_mean"], pool["source"], pool["values"], pool["at_least_for_setup"]) == (
        str(float(m)), "rules 3.1", [1, 2, 4], 2)
    words = {}
    for key, exact in (("exact", True), ("rounded", False)):
        size, found = least_pool(m, exact, 2)
        got = pool[key]
        assert (got["chits"], got["mixes"]) == (size, len(found))
        ex = (got["example"]["1"], got["example"]["2"], got["example"]["4"])
        assert ex in found and max(ex) == min(max(f) for f in found)  # the most even of the least pools
        words[key] = f"({len(found)} mixes, e.g. 1×{ex[0]} 2×{ex[1]} 4×{ex[2]})", size
    [f] = of(result, "chit-pool")
    (ex_words, ex_size), (ro_words, ro_size) = words["exact"], words["rounded"]
    assert f.message == (f"chits valued 1-4: mean exactly {float(m)} needs at least {ex_size} chits {ex_words}; "
                         f"a mean that rounds to {float(m)} needs {ro_size} {ro_words}")
    assert f.source == "rules 3.1" and f.severity == "info"


def test_a_pool_too_big_for_the_bound_is_said_so(tmp_path, monkeypatch):
    """With at most 20 chits of each value, 2.33 exactly (100 chits) is out of reach; rounded is not."""
    monkeypatch.setattr(wargame, "MAX_CHITS_PER_VALUE", 20)
    result = run(make(tmp_path, [counters(mean="2.33", soldiers=6)]))
    assert result.derived["chit_pool"]["exact"] == {"chits": None, "mixes": 0, "example": {}}
    [f] = of(result, "chit-pool")
    assert f.message == ("chits valued 1-4: mean exactly 2.33 is reached by no pool of up to 20 chits of each value; "
                         "a mean that rounds to 2.33 needs 3 (1 mixes, e.g. 1×1 2×1 4×1)")


def test_a_mean_no_pool_reaches_is_an_error(tmp_path):
    """1 and 4 are always there, so the mean stays below 4: 4.5 is never reached."""
    result = run(make(tmp_path, [counters(mean="4.5", soldiers=6)]))
    assert not of(result, "chit-pool")
    [f] = of(result, "chit-mean-unreachable")
    assert f.severity == "error" and f.source == "rules 3.1"
    assert f.message == ("chits valued 1-4: no pool of up to 1000 chits of each value has a mean of 4.5, exactly or "
                         "rounded; check the stated mean and the chits' values")


def test_setup_needs_more_chits_than_the_least_pool(tmp_path):
    """The setup draws 4 chits: the least pool with mean 2.5 is then 4, not 2."""
    setup = {**SETUP, "steps": SETUP["steps"][:3] + [{"place": "counters", "items": ["chit-1", "chit-4"], "count": 4}]}
    pool = run(make(tmp_path, [counters(mean="2.5", soldiers=6)], setup=setup)).derived["chit_pool"]
    assert pool["at_least_for_setup"] == 4
    size, found = least_pool(Fraction(5, 2), True, 4)
    assert (pool["exact"]["chits"], pool["exact"]["mixes"]) == (size, len(found)) and size == 4


@pytest.mark.parametrize("size", [2, 3, 5, 8, 13, 40, 53])  # 93/40 = 2.33 - 1/200; 124/53 just above 2.33 + 1/200
@pytest.mark.parametrize("exact", [True, False])
def test_count_mixes_against_every_mix(size, exact):
    for mean in (Fraction(5, 2), Fraction(233, 100), Fraction(2), Fraction(3, 1)):
        assert count_mixes([1, 2, 4], size, mean, exact, (1, 4)) == len(mixes_of(size, mean, exact))


def test_a_place_all_of_the_chits_asks_for_no_number(tmp_path):
    """Chits the setup places by number count toward the least pool; a step placing every chit
    (no `count`) names no number: the least pool is still the 2 that the numbered step places."""
    setup = {**SETUP, "steps": SETUP["steps"] + [{"place": "counters", "items": ["chit-1", "chit-4"]}]}
    pool = run(make(tmp_path, [counters(mean="2.5", soldiers=6)], setup=setup)).derived["chit_pool"]
    assert pool["at_least_for_setup"] == 2 and pool["exact"]["chits"] == 2


def test_chits_of_one_value_need_one_chit(tmp_path):
    """A mean over the 4-point chits alone (none placed by number): one chit of value 4 has mean 4."""
    comp = counters(mean="4", soldiers=6)
    comp["stated_means"][0]["where"] = {"type": "chit", "points": 4}
    result = run(make(tmp_path, [comp]))
    pool = result.derived["chit_pool"]
    assert (pool["values"], pool["at_least_for_setup"]) == ([4], 0)
    assert pool["exact"] == pool["rounded"] == {"chits": 1, "mixes": 1, "example": {"4": 1}}
    assert of(result, "chit-pool")[0].message.startswith("chits valued 4-4: mean exactly 4.0 needs at least 1 chits")


@pytest.mark.parametrize("mean", ["2.505", "2.495"])
def test_a_rounded_mean_includes_its_lower_end_and_not_its_upper(mean):
    """1×1 4×1 has mean 2.5: the lower end of [2.505 - 1/200, 2.505 + 1/200), so 2 chits round to
    2.505; the upper end of the range of 2.495, so they do not round to 2.495."""
    chits = {("c", "one"): 1, ("c", "two"): 2, ("c", "four"): 4}
    m = Fraction(mean)
    size, found = least_pool(m, False, 0)
    got = wargame.chit_pool(chits, m, 0, exact=False)
    assert (got["chits"], got["mixes"]) == (size, len(found))
    assert (size == 2) == (mean == "2.505")


def test_more_than_twelve_uncounted_kinds_are_cut_short(tmp_path):
    """Thirteen soldier kinds the rules never ask for: each needs none, twelve are named."""
    comp = counters(soldiers=6, mean=None, stock=None, total=None)
    comp["items"] += [{"id": f"levy-{i:02d}", "name": {"en": "Levy"}, "count": None, "attrs": {"type": "soldier"}}
                      for i in range(13)]
    result = run(make(tmp_path, [comp]))
    [f] = of(result, "counter-mix-min")
    named = ", ".join(f"levy-{i:02d} 0" for i in range(12))
    assert f.message == f"smallest counts the setup and rules need for the 13 uncounted counter kinds: {named} …"
    assert result.derived["counter_mix_min"]["neutral"]["-"]["soldier"] == 0
