"""The program's own printed words, in every language it prints: a gettext domain of its own.

Everything a player reads comes from the game's data (names, card texts, map names, legends)
or from here: the rulebook's headings and table labels, the duplex calibration page, the map's
assembly page and tile headers, the map legend's heading. Each word is an entry of the domain
`pnp`: its msgctxt a key grouped by where it prints (`rulebook.`, `calibration.`, `tiles.`,
`map.`), its msgid the English text below (English is the catalogue's source language), a
str.format template whose {names} a translation keeps.

- generator/locale/pnp.pot: the template, made from GROUPS (`pnp catalogue pot` regenerates it;
  tests/test_catalogue.py keeps it equal to the code);
- generator/locale/<lang>.po: one per language (ja, fr), read at run time with polib; a PO file in
  the folder the environment variable PNP_LOCALE names comes first, so a translator adds a
  language to an installed pnp without touching its files (`pnp catalogue po --lang xx` creates or
  updates one, like msgmerge);
- `pnp rules check GAME --lang xx` reports the entries a language lacks (`findings`), like a game's.

An entry counts as translated when its msgstr is not empty, not fuzzy, made from the current
msgid and keeps the msgid's {names}. A language a game is built in must have every entry
(generator/languages.py counts the missing ones and skips the language with one warning, unless
it is a draft), so a translated face never falls back to another language. `text` itself falls
back to English, set with English punctuation, for drafts (`lang_of` says which language a word
came in).
"""
from __future__ import annotations

import os
import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any

import polib

from solver.errors import display_path
from solver.findings import Finding
from solver.rules.po import Catalog, po_metadata, read_po

from .text.typography import typeset

SOURCE = "en"  # the language of the msgids
LOCALE = Path(__file__).parent / "locale"
DOMAIN = "pnp"

