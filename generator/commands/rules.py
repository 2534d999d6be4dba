"""`pnp rules check|po GAME --lang xx` and `pnp rulebook GAME --lang ja|en|ja+en [--booklet]`."""
from __future__ import annotations

import argparse
import json
import sys

from solver.errors import DataError, Problem

from .core import add_build_options, context_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="translations of a game's rules: QA and PO files")
    rsub = p.add_subparsers(dest="rules_command", required=True, metavar="ACTION")

    c = rsub.add_parser("check", help="translation QA: missing, fuzzy, stale, numbers, references, glossary, "
                                         "and the program's own words in that language")
    c.add_argument("game")
    c.add_argument("--lang", required=True, help="target language, e.g. en")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_check)

    u = rsub.add_parser("po", help="create or update rules/<lang>.po from the clauses (like msgmerge)")
    u.add_argument("game")
    u.add_argument("--lang", required=True)
    u.set_defaults(func=cmd_po)

    b = sub.add_parser("rulebook", help="typeset a rulebook PDF (one language, or ja+en side by side)")
    b.add_argument("game")
    add_build_options(b)
    b.add_argument("--booklet", action="store_true", help="A5 pages imposed on A4 for duplex saddle-stitch")
    b.set_defaults(func=cmd_rulebook)


def _rules(game):
    from solver.rules.load import rules_of

    rules = rules_of(game)
    if rules is None:
        raise DataError([Problem(str(game.folder / "rules" / "clauses.yaml"), 0, 0, "the game has no rules as clauses",
                                 "write rules/clauses.yaml (see docs/rules-format.md)")])
    return rules


def cmd_check(args: argparse.Namespace) -> int:
    from solver.findings import SEVERITY_ORDER
    from solver.game.loader import load_game
    from solver.rules.qa import check_translation

    game = load_game(args.game)
    _rules(game)
    from .. import catalogue

    # the rules' translation, then the program's own words in that language (generator/locale/)
    found = check_translation(game, args.lang) + catalogue.findings(args.lang)
    findings = sorted(found, key=lambda f: SEVERITY_ORDER[f.severity])
    errors = sum(f.severity == "error" for f in findings)
    if args.json:
        print(json.dumps({"game": game.id, "lang": args.lang, "ok": errors == 0,
                          "findings": [f.to_json() for f in findings]}, ensure_ascii=False, indent=2))
    else:
        for f in findings:
            print(f"{f.severity}: {f.code}: {f.message} [{f.source}]")
        print(f"{game.id} ({args.lang}): {errors} error(s), {len(findings) - errors} other finding(s)")
    return 1 if errors else 0


def cmd_po(args: argparse.Namespace) -> int:
    from solver.game.base import pick
    from solver.game.loader import load_game
    from solver.rules.po import po_bytes, po_path, read_po, update_catalog

    from ..output import write_bytes

    game = load_game(args.game)
    rules = _rules(game)
    if args.lang == rules.language:
        raise DataError([Problem("--lang", 0, 0, f"{args.lang} is the source language of the rules",
                                 "give a target language, e.g. --lang en")])
    path = po_path(game.folder, args.lang)
    old = read_po(path) if path.is_file() else None
    po = update_catalog(rules, old, lang=args.lang, game_id=game.id, title=pick(game.meta.title, args.lang))
    write_bytes(path, po_bytes(po))
    todo = sum(1 for e in po if not e.obsolete and (not e.msgstr or "fuzzy" in e.flags))
    print(f"{path}: {len([e for e in po if not e.obsolete])} entries, {todo} to translate or review")
    return 0


def cmd_rulebook(args: argparse.Namespace) -> int:
    from solver.game.loader import load_game
    from ..rulebook.build import rulebook_files

    from ..languages import with_drafts

    ctx = context_from(args)
    game = with_drafts(load_game(args.game), ctx.drafts)
    _rules(game)
    lang = args.lang or game.meta.source_language
    written = rulebook_files(game, ctx, lang, booklet=args.booklet)
    for w in ctx.warnings:
        print(f"warning: {w}", file=sys.stderr)
    for path in written:
        print(path)
    return 0
