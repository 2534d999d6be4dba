"""`pnp export GAME --to pdf-cards`: one PDF per deck, one card per page, for shops that impose
the sheets themselves (MakePlayingCards, DriveThruCards, most offset printers).

Every page is the card plus its bleed: MediaBox = BleedBox = trim + bleed on each side, TrimBox =
the card. No crop marks (the TrimBox is the cut). One page per printed copy, so the page count
is the card count; fronts first, then the backs in the same order (page n + N is the back of
page n), or `--interleave` for front, back, front, back. Backs are not mirrored: each page is
the side as seen.
"""
from __future__ import annotations

from pathlib import Path

from solver.game.base import pick
from solver.game.loader import Game

from ..context import BuildContext
from ..geometry import Box
from ..render import open_surface
from .common import drawer_for, export_decks, export_dir, safe_name, staged_folder, write_file

README = """\
Print-ready card PDFs: one PDF per deck, one card per page.

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
    drawer = drawer_for(game, ctx)
    decks = export_decks(game, ctx, kinds=("cards",))
    lang = ctx.language(game.meta.source_language)
    target = export_dir(ctx, game, "pdf-cards")
    b = ctx.bleed_mm
    names: list[str] = []
    with staged_folder(target) as folder:
        for deck in decks:
            w, h = deck.size
            trim = Box(b, b, w, h)
            page = trim.outset(b)
            sides: list[tuple] = []
            fronts = [(p.front_layout, p.front) for p in deck.pieces]
            backs = [(p.back_layout, p.back) for p in deck.pieces if p.back_layout and p.back is not None]
            if backs and len(backs) != len(fronts):
                ctx.warn(f"{game.id}/{deck.id}: some cards have no back; the PDF has fronts only")
                backs = []
            if interleave and backs:
                for f, bk in zip(fronts, backs):
                    sides += [f, bk]
            else:
                sides = fronts + backs
            s = open_surface("pdf", title=f"{pick(game.meta.title, lang)} — {deck.name}")
            for layout, data in sides:
                s.begin_page(page.w, page.h, trim=trim, bleed=page)
                drawer.draw(s, layout, data, trim, b)
                s.end_page()
            name = f"{safe_name(deck.id)}-{lang}.pdf"
            write_file(folder, name, s.getvalue())
            names.append(f"  {name}: {len(fronts)} cards of {w:g} x {h:g} mm, {len(sides)} pages")
        if not decks:
            ctx.warn(f"{game.id}: no card decks to export as pdf-cards")
        order = ("front, back, front, back ... (interleaved)" if interleave
                 else "every front in deck order, then every back in the same order")
        sizes = ", ".join(sorted({f"{d.size[0]:g} x {d.size[1]:g} mm" for d in decks})) or "none"
        write_file(folder, "README.txt", README.format(bleed=f"{b:g}", sizes=sizes, order=order,
                                                       files="\n".join(names) or "  (no card decks)"))
    return sorted(target.iterdir())
