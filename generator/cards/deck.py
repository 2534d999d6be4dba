"""The `cards` build stage: every deck of a game, as sheets in PDF and SVG and cards in PNG.

Which layout a deck uses comes from the game's layouts.yaml (`components: {deck-id: {front,
back, item_layouts}}`); a deck it does not mention gets the built-in `card-basic` / `back-basic`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from solver.counts.effective import effective_counts
from solver.counts.ledger import rest_copies
from solver.engine.results import ItemKey
from solver.game.base import pick
from solver.game.components import CARD_PRESETS, COUNTER_PRESETS, PRINTER_BY_KIND, Component, Item, size_mm
from solver.game.layouts import ComponentLayout, LayoutsFile
from solver.game.loader import Game

from .. import fonts
from ..context import BuildContext
from .face import FaceDrawer
from .facedata import FaceData
from ..pieces.model import Piece
from ..pieces.render import write_outputs
from ..pieces.grid import SheetGrid, plan_sheet
from ..gcpause import fewer_collections

DEFAULT_CARD = ComponentLayout(front="card-basic", back="back-basic")
DEFAULT_COUNTER = ComponentLayout(front="counter-basic", back="counter-basic")
# the trim size of a component that states none, by the sheet that prints it
DEFAULT_SIZE_MM = {"cards": CARD_PRESETS["poker"], "counters": (COUNTER_PRESETS["half-inch"],) * 2}


def sheet_of(layouts: LayoutsFile, comp: Component) -> str:
    """'cards', 'counters', 'tokens', 'tiles', 'standees', 'boards', 'dice' or 'none': which printer prints it."""
    cl = layouts.components.get(comp.id)
    if cl and cl.print_as:
        return cl.print_as
    return PRINTER_BY_KIND.get(comp.kind, "none")


def piece_size(comp: Component, sheet: str) -> tuple[float, float]:
    """The trim size in mm of the component's pieces on `sheet` ('cards' or 'counters')."""
    return size_mm(comp.size) or DEFAULT_SIZE_MM[sheet]


def layouts_of(game: Game) -> LayoutsFile:
    return game.extras.get("layouts") or LayoutsFile()


def layouts_for(layouts: LayoutsFile, comp: Component, default: ComponentLayout) -> ComponentLayout:
    """The component's layouts from layouts.yaml, its front always set (the default's when it names none)."""
    cl = layouts.components.get(comp.id)
    if cl is None:
        return default
    return cl if cl.front else cl.model_copy(update={"front": default.front})


def choose(cl: ComponentLayout, data: FaceData) -> tuple[str, str | None] | None:
    """Front and back layout of one item: the first of `item_layouts` whose `where` matches, else
    the default; None when that entry says `skip`. `cl` comes from `layouts_for`, which sets the front."""
    assert cl.front is not None, "layouts_for sets every component's front layout"
    for v in cl.item_layouts:
        if data.matches(v.where):
            if v.skip:
                return None
            return (v.front or cl.front, v.back or cl.back)
    return (cl.front, cl.back)


Counts = dict[ItemKey, tuple[int | None, bool]]


def counts_for(game: Game, ctx: BuildContext) -> Counts:
    """Copies to print per item: the stated count, else proposed.yaml's (not with --stated-only).
    The same for every language: copies never depend on what is printed on the face."""
    return effective_counts(game, stated_only=ctx.stated_only)


def copies(item: Item, key: ItemKey, where: str, ctx: BuildContext, counts: Counts) -> int:
    """A complete set: as many copies as the stated or proposed count; none of an unknown count,
    which is never guessed (the warning says how to get a proposal); of a `rest: true` item only
    its blank spares (none unless the data's `spares` or --spares asks), never a blank filler."""
    count = counts.get(key, (item.count, False))[0]
    if count is None:
        why = ("--stated-only prints only the counts the sources state" if ctx.stated_only
               else "no proposal either: run `pnp propose GAME`, or state the count in components.yaml")
        ctx.warn(f"{where}: count unknown in the data; not printed ({why})")
        return 0
    # an item standing only for what the sources do not describe prints as blank spares, if asked
    return rest_copies(item, count, ctx.spares)


def printable_items(comp: Component, counts: Counts | None = None) -> list[Item]:
    """The items of a component; one standing for the component when it lists none but has a
    (stated or proposed) count, e.g. "5 character cards" with no card list: those copies get printed too."""
    if comp.items:
        return comp.items
    count = comp.count if counts is None else counts.get((comp.id, comp.id), (comp.count, False))[0]
    if count:
        return [Item(id=comp.id, name=comp.name, count=count, attrs=dict(comp.attrs))]
    return []


