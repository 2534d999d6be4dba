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
from solver.game.objmemo import kept_for
from solver.rules.cite import Citations
from solver.rules.load import rules_of
from solver.rules.po import po_on_disk

from . import catalogue
from .context import BuildContext
from .gcpause import fewer_collections

SEED = re.compile(r"\bseed \d+,\s*")
GAP = re.compile(r"\s*[;,]?\s*\(?(?:see )?gap [a-z0-9-]+\)?")
MAX_BOUNDS = 3  # rules named per proposed component


@dataclass(frozen=True)
class Missing:
    kind: str  # placeholder | not-described | unknown | proposed | unbounded
    component: str  # component id
    text: str  # the sentence, in the list's language
    source: str  # where the rules speak of it, as a player knows it ("" when they do not)


class Names:
    """How a list in one language names the places of the rules a data `source:` points at.

    A source given by number ("seed 004, 18.5 (...)") keeps its number. One given only by the
    source's headings ("seed 000, 『インスト』(2)") is named by the clause of this game's rules
    whose heading it quotes, as the printed book numbers and titles it in the list's language
    ("3 Setup"), the most specific one it quotes winning; what the book does not carry (the source's
    own item numbers, the source's Japanese words) is left out of a list in a language without kana."""

    def __init__(self, game: Game, lang: str):
        self.lang = lang
        rules = rules_of(game)
        self._titles: list[tuple[int, int, str, str]] = []  # (depth, length, source heading, printed name)
        if rules is None or lang == rules.language:
            return
        cite = Citations(game, rules)
        for placed in rules.walk():
            title = placed.clause.title
            if title and CJK.search(title):
                name = " ".join(x for x in (placed.number, cite.heading(placed.clause.id, lang)) if x)
                self._titles.append((placed.depth, len(title), title, name))
        self._titles.sort(key=lambda t: (-t[0], -t[1]))

    def clause(self, text: str) -> str:
        """One place in the rules, as a list in this language can print it ("" when nothing is left)."""
        if self.lang in ("ja", "zh", "ko") or not CJK.search(text):
            return text
        if not NUMBERED.search(text):
            unquoted = QUOTED.sub("", text)
            named = next((name for _, _, title, name in self._titles if title in unquoted), None)
            if named:
                return named
        kept = re.sub(r"\([^()]*\)", lambda m: "" if CJK.search(m.group(0)) else m.group(0), text)
        kept = " ".join(w for w in re.split(r"\s+", kept) if not CJK.search(w)).strip(" ;,/")
        return re.sub(r"\s+,", ",", kept)

    def source(self, source: str | None) -> str:
        """A data `source:` as a player names it: "seed 004, 18.5 (...) (gap x)" -> "rules 18.5 (...)"."""
        if not source:
            return ""
        text = GAP.sub("", source).strip(" ;,")
        if not SEED.search(text):
            return self.clause(text)
        return self.rules([self.clause(_clause(p)) for p in SEED.split(text) if p.strip(" ;,")])

    def bounds(self, bound_by: list[str]) -> str:
        """The rules a proposed count was bound by, as a player names them (the clauses only)."""
        return self.rules([self.clause(_clause(SEED.split(GAP.sub("", b), 1)[1])) for b in bound_by
                           if SEED.search(b)], MAX_BOUNDS)

    def rules(self, places: list[str], most: int | None = None) -> str:
        """"rules 3 Setup; 7.17 Two-player game", each place once ("" for none): "18.5; 18.5, 2.1.2" is
        "18.5; 2.1.2"."""
        flat = [q for p in places for q in (re.split(r"\s*,\s*", p) if NUMBERS_ONLY.match(p) else [p])]
        seen = [p for p in dict.fromkeys(flat) if p]
        return catalogue.text("missing.rules", self.lang, where="; ".join(seen[:most])) if seen else ""


CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
NUMBERED = re.compile(r"\d+\.\d|^\s*\d+\b")  # a clause number the book prints as the source does
NUMBERS_ONLY = re.compile(r"^[\d.\-–~, ]+$")  # "18.5, 2.1.2": a list of clause numbers and ranges
QUOTED = re.compile(r"「[^」]*」|“[^”]*”|\"[^\"]*\"")  # the source's words, quoted: not a heading


