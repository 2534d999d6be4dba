"""Nothing silent: for every component of a game, the files that print it (`printed_in`, relative
to the game's output folder) or why it is not printed (`left_out`, a sentence per language).

One home for what each printer writes, by file name: cards-, counters-, tokens-, tiles-,
standees-, boards-, dice-<component>-<lang>.pdf, a deck's tuckbox-<deck>-<lang>.pdf (with --layout gutterfold, `-gutterfold.pdf` for cards
and counters; with --layout packed, also packed-<lang>.pdf for what it packs: `add_packed`), a tiled board's `-tiles-<paper>.pdf`, the map stage's map-<id>[-<lang>].pdf for the
component map.yaml prints, the rulebook stage's rulebook-<lang>.pdf for a booklet. The languages
are those a full build writes (generator/languages.py: each language whose translation is complete).

A component is left out because layouts.yaml says `print_as: none`, because no printer prints
its kind (a standard die, a cup, a bag), because no count is known (neither stated nor proposed),
or because layouts.yaml skips every item; components.yaml `left_out:` gives the reason in the
data's words and wins. `manifest.json` carries the result; `pnp build` warns and `pnp check`
reports a component that ends with neither.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from solver.game.base import pick
from solver.game.components import Component, Item

from . import catalogue

if TYPE_CHECKING:
    from solver.game.loader import Game

    from .context import BuildContext

# component id -> {"printed_in": [...]} (with "tuck_box": False for a deck printed without one) | {"left_out": {lang: text}} | {}
Coverage = dict[str, dict[str, Any]]
PIECE_PRINTERS = ("cards", "counters", "tokens", "tiles", "standees", "boards", "dice")


def coverage(game: Game, ctx: BuildContext, langs: list[str]) -> Coverage:
    """Every component's `printed_in` or `left_out` (an empty entry: neither, which callers report)."""
    from solver.counts.effective import effective_counts

    from .cards.deck import layouts_of, sheet_of

    counts = effective_counts(game, ctx.stated_only)
    layouts = layouts_of(game)
    out: Coverage = {}
    for comp in game.components:
        printer = sheet_of(layouts, comp)
        files = printed_files(game, comp, printer, counts, ctx, langs)
        if files:
            out[comp.id] = {"printed_in": [f for _lang, f in files]}
            if printer == "cards" and not any(f.startswith("tuckbox-") for _lang, f in files):  # said, not skipped in silence
                out[comp.id]["tuck_box"] = False
            continue
        reason = left_out_reason(game, comp, printer, counts, langs)
        out[comp.id] = {"left_out": reason} if reason else {}
    return out


def by_language(game: Game, comp: Component, ctx: BuildContext, langs: list[str]) -> dict[str, list[str]]:
    """The files that print the component, per language (what manifest-<lang>.txt lists)."""
    from solver.counts.effective import effective_counts

    from .cards.deck import layouts_of, sheet_of

    counts = effective_counts(game, ctx.stated_only)
    out: dict[str, list[str]] = {}
    for lang, f in printed_files(game, comp, sheet_of(layouts_of(game), comp), counts, ctx, langs):
        out.setdefault(lang, []).append(f)
    return out


def printed_by_map(game: Game, comp: Component) -> bool:
    """Whether the map stage prints the component: the one map.yaml names (`component:`), else a
    component of kind map. A board the map prints is not printed again by the board printer."""
    mapfile = game.extras.get("map")
    if mapfile is None:
        return False
    return mapfile.component == comp.id if mapfile.component else comp.kind == "map"


def printed_files(game: Game, comp: Component, printer: str, counts: Any, ctx: BuildContext,
                  langs: list[str]) -> list[tuple[str, str]]:
    """(language, file) of every file that prints the component, language by language."""
    src = game.meta.source_language
    if printed_by_map(game, comp):
        mapfile = game.extras["map"]
        return [(lang, f"map-{mapfile.id}{'' if lang == src else '-' + lang}.pdf") for lang in langs]
    if printer == "dice":  # a net per copy when the die has faces; a standard die is left out
        copies = counts.get((comp.id, comp.id), (comp.count, False))[0]
        return [(lang, f"dice-{comp.id}-{lang}.pdf") for lang in langs] if comp.faces and copies else []
    if printer in PIECE_PRINTERS:
        if not prints_pieces(game, comp, counts):
            return []
        fold = "-gutterfold" if ctx.sheet_layout == "gutterfold" and printer in ("cards", "counters") else ""
        files = [(lang, f"{printer}-{comp.id}-{lang}{fold}.pdf") for lang in langs]
        if printer == "cards" and tuck_boxed(game, comp, counts, ctx):
            files += [(lang, f"tuckbox-{comp.id}-{lang}.pdf") for lang in langs]
        if printer == "boards" and board_is_tiled(comp, ctx):
            from .hexmap.tiling import tiles_paper
            from .pieces.punch import printer_size

            paper = tiles_paper(printer_size(comp, "boards"), ctx.paper)
            parts = [""] if not comp.items else [f"-{i.id}" for i in comp.items if counts.get((comp.id, i.id), (0,))[0]]
            files += [(lang, f"boards-{comp.id}-{lang}{part}-tiles-{paper}.pdf") for lang in langs for part in parts]
        return sorted(files, key=lambda lf: langs.index(lf[0]))
    if comp.kind == "booklet" and game.extras.get("rules") is not None:
        return [(lang, f"rulebook-{lang}.pdf") for lang in langs]
    return []


PACKED_PRINTERS = ("cards", "counters", "tokens", "tiles", "standees", "dice")  # what --layout packed packs


