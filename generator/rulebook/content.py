"""What a rulebook says, language by language, before any page exists.

`rulebook_content(game, langs)` turns the clauses, their translations, the component model, the
checker's per-player-count setup and the glossary into a flat list of blocks. Every block holds
one text per language, so the same list typesets a Japanese, an English or a side-by-side book.
Cross-references become the target clause's printed number plus a link span.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Sequence

from solver.game.base import pick
from solver.game.loader import Game
from solver.game.setup import CombineStep
from solver.rules.load import glossary_for, rules_of
from solver.rules.model import NATIVE_ID, REF_MARKUP, RulesFile, clause_key
from solver.rules.po import Catalog, load_catalog
from solver.rules.qa import CLAUSE_REF
from solver.rules.terms import FirstUses

from generator import fonts
from generator.languages import is_draft
from generator.text.typography import typeset, typeset_spans

from .backmatter import clarification, clarification_blocks, glossary_blocks
from .guide import Printing, guide_blocks
from .blocks import BULLET, OWN, Content, Heading, Link, Para, TableBlock, Text, _labels, anchor_of
from .strings import label


class _Resolver:
    """Texts of units in each language, with [[refs]] and native clause numbers linked."""

    def __init__(self, rules: RulesFile, catalogs: dict[str, Catalog | None], content: Content):
        self.rules = rules
        self.catalogs = catalogs
        self.numbers = rules.numbers()
        self.by_key = {clause_key(i): i for i in self.numbers if NATIVE_ID.match(i)}
        self.content = content
        self.first_uses: FirstUses | None = None  # terms used before their definition (terms.py)
        self._quantities = {p.clause.id: p.clause.quantities for p in rules.walk()}
        # a clause in an unnumbered section is cited by that section's heading
        self._section: dict[str, tuple[str, str]] = {}
        top = ("", "")
        for p in rules.walk():
            top = (p.clause.id, p.clause.title or "") if p.depth == 0 else top
            self._section[p.clause.id] = top

    def _cited(self, clause_id: str, lang: str) -> str:
        """How a reference to a clause prints: its number, or its section's heading when unnumbered."""
        number = self.numbers.get(clause_id, clause_id)
        if number:
            return number
        sid, title = self._section[clause_id]
        catalog = self.catalogs.get(lang)
        return (catalog.get(f"{sid}#title", title).text if catalog is not None else None) or title

    def quantities(self, ctx: str) -> list[str]:
        return self._quantities.get(ctx.split("#")[0], [])

    def texts(self, ctx: str, source: str) -> dict[str, Text]:
        out = {}
        for lang, catalog in self.catalogs.items():
            raw, own = source, ""
            if catalog is not None:
                tr = catalog.get(ctx, source).text
                if tr is None:  # shown in the source language, set with its own punctuation
                    self.content.missing.append(f"{lang}:{ctx}")
                    own = self.rules.language
                else:
                    raw = tr
            if self.first_uses is not None:
                raw = self.first_uses.mark(ctx, source, raw, lang)
            out[lang] = dataclasses.replace(self.link(raw, self.quantities(ctx), lang), lang=own)
        return out

    def link(self, raw: str, quantities: Sequence[str] = (), lang: str = "") -> Text:
        parts: list[str] = []
        links: list[Link] = []
        pos = 0
        for m in REF_MARKUP.finditer(raw):
            parts.append(raw[pos:m.start()])
            start = sum(len(p) for p in parts)
            number = self._cited(m.group(1), lang)
            parts.append(number)
            links.append(Link(start, start + len(number), anchor_of(m.group(1))))
            pos = m.end()
        parts.append(raw[pos:])
        text = "".join(parts)
        if self.rules.numbering == "native":
            for m in CLAUSE_REF.finditer(text):
                # only references that name a clause become links; others stay text (the QA reports them)
                if m.group(1) not in quantities and clause_key(m.group(1)) in self.by_key \
                        and not any(lk.start <= m.start() < lk.end for lk in links):
                    links.append(Link(m.start(1), m.end(1), anchor_of(self.by_key[clause_key(m.group(1))])))
        return Text(text, tuple(sorted(links, key=lambda lk: lk.start)))