# (where the words print, {key: English text}): the POT's `#.` comment and entries, in this order.
GROUPS: list[tuple[str, dict[str, str]]] = [
    ('rulebook (generator/rulebook/)', {
        "rulebook.contents": "Contents",
        "rulebook.components": "Components",
        "rulebook.component": "Component",
        "rulebook.count": "Count",
        "rulebook.proposed_note": "* The original rules give no number here: this edition chose one with which every rule holds.",
        "rulebook.setup_table": "Setup by player count",
        "rulebook.setup_table_intro": "What each number of players uses, deals and puts back in the box, counted from the rules.",
        "rulebook.players_col": "Players",
        "rulebook.n_players": "{n}",
        "rulebook.row_in_play": "{name} in play",
        "rulebook.row_returned": "{name} back in the box",
        "rulebook.row_dealt": "{name} dealt",
        "rulebook.row_dealt_to": "{name} dealt to {side}",
        "rulebook.row_chosen": "{name} chosen by {side}",
        "rulebook.row_hand": "Hand size",
        "rulebook.row_draw_pile": "Draw pile",
        "rulebook.glossary": "Glossary",
        "rulebook.note": "Note",
        "rulebook.note_mark": "Note:",
        "rulebook.bullet": "•",
        "rulebook.example_mark": "Example:",
        "rulebook.from_mark": "Source:",
        "rulebook.clarification_mark": "◆ Clarification:",
        "rulebook.ruling_mark": "Ruling:",
        "rulebook.clarifications": "Clarifications",
        "rulebook.clarifications_intro": "Situations the original rules leave open, and how to play them. These rulings are not the original rules' words: this edition adds them. Each is also printed beside its clause, marked ◆ Clarification.",
        "rulebook.clause": "Rule",
        "rulebook.left_open": "What the original rules leave open",
        "rulebook.ruling": "How to play it",
        "rulebook.players": "{lo}–{hi} players",
        "rulebook.players1": "{n} players",
        "rulebook.minutes": "{lo}–{hi} minutes",
        "rulebook.minutes1": "about {n} minutes",
        "rulebook.age": "ages {n}+",
        "rulebook.designer": "Design:",
        "rulebook.publisher": "Published by:",
        "rulebook.rulebook": "Rulebook",
        "rulebook.page": "{n}",
        "rulebook.untranslated": "Untranslated entries are shown in the source language.",
        "rulebook.draft": "Translation draft: what is not translated yet is shown in the source language.",
        "rulebook.draft_mark": "DRAFT",
        "rulebook.colophon": "Typeset from the game's data by pnp-forge.",
    }),
    ("what the sources do not give (generator/missing.py: the rulebook's list, missing-<lang>.pdf, pnp serve)", {
        "missing.title": "What the sources do not give",
        "missing.intro": "The texts this game was made from do not give what follows: check it against the published game, or make it yourself, before you play.",
        "missing.none": "Nothing: the sources give every piece, count and text.",
        "missing.leaflet_title": "{title}: what the sources do not give",
        "missing.rules": "rules {where}",
        "missing.source": "({source})",
        "missing.placeholder": "{name}: the rules do not give its text; it prints “{line}” ({n} printed).",
        "missing.unknown": "{name}: no count in the rules and none proposed, so it is not printed.",
        "missing.unbounded": "{name}: the rules give no count and none bounds it: make as many as play needs (the proposal, {n}, is only the least).",
        "missing.not_described": "{name}: the rules describe {described} of the {stated}; the other {rest} are unknown and are not printed ({printed} blank spares).",
        "missing.proposed": "{name}: counts the rules do not state, proposed so that every rule holds: {items}.",
        "missing.unbounded_note": "? no count in the sources and no rule bounds one (see What the sources do not give).",
        "missing.described_row": "of which the rules describe (printed: {printed})",
        "missing.rest_row": "{name} (not printed)",
    }),
    ("how to print (generator/rulebook/guide.py): the book's last section and print-guide-<lang>.pdf", {
        "rulebook.guide": "How to print",
        "rulebook.guide_title": "{title}: how to print",
        "rulebook.guide_scale": "Print the sheets on {paper} paper at 100% scale (“actual size”), never “fit to page”: every piece is drawn to its exact size.",
        "rulebook.guide_duplex": "Card and counter sheets are a page of fronts followed by a page of their backs: print them on both sides, flipping on the {flip}. Print {calibration} first: held against the light, it shows whether your printer shifts the back side.",
        "rulebook.guide_stock": "Paper: card stock of 200–300 g/m² (the heaviest your printer takes) for cards and counters; plain paper for this book and the map tiles.",
        "rulebook.guide_cut": "Cutting: cut along the crop marks, first the long cuts across the whole sheet, then the short ones. Each piece’s colour runs {bleed} mm past its cut line, so a cut slightly off leaves no white edge.",
        "rulebook.guide_map": "The map “{name}”: {file} is the whole map on one {size} sheet, for a copy shop or a large-format printer. {tiles} prints it on {n} {paper} sheets ({rows} rows of {cols}): trim each sheet at its dashed line, lay its cut edge on the black guide line of the sheet beneath, and glue; its first page shows the order.",
        "rulebook.guide_map_whole": "The map “{name}”: {file} is the whole map on one {size} sheet.",
        "rulebook.guide_book": "This book: {rulebook} is for {paper} paper; {booklet} is the same book as an A5 booklet: print it on both sides (flip on the {flip}), fold the stack of sheets in half and staple along the fold.",
    }),
    ("names of languages (the glossary's column heads)", {
        "language.ja": "Japanese",
        "language.en": "English",
        "language.fr": "French",
        "language.de": "German",
        "language.es": "Spanish",
        "language.it": "Italian",
        "language.nl": "Dutch",
        "language.pt": "Portuguese",
        "language.zh": "Chinese",
        "language.ko": "Korean",
    }),
    ('why a component is not printed (manifest.json `left_out`; generator/coverage.py)', {
        "left_out.print_as_none": "{name}: not printed (print_as: none in layouts.yaml).",
        "left_out.standard_die": "{name}: a standard six-sided die; use any.",
        "left_out.not_paper": "{name}: not a paper piece; use one of your own.",
        "left_out.no_map": "{name}: no map.yaml describes it.",
        "left_out.no_rules": "{name}: the game has no rules/clauses.yaml.",
        "left_out.count_unknown": "{name}: count unknown (the sources state none and proposed.yaml proposes none).",
        "left_out.skipped": "{name}: layouts.yaml skips every item.",
    }),
    ("a clause a piece's text cites with {ref:clause-id} (generator/cards/face.py)", {
        "pieces.clause_ref": "{number} \"{heading}\"",
        "pieces.clause_ref_untitled": "{number}",
    }),
    ("a translation draft's sheets of pieces, in their margin (generator/pieces/draft.py)", {
        "pieces.draft": "Translation draft ({code}): untranslated text in {source}.",
    }),
    ('the duplex calibration page (generator/cards/calibration.py)', {
        "calibration.title": "Duplex calibration (front)",
        "calibration.print": "Print both sides with flip: {flip}, scale 100% (“actual size”, not “fit to page”).",
        "calibration.flip.long": "long edge",
        "calibration.flip.short": "short edge",
        "calibration.hold": "Hold the sheet against the light: where the cross meets each ruler of",
        "calibration.add": "the back is how far your printer shifts the back side, in mm.",
        "calibration.build": "Over 1 mm? Correct it in your printer's settings (“back side position”) and print again.",
        "calibration.axes": "No such setting? Backs bleed past the cut, so a shift of 1–2 mm hardly shows.",
        "calibration.rulers": "x: horizontal ruler, y: vertical ruler (mm, back side)",
        "calibration.pdf_title": "Duplex calibration",
    }),
    ('the map tiled on small paper (generator/hexmap/tiles.py)', {
        "tiles.head": "Sheet {n} of {total}  (row {row}, column {col})  overlap {overlap:g} mm",
        "tiles.sheet": "Sheet {n}",
        "tiles.assembly": "Assembly: {title}",
        "tiles.count": "{n} sheets ({rows} rows x {cols} columns); neighbours overlap by {overlap:g} mm.",
        "tiles.step1": "1. Trim each sheet's top and left margin at the dashed line (keep the top of row 1 and the left of column 1).",
        "tiles.step2": "2. Starting at sheet 1, in number order, lay each sheet over its left and upper neighbour.",
        "tiles.step3": "3. Lay each cut edge on the black guide line in the strip beneath it; the strip shows the number of the sheet beneath and is hidden once glued.",
    }),
    ('the map (generator/hexmap/draw.py)', {
        "map.legend": "Legend",
        "map.river.minor": "minor river",
        "map.river.major": "major river",
        "map.river_dot": "river dot",
        "map.road": "road",
        "map.crossing.crossing": "crossing",
        "map.crossing.bridge": "bridge",
        "map.crossing.ford": "ford",
        "map.edge.north": "→ north edge",
        "map.edge.south": "→ south edge",
        "map.edge.east": "→ east edge",
        "map.edge.west": "→ west edge",
        "map.place_of_side": "{kind} ({side})",
    }),
]
MESSAGES: dict[str, str] = {key: msg for _, group in GROUPS for key, msg in group.items()}
WHERE: dict[str, str] = {key: where for where, group in GROUPS for key in group}


