"""The `rulebooks` build stage and `pnp rulebook`: which books a game gets, and where they go.

A game with rules as clauses gets a book in its source language; each language with a PO file
also gets a translated book and a side-by-side one (source | translation); each of those also
as an A5 saddle-stitch booklet. Output names follow DESIGN.md: `rulebook-<lang>.pdf`,
`booklet-<lang>.pdf` (`<lang>` may be `ja+en`).
"""
from __future__ import annotations

from pathlib import Path

from solver.errors import DataError, Problem
from solver.game.loader import Game
from solver.rules.load import rules_of

from .. import fonts
from ..context import BuildContext
from ..drawn_registry import digest, offer
from ..gcpause import fewer_collections
from ..languages import languages_to_build
from ..output import write_bytes
from ..text import forget_paragraphs
from .content import print_guide_content, rulebook_content
from .drawstring import forget_measured
from .drawn import imposed, take
from .guide import Printing
from .impose import impose
from .typeset import PAGE_SIZES_MM, render


def book_languages(game: Game, ctx: BuildContext | None = None) -> list[str]:
    """The books the build makes for a game: for the source language its book, for each other
    language the build is in (generator/languages.py: a complete translation) the translated and
    the side-by-side book. With `ctx.lang` set (the build runs once per language), that language's."""
    rules = rules_of(game)
    if rules is None:
        return []
    src = rules.language
    if ctx is not None and ctx.lang:
        langs = [ctx.lang]
    else:
        langs = languages_to_build(game, None, ctx.warn if ctx is not None else (lambda _m: None))
    return [book for lg in langs for book in ([lg] if lg == src else [lg, f"{src}+{lg}"])]


def _langs(game: Game, lang: str) -> list[str]:
    rules = rules_of(game)
    assert rules is not None
    langs = lang.split("+")
    known = set(game.meta.languages) | {rules.language}
    bad = [lg for lg in langs if lg not in known] or ([] if 1 <= len(langs) <= 2 else langs)
    if bad:
        raise DataError([Problem("--lang", 0, 0, f"{lang!r} is not a language of {game.id} ({', '.join(sorted(known))})",
                                 "give one language, like en, or two side by side, like ja+en")])
    return langs


def _report(game: Game) -> dict | None:
    """What the rulebook's per-player-count setup table reads of the checker's report (its
    `player_counts`, from the rules engine); None when the game has no setup. The engine alone
    gives it: printing a book never runs the CP-SAT proofs, so it never loads OR-Tools."""
    from solver.engine.run import count_reports, setup_table

    if game.setup is None:
        return None
    return {"player_counts": count_reports(setup_table(game))}


def rulebook_files(game: Game, ctx: BuildContext, lang: str, *, booklet: bool = False,
                   report: dict | None = None) -> list[Path]:
    return _books(game, ctx, lang, (booklet,), report if report is not None else _report(game))


# Typesetting a book makes a million short-lived objects (flowables, spans, operators) while a
# build holds hundreds of thousands of long-lived ones (game data, fonts, caches): with Python's
# default thresholds the garbage collector walked those again and again, 15 % of the rulebooks
# stage (1.4 of 9.5 CPU-s over the five example games). Fewer collections while books are set;
# the reference cycles a book leaves (document, canvas, flowables) are still collected. A first
# collection every 20000 objects rather than 5000: the books' survivors are walked again in fewer
# second-generation collections (4 rather than 10) and none reaches the third (0.39 against 0.57
# CPU-s of collecting in the stage over the example games; 192 against 188 MB at most).
GC_THRESHOLDS = (20000, 20, 100)


def _books(game: Game, ctx: BuildContext, lang: str, booklets: tuple[bool, ...], report: dict | None) -> list[Path]:
    """The book in `lang` as pages and/or as an A5 booklet (`booklets`), from one reading of its content."""
    with fewer_collections(GC_THRESHOLDS):
        try:
            return _typeset_books(game, ctx, lang, booklets, report)
        finally:
            # the book's and booklet's paragraphs' advances and lines: let go after them (text/__init__.py)
            fonts.advances.cache_clear()
            forget_paragraphs()
            forget_measured()


def _typeset_books(game: Game, ctx: BuildContext, lang: str, booklets: tuple[bool, ...], report: dict | None) -> list[Path]:
    langs = _langs(game, lang)
    content = rulebook_content(game, langs, report, printing=Printing.of(ctx))
    out = ctx.out_dir(game.id)
    page = ctx.paper if ctx.paper in PAGE_SIZES_MM and ctx.paper != "a5" else "a4"
    written = []
    for booklet in booklets:
        if content.missing:
            ctx.warn(f"{game.id} rulebook-{lang}: {len(content.missing)} untranslated unit(s) shown in the source "
                     f"language (run `pnp rules check {game.id} --lang {langs[-1]}`)")
        if ctx.paper != page:
            ctx.warn(f"{game.id}: rulebooks are A4 or Letter; {ctx.paper} gives A4")
        if not booklet:
            pdf, _ = render(content, page, lines=False)  # a build reads no line the recorder keeps
            written.append(write_bytes(out / f"rulebook-{lang}.pdf", pdf))
            if len(langs) == 1:  # how to print the game, on one page, beside the book in its language
                guide, _ = render(print_guide_content(game, lang, Printing.of(ctx)), page, leaflet=True, lines=False)
                written.append(write_bytes(out / f"print-guide-{lang}.pdf", guide))
        else:
            pdf, _ = render(content, "a5", back_cover=True, lines=False, links=False)  # imposing drops them
            sheets = impose(pdf, flip=ctx.flip, back_cover=True)
            record = take(digest(pdf))  # what the A5 book drew, placed on the sheets for preflight
            if record is not None:
                offer(sheets, imposed(record, ctx.flip, back_cover=True))
            written.append(write_bytes(out / f"booklet-{lang}.pdf", sheets))
    return written


def build_rulebooks(game: Game, ctx: BuildContext) -> list[Path]:
    """The build stage: every book of `book_languages`, as pages and as an A5 booklet."""
    written: list[Path] = []
    langs = book_languages(game, ctx)
    if not langs:
        return written
    report = _report(game)
    for lang in langs:
        written += _books(game, ctx, lang, (False, True), report)
    return written
