"""The data expression grammar: parses what game data needs, refuses code."""
import pytest

from solver.expr import BinOp, Call, ExprError, Name, evaluate, names, parse


def test_arithmetic_and_precedence():
    assert evaluate("players + 1", {"players": 3}) == 4
    assert evaluate("2 + 3 * players", {"players": 4}) == 14
    assert evaluate("(2 + 3) * players", {"players": 4}) == 20
    assert evaluate("players - 1", {"players": 4}) == 3
    assert evaluate("-players + 10 // 3", {"players": 1}) == 2


def test_comparisons_and_logic():
    env = {"players": 7}
    assert evaluate("players >= 7 and players <= 9", env) is True
    assert evaluate("players in [5, 6]", env) is False
    assert evaluate("not players == 7 or players != 7", env) is False


def test_kebab_ids_inside_calls_are_names():
    node = parse("count(gem-cards) >= 6 * players")
    assert isinstance(node, BinOp) and isinstance(node.left, Call)
    assert node.left.args == (Name("gem-cards"),)
    assert names(node) == {"gem-cards", "players"}
    assert evaluate(node, {"players": 5}, {"count": lambda cid: {"gem-cards": 30}[cid]}) is True


@pytest.mark.parametrize("text,column", [("players +", 10), ("players $ 2", 9), ("(players", 9),
                                         ("count(a, )", 10)])
def test_syntax_errors_name_the_column(text, column):
    with pytest.raises(ExprError) as e:
        parse(text)
    assert e.value.column == column


@pytest.mark.parametrize("text", ["__import__('os')", "players.__class__", "open('x')", "lambda: 1"])
def test_no_code_runs(text):
    with pytest.raises(ExprError):
        evaluate(text, {"players": 3})


def test_unknown_name_is_an_error():
    with pytest.raises(ExprError, match="unknown name 'player'"):
        evaluate("player + 1", {"players": 3})
