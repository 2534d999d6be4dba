"""The line breaker's memory across rulebook units (generator/text/memo.py): a result is kept while
one of the last three units asked for it, and a process that never ends a unit holds a bounded number."""
from __future__ import annotations

from generator.text.memo import UnitMemo


def counting() -> tuple[UnitMemo[int], list[str]]:
    calls: list[str] = []

    def length(s: str) -> int:
        calls.append(s)
        return len(s)
    return UnitMemo(length, units=3, most=300), calls


def test_a_result_is_worked_out_once_while_units_keep_asking_for_it():
    memo, calls = counting()
    for _ in range(10):
        assert memo("ring") == 4 and memo("ring") == 4
        memo.age()
    assert calls == ["ring"]


def test_a_result_no_unit_asked_for_in_three_goes():
    memo, calls = counting()
    memo("ring")
    memo.age()  # the unit that asked ends
    memo.age()
    assert memo("ring") == 4 and calls == ["ring"]  # asked two units later: still there
    for _ in range(3):
        memo.age()
    assert memo.cache_info().currsize == 0
    assert memo("ring") == 4 and calls == ["ring", "ring"]


def test_without_units_ending_a_memo_holds_a_bounded_number():
    memo, calls = counting()
    for i in range(5000):
        memo(str(i))
    assert memo.cache_info().currsize <= 300
    assert memo("4999") == 4 and calls[-1] == "4999"  # the latest kept


def test_cache_clear_forgets_everything():
    memo, calls = counting()
    memo("a")
    memo.age()
    memo("b")
    memo.cache_clear()
    assert memo.cache_info().currsize == 0
    memo("a")
    assert calls == ["a", "b", "a"]
