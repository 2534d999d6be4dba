"""`pnp export GAME --to pdf-cards`: one PDF per deck, one card per page, for shops that impose
the sheets themselves (MakePlayingCards, DriveThruCards, most offset printers).

Every page is the card plus its bleed: MediaBox = BleedBox = trim + bleed on each side, TrimBox =
the card. One PDF per deck and language, `<deck>-<lang>.pdf`. No crop marks (the TrimBox is
the cut). One page per printed copy, so the page count is the card count; fronts first, then the backs in the same order (page n + N is the back of
page n), or `--interleave` for front, back, front, back. Backs are not mirrored: each page is
the side as seen.
"""
from __future__ import annotations

from pathlib import Path

from solver.game.base import pick
from solver.game.loader import Game

from ..cards.face import FaceDrawer
from ..context import BuildContext
from ..geometry import Box
from ..render import open_surface
from .common import (ExportDeck, drawer_for, export_decks, export_dir, export_languages, in_language, safe_name,
                     staged_folder, write_file)

README = """\
Print-ready card PDFs: one PDF per deck and language (<deck>-<lang>.pdf), one card per page.

Each page is one card with {bleed} mm bleed on every side: MediaBox = BleedBox = the card
plus bleed, TrimBox = the card ({sizes}). There are no crop marks; the TrimBox is the cut line.
Pages: {order}.

MakePlayingCards / DriveThruCards / any shop that imposes sheets itself: upload the PDF of a
deck as it is; choose the product whose trim equals the TrimBox size, and the shop's
"front and back in one file" option. A shop that wants fronts and backs as separate files can
split the PDF in two at the middle page (fronts then backs order).

Files:
{files}
"""


def export_pdf_cards(game: Game, ctx: BuildContext, interleave: bool = False) -> list[Path]:
    """`<deck>-<lang>.pdf` for every card deck in every language the game is built in."""
    drawer = drawer_for(game, ctx)
    target = export_dir(ctx, game, "pdf-cards")
    names: list[str] = []
    sizes: set[str] = set()
    with staged_folder(target) as folder:
        for lang in export_languages(game, ctx):
            decks = export_decks(game, in_language(ctx, lang), kinds=("cards",))
            for deck in decks:
                name = f"{safe_name(deck.id)}-{lang}.pdf"
                write_file(folder, name, _deck_pdf(game, ctx, deck, drawer, lang, interleave))
                w, h = deck.size
                sizes.add(f"{w:g} x {h:g} mm")
                names.append(f"  {name}: {len(deck.pieces)} cards of {w:g} x {h:g} mm")
        if not names:
            ctx.warn(f"{game.id}: no card decks to export as pdf-cards")
        order = ("front, back, front, back ... (interleaved)" if interleave
                 else "every front in deck order, then every back in the same order")
        write_file(folder, "README.txt", README.format(bleed=f"{ctx.bleed_mm:g}", sizes=", ".join(sorted(sizes)) or "none",
                                                       order=order, files="\n".join(names) or "  (no card decks)"))
    return sorted(target.iterdir())


def _deck_pdf(game: Game, ctx: BuildContext, deck: ExportDeck, drawer: FaceDrawer, lang: str,
              interleave: bool) -> bytes:
    """One card per page: the fronts, then the backs in the same order (or interleaved)."""
    b = ctx.bleed_mm
    trim = Box(b, b, *deck.size)
    page = trim.outset(b)
    fronts = [(p.front_layout, p.front) for p in deck.pieces]
    backs = [(p.back_layout, p.back) for p in deck.pieces if p.back_layout and p.back is not None]
    if backs and len(backs) != len(fronts):
        ctx.warn(f"{game.id}/{deck.id}: some cards have no back; the PDF has fronts only")
        backs = []
    sides = [side for pair in zip(fronts, backs) for side in pair] if interleave and backs else fronts + backs
    s = open_surface("pdf", title=f"{pick(game.meta.title, lang)} — {deck.name}")
    for layout, data in sides:
        s.begin_page(page.w, page.h, trim=trim, bleed=page)
        drawer.draw(s, layout, data, trim, b)
        s.end_page()
    return s.getvalue()
