"""Every operator, literal and limit of the data expression grammar (solver/expr.py), each against
a value worked out by hand, and its hostile-input guards at their edges: one below a limit
parses, the limit itself is refused with a located ExprError, never a Python exception."""
from __future__ import annotations

import pytest

from solver.expr import BinOp, Call, ExprError, ListLit, Name, Num, Str, Unary, calls, evaluate, names, parse
from solver.game.limits import MAX_EXPR_CHARS, MAX_EXPR_DEPTH, MAX_EXPR_VALUE, MAX_INTEGER

# (expression, value) worked out by hand, one operator or rule of precedence each
CASES = [
    ("7 + 5", 12), ("7 - 5", 2), ("7 * 5", 35), ("7 // 2", 3), ("7 % 5", 2), ("-7 // 2", -4),
    ("2 + 3 * 4", 14), ("(2 + 3) * 4", 20), ("10 - 4 - 3", 3), ("100 // 10 // 5", 2), ("2 * 3 % 4", 2),
    ("- - 3", 3), ("-(2 + 3)", -5), ("2 - -3", 5),
    ("3 < 4", True), ("4 < 4", False), ("4 <= 4", True), ("5 <= 4", False), ("5 > 4", True), ("4 > 4", False),
    ("4 >= 4", True), ("3 >= 4", False), ("4 == 4", True), ("4 == 5", False), ("4 != 5", True), ("4 != 4", False),
    ("3 in [1, 2, 3]", True), ("4 in [1, 2, 3]", False), ("2 in []", False),
    ("1 < 2 and 2 < 3", True), ("1 < 2 and 3 < 2", False), ("2 < 1 and 1 < 2", False),
    ("1 < 2 or 3 < 2", True), ("2 < 1 or 1 < 2", True), ("2 < 1 or 3 < 2", False),
    ("not 1 < 2", False), ("not 2 < 1", True), ("not not 1 < 2", True),
    # and binds tighter than or; not tighter than and
    ("1 == 1 or 1 == 2 and 1 == 2", True), ("(1 == 1 or 1 == 2) and 1 == 2", False),
    ("not 1 == 1 and 1 == 2", False), ("not 1 == 2 and 1 == 1", True),
    ("true", 1), ("false", 0), ("true and false", False), ("true or false", True),
    ("min(4, 2, 9)", 2), ("max(4, 2, 9)", 9), ("max(1, min(5, 3))", 3), ("'abc'", "abc"), ('"x y"', "x y"),
    ("[1, 2 + 1]", [1, 3]), ("[]", []), ("0", 0), ("  3  ", 3),
]


@pytest.mark.parametrize("text, value", CASES)
def test_each_operator_gives_the_hand_worked_value(text, value):
    got = evaluate(text, {})
    assert got == value and type(got) is type(value)


def test_variables_and_functions_come_from_their_maps():
    assert evaluate("players * 2 + bonus", {"players": 4, "bonus": 1}) == 9
    assert evaluate("count(cards) // players", {"players": 3}, {"count": lambda c: {"cards": 10}[c]}) == 3
    # a bare name inside a call is an id unless it is a variable
    assert evaluate("echo(players)", {"players": 5}, {"echo": lambda v: v}) == 5
    assert evaluate("echo(gem-cards)", {"players": 5}, {"echo": lambda v: v}) == "gem-cards"
    # the game's functions replace the built-ins of the same name
    assert evaluate("min(3, 4)", {}, {"min": lambda *a: 99}) == 99


