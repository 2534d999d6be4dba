"""What a process parsed from a file, kept for the same text of the same file (issue 26).

A build asks for the same few files many times (a game's rules translations and glossary: once in
planning and again in every unit that prints the language), so each is parsed once per process.
The key is the file's text, not its time: an edit within the clock's tick, or of the same length,
is read at the next load (`pnp serve` rebuilds in the same process). A value is shared by every
caller, so a caller reads it and never changes it. A parse that fails is not kept: a broken file
is a located error each time it is loaded.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class TextMemo(Generic[T]):
    """Values parsed from files, by (file, text), the `keep` most recently used kept. `file` names
    the file as the value depends on it: its path, or the path shown in the value's locations."""

    def __init__(self, keep: int):
        self.keep = keep
        self._values: dict[tuple[str, str], T] = {}

    def get(self, file: Path | str, text: str, parse: Callable[[str], T]) -> T:
        key = (str(file), text)
        if key in self._values:
            value = self._values.pop(key)
        else:
            value = parse(text)
        self._values[key] = value  # the most recent last
        if len(self._values) > self.keep:
            del self._values[next(iter(self._values))]
        return value

    def clear(self) -> None:
        self._values.clear()

    def __len__(self) -> int:
        return len(self._values)