def add_packed(entries: list[dict[str, Any]], not_packed: set[str], ctx: BuildContext, langs: list[str],
               per_language: dict[str, dict[str, list[str]]]) -> None:
    """With --layout packed: packed-<lang>.pdf added to the `printed_in` of every component it holds
    (those a packed printer prints, less the groups too large to pack, `not_packed`), and to its
    files per language (`per_language`, what manifest-<lang>.txt lists)."""
    from .pieces.packed import packed_stem

    for entry in entries:
        files = entry.get("printed_in", [])
        if entry["id"] in not_packed or not any(f.startswith(tuple(f"{p}-" for p in PACKED_PRINTERS)) for f in files):
            continue
        entry["printed_in"] = files + [f"{packed_stem(lang, ctx)}.pdf" for lang in langs]
        for lang in langs:
            per_language[entry["id"]].setdefault(lang, []).append(f"{packed_stem(lang, ctx)}.pdf")


def prints_pieces(game: Game, comp: Component, counts: Any) -> bool:
    """Whether a piece printer prints at least one copy: a known count and an item layouts.yaml
    does not skip (what generator/cards/deck.py's `deck_pieces` prints, without its warnings)."""
    return any(True for _ in _printed_items(game, comp, counts))


def tuck_boxed(game: Game, comp: Component, counts: Any, ctx: BuildContext) -> bool:
    """Whether a deck's sheets come with its tuck box (generator/pieces/tuckbox.py `boxed`), for the
    copies `deck_pieces` prints: each printed item's count, or a `rest: true` item's spares."""
    from solver.counts.ledger import rest_copies

    from .pieces.tuckbox import boxed

    return boxed(comp, sum(rest_copies(item, count, ctx.spares) for item, count in _printed_items(game, comp, counts)))


def _printed_items(game: Game, comp: Component, counts: Any) -> Iterator[tuple[Item, int]]:
    """The items a piece printer prints, each with its known, non-zero count."""
    from .cards.deck import DEFAULT_CARD, choose, layouts_for, layouts_of, printable_items
    from .cards.facedata import FaceData

    cl = layouts_for(layouts_of(game), comp, DEFAULT_CARD)
    for item in printable_items(comp, counts):
        count = counts.get((comp.id, item.id), (item.count, False))[0]
        if count and choose(cl, FaceData(item, comp, item.front, game.meta.source_language, comp.id)) is not None:
            yield item, count


def board_is_tiled(comp: Component, ctx: BuildContext) -> bool:
    """What generator/pieces/boards.py decides: a board that does not fit the paper with its crop
    marks and is larger than the paper (`tiles_paper`, what the map stage asks too)."""
    from .hexmap.tiling import tiles_paper
    from .pieces.boards import fits
    from .pieces.punch import printer_size

    size = printer_size(comp, "boards")
    w, h = ctx.paper_mm
    return not fits(w, h, size, ctx.bleed_mm) and tiles_paper(size, ctx.paper) is not None


def left_out_reason(game: Game, comp: Component, printer: str, counts: Any, langs: list[str]) -> dict[str, str] | None:
    """Why the component prints nothing, per language; None when no reason is known."""
    name = lambda lang: pick(comp.name, lang)  # noqa: E731
    if comp.left_out:
        return {lang: pick(comp.left_out, lang) for lang in langs}
    if printer == "none" and comp.kind not in ("map", "booklet", "dice", "box", "other"):
        return _said("left_out.print_as_none", langs, name)
    if printer == "dice" and not comp.faces:
        if comp.attrs.get("sides") in (6, None):
            return _said("left_out.standard_die", langs, name)
        return None  # a die of other sides and no faces given: nothing prints it, nothing excuses it
    if comp.kind in ("box", "other"):
        return _said("left_out.not_paper", langs, name)
    if comp.kind == "map":
        return _said("left_out.no_map", langs, name)
    if comp.kind == "booklet":
        return _said("left_out.no_rules", langs, name)
    if printer in PIECE_PRINTERS:
        from .cards.deck import printable_items

        unknown = not printable_items(comp, counts) or all(
            not counts.get((comp.id, i.id), (i.count, False))[0] for i in printable_items(comp, counts))
        return _said("left_out.count_unknown" if unknown else "left_out.skipped", langs, name)
    return None


def _said(key: str, langs: list[str], name: Any) -> dict[str, str]:
    return {lang: catalogue.text(key, lang, name=name(lang)) for lang in langs}


def neither(game: Game, cov: Coverage) -> list[str]:
    """One line per component with neither `printed_in` nor `left_out`."""
    return [f"{game.id}/{cid}: neither printed nor left out with a reason; give it a printer "
            f"(layouts.yaml print_as) or say why not (components.yaml left_out)" for cid, entry in cov.items() if not entry]


def check_report(game: Game) -> dict[str, Any]:
    """The checker's report (solver/report.py) with a warning per component that would be printed
    nowhere and left out for no reason (what `pnp check` and the build's check-report.json show)."""
    from solver.report import check_game

    from .context import BuildContext
    from .manifest import built_languages

    report = check_game(game)
    cov = coverage(game, BuildContext(), built_languages(game))
    index = {c.id: i for i, c in enumerate(game.components)}
    for cid, entry in cov.items():
        if not entry:
            report["findings"].append({
                "severity": "warning", "code": "component-not-printed",
                "message": f"{cid}: neither printed nor left out with a reason; give it a printer (layouts.yaml "
                           "print_as) or say why not (components.yaml left_out)",
                "player_counts": [], "source": game.where("components.yaml", ("components", index[cid]))})
    return report