def test_and_or_short_circuit_and_give_booleans():
    boom = {"boom": lambda: 1 // 0}
    assert evaluate("1 == 2 and boom()", {}, boom) is False
    assert evaluate("1 == 1 or boom()", {}, boom) is True
    assert evaluate("3 and 4", {}) is True  # bool(3) and bool(4), not Python's 4


def test_the_tree_has_the_shape_the_grammar_says():
    assert parse("a + b * c") == BinOp("+", Name("a"), BinOp("*", Name("b"), Name("c")))
    assert parse("a - b - c") == BinOp("-", BinOp("-", Name("a"), Name("b")), Name("c"))
    assert parse("not a or b") == BinOp("or", Unary("not", Name("a")), Name("b"))
    assert parse("a in [1, 'x']") == BinOp("in", Name("a"), ListLit((Num(1), Str("x"))))
    assert parse("f()") == Call("f", ())
    assert parse("f(a, g(b))") == Call("f", (Name("a"), Call("g", (Name("b"),))))
    assert parse("gem-cards") == Name("gem-cards")  # kebab ids are one name
    assert parse("a - 1") == BinOp("-", Name("a"), Num(1))
    assert parse("-a") == Unary("-", Name("a"))
    assert parse("x_1") == Name("x_1")


def test_names_and_calls_walk_the_whole_tree():
    node = parse("f(a, [b, g(c)]) + -d < e and not h(k)")
    assert names(node) == {"a", "b", "c", "d", "e", "k"}
    assert [c.func for c in calls(node)] == ["f", "g", "h"]
    assert names(parse("f()")) == set() and names(parse("[]")) == set() and names(parse("'s'")) == set()
    assert calls(parse("a + 1")) == [] and calls(parse("[f(x)]")) == [Call("f", (Name("x"),))]
    assert calls(parse("-f(x)")) == [Call("f", (Name("x"),))]


def test_yaml_values_parse_as_constants_and_other_types_are_refused():
    assert parse(4) == Num(4) and parse(True) == Num(1) and parse(False) == Num(0)
    assert evaluate(6, {}) == 6
    for bad, word in (([1], "a list"), ({"a": 1}, "a mapping"), (None, "NoneType")):
        with pytest.raises(ExprError, match=word):
            parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("text, column", [
    ("1 +", 4), ("1 2", 3), ("(1", 3), ("[1, 2", 6), ("f(1 2)", 5), ("1 ? 2", 3), ("  $", 3),
    (")", 1), ("1 +* 2", 4), ("", 1), ("and", 1),
    # a keyword where an operator belongs is no `or` (nor an `and`)
    ("1 true", 3), ("1 false", 3), ("(1) not 1", 5), ("1 == 1 not 2", 8), ("x in", 5),
])
def test_syntax_errors_point_at_their_column(text, column):
    with pytest.raises(ExprError) as e:
        parse(text)
    assert e.value.column == column


def test_division_by_zero_is_a_located_data_error():
    for text in ("players // 0", "players % 0", "players // (players - 3)"):
        with pytest.raises(ExprError):
            evaluate(text, {"players": 3})
    assert evaluate("players // 1", {"players": 3}) == 3


@pytest.mark.parametrize("text", ["min()", "max([])", "'a' + 1", "[1] < 2", "1 in 2"])
def test_type_errors_become_expr_errors(text):
    with pytest.raises(ExprError):
        evaluate(text, {})


def test_unknown_function_and_name_are_refused_naming_what_is_known():
    with pytest.raises(ExprError, match=r"count\(\)"):
        evaluate("count(x)", {})
    with pytest.raises(ExprError, match="players"):
        evaluate("player", {"players": 1})


def test_number_limit_at_its_edge():
    assert evaluate(str(MAX_INTEGER), {}) == MAX_INTEGER
    for text in (str(MAX_INTEGER + 1), "9" * 40):
        with pytest.raises(ExprError) as e:
            parse(text)
        assert e.value.column == 1


def test_value_limit_at_its_edge():
    # 10**6 * 10**6 = 10**12 is the largest value allowed; one more is refused, not computed on
    assert evaluate("1000000 * 1000000", {}) == MAX_EXPR_VALUE
    with pytest.raises(ExprError, match="out of range"):
        evaluate("1000000 * 1000000 + 1", {})
    with pytest.raises(ExprError, match="out of range"):
        evaluate("-1000000 * 1000000 - 1", {})


def test_length_limit_at_its_edge():
    flat = "1" + " + 1" * ((MAX_EXPR_CHARS - 1) // 4)
    assert len(flat) <= MAX_EXPR_CHARS
    assert evaluate(flat, {}) == 1 + (MAX_EXPR_CHARS - 1) // 4  # long but flat: no depth to speak of
    with pytest.raises(ExprError) as e:
        parse("1" + " " * MAX_EXPR_CHARS)
    assert e.value.column == MAX_EXPR_CHARS + 1


@pytest.mark.parametrize("opener, closer", [("(", ")"), ("not ", ""), ("-", ""), ("[", "]")])
def test_depth_limit_at_its_edge(opener, closer):
    """Nesting to one level below the limit parses; past it, an ExprError, never RecursionError.
    (The outermost level counts one, so MAX_EXPR_DEPTH - 1 openers is the deepest allowed.)"""
    inner = "1 == 1" if opener == "not " else "1"
    ok = opener * (MAX_EXPR_DEPTH - 1) + inner + closer * (MAX_EXPR_DEPTH - 1)
    parse(ok)
    too_deep = opener * MAX_EXPR_DEPTH + inner + closer * MAX_EXPR_DEPTH
    with pytest.raises(ExprError, match="nests"):
        parse(too_deep)
    with pytest.raises(ExprError):
        parse(opener * 999 + inner + closer * 999)


def test_long_but_flat_expressions_have_no_depth_to_speak_of():
    """Brackets, `not` and minus side by side, each level closed before the next opens, never add
    up to the nesting limit: twice the limit of each parses and has the hand-worked value."""
    n = 2 * MAX_EXPR_DEPTH
    assert evaluate(" + ".join(["(1)"] * n), {}) == n
    assert evaluate(" + ".join(["-1"] * n), {}) == -n
    assert evaluate(" and ".join(["not 1 == 2"] * n), {}) is True
    assert evaluate(" or ".join(["(1 == 2)"] * n), {}) is False
    assert evaluate("[" + ", ".join(["[1]"] * n) + "]", {}) == [[1]] * n
    assert evaluate("max(" + ", ".join(["(2)"] * n) + ")", {}) == 2
    # and a deep one after a flat run still counts from the top
    with pytest.raises(ExprError, match="nests"):
        parse(" + ".join(["(1)"] * n) + " + " + "(" * MAX_EXPR_DEPTH + "1" + ")" * MAX_EXPR_DEPTH)


def test_the_tree_is_immutable_and_hashable():
    """Frozen dataclasses (the module's promise): the checker may share a parsed tree and use it as
    a key; nobody can change one in place."""
    import dataclasses
    tree = parse("not a + f(b, [1, 'x']) < -c")
    assert hash(tree) == hash(parse("not a + f(b, [1, 'x']) < -c"))
    nodes = [tree, tree.operand, tree.operand.left, tree.operand.right, tree.operand.left.left,
             tree.operand.left.right, tree.operand.left.right.args[1], tree.operand.left.right.args[1].items[1]]
    assert {type(n).__name__ for n in nodes} == {"Unary", "BinOp", "Name", "Call", "ListLit", "Str"}
    assert len({n: i for i, n in enumerate(nodes + [Num(1)])}) == len(nodes) + 1
    for n in nodes + [Num(1)]:
        field = dataclasses.fields(n)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(n, field, None)


def test_an_error_carries_its_message_and_a_column_only_where_one_is_known():
    e = ExprError("what is wrong")
    assert str(e) == "what is wrong" and e.column == 0 and isinstance(e, ValueError)
    with pytest.raises(ExprError) as caught:
        evaluate("players // 0", {"players": 3})
    assert str(caught.value) == "division by zero" and caught.value.column == 0


@pytest.mark.parametrize("opener", ["not ", "-"])
def test_not_and_minus_give_back_their_level_exactly(opener):
    """A flat run of `not`s (or minuses) leaves the depth where it was: a chain nested to the
    limit after one is still refused."""
    inner, joiner = "1", " and " if opener == "not " else " + "
    flat = joiner.join([opener + inner] * (MAX_EXPR_DEPTH + 2))
    parse(flat + joiner + opener * (MAX_EXPR_DEPTH - 1) + inner)
    with pytest.raises(ExprError, match="nests"):
        parse(flat + joiner + opener * MAX_EXPR_DEPTH + inner)


@pytest.mark.parametrize("text, message", [
    ("1 ? 2", "unexpected character '?'"), ("  $", "unexpected character '$'"),
    ("(1", "expected ')' but found 'the end'"), ("f(1 2)", "expected ')' but found '2'"),
    ("1 +", "found 'the end'"), ("1 + )", "found ')'"),
    ("12345678901", "number 12345678901 is larger than 1,000,000,000"),
    ("9" * 40, "number " + "9" * 20 + "... is larger than 1,000,000,000"),
    ("9" * 21, "number " + "9" * 20 + "... is larger"),
    ("9" * 20 + " + 1", "number " + "9" * 20 + " is larger"),
])
def test_each_syntax_error_says_what_it_found(text, message):
    with pytest.raises(ExprError) as e:
        parse(text)
    assert message in str(e.value)