def deck_pieces(game: Game, comp: Component, lang: str, ctx: BuildContext, cl: ComponentLayout,
                back_shows_front: bool = False, counts: Counts | None = None) -> list[Piece]:
    """Every copy to print, with its chosen front and back layouts. `back_shows_front`: an item with
    no back face (and no common back) shows its front data on the back (counters do; cards have a
    common card back instead)."""
    pieces: list[Piece] = []
    counts = counts_for(game, ctx) if counts is None else counts
    for item in printable_items(comp, counts):
        where = f"{game.id}/{comp.id}/{item.id}"
        n = copies(item, (comp.id, item.id), where, ctx, counts)
        if n == 0:
            continue
        front = FaceData(item, comp, item.front, lang, where)
        chosen = choose(cl, front)
        if chosen is None:
            ctx.warn(f"{where}: not printed (layouts.yaml variant with skip: true)")
            continue
        front_layout, back_layout = chosen
        back_face = item.back or comp.back or (item.front if back_shows_front else None)
        back = FaceData(item, comp, back_face, lang, where + " (back)") if back_layout else None
        pieces += [Piece(item, front_layout, back_layout, front, back)] * n
    return pieces


@dataclass(frozen=True)
class SheetStage:
    """What every stage that prints sheets of pieces (cards, counters, the punch-out printers) starts
    from: the language it prints, the game's layouts, one face drawer, the output folder and counts."""
    game: Game
    lang: str
    layouts: LayoutsFile
    drawer: FaceDrawer
    out: Path
    counts: Counts

    @classmethod
    def of(cls, game: Game, ctx: BuildContext) -> "SheetStage":
        layouts = layouts_of(game)
        return cls(game, ctx.language(game.meta.source_language), layouts,
                   FaceDrawer(layouts, game.folder, ctx.warn, game), ctx.out_dir(game.id), counts_for(game, ctx))

    def title(self, comp: Component) -> str:
        """The PDF's title: the game's and the component's names."""
        return f"{pick(self.game.meta.title, self.lang)} — {pick(comp.name, self.lang)}"

    def png_dir(self, comp: Component) -> str:
        """PNGs of the source language in png/<component>/, of any other in png/<component>-<lang>/."""
        return comp.id if self.lang == self.game.meta.source_language else f"{comp.id}-{self.lang}"


@fewer_collections()
def build_sheets(game: Game, ctx: BuildContext, kind: str, default: ComponentLayout,
                 grid_for: Callable[[Component, ComponentLayout], SheetGrid], back_shows_front: bool = False) -> list[Path]:
    """What the card and counter stages share: every component printed as `kind` ("cards" or
    "counters"), its pieces laid out by `grid_for(component, layout)`, written as
    output/<game>/<kind>-<component>-<lang>.pdf with SVG pages and a PNG per side."""
    st = SheetStage.of(game, ctx)
    written: list[Path] = []
    for comp in game.components:
        if sheet_of(st.layouts, comp) != kind or not printable_items(comp, st.counts):
            continue
        cl = layouts_for(st.layouts, comp, default)
        pieces = deck_pieces(game, comp, st.lang, ctx, cl, back_shows_front, st.counts)
        if not pieces:
            continue
        written += write_outputs(f"{kind}-{comp.id}-{st.lang}", st.out, grid_for(comp, cl), pieces, st.drawer, ctx,
                                 st.title(comp), st.png_dir(comp))
        if kind == "cards":  # and the deck's tuck box, sized for the copies printed, unless too thin to fold
            from ..pieces.tuckbox import TUCK_LAYOUT, boxed, write_tuck_box
            if boxed(comp, len(pieces)):
                written += write_tuck_box(comp, len(pieces), piece_size(comp, kind), st.lang, ctx, st.drawer,
                                          st.title(comp), TUCK_LAYOUT, cl.back, st.out)
    return written


@fewer_collections()
def build_cards(game: Game, ctx: BuildContext) -> list[Path]:
    """Stage `cards`: output/<game>/cards-<deck>-<lang>.pdf, .svg pages and png/<deck>/*.png, each
    deck's tuckbox-<deck>-<lang>.pdf, and the duplex calibration page when any deck was printed."""
    written = build_sheets(game, ctx, "cards", DEFAULT_CARD, lambda comp, _cl: plan_sheet(
        ctx.paper_mm, piece_size(comp, "cards"), ctx.bleed_mm))
    if written:
        from .calibration import write_calibration
        # in the build's language; named like the maps: a language other than the source adds -<lang>
        lang = ctx.language(game.meta.source_language)
        suffix = "" if lang == game.meta.source_language else f"-{lang}"
        written += write_calibration(ctx.out_dir(game.id), ctx, lang, suffix, fonts.faces(lang, game))
    return written
