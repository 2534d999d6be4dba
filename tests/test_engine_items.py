"""The engine's item selection and counting (solver/engine/items.py) on a small original box written
here: what a selector matches, the copies of each item, and the engine's counting stock, each
expectation worked out by hand from the YAML below.

The box: a deck of 12 stated with 3 knights, 2 archers and an uncounted scroll (so 7 cards nobody
names); a bag of 5 stated, all counted (2 + 3, nothing unnamed); a pouch of 4 stated whose counted
gems already make 6 (nothing unnamed, never a negative); a cup of 6 stated whose only kind is
uncounted (all 6 unnamed); a chest of 10 stated with a counted kind and one stated as 0 beside an
uncounted one (10 - 4 = 6 unnamed); and 6 dice without items.
"""
from __future__ import annotations

import pytest

from gamefiles import write_game
from solver.engine.items import UNCOUNTED, counting_stock, item_keys, matches, owned_counts, select_items
from solver.game.loader import load_game

GAME = "id: box\ntitle: {en: Box}\nplayers: {min: 2, max: 4}\nsource_language: en\nlanguages: [en]\n"
COMPONENTS = """\
components:
  - id: deck
    kind: deck
    name: {en: Deck}
    size: poker
    stated_total: {value: 12, source: "rules 1"}
    items:
      - {id: knight, name: {en: Knight}, count: 3, attrs: {type: unit, cost: 3, tags: [red, blue]}}
      - {id: archer, name: {en: Archer}, count: 2, attrs: {type: unit, cost: "2"}}
      - {id: scroll, name: {en: Scroll}, count: null, attrs: {type: magic}}
  - id: bag
    kind: tokens
    name: {en: Bag}
    stated_total: {value: 5, source: "rules 2"}
    items:
      - {id: gold, name: {en: Gold}, count: 2}
      - {id: silver, name: {en: Silver}, count: 3}
  - id: pouch
    kind: tokens
    name: {en: Pouch}
    stated_total: {value: 4, source: "rules 3"}
    items:
      - {id: ruby, name: {en: Ruby}, count: 6}
      - {id: opal, name: {en: Opal}, count: null}
  - id: cup
    kind: tokens
    name: {en: Cup}
    stated_total: {value: 6, source: "rules 4"}
    items:
      - {id: bead, name: {en: Bead}, count: null}
  - id: chest
    kind: tokens
    name: {en: Chest}
    stated_total: {value: 10, source: "rules 5"}
    items:
      - {id: coin, name: {en: Coin}, count: 4}
      - {id: lost, name: {en: Lost}, count: 0}
      - {id: key, name: {en: Key}, count: null}
  - id: dice
    kind: dice
    name: {en: Dice}
    count: 6
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(write_game(tmp_path_factory.mktemp("items") / "box",
                                {"game.yaml": GAME, "components.yaml": COMPONENTS}))


def test_item_keys_of_a_component_with_items_and_of_one_without(game):
    assert item_keys(game.component("bag")) == [("bag", "gold"), ("bag", "silver")]
    assert item_keys(game.component("dice")) == [("dice", "dice")]


def test_owned_counts_are_the_stated_counts_with_none_where_unknown(game):
    assert owned_counts(game) == {
        ("deck", "knight"): 3, ("deck", "archer"): 2, ("deck", "scroll"): None,
        ("bag", "gold"): 2, ("bag", "silver"): 3, ("pouch", "ruby"): 6, ("pouch", "opal"): None,
        ("cup", "bead"): None, ("chest", "coin"): 4, ("chest", "lost"): 0, ("chest", "key"): None,
        ("dice", "dice"): 6}


def test_counting_stock_adds_the_copies_a_stated_total_leaves_unnamed(game):
    stock = counting_stock(game)
    assert stock == {
        ("deck", "knight"): 3, ("deck", "archer"): 2, ("deck", "scroll"): 0, ("deck", UNCOUNTED): 12 - 3 - 2,
        ("bag", "gold"): 2, ("bag", "silver"): 3,            # all counted: nothing unnamed
        ("pouch", "ruby"): 6, ("pouch", "opal"): 0,          # 4 - 6 < 0: nothing unnamed
        ("cup", "bead"): 0, ("cup", UNCOUNTED): 6,
        ("chest", "coin"): 4, ("chest", "lost"): 0, ("chest", "key"): 0, ("chest", UNCOUNTED): 10 - 4,
        ("dice", "dice"): 6}


@pytest.mark.parametrize("rubies, unnamed", [(4, None), (3, 1)])
def test_a_total_exactly_met_leaves_nothing_unnamed_and_one_short_leaves_one(tmp_path, rubies, unnamed):
    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "components.yaml").write_text(
        COMPONENTS.replace("{id: ruby, name: {en: Ruby}, count: 6}", f"{{id: ruby, name: {{en: Ruby}}, count: {rubies}}}"),
        encoding="utf-8")
    stock = counting_stock(load_game(folder))
    assert stock.get(("pouch", UNCOUNTED)) == unnamed and stock[("pouch", "ruby")] == rubies


def test_matches_a_value_a_list_of_values_and_the_same_value_written_as_text():
    attrs = {"type": "unit", "cost": 3, "tags": ["red", "blue"], "none": None}
    assert matches(attrs, {}) is True
    assert matches(attrs, {"type": "unit"}) is True
    assert matches(attrs, {"type": ["magic", "unit"]}) is True
    assert matches(attrs, {"type": "magic"}) is False
    assert matches(attrs, {"type": "unit", "cost": 4}) is False  # every key must match
    assert matches(attrs, {"cost": "3"}) is True                 # 3 written as text
    assert matches({"cost": "3"}, {"cost": 3}) is True
    assert matches(attrs, {"tags": "blue"}) is True              # one of the item's values
    assert matches(attrs, {"tags": ["green", "red"]}) is True
    assert matches(attrs, {"tags": "green"}) is False
    assert matches(attrs, {"none": "None"}) is False             # no value is not the text "None"
    assert matches(attrs, {"missing": "None"}) is False
    assert matches(attrs, {"none": None}) is True


def test_select_items_by_ids_by_attributes_by_id_and_whole(game):
    assert select_items(game, "deck") == [("deck", "knight"), ("deck", "archer"), ("deck", "scroll")]
    assert select_items(game, "deck", ids=["scroll", "knight"]) == [("deck", "knight"), ("deck", "scroll")]
    assert select_items(game, "deck", {"type": "unit"}) == [("deck", "knight"), ("deck", "archer")]
    assert select_items(game, "deck", {"cost": 2}) == [("deck", "archer")]   # "2" in the data
    assert select_items(game, "deck", {"id": "archer"}) == [("deck", "archer")]
    assert select_items(game, "deck", {"type": "unit"}, ids=["archer", "scroll"]) == [("deck", "archer")]
    assert select_items(game, "deck", {"type": "dragon"}) == []
    assert select_items(game, "dice", {"type": "unit"}, ids=["x"]) == [("dice", "dice")]
