"""Translation QA: what is wrong with a translation of a game's rules, as checker findings.

Checks, each finding naming the clause (its printed number and id):
- `translation-missing`: a unit has no translation (error);
- `translation-stale`: the source changed since it was translated (error): the PO msgid differs from
  the clause text, or the entry is fuzzy with an older `#| msgid`;
- `translation-fuzzy`: marked fuzzy for another reason (warning);
- `translation-obsolete`: a translation of a unit that no longer exists (info);
- `translation-numbers`: numbers differ between source and translation, after NFKC, number words
  per language counted (en one, fr un/une, deux...) (warning);
- `cross-reference-dangling`: a reference (`(10.10)`, `11.5`, `[[id]]`, a piece's `{ref:id}`) names no clause (error);
- `reference-heading`: a reference that names its target by another heading than the target's own,
  "(11.5 Routed troops)" for 11.5 "Movement of routed troops" (warning; native numbering);
- `term-before-definition`: a glossary term with `defined_in` used in a clause printed before its
  definition where the translation lacks the term, so the book cannot cite the definition there
  (warning; where it has it, the book prints "trick (4.4)": terms.py); a `defined_in` naming no
  clause is `cross-reference-dangling`;
- `glossary-term`: a glossary term in the source whose agreed translation is not in the target (warning);
- `po-invalid`: `msgfmt --check` rejects the file (error);
- `objective-missing`: no section says how to win (`kind: objective`), so the book cannot open with it (warning);
- `heading-duplicate`: two clauses print the same heading, or a clause the heading of a chapter the book adds
  (Components, Glossary...), so a reader cannot tell which one a reference means (warning);
- `rules-clarification`: a question the source leaves open and the ruling the book prints for it (assumption,
  from `pnp check` only).
A translator silences the numbers check of one entry with a translator comment `# qa-ignore: numbers`
(the same for `glossary`), for sentences where a number is deliberately written another way.
"""
from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import display_path
from ..findings import CheckResult, Finding
from .cite import heading_mismatches, heading_of, piece_reference_findings
from .glossary import Entry, contains, terms_in
from .load import glossary_for, rules_of
from .model import NATIVE_ID, REF_MARKUP, RulesFile, clause_key
from .po import Catalog, load_catalog, po_path
from .terms import dangling_definitions, first_use_findings

if TYPE_CHECKING:
    import polib

    from ..game.loader import Game

NUMBER = re.compile(r"\d+(?:\.\d+)*")
# A dotted clause number standing alone: not part of a longer number, a decimal like 1.5倍 is not
# excluded (the wargame has none; a real one would show up as a dangling reference to fix by hand).
CLAUSE_REF = re.compile(r"(?<![\d.])(\d+(?:\.\d+)+)(?![\d.]|\d)")
NUMBER_WORDS = {
    "en": {w: str(i) for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split())}
    | {w: str(i) for i, w in enumerate("_ first second third fourth fifth sixth seventh eighth ninth tenth".split()) if i}
    | {"twice": "2"},
    # Japanese counts in kana; kanji numerals are left out (一 is also in 一族, 一緒).
    "ja": {"ひとつ": "1", "ふたつ": "2", "みっつ": "3", "よっつ": "4", "いつつ": "5"},
    "fr": {w: str(i) for i, w in enumerate(
        "zéro un deux trois quatre cinq six sept huit neuf dix onze douze".split())}
    | {w: str(i) for i, w in enumerate("_ premier deuxième troisième quatrième cinquième sixième septième "
                                       "huitième neuvième dixième".split()) if i}
    | {"une": "1", "première": "1", "second": "2", "seconde": "2", "double": "2"},
}
# Number words that are also articles or plain adjectives (French un/une "a", premier "first" of a
# sequence): they stand for a number the source states, but are never an extra number of their own.
WEAK_NUMBER_WORDS = {"fr": {"un", "une", "premier", "première", "second", "seconde", "double"}}


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def numbers_of(text: str, lang: str, *, weak: bool = True) -> Counter:
    """The numbers a text states, as strings after NFKC (①→1, １０．１０→10.10); in a language with
    number words, those count too (five players = 5 players, cinq joueurs, une carte = 1 card);
    `weak=False` leaves out the words that are also articles (WEAK_NUMBER_WORDS). [[refs]] are not
    numbers of the text."""
    plain = REF_MARKUP.sub(" ", nfkc(text))
    found = Counter(NUMBER.findall(plain))
    base = lang.split("-")[0]
    words = NUMBER_WORDS.get(base, {})
    if base == "ja":
        for w, n in words.items():
            found[n] += plain.count(w)
    else:
        skip = set() if weak else WEAK_NUMBER_WORDS.get(base, set())
        for w in re.findall(r"[^\W\d_]+", plain):
            number = words.get(w.lower())
            if number is not None and w.lower() not in skip:
                found[number] += 1
    return +found


