"""Terms before their definition: a glossary term with `defined_in` (the clause that defines it) that
the book uses in a clause it prints earlier gets, at that first use in each language, the defining
clause's reference after it, "trick ([[play-trick]])", which prints as "trick (4.4)" and links there.
The reference comes from the clause id, so it always names the clause that defines the term.
The rulebook (generator/rulebook/content.py) marks every unit it prints, in print order; the QA runs
the same pass and reports a use it could not mark (`term-before-definition`: the translation lacks
the term, so the book cannot cite the definition there).
"""
from __future__ import annotations

import re

from ..findings import Finding
from .glossary import Entry
from .model import REF_MARKUP, RulesFile
from .po import Catalog

# headings, table heads and cells, and citations carry no definition reference
SKIP = re.compile(r"#(title|head-\d+|r\d+c\d+|from)$")


def print_order(rules: RulesFile) -> dict[str, int]:
    """clause id -> its place in the book: the objective section first, then the others in order."""
    objective = rules.objective_id()
    placed = list(rules.walk())
    section, first, rest = "", list[str](), list[str]()
    for p in placed:
        section = p.clause.id if p.depth == 0 else section
        (first if section == objective else rest).append(p.clause.id)
    return {cid: i for i, cid in enumerate(first + rest)}


class FirstUses:
    """Which terms still wait for their first use before their definition, per language."""

    def __init__(self, rules: RulesFile, glossary: list[Entry], langs: list[str]):
        self.order = print_order(rules)
        self.source = rules.language
        terms = [e for e in glossary if e.term.defined_in in self.order]
        self.pending = {lang: list(terms) for lang in langs}
        self.unlinked: list[tuple[str, str, Entry]] = []  # (lang, unit, term) used early, with nothing to mark

    def mark(self, ctx: str, source: str, text: str, lang: str) -> str:
        """`text` (the unit `ctx` in `lang`) with the definition's reference after the first use of each
        term this unit uses before the clause that defines it."""
        if SKIP.search(ctx) or lang not in self.pending:
            return text
        here = self.order.get(ctx.split("#")[0], -1)
        for e in list(self.pending[lang]):
            where = self.order[e.term.defined_in or ""]
            if here >= where:
                self.pending[lang].remove(e)  # defined by now: no reference needed
                continue
            form = e.term.forms().get(self.source, "")
            if not form or form not in source:
                continue
            latin = lang != self.source
            marked = _after_first(text, e.term.accepted(lang) if latin else [form],
                                  f" ([[{e.term.defined_in}]])" if latin else f"([[{e.term.defined_in}]])", latin)
            if marked is not None:
                text = marked
                self.pending[lang].remove(e)
            elif (lang, ctx, e) not in self.unlinked:
                self.unlinked.append((lang, ctx, e))
        return text


def _after_first(text: str, forms: list[str], insert: str, latin: bool) -> str | None:
    """`text` with `insert` after the first of `forms` (a Latin form: a whole word, its ending kept:
    trick -> tricks), outside [[references]]; None when no form occurs."""
    refs = [m.span() for m in REF_MARKUP.finditer(text)]
    best: tuple[int, int] | None = None
    for form in sorted(forms, key=len, reverse=True):
        pattern = rf"(?<!\w){re.escape(form)}\w*" if latin else re.escape(form)
        for m in re.finditer(pattern, text, flags=re.I if latin else 0):
            if not any(a <= m.start() < b for a, b in refs):
                if best is None or m.start() < best[0]:
                    best = m.span()
                break
    if best is None:
        return None
    return text[:best[1]] + insert + text[best[1]:]


def dangling_definitions(rules: RulesFile, glossary: list[Entry]) -> list[Finding]:
    """Each glossary term whose `defined_in` names no clause (once per game, not per language)."""
    numbers = rules.numbers()
    return [Finding("error", "cross-reference-dangling", f"glossary term {e.term.forms().get(rules.language)!r}: "
                    f"defined_in {e.term.defined_in!r} names no clause; use the id of the clause that defines it",
                    e.origin) for e in glossary if e.term.defined_in and e.term.defined_in not in numbers]


def first_use_findings(rules: RulesFile, catalog: Catalog, glossary: list[Entry], lang: str,
                       shown: str) -> list[Finding]:
    """The book's pass over the units in print order: each term it could not cite before its
    definition in `lang` (`term-before-definition`)."""
    numbers = rules.numbers()
    out = []
    uses = FirstUses(rules, glossary, [lang])
    order = uses.order
    for ctx, source in sorted(rules.units(), key=lambda u: order.get(u[0].split("#")[0], -1)):
        uses.mark(ctx, source, catalog.get(ctx, source).text or "", lang)
    for _, ctx, e in uses.unlinked:
        cid = ctx.split("#")[0]
        here = catalog.by_ctx.get(ctx)
        out.append(Finding("warning", "term-before-definition",
                           f"clause {numbers[cid] or cid} ({ctx}) uses {e.term.forms().get(rules.language)!r} before "
                           f"{numbers[e.term.defined_in or ''] or e.term.defined_in}, which defines it, and the "
                           f"translation lacks {e.term.accepted(lang)[:1]}, so the book cannot cite the definition; "
                           "use the agreed term", f"{shown}:{here.linenum}" if here is not None else shown))
    return out
