"""Clause references on pieces: `{ref:clause-id}` in a card's or counter's text names a clause of the
game's rules, and prints as that clause's number and heading in the piece's language (7.8 “Victory
by the Elven rings”), so a card can never cite a clause the book numbers otherwise.

`Citations` answers what a reference prints (number and heading per language, from the clauses and
their translations); `piece_reference_findings` reports a reference that names no clause.
`heading_mismatches` finds a reference in clause text that names its target by another heading
("(11.5 Routed troops)" where 11.5 is "Movement of routed troops"): the QA's `reference-heading`.
"""
from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Iterator

from ..findings import Finding
from .model import RulesFile
from .po import load_catalog

if TYPE_CHECKING:
    from ..game.loader import Game

PIECE_REF = re.compile(r"\{ref:([^{}]*)\}")


class Citations:
    """The number and the heading (in each language asked for) of every clause of a game's rules."""

    def __init__(self, game: Game, rules: RulesFile | None):
        self.game, self.rules = game, rules
        self._placed = {p.clause.id: p for p in rules.walk()} if rules else {}
        self._catalogs: dict[str, object] = {}

    def heading(self, clause_id: str, lang: str) -> str:
        """The clause's heading in `lang` (the source's where no translation has it); "" untitled."""
        c = self._placed[clause_id].clause
        if not c.title or self.rules is None or lang == self.rules.language:
            return c.title or ""
        if lang not in self._catalogs:
            self._catalogs[lang] = load_catalog(self.game.folder, lang)
        return self._catalogs[lang].get(f"{c.id}#title", c.title).text or c.title  # type: ignore[attr-defined]

    def resolve(self, text: str, lang: str, form) -> str:
        """`text` with every `{ref:id}` replaced by `form(number, heading)`; an id that names no clause
        is left as written (the checker reports it: piece_reference_findings)."""
        def one(m: re.Match[str]) -> str:
            cid = m.group(1).strip()
            if cid not in self._placed:
                return m.group(0)
            return form(self._placed[cid].number, self.heading(cid, lang))
        return PIECE_REF.sub(one, text) if "{ref:" in text else text


def piece_texts(game: Game) -> Iterator[tuple[str, str]]:
    """(where, text) of every item text of every component in every language it is given in."""
    for ci, comp in enumerate(game.components):
        for ii, item in enumerate(comp.items):
            if not item.text:
                continue
            where = game.where(comp.items_file, (ii,)) if comp.items_file else \
                game.where("components.yaml", ("components", ci, "items", ii, "text"))
            for text in item.text.values():
                yield where, text


def piece_reference_findings(rules: RulesFile | None, game: Game) -> list[Finding]:
    """A `{ref:id}` on a piece that names no clause (error): the piece would print it as typed."""
    ids = {p.clause.id for p in rules.walk()} if rules else set()
    out = []
    for where, text in piece_texts(game):
        for cid in PIECE_REF.findall(text):
            if cid.strip() not in ids:
                out.append(Finding("error", "cross-reference-dangling",
                                   f"a piece's text cites {{ref:{cid}}}, which names no clause of rules/clauses.yaml; "
                                   "use the id of an existing clause", where))
    return out


# A reference that also names its target: (11.5 Movement of routed troops), (see 2.1.3 Stack),
# (11.5敗走兵の移動), (2.1.3・スタック参照). The words after the number must be the target's heading.
HEADED_REF = re.compile(r"[(（](?:see |cf\. )?(\d+(?:\.\d+)+)(?![.\d])[ ・]?([^()（）\d.,、~〜\-–][^()（）]*?)(?:参照)?[)）]")
RUN_IN = re.compile(r"^([^:：。.]{1,30})[:：]")  # an untitled clause's heading set in its text: "Stack: ..."


def heading_of(title: str | None, text: str | None) -> str:
    """A clause's heading: its title, else the run-in term its text opens with ("スタック:")."""
    if title:
        return title
    m = RUN_IN.match(text or "")
    return m.group(1).strip() if m else ""


def _same(a: str, b: str) -> bool:
    return unicodedata.normalize("NFKC", a).casefold().strip() == unicodedata.normalize("NFKC", b).casefold().strip()


def heading_mismatches(text: str, headings: dict[str, str]) -> list[tuple[str, str, str]]:
    """(number, heading as written, the target's heading) of each reference in `text` that names its
    target by a heading other than the target's own (`headings`: clause number -> heading)."""
    out = []
    for m in HEADED_REF.finditer(unicodedata.normalize("NFKC", text)):
        number, written = m.group(1), m.group(2).strip(" ・")
        target = headings.get(number)
        if written and target and not _same(written, target):
            out.append((number, written, target))
    return out