def without_numbered_terms(text: str, terms: list[Entry], lang: str, target_lang: str) -> str:
    """`text` minus glossary terms whose number the agreed translation drops (1番手 -> lead player),
    so the numbers check does not ask the translator to break the glossary."""
    for g in terms:
        src = g.term.forms().get(lang, "")
        if NUMBER.search(nfkc(src)) and not any(NUMBER.search(nfkc(w)) for w in g.term.accepted(target_lang)):
            text = text.replace(src, " ")
    return text


def references_of(text: str, numbering: str, quantities: list[str] | tuple[str, ...] = ()) -> list[str]:
    """Clause references in a text: [[id]] always; dotted numbers when clause ids are numbers,
    except those the clause lists as quantities."""
    refs = REF_MARKUP.findall(text)
    if numbering == "native":
        refs += [r for r in CLAUSE_REF.findall(REF_MARKUP.sub(" ", nfkc(text))) if r not in quantities]
    return refs


def _exists(ref: str, rules: RulesFile, ids: set[str], keys: set[tuple[int, ...]]) -> bool:
    if ref in ids:
        return True
    return rules.numbering == "native" and bool(NATIVE_ID.match(ref)) and clause_key(ref) in keys


def source_findings(rules: RulesFile, game: Game) -> list[Finding]:
    """What is wrong with the source clauses themselves: no objective, dangling cross-references."""
    ids = {p.clause.id for p in rules.walk()}
    keys = {clause_key(i) for i in ids if NATIVE_ID.match(i)}
    out = []
    if rules.objective_id() is None:
        out.append(Finding("warning", "objective-missing",
                           "no section says how to win, so the rulebook cannot open with it; give the section "
                           "that does `kind: objective` (or write one from the source's words, citing them in "
                           "`drawn_from`)", game.where("rules/clauses.yaml", ("sections",))))
    out += duplicate_headings(rules, {p.clause.id: p.clause.title for p in rules.walk() if p.clause.title},
                              lambda p: game.where("rules/clauses.yaml", p.loc + ("title",)), "")
    headings = {p.number: heading_of(p.clause.title, p.clause.text) for p in rules.walk()} \
        if rules.numbering == "native" else {}
    for placed in rules.walk():
        where = game.where("rules/clauses.yaml", placed.loc)
        for ctx, text in placed.clause.parts():
            out += [_heading_finding(f"clause {placed.number} ({ctx}): the source", m, where)
                    for m in heading_mismatches(text, headings)]
            for ref in references_of(text, rules.numbering, placed.clause.quantities):
                if not _exists(ref, rules, ids, keys):
                    hint = (f"; if {ref} is a value, not a reference, list it under the clause's `quantities`"
                            if rules.numbering == "native" and "[" not in ref else "")
                    out.append(Finding("error", "cross-reference-dangling",
                                       f"clause {placed.number} ({ctx}): the source refers to {ref}, which is no "
                                       f"clause; fix the number or add the clause{hint}", where))
    return out + dangling_definitions(rules, glossary_for(game))


