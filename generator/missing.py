"""What the sources lack, on paper: `missing-<lang>.pdf`, the list that closes the rulebook's
components section, and the same list on `pnp serve`'s page.

One list per game and language (`missing_entries`), read from the counts' ledger
(solver/counts/ledger.py), so the three never disagree. An entry for:
- every piece printed with a placeholder ("text not given in the source rules"), with the rules
  that name it;
- every piece left out for lack of data: a count neither stated nor proposed, the pieces of a
  stated total that the sources do not describe (`rest: true`, printed only as chosen spares);
- every proposed count, with the rules that bound it, and a count no rule bounds (make as many
  as play needs).
Sources are named as a player knows them ("rules 18.5"), never by a data file, a seed number or a
gap id.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from solver.counts.effective import proposals_of
from solver.counts.ledger import ComponentLine, ItemLine, ledger
from solver.game.base import pick
from solver.game.loader import Game

from . import catalogue
from .context import BuildContext

SEED = re.compile(r"\bseed \d+,\s*")
GAP = re.compile(r"\s*[;,]?\s*\(?(?:see )?gap [a-z0-9-]+\)?")
MAX_BOUNDS = 3  # rules named per proposed component


@dataclass(frozen=True)
class Missing:
    kind: str  # placeholder | not-described | unknown | proposed | unbounded
    component: str  # component id
    text: str  # the sentence, in the list's language
    source: str  # where the rules speak of it, as a player knows it ("" when they do not)


def as_player_knows(source: str | None, lang: str) -> str:
    """A data `source:` as a player names it: "seed 004, 18.5 (...) (gap x)" -> "rules 18.5 (...)"."""
    if not source:
        return ""
    text = GAP.sub("", source).strip(" ;,")
    if not SEED.search(text):
        return _in_language(text, lang)
    parts = [p for p in (_in_language(_clause(p), lang) for p in SEED.split(text) if p.strip(" ;,")) if p]
    return catalogue.text("missing.rules", lang, where="; ".join(dict.fromkeys(parts))) if parts else ""


CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _in_language(clause: str, lang: str) -> str:
    """A clause as a list in `lang` can print it: the source's Japanese section names are left out of a
    list in a language whose face has no kana or kanji (its numbers stay); "" when nothing is left."""
    if lang in ("ja", "zh", "ko") or not CJK.search(clause):
        return clause
    kept = re.sub(r"\([^()]*\)", lambda m: "" if CJK.search(m.group(0)) else m.group(0), clause)
    kept = " ".join(w for w in re.split(r"\s+", kept) if not CJK.search(w)).strip(" ;,/")
    return kept


def _clause(text: str) -> str:
    """The clause a source names, without the quotation that follows it ("準備: 4個を…" -> "準備")."""
    return _balanced(re.split(r"[:;：]", text.strip(" ;,"), maxsplit=1)[0].strip(" ;,"))


def _balanced(text: str) -> str:
    """Drops the closing brackets of an enclosing phrase that the cut left behind."""
    while text.endswith(")") and text.count(")") > text.count("("):
        text = text[:-1]
    return text


def _bounds(bound_by: list[str], lang: str) -> str:
    """The rules a proposed count was bound by, as a player names them (the clauses only)."""
    clauses = [_in_language(_clause(SEED.split(GAP.sub("", b), 1)[1]), lang) for b in bound_by if SEED.search(b)]
    clauses = [c for c in dict.fromkeys(clauses) if c]
    if not clauses:
        return ""
    return catalogue.text("missing.rules", lang, where="; ".join(clauses[:MAX_BOUNDS]))


def missing_entries(game: Game, lang: str, stated_only: bool = False, spares: int | None = None) -> list[Missing]:
    """Every entry of the game's list, component by component, in data order."""
    out: list[Missing] = []
    for line in ledger(game, stated_only, spares):
        out += _component_entries(game, line, lang)
    return out


def _component_entries(game: Game, line: ComponentLine, lang: str) -> list[Missing]:
    c = line.component
    cname = pick(c.name, lang, c.id)
    out: list[Missing] = []
    t = catalogue.text
    for i in line.items:
        name = pick(i.item.name, lang, i.item.id) if c.items else cname
        src = as_player_knows(i.item.source or c.source, lang)
        if i.placeholder and i.printed:
            placeholder = pick(i.item.attrs.get("no_text") or c.attrs.get("no_text"), lang)  # type: ignore[arg-type]
            out.append(Missing("placeholder", c.id, t("missing.placeholder", lang, name=name, line=placeholder,
                                                      n=i.printed), src))
        if i.count is None:
            out.append(Missing("unknown", c.id, t("missing.unknown", lang, name=name), src))
        elif i.unbounded:
            out.append(Missing("unbounded", c.id, t("missing.unbounded", lang, name=name, n=i.count), src))
    rest = sum(i.count or 0 for i in line.items if i.rest)
    if rest and line.stated is not None and line.described is not None:
        out.append(Missing("not-described", c.id, t("missing.not_described", lang, name=cname, stated=line.stated,
                                                     described=line.described, rest=rest,
                                                     printed=sum(i.printed for i in line.items if i.rest)),
                           as_player_knows(c.stated_total.source if c.stated_total else c.source, lang)))
    proposed = [i for i in line.items if i.proposed and not i.unbounded and not i.rest]
    if proposed:
        out.append(_proposed(game, line, proposed, lang))
    return out


def _proposed(game: Game, line: ComponentLine, proposed: list[ItemLine], lang: str) -> Missing:
    c = line.component
    file = proposals_of(game)
    bound_by = [b for p in (file.proposals if file else []) if p.component == c.id
                and any(p.item == i.item.id for i in proposed) for b in p.bound_by]
    items = ", ".join(f"{pick(i.item.name, lang, i.item.id)} {i.count}" for i in proposed) if c.items \
        else str(proposed[0].count)
    return Missing("proposed", c.id, catalogue.text("missing.proposed", lang, name=pick(c.name, lang, c.id), items=items),
                   _bounds(bound_by, lang))


def missing_lines(entries: list[Missing], lang: str) -> list[str]:
    """The list as lines of text, each entry with its source: missing-<lang>.txt, `pnp serve`'s page."""
    return [e.text + (" " + catalogue.text("missing.source", lang, source=e.source) if e.source else "") for e in entries]


def build_missing(game: Game, ctx: BuildContext) -> list[Path]:
    """The build stage: `missing-<lang>.pdf`, typeset as the rulebook is (its faces, its page),
    and the same list as `missing-<lang>.txt` (one entry a line), which `pnp serve`'s page shows."""
    from .output import write_bytes, write_text
    from .rulebook.inventory import missing_content
    from .rulebook.typeset import render

    lang = ctx.language(game.meta.source_language)
    out = ctx.out_dir(game.id)
    pdf, _ = render(missing_content(game, lang, ctx.stated_only, ctx.spares), "a4" if ctx.paper != "letter" else "letter")
    lines = missing_lines(missing_entries(game, lang, ctx.stated_only, ctx.spares), lang) \
        or [catalogue.text("missing.none", lang)]
    return [write_bytes(out / f"missing-{lang}.pdf", pdf), write_text(out / f"missing-{lang}.txt", "\n".join(lines) + "\n")]