def rulebook_content(game: Game, langs: list[str], report: dict[str, Any] | None, *,
                     printing: Printing | None = None) -> Content:
    """The book in `langs` (one, or two side by side); with `printing` (the build's paper, flip and
    bleed) it ends with how to print the game."""
    rules = rules_of(game)
    assert rules is not None
    m = game.meta
    facts: dict[str, list[str]] = {}
    for lang in langs:
        lo, hi = m.players.min, m.players.max
        lines = [label("players", lang, lo=lo, hi=hi) if lo != hi else label("players1", lang, n=lo)]
        if m.play_time_minutes:
            t = m.play_time_minutes
            lines.append(label("minutes", lang, lo=t.min, hi=t.max) if t.min != t.max else label("minutes1", lang, n=t.min))
        if m.age_min:
            lines.append(label("age", lang, n=m.age_min))
        if m.designer:
            lines.append(label("designer", lang) + " " + ", ".join(pick(n, lang) for n in m.designer))
        if m.publisher and m.publisher != m.designer:
            lines.append(label("publisher", lang) + " " + ", ".join(pick(n, lang) for n in m.publisher))
        facts[lang] = lines
    content = Content(langs=langs, title={lg: pick(m.title, lg) for lg in langs},
                      subtitle={lg: pick(m.subtitle, lg) if m.subtitle else "" for lg in langs}, facts=facts,
                      faces={lg: fonts.face_of(lg, game).id for lg in langs})
    catalogs = {lang: (None if lang == rules.language else load_catalog(game.folder, lang)) for lang in langs}
    resolver = _Resolver(rules, catalogs, content)
    glossary = glossary_for(game)
    resolver.first_uses = FirstUses(rules, glossary, langs)

    from .inventory import component_blocks  # it builds on this module's blocks

    # the book opens with how to win (the section of kind objective), then what is in the box
    objective = rules.objective_id()
    content.blocks += _clause_blocks(rules, resolver, lambda sid: sid == objective)
    content.blocks += component_blocks(game, langs)
    if report is not None:
        content.blocks += _setup_blocks(game, langs, report)
    content.blocks += _clause_blocks(rules, resolver, lambda sid: sid != objective)
    if glossary:
        content.blocks += glossary_blocks(glossary, rules, langs)
    content.blocks += clarification_blocks(rules, resolver.texts, langs)
    if printing is not None:
        content.blocks += guide_blocks(game, langs, printing)
    content.drafts = [lg for lg in langs if is_draft(game, lg) or any(m.startswith(f"{lg}:") for m in content.missing)]
    _set_punctuation(content)
    return content


def print_guide_content(game: Game, lang: str, printing: Printing) -> Content:
    """The one-page print guide in `lang` (print-guide-<lang>.pdf): the game's title as its heading,
    then the rulebook's section "How to print"."""
    title = pick(game.meta.title, lang)
    content = Content(langs=[lang], title={lang: title}, subtitle={lang: ""}, facts={lang: []},
                      faces={lang: fonts.face_of(lang, game).id})
    content.blocks = [Heading("print-guide-title", 0, "", _labels([lang], "guide_title", title=title))]
    content.blocks += guide_blocks(game, [lang], printing)[1:]  # its own heading names the game
    _set_punctuation(content)
    return content


def _set_punctuation(content: Content) -> None:
    """Every text of the book with its language's printed punctuation (generator/text/typography.py):
    the one place rulebook text meets it, after cross-references are resolved, so the clause
    numbers they print (link spans) are kept as they are. Numeric table columns (counts, values)
    stay as typed; a table shared by every language (the glossary) is set column by column where
    it is made."""
    def texts(by_lang: dict[str, Text]) -> dict[str, Text]:
        return {lg: _punctuated(t, lg) for lg, t in by_lang.items()}

    for lg in content.langs:
        content.title[lg] = typeset(content.title[lg], lg)
        content.subtitle[lg] = typeset(content.subtitle[lg], lg)
        content.facts[lg] = [typeset(line, lg) for line in content.facts[lg]]
    for b in content.blocks:
        if isinstance(b, (Heading, Para)):
            b.texts = texts(b.texts)
        elif isinstance(b, TableBlock) and not b.shared:
            def row(cells: list[Text], lg: str) -> list[Text]:
                return [c if i in b.numeric_columns else _punctuated(c, lg) for i, c in enumerate(cells)]
            b.header = {lg: row(cells, lg) for lg, cells in b.header.items()}
            b.rows = {lg: [row(cells, lg) for cells in rows] for lg, rows in b.rows.items()}