def translation_findings(rules: RulesFile, catalog: Catalog, lang: str, glossary: list[Entry],
                         po_file: Path) -> list[Finding]:
    """Every finding of one translation: per unit its state (missing, stale, fuzzy), then for a
    current translation its numbers, references and glossary terms; then obsolete entries and msgfmt."""
    shown = display_path(po_file)
    ids = {p.clause.id for p in rules.walk()}
    keys = {clause_key(i) for i in ids if NATIVE_ID.match(i)}
    numbers = rules.numbers()
    if catalog.po is None:
        return [Finding("error", "translation-missing",
                        f"no {lang} translation: {shown} does not exist; create it with "
                        f"`pnp rules po GAME --lang {lang}` and translate every entry", shown)]
    units = rules.units()
    quantities = {p.clause.id: p.clause.quantities for p in rules.walk()}
    headings = _translated_headings(rules, catalog)
    out: list[Finding] = []
    for ctx, source in units:
        cid = ctx.split("#")[0]
        name = f"clause {numbers[cid]} ({ctx})"
        e = catalog.by_ctx.get(ctx)
        here = f"{shown}:{e.linenum}" if e is not None else shown
        if e is None or not e.msgstr:
            out.append(Finding("error", "translation-missing", f"{name}: not translated; add its msgstr to {shown}", here))
            continue
        unit = _Unit(name, here, source, e.msgstr)
        state = _out_of_date(unit, e)
        if state is not None:
            out.append(state)
            continue
        ignored = {w.strip() for s in re.findall(r"qa-ignore:\s*([a-z, ]+)", e.tcomment or "") for w in s.split(",")}
        # the source's glossary terms, looked up once for both checks (each of ~1400 units a build)
        terms = terms_in(source, glossary, rules.language) if {"numbers", "glossary"} - ignored else []
        if "numbers" not in ignored:
            out += _number_findings(unit, glossary, rules.language, lang, terms)
        out += _reference_findings(unit, rules, ids, keys, quantities.get(cid, ()))
        out += [_heading_finding(f"{unit.name}: the translation", m, unit.here)
                for m in heading_mismatches(unit.target, headings)]
        if "glossary" not in ignored:
            out += _glossary_findings(unit, glossary, rules.language, lang, terms)
    titles = {ctx.split("#")[0]: t for ctx, source in units if ctx.endswith("#title")
              and (t := catalog.get(ctx, source).text)}
    out += duplicate_headings(rules, titles, lambda p: f"{shown}:{catalog.by_ctx[p.clause.id + '#title'].linenum}",
                              lang)
    live = {ctx for ctx, _ in units}
    for e in catalog.po:
        if e.msgctxt and e.msgctxt not in live and e.msgstr:
            out.append(Finding("info", "translation-obsolete",
                               f"{e.msgctxt}: translated but no longer in the rules; remove it or restore the clause",
                               f"{shown}:{e.linenum}"))
    out += first_use_findings(rules, catalog, glossary, lang, shown)
    out += msgfmt_findings(po_file)
    return out


@dataclass(frozen=True)
class _Unit:
    """One translated unit under check: the clause as findings name it, where its PO entry is,
    the source text and the translation."""
    name: str
    here: str
    source: str
    target: str


def _out_of_date(unit: _Unit, e: polib.POEntry) -> Finding | None:
    """Stale (the source changed since it was translated) or fuzzy; None for a current translation."""
    if e.msgid != unit.source:
        return Finding("error", "translation-stale", f"{unit.name}: the source changed since it was translated; "
                       "run `pnp rules po` and revise the fuzzy entry", unit.here)
    if "fuzzy" not in e.flags:
        return None
    if e.previous_msgid and e.previous_msgid != e.msgid:
        return Finding("error", "translation-stale", f"{unit.name}: the source changed since it was translated "
                       "(see #| msgid); revise the translation and remove the fuzzy flag", unit.here)
    return Finding("warning", "translation-fuzzy",
                   f"{unit.name}: the translation is marked fuzzy; review it and remove the flag", unit.here)


