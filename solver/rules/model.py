"""Rules as data: the clause file `rules/clauses.yaml` of a game (format: docs/rules-format.md).

A rulebook is a tree of clauses in the source language. A top-level clause is a section (it has a
title); every clause may carry text, a list (`items`), notes, examples, a table and sub-clauses, in that
printed order. Each piece of text is one translation unit whose PO `msgctxt` is the clause id
(`9.14`), or the clause id plus a part suffix (`9.14#item-2`, `9.14#r1c2`), so a changed source
sentence makes exactly that entry stale.

Numbering:
- `native`: ids are the rulebook's own numbers (`9`, `9.14`, `9.19.1`) and are printed as they are.
  A child's id extends its parent's (`9.19.1` under `9.19`). Ids compare as tuples of ints.
- `generated`: ids are stable kebab names (`setup-deal-gems`); the printed number comes from the
  position (`2.5`), so inserting a clause renumbers the book but keeps every translation. A section
  with `numbered: false` (one this edition adds, like an objective put together from the source's
  words) prints without a number, as do its clauses, and the others count on without it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Literal

from pydantic import Field, field_validator

from ..errors import Problem
from ..game.base import ID_PATTERN, LANG_PATTERN, Model

NATIVE_ID = re.compile(r"^\d+(?:\.\d+)*$")
KEBAB_ID = re.compile(ID_PATTERN)
# An explicit cross-reference in clause text: [[clause-id]]; printed as the clause's number, linked.
REF_MARKUP = re.compile(r"\[\[([^\[\]]+)\]\]")


def clause_key(clause_id: str) -> tuple[int, ...]:
    """`10.10` -> (10, 10): clause numbers compare as tuples of ints, never as floats."""
    return tuple(int(p) for p in clause_id.split("."))


class Table(Model):
    header: list[str] = []
    rows: list[list[str]] = Field(min_length=1)


class Clarification(Model):
    """A question the source leaves open where a played game reaches it, and the ruling players apply:
    both are ours, never the source's words, and print marked as such beside their clause."""
    open: str = Field(description="what the source leaves open, e.g. 'the rules do not say what happens at 6'")
    ruling: str = Field(description="what the players do, e.g. 'a die at 6 stays at 6'")


class Clause(Model):
    id: str = Field(description="native number like 9.14, or a stable kebab id")
    kind: Literal["rule", "objective"] = Field("rule", description="objective: the section that says how to win; "
                                               "every rulebook opens with it (a section, at most one)")
    title: str | None = Field(None, description="heading; every top-level clause (section) has one")
    numbered: bool = Field(True, description="false: a section this edition adds (an objective put together from "
                           "the source's words) prints without a number, and every other clause keeps the "
                           "source's number (numbering: generated only)")
    text: str | None = None
    items: list[str] = Field([], description="list items, in order")
    ordered: bool = Field(False, description="number the list items (1. 2. 3.) instead of bullets")
    notes: list[str] = Field([], description="notes (※ in the source), without the ※ mark")
    examples: list[str] = Field([], description="worked examples, without the 例 label")
    table: Table | None = None
    source: str | None = Field(None, description="where in the seed this clause is, e.g. '【ゲームの目的】'")
    drawn_from: str | None = Field(None, description="where the source states these words, as a player knows it, "
                                   "when that is not here (a card, an optional rule), e.g. '「指輪」カード、[[opt-win]]'; printed")
    clarifications: list[Clarification] = Field([], description="questions the source leaves open here, each with "
                                                "the ruling players apply (ours, printed marked as such)")
    quantities: list[str] = Field([], description="dotted numbers in this clause that are values, not clause "
                                  "references (native numbering), e.g. an average of 2.34")
    clauses: list["Clause"] = []

    @field_validator("id", mode="before")
    @classmethod
    def _id_text(cls, v: object) -> object:
        # `9` or `1.1` written without quotes arrive as numbers; 10.10 as a float would be 10.1.
        if isinstance(v, float):
            raise ValueError(f"id {v!r} was read as a number; quote the id as written "
                             "(unquoted, 10.10 reads as the number 10.1)")
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    def parts(self) -> Iterator[tuple[str, str]]:
        """(msgctxt, source text) of every translation unit of this clause, not of its children."""
        if self.title:
            yield f"{self.id}#title", self.title
        if self.text:
            yield self.id, self.text
        for i, item in enumerate(self.items, 1):
            yield f"{self.id}#item-{i}", item
        for i, note in enumerate(self.notes, 1):
            yield f"{self.id}#note-{i}", note
        for i, ex in enumerate(self.examples, 1):
            yield f"{self.id}#example-{i}", ex
        if self.drawn_from:
            yield f"{self.id}#from", self.drawn_from
        for i, cl in enumerate(self.clarifications, 1):
            yield f"{self.id}#open-{i}", cl.open
            yield f"{self.id}#ruling-{i}", cl.ruling
        if self.table:
            for c, cell in enumerate(self.table.header, 1):
                yield f"{self.id}#head-{c}", cell
            for r, row in enumerate(self.table.rows, 1):
                for c, cell in enumerate(row, 1):
                    if cell.strip():
                        yield f"{self.id}#r{r}c{c}", cell