def locale_dirs() -> list[Path]:
    """Where PO files are looked for: PNP_LOCALE's folder first, then the package's."""
    extra = os.environ.get("PNP_LOCALE")
    return ([Path(extra)] if extra else []) + [LOCALE]


def po_file(lang: str) -> Path | None:
    """The PO file of `lang` (or of its base language, `fr` for `fr-CA`), None if there is none."""
    for code in dict.fromkeys((lang, lang.split("-")[0])):
        for folder in locale_dirs():
            if (folder / f"{code}.po").is_file():
                return folder / f"{code}.po"
    return None


@lru_cache(maxsize=32)
def _catalog_at(path: str, _stamp: int) -> Catalog:
    return Catalog(read_po(Path(path)), Path(path))


def catalog(lang: str) -> Catalog | None:
    path = po_file(lang)
    return None if path is None else _catalog_at(str(path), path.stat().st_mtime_ns)


def _names(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def _usable(key: str, msgstr: str | None) -> bool:
    """A translation that fills in: its {names} are the msgid's (a typo would break the build)."""
    if not msgstr:
        return False
    try:
        return _names(msgstr) == _names(MESSAGES[key])
    except ValueError:  # an unmatched { or }
        return False


def lookup(key: str, lang: str) -> tuple[str, str]:
    """(template, the language it is in): `lang`'s translation, else the English msgid."""
    if lang.split("-")[0] != SOURCE:
        cat = catalog(lang)
        if cat is not None:
            tr = cat.get(key, MESSAGES[key]).text
            if _usable(key, tr):
                return str(tr), lang
    return MESSAGES[key], SOURCE


def text(key: str, lang: str, **kw: Any) -> str:
    """The word `key` in `lang` (English, set as English, when `lang` lacks it), filled with `kw`:
    the message with its language's printed punctuation (quotes, apostrophes, dashes:
    typography.py), the values (numbers, names, file names) as given."""
    template, own = lookup(key, lang)
    fields = [(m.start(), m.end()) for m in _FIELD.finditer(template)]  # {overlap:g} is no French colon
    return typeset(template, own, fields).format(**kw)


_FIELD = re.compile(r"\{[^{}]*\}")


def lang_of(key: str, lang: str) -> str:
    """The language `text(key, lang)` comes in: `lang`, or English where `lang` lacks the word."""
    return lookup(key, lang)[1]


def missing(lang: str) -> list[str]:
    """The keys without a usable `lang` translation."""
    return [k for k in MESSAGES if lang_of(k, lang) != lang and lang.split("-")[0] != SOURCE]


def languages() -> list[str]:
    """English, then every language with a PO file, in code order."""
    found = {p.stem for folder in locale_dirs() if folder.is_dir() for p in folder.glob("*.po")}
    return [SOURCE] + sorted(found - {SOURCE})


def template() -> polib.POFile:
    """The POT: every word with where it prints, in GROUPS order."""
    pot = polib.POFile(wrapwidth=0)
    pot.header = ("The program's own printed words (pnp-forge), generated from generator/catalogue.py.\n"
                  "Regenerate with `pnp catalogue pot`; start a language with `pnp catalogue po --lang xx`.")
    pot.metadata = po_metadata("pnp-forge", "")
    for key, msg in MESSAGES.items():
        flags = ["python-brace-format"] if _names(msg) else []
        pot.append(polib.POEntry(msgctxt=key, msgid=msg, msgstr="", comment=WHERE[key], flags=flags))
    return pot


def merged(lang: str, old: polib.POFile | None) -> polib.POFile:
    """`lang`'s PO file with exactly the template's entries, keeping every translation (one whose
    English changed becomes fuzzy, with the old English as `#| msgid`), like msgmerge."""
    prev = Catalog(old)
    po = template()
    po.header = (f"The program's own printed words in {lang} (pnp-forge); each msgid is generator/catalogue.py's English.\n"
                 f"Update with `pnp catalogue po --lang {lang}`; check with `pnp rules check GAME --lang {lang}`.")
    po.metadata = po_metadata("pnp-forge", lang)
    for e in po:
        was = prev.by_ctx.get(e.msgctxt or "")
        if was is None:
            continue
        e.msgstr, e.tcomment = was.msgstr, was.tcomment
        if "fuzzy" in was.flags or (was.msgid != e.msgid and was.msgstr):
            e.flags.append("fuzzy")
            e.previous_msgid = was.previous_msgid if was.msgid == e.msgid else was.msgid
    return po


def findings(lang: str) -> list[Finding]:
    """What `lang` lacks of the program's own words, as `pnp rules check` reports a game's."""
    if lang.split("-")[0] == SOURCE:
        return []
    path = po_file(lang)
    if path is None:
        shown = display_path(LOCALE / f"{lang}.po")
        return [Finding("error", "catalogue-missing",
                        f"the program's own words ({len(MESSAGES)}: headings, calibration page, map legend) have "
                        f"no {lang} translation; create {shown} with `pnp catalogue po --lang {lang}` "
                        "(or in the folder PNP_LOCALE names) and translate every entry", shown)]
    from solver.rules.qa import msgfmt_findings

    cat = catalog(lang)
    assert cat is not None
    shown = display_path(path)
    out = [_entry_finding(key, cat.by_ctx.get(key), shown) for key in MESSAGES]
    return [f for f in out if f is not None] + msgfmt_findings(path)


def _entry_finding(key: str, e: polib.POEntry | None, shown: str) -> Finding | None:
    here = f"{shown}:{e.linenum}" if e is not None else shown
    name = f"program word {key} ({WHERE[key]})"
    if e is None or not e.msgstr:
        return Finding("error", "catalogue-missing", f"{name}: not translated; add its msgstr to {shown} "
                       "(`pnp catalogue po --lang LANG` adds the entries it lacks)", here)
    if e.msgid != MESSAGES[key] or (e.previous_msgid and "fuzzy" in e.flags):
        return Finding("error", "catalogue-stale", f"{name}: the English changed since it was translated; run "
                       "`pnp catalogue po --lang LANG`, revise the entry and remove its fuzzy flag", here)
    if "fuzzy" in e.flags:
        return Finding("warning", "catalogue-fuzzy", f"{name}: marked fuzzy; review it and remove the flag", here)
    if not _usable(key, e.msgstr):
        want = ", ".join("{" + n + "}" for n in sorted(_names(MESSAGES[key]))) or "no {name}"
        return Finding("error", "catalogue-placeholders", f"{name}: the translation must keep exactly {want} "
                       "of the English, as written (they are filled in when it prints)", here)
    return None


