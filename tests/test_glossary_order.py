"""The rulebook's glossary (generator/rulebook/backmatter.py) lists only the terms the rules use,
in the order each first appears in them; the order here is found the plain way, unit by unit."""
from __future__ import annotations

import pytest

from generator.rulebook.backmatter import glossary_blocks
from solver.game.folders import game_ids
from solver.game.loader import load_game
from solver.rules.load import glossary_for, rules_of


@pytest.mark.parametrize("gid", game_ids())
def test_the_glossary_lists_the_terms_the_rules_use_in_the_order_they_first_appear(gid):
    game = load_game(gid)
    rules, glossary = rules_of(game), glossary_for(game)
    if rules is None or not glossary:
        pytest.skip(f"{gid} has no glossary")
    src = rules.language
    units = [text for _, text in rules.units()]
    first = {}
    for e in glossary:
        form = e.term.forms().get(src)
        hits = [i for i, text in enumerate(units) if form and form in text]
        if hits:
            first[form] = hits[0]
    expected = sorted(first, key=lambda form: first[form])  # stable: a tie keeps the glossary's order
    blocks = glossary_blocks(glossary, rules, [src])
    printed = [row[0].text for row in blocks[-1].rows[src]] if blocks else []
    assert printed == expected
    assert len(expected) >= 2 or not blocks  # the examples' glossaries are long enough to have an order