class RulesFile(Model):
    """`rules/clauses.yaml`."""
    language: str = Field(pattern=LANG_PATTERN, description="language of the clause texts (the source)")
    source: str | None = Field(None, description="id of the seed in game.yaml `sources`")
    numbering: Literal["native", "generated"] = "generated"
    sections: list[Clause] = Field(min_length=1)

    def walk(self) -> Iterator["Placed"]:
        """Every clause in reading order with its printed number, depth and path in the file."""
        def rec(clauses: list[Clause], prefix: str | None, depth: int, loc: tuple) -> Iterator[Placed]:
            position = 0
            for i, c in enumerate(clauses):
                position += c.numbered
                # an unnumbered section, and every clause in it, prints no number; the others count on
                number = c.id if self.numbering == "native" else \
                    f"{prefix}{position}" if prefix is not None and c.numbered else ""
                here = loc + (i,)
                yield Placed(c, number, depth, here)
                yield from rec(c.clauses, number + "." if number else None, depth + 1, here + ("clauses",))
        yield from rec(self.sections, "", 0, ("sections",))

    def units(self) -> list[tuple[str, str]]:
        """Every translation unit (msgctxt, source text) in reading order."""
        return [u for p in self.walk() for u in p.clause.parts()]

    def objective_id(self) -> str | None:
        """The id of the section that says how to win (kind: objective), if any."""
        return next((c.id for c in self.sections if c.kind == "objective"), None)

    def numbers(self) -> dict[str, str]:
        """clause id -> printed number."""
        return {p.clause.id: p.number for p in self.walk()}

    def check_references(self, components: object, locator) -> list[Problem]:
        """Loader hook: ids unique, well formed for the numbering, native children under their parent,
        sections titled, and every [[ref]] pointing at a clause."""
        problems: list[Problem] = []
        seen: dict[str, tuple] = {}
        ids = {p.clause.id for p in self.walk()}
        for p in self.walk():
            c, loc = p.clause, p.loc
            if c.id in seen:
                problems.append(locator.problem(loc + ("id",), f"duplicate clause id {c.id!r} "
                                                f"(first at line {locator.at(seen[c.id])[0]})",
                                                "give every clause its own id"))
            seen.setdefault(c.id, loc + ("id",))
            if self.numbering == "native":
                if not NATIVE_ID.match(c.id):
                    problems.append(locator.problem(loc + ("id",), f"clause id {c.id!r} is not a number like 9.14",
                                                    "with numbering: native, ids are the rulebook's numbers"))
                elif p.depth and len(loc) >= 3:
                    parent = self._clause_at(loc[:-2])
                    if parent is not None and NATIVE_ID.match(parent.id) and \
                            clause_key(c.id)[:-1] != clause_key(parent.id):
                        problems.append(locator.problem(loc + ("id",), f"clause {c.id} sits under {parent.id}",
                                                        f"number it {parent.id}.N or move it"))
            elif not KEBAB_ID.match(c.id):
                problems.append(locator.problem(loc + ("id",), f"clause id {c.id!r} is not a kebab id",
                                                "use lower-case words joined by '-', like setup-deal-gems"))
            if p.depth == 0 and not c.title:
                problems.append(locator.problem(loc, f"section {c.id} has no title", "add a title"))
            if not c.numbered and (p.depth or self.numbering == "native"):
                problems.append(locator.problem(loc + ("numbered",), f"clause {c.id}: numbered: false is for a "
                                                "section of a rulebook with numbering: generated",
                                                "remove `numbered: false` (native ids are the printed numbers)"))
            if c.kind == "objective" and p.depth:
                problems.append(locator.problem(loc + ("kind",), f"clause {c.id} is an objective inside a section",
                                                "give kind: objective to a section (a top-level clause)"))
            elif c.kind == "objective" and c.id != self.objective_id():
                problems.append(locator.problem(loc + ("kind",), f"section {c.id} is a second objective",
                                                "give kind: objective to one section only"))
            if not (c.title or c.text or c.items or c.table or c.clauses):
                problems.append(locator.problem(loc, f"clause {c.id} is empty", "give it text, a list or a table"))
            if c.table and c.table.header and any(len(r) != len(c.table.header) for r in c.table.rows):
                problems.append(locator.problem(loc + ("table",), f"clause {c.id}: table rows and header differ in length",
                                                "give every row one cell per header column"))
            for ctx, text in c.parts():
                for ref in REF_MARKUP.findall(text):
                    if ref not in ids:
                        problems.append(locator.problem(loc, f"clause {c.id}: [[{ref}]] names no clause",
                                                        "use the id of an existing clause"))
        return problems

    def _clause_at(self, loc: tuple) -> Clause | None:
        node: object = self
        for part in loc:
            node = getattr(node, part) if isinstance(part, str) else node[part]  # type: ignore[index]
        return node if isinstance(node, Clause) else None


@dataclass(frozen=True)
class Placed:
    clause: Clause
    number: str  # as printed: the native id, or the generated position number
    depth: int  # 0 for sections
    loc: tuple  # path in the YAML file, for located problems