def _number_findings(unit: _Unit, glossary: list[Entry], source_lang: str, lang: str,
                     src_terms: list[Entry] | None = None) -> list[Finding]:
    """Numbers of the source (numbered glossary terms aside) missing from the translation, or added;
    `src_terms`: the source's glossary terms where the caller has them (else looked up)."""
    if src_terms is None:
        src_terms = terms_in(unit.source, glossary, source_lang)
    src_n = numbers_of(without_numbered_terms(unit.source, src_terms, source_lang, lang), source_lang)
    dst_n = numbers_of(unit.target, lang)
    lost = sorted(set(src_n) - set(dst_n), key=_num_key)
    added = sorted(set(numbers_of(unit.target, lang, weak=False)) - set(src_n), key=_num_key)
    if not (lost or added):
        return []
    parts = ([f"missing {', '.join(lost)}"] if lost else []) + ([f"extra {', '.join(added)}"] if added else [])
    return [Finding("warning", "translation-numbers", f"{unit.name}: numbers differ from the source "
                    f"({'; '.join(parts)}); fix the translation or add `# qa-ignore: numbers`", unit.here)]


def _reference_findings(unit: _Unit, rules: RulesFile, ids: set[str], keys: set[tuple[int, ...]],
                        quantities: list[str] | tuple[str, ...]) -> list[Finding]:
    """References in the translation that name no clause, and [[id]] references it lost."""
    out: list[Finding] = []
    for ref in references_of(unit.target, rules.numbering, quantities):
        if not _exists(ref, rules, ids, keys):
            out.append(Finding("error", "cross-reference-dangling",
                               f"{unit.name}: the translation refers to {ref}, which is no clause; fix the reference",
                               unit.here))
    for ref in sorted(set(REF_MARKUP.findall(unit.source))):
        if f"[[{ref}]]" not in unit.target:
            out.append(Finding("error", "cross-reference-dangling",
                               f"{unit.name}: the translation lost the reference [[{ref}]]; keep it as written", unit.here))
    return out


def _glossary_findings(unit: _Unit, glossary: list[Entry], source_lang: str, lang: str,
                       src_terms: list[Entry] | None = None) -> list[Finding]:
    """Glossary terms of the source whose agreed translation the target lacks (`src_terms`: as
    `_number_findings` takes them)."""
    out: list[Finding] = []
    for g in terms_in(unit.source, glossary, source_lang) if src_terms is None else src_terms:
        want = g.term.accepted(lang)
        if want and not any(contains(unit.target, w) for w in want):
            out.append(Finding("warning", "glossary-term",
                               f"{unit.name}: the source says {g.term.forms()[source_lang]}, but the translation "
                               f"lacks the agreed {lang} term {want[0]!r} ({g.origin})", unit.here))
    return out


def _translated_headings(rules: RulesFile, catalog: Catalog) -> dict[str, str]:
    """Clause number -> its heading in the translation (native numbering; the title, else the run-in term)."""
    if rules.numbering != "native":
        return {}
    out = {}
    for p in rules.walk():
        c = p.clause
        title = catalog.get(f"{c.id}#title", c.title).text if c.title else None
        out[p.number] = heading_of(title, catalog.get(c.id, c.text).text if c.text else None)
    return out


def _heading_finding(who: str, mismatch: tuple[str, str, str], where: str) -> Finding:
    number, written, target = mismatch
    return Finding("warning", "reference-heading", f"{who} cites {number} as {written!r}, but {number}'s heading "
                   f"is {target!r}; write the heading as the clause has it", where)


def _num_key(n: str) -> tuple[int, ...]:
    return clause_key(n)


def msgfmt_findings(po_file: Path) -> list[Finding]:
    """`msgfmt --check` where gettext is installed (Debian's gettext package); silent otherwise."""
    msgfmt = shutil.which("msgfmt")
    if not msgfmt or not po_file.is_file():
        return []
    run = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(po_file)], capture_output=True, text=True)
    if run.returncode == 0:
        return []
    lines = [ln for ln in run.stderr.splitlines() if ln.strip() and "fatal error" not in ln]
    return [Finding("error", "po-invalid", f"msgfmt --check: {ln.strip()}", display_path(po_file)) for ln in lines[:20]] or \
        [Finding("error", "po-invalid", "msgfmt --check rejects the file", display_path(po_file))]