def _punctuated(t: Text, lang: str) -> Text:
    """`t` with the punctuation of the language it is written in (a draft's untranslated text keeps its own)."""
    text, where = typeset_spans(t.text, t.lang or lang, [(lk.start, lk.end) for lk in t.links])
    if text == t.text:
        return t
    return Text(text, tuple(Link(where[lk.start], where[lk.end], lk.anchor) for lk in t.links), t.lang)


def _setup_blocks(game: Game, langs: list[str], report: dict[str, Any]) -> list[Any]:
    """Per-player-count setup as the checker derived it: components rows, player-count columns."""
    counts = report.get("player_counts") or {}
    if not counts:
        return []
    ns = sorted(counts, key=int)
    names = {c.id: c.name for c in game.components}
    # a pile that `combine` makes is named by its step, else by its parts
    for step in (game.setup.steps if game.setup else []):
        if isinstance(step, CombineStep) and step.into not in names:
            names[step.into] = step.name or {lg: " + ".join(pick(names.get(c), lg, c) for c in step.combine)
                                             for lg in langs}
    blocks: list[Any] = [Heading("setup-table", 0, "", _labels(langs, "setup_table")),
                         Para("text", _labels(langs, "setup_table_intro"))]
    header = {lg: [Text(label("players_col", lg))] + [Text(label("n_players", lg, n=int(n))) for n in ns] for lg in langs}
    rows: dict[str, list[list[Text]]] = {lg: [] for lg in langs}

    sides = {s.id: s.name for s in (game.setup.sides if game.setup else [])}

    def add(key: str, values: list[Any], name: dict[str, str] | None = None, side: str | None = None) -> None:
        # a count where a step runs short has no figures: `–`, never the engine's clamped numbers
        values = [None if "cannot_set_up" in counts[n] else v for n, v in zip(ns, values)]
        if all(v in (None, 0, "") for v in values):
            return
        for lg in langs:
            title = label(key, lg, name=pick(name, lg) if name else "",
                          **({"side": pick(sides.get(side), lg, side)} if side else {}))
            rows[lg].append([Text(title)] + [Text("–" if v in (None, "") else str(v)) for v in values])

    comp_ids = sorted({cid for n in ns for cid in (counts[n].get("in_play") or {})},
                      key=lambda cid: list(names).index(cid) if cid in names else len(names))
    for cid in comp_ids:
        add("row_in_play", [counts[n].get("in_play", {}).get(cid, 0) for n in ns], names.get(cid) or {"und": cid})
    for cid in comp_ids:
        values = [counts[n].get("returned_to_box", {}).get(cid, 0) for n in ns]
        add("row_returned", values, names.get(cid) or {"und": cid})
    for cid in sorted({cid for n in ns for cid in (counts[n].get("dealt") or {})}):
        to = next((counts[n]["dealt_to"][cid] for n in ns if cid in counts[n].get("dealt_to", {})), None)
        add("row_dealt_to" if to else "row_dealt", [counts[n].get("dealt", {}).get(cid, 0) for n in ns],
            names.get(cid) or {"und": cid}, to)
    # a step a side chooses: "chosen by", not a random draw
    chosen = {(p["component"], p["chosen_by"]) for n in ns for p in counts[n].get("placements", []) if p.get("chosen_by")}
    for cid, side in sorted(chosen):
        values = [sum(p["count"] for p in counts[n].get("placements", [])
                      if p["component"] == cid and p.get("chosen_by") == side) for n in ns]
        add("row_chosen", values, names.get(cid) or {"und": cid}, side)
    add("row_hand", [counts[n].get("hand_size") for n in ns])
    add("row_draw_pile", [counts[n].get("draw_pile") for n in ns])
    blocks.append(TableBlock(header, rows, numeric_columns=tuple(range(1, len(ns) + 1))))
    return blocks


