"""`pnp export GAME --to tgc`: The Game Crafter card images at the shop's exact pixel sizes.

The Game Crafter takes one PNG per card face at 300 dpi, trim plus 1/8 in bleed on each side
(the export's default bleed, generator/context.py's SHOP_BLEED_MM; `--bleed` overrides it, and the
images grow or shrink with it, which the shop's uploader then refuses: keep the default for TGC).
Sizes (the shop's product templates, thegamecrafter.com/make/products/<product> -> Templates):
poker 825x1125 px (its API rejects PokerDeck faces and backs of any other size, as public
uploader code records), bridge 750x1125, mini 600x825 and tarot 900x1500 (TGC's deck sizes as
public card editors list them); each is the trim + 1/4 in at 300 dpi, which `test_export` checks.
A deck whose trim matches none of these products is left out with a warning rather than resized
to a guess: print it from `pdf-cards` instead.

Names: <deck>-<lang>/<NN>-<item>.png for the fronts (NN keeps the deck order), <deck>-<lang>/back.png
for a common back, <deck>-<lang>/<NN>-<item>-back.png for a card with its own back, for each
language the game is built in. `cards.csv` lists every front with its back, quantity, product, the
card's name as a player knows it (in the deck's language) and its id, which is what the uploader
asks card by card.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from solver.game.base import pick
from solver.game.loader import Game

from ..context import SHOP_BLEED_MM, BuildContext
from ..geometry import MM_PER_INCH
from .common import (ExportDeck, drawer_for, export_decks, export_dir, export_languages, face_image, in_language,
                     png_bytes, safe_name, staged_folder, write_file)

DPI = 300


@dataclass(frozen=True)
class Product:
    name: str                 # as the shop names it
    trim_in: tuple[float, float]
    pixels: tuple[int, int]   # the template's size: trim + 2 x 1/8 in at 300 dpi

    @property
    def trim_mm(self) -> tuple[float, float]:
        return (self.trim_in[0] * MM_PER_INCH, self.trim_in[1] * MM_PER_INCH)

    def pixels_with(self, bleed_mm: float) -> tuple[int, int]:
        """The image size for `bleed_mm` on every side: the template's own at the shop's 1/8 in."""
        if abs(bleed_mm - SHOP_BLEED_MM) < 1e-9:
            return self.pixels
        return tuple(round((t + 2 * bleed_mm) / MM_PER_INCH * DPI) for t in self.trim_mm)  # type: ignore[return-value]


PRODUCTS = (
    Product("Poker Deck", (2.5, 3.5), (825, 1125)),
    Product("Bridge Deck", (2.25, 3.5), (750, 1125)),
    Product("Mini Deck", (1.75, 2.5), (600, 825)),
    Product("Tarot Deck", (2.75, 4.75), (900, 1500)),
)
MATCH_MM = 0.05  # a preset size equals the product's trim; a hand-typed mm size must be this close


def product_for(size: tuple[float, float]) -> Product | None:
    for p in PRODUCTS:
        if abs(p.trim_mm[0] - size[0]) <= MATCH_MM and abs(p.trim_mm[1] - size[1]) <= MATCH_MM:
            return p
    return None


README = """\
The Game Crafter: card images at the shop's template sizes (300 dpi, {bleed} bleed on every side).

For each deck folder (one per deck and language: <deck>-<lang>):
  1. In your game on thegamecrafter.com add the product named in cards.csv (e.g. "Poker Deck").
  2. Set the deck's back to <deck>-<lang>/back.png (cards with their own back have <name>-back.png).
  3. Use the uploader's bulk upload for the fronts (<deck>-<lang>/NN-<item>.png; NN keeps the deck
     order) and set each card's quantity from cards.csv.

Products (trim -> image size):
{products}

Decks exported:
{decks}
"""


def export_tgc(game: Game, ctx: BuildContext) -> list[Path]:
    drawer = drawer_for(game, ctx)
    target = export_dir(ctx, game, "tgc")
    bleed_mm = ctx.bleed_mm
    rows: list[list[str]] = []
    summary: list[str] = []
    with staged_folder(target) as folder:
        for lang in export_languages(game, ctx):
            for deck in export_decks(game, in_language(ctx, lang)):
                product = product_for(deck.size)
                if product is None:
                    todo = ("print it from pdf-cards, or give the deck a preset size" if deck.kind == "cards"
                            else "counters are not in this export; print them from the counter sheets")
                    ctx.warn(f"{game.id}/{deck.id}: {deck.size[0]:g} x {deck.size[1]:g} mm matches no Game Crafter "
                             f"card product ({', '.join(p.name for p in PRODUCTS)}); not in the tgc export: {todo}")
                    continue
                rows += _write_deck(folder, deck, product, drawer, bleed_mm, lang)
                summary.append(f"  {safe_name(deck.id)}-{lang}/: {len(deck.pieces)} cards, {product.name}")
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["deck", "product", "front", "back", "quantity", "name", "language", "id"])
        w.writerows(rows)
        write_file(folder, "cards.csv", buf.getvalue())
        products = "\n".join(f"  {p.name}: {p.trim_in[0]:g} x {p.trim_in[1]:g} in -> {p.pixels_with(bleed_mm)[0]} x {p.pixels_with(bleed_mm)[1]} px"
                             for p in PRODUCTS)
        write_file(folder, "README.txt", README.format(bleed=_bleed_words(bleed_mm), products=products, decks="\n".join(summary) or "  (none)"))
    return sorted(p for p in target.rglob("*") if p.is_file())


def _write_deck(folder: Path, deck: ExportDeck, product: Product, drawer, bleed_mm: float,
                lang: str) -> list[list[str]]:
    """Fronts, backs (each distinct back picture once) and the CSV rows of one deck in `lang`."""
    rows = []
    sub = f"{safe_name(deck.id)}-{lang}"
    backs: dict[tuple, str] = {}  # back picture -> its file (as pieces/render.py names the PNG backs)
    fronts = deck.distinct_fronts()
    width = max(2, len(str(len(fronts))))
    for n, (piece, count) in enumerate(fronts, 1):
        stem = f"{n:0{width}d}-{safe_name(piece.item.id)}"
        img = face_image(drawer, piece.front_layout, piece.front, deck.size, bleed_mm, product.pixels_with(bleed_mm))
        write_file(folder, f"{sub}/{stem}.png", png_bytes(img, DPI))
        back = ""
        if piece.back_layout and piece.back is not None:
            back = backs.get(piece.back_key, "")
            if not back:
                common = not piece.own_back and f"{sub}/back.png" not in backs.values()
                back = backs[piece.back_key] = f"{sub}/back.png" if common else f"{sub}/{stem}-back.png"
                img = face_image(drawer, piece.back_layout, piece.back, deck.size, bleed_mm, product.pixels_with(bleed_mm))
                write_file(folder, back, png_bytes(img, DPI))
        name = pick(piece.item.name, lang, piece.item.id)  # the card as a player names it, in the deck's language
        rows.append([deck.id, product.name, f"{sub}/{stem}.png", back, str(count), name, lang, piece.item.id])
    return rows


def _bleed_words(bleed_mm: float) -> str:
    if abs(bleed_mm - SHOP_BLEED_MM) < 1e-9:
        return "1/8 in"
    return f"{bleed_mm:g} mm (not the shop's 1/8 in: its uploader expects the template sizes below)"
