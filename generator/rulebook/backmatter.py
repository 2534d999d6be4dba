"""The back of a rulebook: the glossary and the clarifications, gathered after the rules.

A clarification (a question the source leaves open, and the ruling players apply) prints beside its
clause (content.py calls `clarification`) and again in the list at the end, which links to it.
"""
from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import Any, Callable

from solver.rules.glossary import Entry
from solver.rules.model import Clause, RulesFile

from generator.text.typography import quotes_of, typeset

from .blocks import Heading, Link, Para, TableBlock, Text, _labels, anchor_of
from .strings import label

Texts = Callable[[str, str], dict[str, Text]]  # (unit id, source text) -> its text in each language of the book


def _joined(first: Text, sep: str, second: Text) -> Text:
    """Two texts as one, the links of the second moved with it."""
    shift = len(first.text) + len(sep)
    return Text(first.text + sep + second.text,
                first.links + tuple(Link(k.start + shift, k.end + shift, k.anchor) for k in second.links))


def clarification(texts: Texts, c: Clause, i: int) -> dict[str, Text]:
    """Clarification `i` of clause `c` as printed: what the source leaves open, then the ruling."""
    cl = c.clarifications[i - 1]
    opened = texts(f"{c.id}#open-{i}", cl.open)
    ruling = texts(f"{c.id}#ruling-{i}", cl.ruling)
    return {lg: _joined(opened[lg], " ", _joined(Text(label("ruling_mark", lg)), " ", ruling[lg])) for lg in opened}


def clarification_blocks(rules: RulesFile, texts: Texts, langs: list[str]) -> list[Any]:
    """Every clarification gathered at the end of the book: the clause (number and heading, linked
    to the ruling beside it), what the source leaves open, and the ruling."""
    found = [(p, i) for p in rules.walk() for i in range(1, len(p.clause.clarifications) + 1)]
    if not found:
        return []
    blocks: list[Any] = [Heading("clarifications", 0, "", _labels(langs, "clarifications")),
                         Para("text", _labels(langs, "clarifications_intro"))]
    header = {lg: [Text(label("clause", lg)), Text(label("left_open", lg)), Text(label("ruling", lg))] for lg in langs}
    rows: dict[str, list[list[Text]]] = {lg: [] for lg in langs}
    for placed, i in found:
        c = placed.clause
        heading = texts(f"{c.id}#title", c.title) if c.title else None
        cl = c.clarifications[i - 1]
        opened, ruling = texts(f"{c.id}#open-{i}", cl.open), texts(f"{c.id}#ruling-{i}", cl.ruling)
        for lg in langs:
            name = " ".join(t for t in (placed.number, heading[lg].text if heading else "") if t)
            rows[lg].append([Text(name, (Link(0, len(name), f"{anchor_of(c.id)}-clarification-{i}"),)),
                             opened[lg], ruling[lg]])
    blocks.append(TableBlock(header, rows))
    return blocks


def glossary_blocks(glossary: list[Entry], rules: RulesFile, langs: list[str]) -> list[Any]:
    """Only the terms the rules use, in the order they first appear."""
    units = rules.units()
    src = rules.language
    # the units as one text, a NUL between two (no term holds one): a term's first unit is the one
    # its first occurrence falls in, found at C speed (each term tried against every unit in turn
    # was a seventh of the books' content)
    joined = "\0".join(text for _, text in units)
    starts = list(accumulate((len(text) + 1 for _, text in units[:-1]), initial=0))
    used = []
    for e in glossary:
        form = e.term.forms().get(src)
        if not form:
            continue
        if "\0" in form:
            first = next((i for i, (_, text) in enumerate(units) if form in text), None)
        else:
            at = joined.find(form)
            first = bisect_right(starts, at) - 1 if at >= 0 else None
        if first is not None:
            used.append((first, e))
    used.sort(key=lambda t: t[0])
    if not used:
        return []
    others = [lg for lg in ("ja", "en") if lg != src] or ["en"]
    note_lang = others[0]  # notes are written in the translation's language (English for a Japanese game)
    # the book's own language leads (an English book's glossary opens with the English term); a
    # side-by-side book, and the source language's, with the source's term and its translation's
    # (ja+fr: Japanese and French)
    beside = [lg for lg in langs if lg != src] or others
    lead, second = (langs[0], src) if len(langs) == 1 and langs[0] != src else (src, beside[0])
    blocks: list[Any] = [Heading("glossary", 0, "", _labels(langs, "glossary"))]
    # a Note column only when some term has one, and never in a book in a third language (a French
    # book does not print English notes)
    notes = any(e.term.note for _, e in used) and set(langs) <= {src, note_lang}
    header = {lg: [Text(label("lang_name", lg, code=lead)), Text(label("lang_name", lg, code=second))]
              + ([Text(label("note", lg))] if notes else []) for lg in langs}
    rows: dict[str, list[list[Text]]] = {lg: [] for lg in langs}
    for _, e in used:
        forms = e.term.forms()
        for lg in langs:
            # a Latin-script book sets each column in its own language's punctuation (the notes
            # in the target language's); a Japanese book, and a side-by-side one, which prints the
            # source language's copy, keep them as typed
            def cell(v: str, lang: str) -> Text:
                return Text(typeset(v, lang) if quotes_of(lg) else v)
            rows[lg].append([cell(forms.get(lead, ""), lead), cell(forms.get(second, ""), second)]
                            + ([cell(e.term.note or "", note_lang)] if notes else []))
    blocks.append(TableBlock(header, rows, shared=True, column_langs=(lead, second, note_lang if notes else "")))
    return blocks