def duplicate_headings(rules: RulesFile, titles: dict[str, str], where, lang: str) -> list[Finding]:
    """Two clauses whose headings print the same (after NFKC and case folding): a reader told
    "see Power plays" cannot know which one is meant."""
    first: dict[str, str] = {}
    numbers = rules.numbers()
    out = []
    for placed in rules.walk():
        title = titles.get(placed.clause.id)
        if not title:
            continue
        key = nfkc(title).casefold().strip()
        if key in first:
            what = f"the {lang} heading" if lang else "the heading"
            out.append(Finding("warning", "heading-duplicate",
                               f"clause {placed.number}: {what} {title!r} is also clause {numbers[first[key]]}'s; "
                               "give each clause its own heading", where(placed)))
        first.setdefault(key, placed.clause.id)
    return out


def clarification_findings(rules: RulesFile, game: Game) -> list[Finding]:
    """Every clarification (a question the source leaves open, and our ruling) as an assumption."""
    out = []
    for placed in rules.walk():
        for i, cl in enumerate(placed.clause.clarifications):
            out.append(Finding("assumption", "rules-clarification",
                               f"clause {placed.number} ({placed.clause.id}#ruling-{i + 1}): {cl.open} → {cl.ruling}",
                               game.where("rules/clauses.yaml", placed.loc + ("clarifications", i))))
    return out


def check_translation(game: Game, lang: str) -> list[Finding]:
    """Every finding for one target language of a game (the `pnp rules check` view)."""
    rules = rules_of(game)
    if rules is None:
        return []
    findings = source_findings(rules, game)
    if lang != rules.language:
        findings += translation_findings(rules, load_catalog(game.folder, lang), lang,
                                         glossary_for(game), po_path(game.folder, lang))
    return findings


DRAFT_CODES = {"translation-missing", "translation-stale"}  # what a draft lacks: to do, not wrong


def as_draft(findings: list[Finding], lang: str) -> list[Finding]:
    """The findings of a draft translation (game.yaml `drafts`, `--draft`): its missing and stale
    units are warnings, since its books print the source there and say they are drafts."""
    return [dataclasses.replace(f, severity="warning", message=f"{f.message} ({lang} is a draft)")
            if f.severity == "error" and f.code in DRAFT_CODES else f for f in findings]


def check_rules(game: Game) -> CheckResult:
    """The CHECKS entry: the source's references, and every translation the game folder has.

    A target language without a PO file yet is an info finding here (translations arrive game by
    game); `pnp rules check GAME --lang xx` treats it as missing."""

    rules = rules_of(game)
    result = CheckResult()
    if rules is None:
        return result
    result.findings += source_findings(rules, game) + clarification_findings(rules, game) \
        + piece_reference_findings(rules, game)
    for lang in game.meta.languages:
        if lang == rules.language:
            continue
        path = po_path(game.folder, lang)
        if not path.is_file() and lang in game.meta.drafts:
            result.findings.append(Finding("warning", "translation-missing",
                                           f"{lang} is a draft with no rules translation yet: its books print the "
                                           f"source; create {display_path(path)} with `pnp rules po GAME --lang {lang}`",
                                           display_path(path)))
        elif not path.is_file():
            result.findings.append(Finding("info", "translation-none",
                                           f"the rules have no {lang} translation yet ({display_path(path)})",
                                           display_path(path)))
            continue
        found = translation_findings(rules, load_catalog(game.folder, lang), lang, glossary_for(game), path)
        result.findings += as_draft(found, lang) if lang in game.meta.drafts else found
    units = len(rules.units())
    result.derived["rules"] = {"clauses": sum(1 for _ in rules.walk()), "translation_units": units}
    return result