# a list item that opens with its own mark: a) b), (1) (2), ①, ア) — the source's labels, kept in
# the text because other clauses cite them ("上記a)のルール")
OWN_MARK = re.compile(r"[(（]?[A-Za-z0-9０-９ア-ン]{1,2}[)）.．]|[①-⑳]")


def _own_marks(items: Sequence[str]) -> bool:
    """True when every item of a list opens with its own distinct mark: that mark is its bullet."""
    marks = [m.group(0) if (m := OWN_MARK.match(item)) else None for item in items]
    return bool(items) and None not in marks and len(set(marks)) == len(marks)


def own_mark(t: Text) -> tuple[str, Text]:
    """An item's own mark ("a)") and the text after it, its links moved with it; ("", t) without one
    (a translation that dropped the mark)."""
    m = OWN_MARK.match(t.text)
    if not m:
        return "", t
    rest = t.text[m.end():]
    cut = m.end() + len(rest) - len(rest.lstrip())
    links = tuple(Link(k.start - cut, k.end - cut, k.anchor) for k in t.links if k.start >= cut)
    return m.group(0), Text(t.text[cut:], links)


def _clause_blocks(rules: RulesFile, r: _Resolver, sections: Callable[[str], bool]) -> list[Any]:
    """The blocks of the clauses of every section `sections` accepts (by id), in reading order."""
    blocks: list[Any] = []
    section = ""
    for placed in rules.walk():
        c, depth = placed.clause, placed.depth
        section = c.id if depth == 0 else section
        if not sections(section):
            continue
        anchor = anchor_of(c.id)
        first_number = placed.number
        if c.title:
            blocks.append(Heading(anchor, depth, placed.number, r.texts(f"{c.id}#title", c.title)))
            first_number, anchor = "", ""
        if c.text:
            blocks.append(Para("text", r.texts(c.id, c.text), first_number, anchor, depth=depth))
            first_number, anchor = "", ""
        own = _own_marks(c.items)
        for i, item in enumerate(c.items, 1):
            blocks.append(Para("item", r.texts(f"{c.id}#item-{i}", item), first_number, anchor,
                               marker=OWN if own else f"{i}." if c.ordered else BULLET, depth=depth))
            first_number, anchor = "", ""
        if c.table:
            header: dict[str, list[Text]] = {lg: [] for lg in r.catalogs}
            for col, cell in enumerate(c.table.header, 1):
                for lg, t in r.texts(f"{c.id}#head-{col}", cell).items():
                    header[lg].append(t)
            rows: dict[str, list[list[Text]]] = {lg: [] for lg in r.catalogs}
            for ri, row in enumerate(c.table.rows, 1):
                cells: dict[str, list[Text]] = {lg: [] for lg in r.catalogs}
                for col, cell in enumerate(row, 1):
                    texts = r.texts(f"{c.id}#r{ri}c{col}", cell) if cell.strip() else {lg: Text("") for lg in r.catalogs}
                    for lg, t in texts.items():
                        cells[lg].append(t)
                for lg in r.catalogs:
                    rows[lg].append(cells[lg])
            if first_number:
                blocks.append(Para("text", {lg: Text("") for lg in r.catalogs}, first_number, anchor, depth=depth))
                first_number, anchor = "", ""
            blocks.append(TableBlock(header, rows, depth=depth))
        for i, note in enumerate(c.notes, 1):
            blocks.append(Para("note", r.texts(f"{c.id}#note-{i}", note), first_number, anchor, depth=depth))
            first_number, anchor = "", ""
        for i, ex in enumerate(c.examples, 1):
            blocks.append(Para("example", r.texts(f"{c.id}#example-{i}", ex), first_number, anchor, depth=depth))
            first_number, anchor = "", ""
        if c.drawn_from:  # where the source states these words, when not here (a card, an optional rule)
            blocks.append(Para("from", r.texts(f"{c.id}#from", c.drawn_from), first_number, anchor, depth=depth))
            first_number, anchor = "", ""
        for i in range(1, len(c.clarifications) + 1):
            # its own anchor, which the clarifications list links to
            blocks.append(Para("clarification", clarification(r.texts, c, i), first_number,
                               f"{anchor_of(c.id)}-clarification-{i}", depth=depth))
            first_number, anchor = "", ""
    return blocks
