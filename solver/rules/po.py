"""gettext PO files of a game's rules: `rules/<lang>.po`, one entry per translation unit.

`msgctxt` is the unit's id (the clause id, or id#part) and `msgid` the source text exactly, so when
a source sentence changes, its entry no longer matches: the translation is stale until a translator
looks at it. `update_catalog` brings a PO file in line with the clauses the way msgmerge does (new
entries empty, changed ones fuzzy with the old msgid kept as `#| msgid`, removed ones obsolete),
and writes it deterministically (fixed header, entries in reading order).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import polib

from ..errors import DataError, Problem, display_path
from ..game.filememo import TextMemo
from ..game.yamlsrc import read_text
from .model import RulesFile

HEADER_COMMENT = ("Translation of the rules of {title}.\n"
                  "Source: rules/clauses.yaml (msgctxt = clause id, msgid = source text).\n"
                  "Update with `pnp rules po {game} --lang {lang}`; check with `pnp rules check {game} --lang {lang}`.")
PLURAL_FORMS = {"ja": "nplurals=1; plural=0;", "zh": "nplurals=1; plural=0;", "ko": "nplurals=1; plural=0;"}


def po_path(folder: Path, lang: str) -> Path:
    return folder / "rules" / f"{lang}.po"


def po_on_disk(folder: Path, lang: str) -> bytes | None:
    """The bytes of `rules/<lang>.po` as they are now (None: no such file): the part of a key that
    changes when the translation is edited, for what is worked out from a game and its catalog
    (solver/game/objmemo.py)."""
    try:
        return po_path(folder, lang).read_bytes()
    except OSError:
        return None


def read_po(path: Path) -> polib.POFile:
    """Parse a PO file; a syntax error is a located DataError, never a traceback."""
    return _parse_po(_po_text(path), path)


def _po_text(path: Path) -> str:
    shown = display_path(path)
    if not path.is_file():
        raise DataError([Problem(shown, 0, 0, "no such PO file",
                                 f"create it with `pnp rules po GAME --lang {path.stem}`")])
    return read_text(path, shown)  # size limit, located UTF-8 errors


def _parse_po(text: str, path: Path) -> polib.POFile:
    shown = display_path(path)
    try:
        po = polib.pofile(text, encoding="utf-8", wrapwidth=0)
        if _may_repeat(po):  # parsed again for polib's own error: the entry and its line
            po = polib.pofile(text, encoding="utf-8", check_for_duplicates=True, wrapwidth=0)
        po.check_for_duplicates = True  # an entry added later (`pnp rules po`) is checked as before
        return po
    except (OSError, ValueError) as e:
        line = _line_of(str(e))
        raise DataError([Problem(shown, line or 1, 1, f"not a valid PO file: {e}",
                                 "fix the entry (quotes, msgctxt/msgid/msgstr order) or restore it from git")])


def _may_repeat(po: polib.POFile) -> bool:
    """Whether an entry may repeat the msgid and msgctxt of a live (not obsolete) entry before it:
    what polib's `check_for_duplicates` rejects as each entry is added, there by a search of every
    entry before it (quadratic: 0.013 of the 0.035 CPU-s the 7 example files take), here by a set.
    An entry with an empty msgid may repeat the header, which polib took out of the list once
    parsed: True, so that polib decides."""
    seen: set[tuple[str, str | None]] = set()
    for e in po:
        key = (e.msgid, e.msgctxt)
        if key in seen or not e.msgid:
            return True
        if not e.obsolete:
            seen.add(key)
    return False


def _line_of(message: str) -> int:
    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else 0


@dataclass(frozen=True)
class Translated:
    text: str | None  # None when there is no usable translation
    entry: polib.POEntry | None


class Catalog:
    """Lookup of translations by unit id, honouring fuzzy and stale entries."""

    def __init__(self, po: polib.POFile | None, path: Path | None = None):
        self.po = po
        self.path = path
        self.by_ctx: dict[str, polib.POEntry] = {}
        if po is not None:
            for e in po:
                if not e.obsolete and e.msgctxt is not None:
                    self.by_ctx[e.msgctxt] = e

    def get(self, ctx: str, source: str) -> Translated:
        e = self.by_ctx.get(ctx)
        if e is None or e.msgid != source or "fuzzy" in e.flags or not e.msgstr:
            return Translated(None, e)
        return Translated(e.msgstr, e)


KEEP_CATALOGS = 16  # catalogs kept, by file and text (the example games have 7 PO files)
_CATALOGS: TextMemo[Catalog] = TextMemo(KEEP_CATALOGS)


def load_catalog(folder: Path, lang: str) -> Catalog:
    """The rules' translation into `lang` (`rules/<lang>.po`; an empty catalog when there is none),
    parsed once per process for the same text of the same file (solver/game/filememo.py): a build
    asks for it in planning, in every unit that prints the language (cited clauses, the missing
    list, the books), some 90 times for 7 files. So a caller reads it and never changes it
    (`read_po` gives a PO file to change)."""
    path = po_path(folder, lang)
    if not path.is_file():
        return Catalog(None, path)
    return _CATALOGS.get(path, _po_text(path), lambda text: Catalog(_parse_po(text, path), path))


def po_metadata(project: str, lang: str, translator: str | None = None) -> dict[str, str]:
    """The header of a PO file we write, fixed (no dates that change), so the same input gives the
    same bytes: the rules' PO files and the program's own (generator/catalogue.py)."""
    return {
        "Project-Id-Version": project,
        "Report-Msgid-Bugs-To": "",
        "POT-Creation-Date": "2026-01-01 00:00+0000",
        "PO-Revision-Date": "2026-01-01 00:00+0000",
        "Last-Translator": translator or "pnp-forge contributors",
        "Language-Team": lang,
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": PLURAL_FORMS.get(lang, "nplurals=2; plural=(n != 1);"),
    }


def update_catalog(rules: RulesFile, po: polib.POFile | None, *, lang: str, game_id: str, title: str) -> polib.POFile:
    """A PO file with exactly the units of `rules`, keeping every translation that still applies."""
    old = Catalog(po)
    out = polib.POFile(wrapwidth=0)
    out.header = HEADER_COMMENT.format(title=title, game=game_id, lang=lang)
    out.metadata = po_metadata(f"{game_id} rules", lang, (po.metadata.get("Last-Translator") if po else None))
    numbers = rules.numbers()
    live = set()
    for ctx, source in rules.units():
        live.add(ctx)
        clause_id = ctx.split("#")[0]
        prev = old.by_ctx.get(ctx)
        entry = polib.POEntry(msgctxt=ctx, msgid=source, msgstr="",
                              comment=f"clause {numbers[clause_id] or clause_id}")
        if prev is not None:
            entry.msgstr = prev.msgstr
            entry.tcomment = prev.tcomment
            entry.flags = [f for f in prev.flags if f != "fuzzy"]
            if prev.msgid != source:
                entry.previous_msgid = prev.msgid
                if prev.msgstr:
                    entry.flags.append("fuzzy")
            elif "fuzzy" in prev.flags:
                entry.flags.append("fuzzy")
                entry.previous_msgid = prev.previous_msgid
        out.append(entry)
    if po is not None:
        for e in po:
            if e.msgctxt not in live and e.msgstr and not e.obsolete:
                e.obsolete = True
                out.append(e)
    return out


def po_bytes(po: polib.POFile) -> bytes:
    """The PO file as written to disk (the command writes it with generator/output.py's atomic writer)."""
    return str(po).encode(po.encoding or "utf-8")
