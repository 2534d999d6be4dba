"""`pnp catalogue pot` and `pnp catalogue po --lang xx`: the program's own words as gettext files.

The words themselves and their files are generator/catalogue.py's; this module only writes them
(generator/output.py's atomic writer). `pnp rules check GAME --lang xx` reports what a language lacks.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from solver.errors import DataError, Problem, display_path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("catalogue", help="the program's own printed words (headings, calibration page, "
                                         "map legend) as gettext files: POT and PO per language")
    csub = p.add_subparsers(dest="catalogue_command", required=True, metavar="ACTION")
    t = csub.add_parser("pot", help="regenerate generator/locale/pnp.pot from the code")
    t.set_defaults(func=cmd_pot)
    u = csub.add_parser("po", help="create or update a language's PO file from the template (like msgmerge)")
    u.add_argument("--lang", required=True, help="the language, e.g. fr")
    u.add_argument("--to", help="the folder to write <lang>.po into (default: where it is now, else "
                                "PNP_LOCALE's folder, else generator/locale/)")
    u.set_defaults(func=cmd_po)


def cmd_pot(args: argparse.Namespace) -> int:
    from .. import catalogue
    from ..output import write_bytes
    from solver.rules.po import po_bytes

    path = write_bytes(catalogue.LOCALE / f"{catalogue.DOMAIN}.pot", po_bytes(catalogue.template()))
    print(f"{display_path(path)}: {len(catalogue.MESSAGES)} entries")
    return 0


def cmd_po(args: argparse.Namespace) -> int:
    from .. import catalogue
    from ..output import write_bytes
    from solver.game.base import LANG_PATTERN
    from solver.rules.po import po_bytes, read_po

    lang = args.lang
    if not re.match(LANG_PATTERN, lang) or lang.split("-")[0] == catalogue.SOURCE:
        raise DataError([Problem("--lang", 0, 0, f"{lang!r} is not a language to translate into",
                                 "give a language code other than en (the catalogue's source), like --lang fr")])
    found = catalogue.po_file(lang)
    if args.to:
        path = Path(args.to) / f"{lang}.po"
    elif found is not None and found.stem == lang:
        path = found
    else:
        path = catalogue.locale_dirs()[0] / f"{lang}.po"
    old = read_po(path) if path.is_file() else None
    po = catalogue.merged(lang, old)
    write_bytes(path, po_bytes(po))
    todo = sum(1 for e in po if not e.msgstr or "fuzzy" in e.flags)
    print(f"{display_path(path)}: {len(po)} entries, {todo} to translate or review")
    return 0
