"""The small expression language used in game data (`players + 1`, `count(gem-cards) >= 6 * players`).

Parsed by our own grammar, never `eval`: a game folder from a stranger must not run code.

Grammar (lowest precedence first)::

    expr    := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := sum (("<" | "<=" | ">" | ">=" | "==" | "!=" | "in") sum)?
    sum     := product (("+" | "-") product)*
    product := unary (("*" | "//" | "%") unary)*
    unary   := "-" unary | atom
    atom    := NUMBER | STRING | NAME | NAME "(" args ")" | "(" expr ")" | "[" args "]"

Names are kebab-case ids (`gem-cards`), so a minus between two names needs spaces:
`players - 1`, not `players-1` (which reads as one id). The AST is plain frozen dataclasses so
the checker can compile the same tree to CP-SAT expressions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .game.limits import MAX_EXPR_CHARS, MAX_EXPR_DEPTH, MAX_EXPR_VALUE, MAX_INTEGER

class ExprError(ValueError):
    """A syntax or evaluation error; `column` is 1-based within the expression text."""

    def __init__(self, message: str, column: int = 0):
        self.column = column
        super().__init__(message)


@dataclass(frozen=True)
class Num:
    value: int


@dataclass(frozen=True)
class Str:
    value: str


@dataclass(frozen=True)
class Name:
    name: str


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple["Node", ...]


@dataclass(frozen=True)
class ListLit:
    items: tuple["Node", ...]


@dataclass(frozen=True)
class Unary:
    op: str
    operand: "Node"


@dataclass(frozen=True)
class BinOp:
    op: str
    left: "Node"
    right: "Node"


Node = Num | Str | Name | Call | ListLit | Unary | BinOp

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<num>\d+)
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)
      | (?P<str>"[^"]*"|'[^']*')
      | (?P<op><=|>=|==|!=|//|[-+*%<>(),\[\]])
    )""",
    re.VERBOSE,
)
_KEYWORDS = {"and", "or", "not", "in", "true", "false"}
_COMPARE = {"<", "<=", ">", ">=", "==", "!=", "in"}


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            col = pos + 1 + (len(text[pos:]) - len(text[pos:].lstrip()))
            raise ExprError(f"unexpected character {text[col - 1]!r}", col)
        kind = m.lastgroup or ""
        value = m.group(kind)
        col = m.start(kind) + 1
        if kind == "name" and value in _KEYWORDS:
            kind = "kw"
        tokens.append((kind, value, col))
        pos = m.end()
    tokens.append(("end", "", len(text) + 1))
    return tokens


class _Parser:
    """Recursive descent; `depth` bounds the recursion (brackets, `not not`, `- -`) so a hostile
    expression gets an ExprError instead of exhausting the stack."""

    def __init__(self, text: str):
        if len(text) > MAX_EXPR_CHARS:
            raise ExprError(f"expression is {len(text)} characters long, more than the limit of {MAX_EXPR_CHARS}",
                            MAX_EXPR_CHARS + 1)
        self.tokens = _tokenize(text)
        self.i = 0
        self.depth = 0

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_EXPR_DEPTH:
            raise ExprError(f"expression nests more than {MAX_EXPR_DEPTH} levels deep", self.peek()[2])

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def take(self) -> tuple[str, str, int]:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        kind, v, col = self.take()
        if v != value:
            raise ExprError(f"expected {value!r} but found {v or 'the end'!r}", col)

    def parse(self) -> Node:
        node = self.or_()
        kind, v, col = self.peek()
        if kind != "end":
            raise ExprError(f"unexpected {v!r}", col)
        return node

    def or_(self) -> Node:
        self.deeper()
        node = self.and_()
        while self.peek()[1] == "or" and self.peek()[0] == "kw":
            self.take()
            node = BinOp("or", node, self.and_())
        self.depth -= 1
        return node

    def and_(self) -> Node:
        node = self.not_()
        while self.peek()[1] == "and" and self.peek()[0] == "kw":
            self.take()
            node = BinOp("and", node, self.not_())
        return node

    def not_(self) -> Node:
        if self.peek()[:2] == ("kw", "not"):
            self.take()
            self.deeper()
            node = Unary("not", self.not_())
            self.depth -= 1
            return node
        return self.compare()

    def compare(self) -> Node:
        node = self.sum()
        kind, v, _ = self.peek()
        if v in _COMPARE and (kind == "op" or (kind == "kw" and v == "in")):
            self.take()
            node = BinOp(v, node, self.sum())
        return node

    def sum(self) -> Node:
        node = self.product()
        while self.peek()[0] == "op" and self.peek()[1] in "+-":
            op = self.take()[1]
            node = BinOp(op, node, self.product())
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "//", "%"):
            op = self.take()[1]
            node = BinOp(op, node, self.unary())
        return node

    def unary(self) -> Node:
        if self.peek()[:2] == ("op", "-"):
            self.take()
            self.deeper()
            node = Unary("-", self.unary())
            self.depth -= 1
            return node
        return self.atom()

    def args(self, close: str) -> tuple[Node, ...]:
        items: list[Node] = []
        if self.peek()[1] != close:
            items.append(self.or_())
            while self.peek()[1] == ",":
                self.take()
                items.append(self.or_())
        self.expect(close)
        return tuple(items)

    def atom(self) -> Node:
        kind, v, col = self.take()
        if kind == "num":
            if len(v) > len(str(MAX_INTEGER)) or int(v) > MAX_INTEGER:
                raise ExprError(f"number {v[:20]}{'...' if len(v) > 20 else ''} is larger than {MAX_INTEGER:,}", col)
            return Num(int(v))
        if kind == "str":
            return Str(v[1:-1])
        if kind == "kw" and v in ("true", "false"):
            return Num(1 if v == "true" else 0)
        if kind == "name":
            if self.peek()[1] == "(":
                self.take()
                return Call(v, self.args(")"))
            return Name(v)
        if v == "(":
            node = self.or_()
            self.expect(")")
            return node
        if v == "[":
            return ListLit(self.args("]"))
        raise ExprError(f"expected a number, a name or '(' but found {v or 'the end'!r}", col)