def _clause(text: str) -> str:
    """The clause a source names, without the quotation that follows it ("準備: 4個を…" -> "準備")."""
    return _balanced(re.split(r"[:;：]", text.strip(" ;,"), maxsplit=1)[0].strip(" ;,"))


def _balanced(text: str) -> str:
    """Drops the closing brackets of an enclosing phrase that the cut left behind."""
    while text.endswith(")") and text.count(")") > text.count("("):
        text = text[:-1]
    return text


def missing_entries(game: Game, lang: str, stated_only: bool = False, spares: int | None = None) -> list[Missing]:
    """Every entry of the game's list, component by component, in data order. Worked out once per
    game object and text of the rulebook's translation, whose headings name the places of the rules
    (solver/game/objmemo.py): the list's PDF and text, and each rulebook, ask."""
    key = ("missing entries", lang, stated_only, spares, po_on_disk(game.folder, lang))
    return list(kept_for(game, key, lambda: tuple(_entries(game, lang, stated_only, spares))))


def _entries(game: Game, lang: str, stated_only: bool, spares: int | None) -> list[Missing]:
    out: list[Missing] = []
    names = Names(game, lang)
    for line in ledger(game, stated_only, spares):
        out += _component_entries(game, line, names)
    return out


def _component_entries(game: Game, line: ComponentLine, names: Names) -> list[Missing]:
    c, lang = line.component, names.lang
    cname = pick(c.name, lang, c.id)
    out: list[Missing] = []
    t = catalogue.text
    for i in line.items:
        name = pick(i.item.name, lang, i.item.id) if c.items else cname
        src = names.source(i.item.source or c.source)
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
                           names.source(c.stated_total.source if c.stated_total else c.source)))
    proposed = [i for i in line.items if i.proposed and not i.unbounded and not i.rest]
    if proposed:
        out.append(_proposed(game, line, proposed, names))
    return out


def _proposed(game: Game, line: ComponentLine, proposed: list[ItemLine], names: Names) -> Missing:
    c, lang = line.component, names.lang
    file = proposals_of(game)
    bound_by = [b for p in (file.proposals if file else []) if p.component == c.id
                and any(p.item == i.item.id for i in proposed) for b in p.bound_by]
    items = ", ".join(f"{pick(i.item.name, lang, i.item.id)} {i.count}" for i in proposed) if c.items \
        else str(proposed[0].count)
    return Missing("proposed", c.id, catalogue.text("missing.proposed", lang, name=pick(c.name, lang, c.id), items=items),
                   names.bounds(bound_by))


def missing_lines(entries: list[Missing], lang: str) -> list[str]:
    """The list as lines of text, each entry with its source: missing-<lang>.txt, `pnp serve`'s page."""
    return [e.text + (" " + catalogue.text("missing.source", lang, source=e.source) if e.source else "") for e in entries]


@fewer_collections()
def build_missing(game: Game, ctx: BuildContext) -> list[Path]:
    """The build stage: `missing-<lang>.pdf`, a leaflet typeset as the rulebook is (its faces, its page),
    and the same list as `missing-<lang>.txt` (one entry a line), which `pnp serve`'s page shows."""
    from .output import write_bytes, write_text
    from .rulebook.inventory import missing_content
    from .rulebook.typeset import render

    lang = ctx.language(game.meta.source_language)
    out = ctx.out_dir(game.id)
    pdf, _ = render(missing_content(game, lang, ctx.stated_only, ctx.spares), "a4" if ctx.paper != "letter" else "letter",
                    leaflet=True, lines=False)
    lines = missing_lines(missing_entries(game, lang, ctx.stated_only, ctx.spares), lang) \
        or [catalogue.text("missing.none", lang)]
    return [write_bytes(out / f"missing-{lang}.pdf", pdf), write_text(out / f"missing-{lang}.txt", "\n".join(lines) + "\n")]
