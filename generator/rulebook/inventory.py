"""The rulebook's components section: the component table and, closing it, the list of what the
sources do not give (generator/missing.py), also typeset on its own as `missing-<lang>.pdf`.

The table has a row per component and, under every deck and sheet of several kinds, a row per
kind, so a player can check the printed set. Its counts come from the counts' ledger
(solver/counts/ledger.py): a count the sources do not state is starred, a stated total never is;
a count no rule bounds is "?" with its note; a component with pieces the sources do not describe
says how many of its stated total are described and printed.
"""
from __future__ import annotations

from typing import Any

from solver.counts.ledger import ComponentLine, ledger
from solver.game.base import pick
from solver.game.loader import Game

from generator import catalogue, fonts
from generator.missing import missing_entries, missing_lines

from .content import BULLET, Content, Heading, Para, TableBlock, Text
from .strings import label

PROPOSED, UNBOUNDED = "*", "?"


def component_blocks(game: Game, langs: list[str]) -> list[Any]:
    """The components table, its notes, and the list of what the sources do not give."""
    blocks: list[Any] = [Heading("components", 0, "", {lg: Text(label("components", lg)) for lg in langs})]
    header = {lg: [Text(label("component", lg)), Text(label("count", lg))] for lg in langs}
    rows: dict[str, list[list[Text]]] = {lg: [] for lg in langs}
    lines = ledger(game)
    for line in lines:
        for lg in langs:
            rows[lg] += _rows(line, lg)
    blocks.append(TableBlock(header, rows, numeric_columns=(1,)))
    if any(line.proposed and not line.unbounded or any(i.proposed and not i.unbounded for i in line.items)
           for line in lines):  # a proposed count is never passed off as the source's
        blocks.append(Para("note", {lg: Text(label("proposed_note", lg)) for lg in langs}))
    if any(i.unbounded for line in lines for i in line.items):
        blocks.append(Para("note", {lg: Text(catalogue.text("missing.unbounded_note", lg)) for lg in langs}))
    return blocks + missing_blocks(game, langs)


def _shown(count: int | None, proposed: bool, unbounded: bool) -> str:
    if count is None or unbounded:
        return UNBOUNDED
    return f"{count}{PROPOSED if proposed else ''}"


def _rows(line: ComponentLine, lg: str) -> list[list[Text]]:
    c = line.component
    out = [[Text(pick(c.name, lg, c.id)), Text(_shown(line.total, line.proposed, line.unbounded))]]
    if any(i.rest for i in line.items) and line.described is not None:
        out.append([Text("\u3000" + catalogue.text("missing.described_row", lg, printed=line.printed)),
                    Text(str(line.described))])
    if len(c.items) > 1:  # every kind, so the printed set can be checked
        for i in line.items:
            name = pick(i.item.name, lg, i.item.id)
            if i.rest:
                name = catalogue.text("missing.rest_row", lg, name=name)
            out.append([Text("\u3000" + name), Text(_shown(i.count, i.proposed, i.unbounded))])
    return out


def missing_blocks(game: Game, langs: list[str], stated_only: bool = False, spares: int | None = None,
                   heading: bool = True) -> list[Any]:
    """The list of what the sources do not give: a heading, a line to say what it is, one item per
    entry with its source; in every language of the book, entry for entry."""
    per_lang = {lg: missing_entries(game, lg, stated_only, spares) for lg in langs}
    blocks: list[Any] = []
    if heading:
        blocks.append(Heading("missing", 1, "", {lg: Text(catalogue.text("missing.title", lg)) for lg in langs}))
    first = per_lang[langs[0]]
    if not first:
        return blocks + [Para("text", {lg: Text(catalogue.text("missing.none", lg)) for lg in langs})]
    blocks.append(Para("text", {lg: Text(catalogue.text("missing.intro", lg)) for lg in langs}))
    lines = {lg: missing_lines(per_lang[lg], lg) for lg in langs}
    for n in range(len(first)):
        blocks.append(Para("item", {lg: Text(lines[lg][n]) for lg in langs}, marker=BULLET))
    return blocks


def missing_content(game: Game, lang: str, stated_only: bool = False, spares: int | None = None) -> Content:
    """`missing-<lang>.pdf` as a leaflet, like the print guide: a list of a few lines needs no cover
    and no contents (three sheets to say "nothing" was the book's way): its heading names the game,
    then the list, or the line that says nothing is missing."""
    title = pick(game.meta.title, lang)
    content = Content(langs=[lang], title={lang: title}, subtitle={lang: ""}, facts={lang: []},
                      faces={lang: fonts.face_of(lang, game).id}, colophon=False)
    content.blocks = [Heading("missing", 0, "", {lang: Text(catalogue.text("missing.leaflet_title", lang, title=title))})]
    content.blocks += missing_blocks(game, [lang], stated_only, spares, heading=False)
    return content