_CACHE: dict[str, Node] = {}


def parse(text: str | int) -> Node:
    """Parse an expression; integers in YAML are accepted as constant expressions."""
    if isinstance(text, bool):
        return Num(int(text))
    if isinstance(text, int):
        return Num(text)
    if not isinstance(text, (str, float)):
        kind = {list: "a list", dict: "a mapping"}.get(type(text), type(text).__name__)
        raise ExprError(f"an expression is a whole number or text like 'players + 1', not {kind}")
    if text not in _CACHE:
        _CACHE[text] = _Parser(str(text)).parse()
    return _CACHE[text]


def names(node: Node) -> set[str]:
    """Free variable names (not function names, not string literals)."""
    if isinstance(node, Name):
        return {node.name}
    if isinstance(node, Call):
        return set().union(*(names(a) for a in node.args)) if node.args else set()
    if isinstance(node, ListLit):
        return set().union(*(names(a) for a in node.items)) if node.items else set()
    if isinstance(node, Unary):
        return names(node.operand)
    if isinstance(node, BinOp):
        return names(node.left) | names(node.right)
    return set()


def calls(node: Node) -> list[Call]:
    """Every function call in the tree, outermost first."""
    if isinstance(node, Call):
        return [node] + [c for a in node.args for c in calls(a)]
    if isinstance(node, ListLit):
        return [c for a in node.items for c in calls(a)]
    if isinstance(node, Unary):
        return calls(node.operand)
    if isinstance(node, BinOp):
        return calls(node.left) + calls(node.right)
    return []


_BIN: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "in": lambda a, b: a in b,
}

def in_range(value: Any, op: str) -> Any:
    """`value` if it is not an integer beyond MAX_EXPR_VALUE, else an ExprError: products of
    in-range numbers would grow without bound (and overflow CP-SAT's 64-bit arithmetic)."""
    if isinstance(value, int) and abs(value) > MAX_EXPR_VALUE:
        raise ExprError(f"the value of {op!r} is out of range (more than {MAX_EXPR_VALUE:,})")
    return value


BUILTINS: dict[str, Callable[..., Any]] = {"min": min, "max": max}


def evaluate(node: Node | str | int, env: Mapping[str, Any],
             functions: Mapping[str, Callable[..., Any]] | None = None) -> Any:
    """Evaluate with variables from `env` and functions from `functions` (plus min/max)."""
    if not isinstance(node, (Num, Str, Name, Call, ListLit, Unary, BinOp)):
        node = parse(node)
    funcs = {**BUILTINS, **(functions or {})}

    def ev(n: Node) -> Any:
        if isinstance(n, Num):
            return n.value
        if isinstance(n, Str):
            return n.value
        if isinstance(n, Name):
            if n.name not in env:
                raise ExprError(f"unknown name {n.name!r} (known: {', '.join(sorted(env)) or 'none'})")
            return env[n.name]
        if isinstance(n, Call):
            if n.func not in funcs:
                raise ExprError(f"unknown function {n.func}() (known: {', '.join(sorted(funcs))})")
            # Bare names inside calls are ids (count(gem-cards)) unless they are variables.
            args = [a.name if isinstance(a, Name) and a.name not in env else ev(a) for a in n.args]
            return funcs[n.func](*args)
        if isinstance(n, ListLit):
            return [ev(a) for a in n.items]
        if isinstance(n, Unary):
            v = ev(n.operand)
            return (not v) if n.op == "not" else -v
        if n.op == "and":
            return bool(ev(n.left)) and bool(ev(n.right))
        if n.op == "or":
            return bool(ev(n.left)) or bool(ev(n.right))
        right = ev(n.right)
        if n.op in ("//", "%") and right == 0:
            raise ExprError("division by zero")
        return in_range(_BIN[n.op](ev(n.left), right), n.op)

    try:
        return ev(node)
    except (TypeError, ValueError) as e:  # "a" + 1, [1] < 2, min() of nothing: data's fault, not ours
        if isinstance(e, ExprError):
            raise
        raise ExprError(f"cannot evaluate: {e}") from None
