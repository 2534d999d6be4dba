"""Colour-vision check: pieces told apart by colour alone whose colours look alike to a colour-blind
player or on a greyscale printer. It works from the model, not from pixels: the layouts' colour
rules (`{by: <attribute>, palette: ...}`, a face's own `colour`) and the items' attributes say which
colour each piece gets and what else on the face tells the pieces apart.

An attribute (a side, a clan, a suit) is told by colour alone when two of its values have pieces
whose faces show nothing else that depends on it: no text, symbol or image whose template or
`where` names it, no layout chosen by it. Where the colour is the value itself (a counter face's
`colour`), two faces are told apart by colour alone when all they print besides colour is the same.
Each such pair of colours is simulated as seen with
- protanopia, deuteranopia and tritanopia: Machado, Oliveira & Fernandes (2009), "A
  Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE Transactions on
  Visualization and Computer Graphics 15(6):1291-1298, their matrices for severity 1.0, applied to
  linear sRGB;
- greyscale: the relative luminance Y of ITU-R BT.709 (what a greyscale print keeps);
and reported when the CIE 1976 colour difference (ΔE*ab, CIELAB under D65) of the simulated pair is
below THRESHOLD (ΔE 76 of about 2.3 is just noticeable side by side; pieces that must be told apart
at a glance across a table need several times that).

One warning line per pair: the component, the attribute, both values with their colours and a
piece of each, and the simulations under which they look alike.

The map's terrain (map.yaml `terrain.kinds`) is checked the same way (`terrain_vision`): a hex shows
its kind by its fill and its `mark` (trees, peaks, waves...), so two kinds with the same mark are
told apart by colour alone.
"""
from __future__ import annotations

import itertools
import math
from collections import defaultdict
from typing import TYPE_CHECKING, Iterator

from solver.game.base import pick
from solver.game.layouts import HEX_COLOUR, TEMPLATE_KEY, ByAttr, Field_

if TYPE_CHECKING:
    from solver.game.components import Component
    from solver.game.loader import Game

    from .cards.face import FaceDrawer
    from .cards.facedata import FaceData

RGB = tuple[float, float, float]
THRESHOLD = 10.0  # ΔE76 under which two simulated colours count as hard to tell apart

MACHADO_2009 = {  # severity 1.0, linear RGB in, linear RGB out
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = (*MACHADO_2009, "greyscale")
CUE_KINDS = {"text", "symbol", "image", "list"}
_SILENT = {"text", "note"}  # an item's rule text is not a cue that sets one kind of piece apart


# --------------------------------------------------------------------------- colour science

def linear(hex_colour: str) -> RGB:
    """'#rrggbb' (or '#rgb') as linear sRGB, each 0..1."""
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    def lin(s: float) -> float:
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(h[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return r, g, b


def simulate(rgb: RGB, vision: str) -> RGB:
    """Linear sRGB as seen under `vision` (a key of MACHADO_2009, or 'greyscale'), clipped to 0..1."""
    if vision == "greyscale":
        y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
        return y, y, y
    m = MACHADO_2009[vision]
    r, g, b = (min(1.0, max(0.0, row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2])) for row in m)
    return r, g, b


def lab(rgb: RGB) -> RGB:
    """Linear sRGB to CIELAB (D65 white)."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str, vision: str | None = None) -> float:
    """CIE 1976 ΔE*ab of two '#rrggbb' colours, as seen under `vision` (None: normal vision)."""
    la, lb = linear(a), linear(b)
    if vision:
        la, lb = simulate(la, vision), simulate(lb, vision)
    return math.dist(lab(la), lab(lb))


def alike_under(a: str, b: str, threshold: float = THRESHOLD) -> list[tuple[str, float]]:
    """The visions under which `a` and `b` differ by less than `threshold`, with their ΔE."""
    return [(v, d) for v in VISIONS if (d := delta_e(a, b, v)) < threshold]


# --------------------------------------------------------------------------- the model

Sample = tuple[str, str, frozenset]  # (colour, piece name, what else the face shows that depends on the key)


def colour_vision(game: Game, threshold: float = THRESHOLD) -> list[str]:
    """One warning line per pair of pieces told apart by colour alone that look alike under some vision."""
    from .cards.deck import layouts_of
    from .cards.face import FaceDrawer

    drawer = FaceDrawer(layouts_of(game), game.folder, lambda _m: None, game)
    lines: list[str] = []
    for comp in game.components:
        samples: dict[str, dict[str, list[Sample]]] = defaultdict(lambda: defaultdict(list))
        for key, value, sample in _samples(game, comp, drawer):
            samples[key][value].append(sample)
        for key, by_value in samples.items():
            lines += _pairs(comp.id, key, by_value, threshold)
    return lines + terrain_vision(game, threshold)


def terrain_vision(game: Game, threshold: float = THRESHOLD) -> list[str]:
    """One warning line per pair of the map's terrain kinds with the same mark (map.yaml `mark`, the
    cue a hex carries besides its fill) whose fills look alike under some vision, at the later kind's line."""
    mapfile = game.extras.get("map")
    if mapfile is None:
        return []
    locator = game.locators.get("map.yaml")
    lang = game.meta.source_language
    lines = []
    for (ia, a), (ib, b) in itertools.combinations(mapfile.terrain.kinds.items(), 2):
        alike = alike_under(a.fill, b.fill, threshold) if a.mark == b.mark and a.fill != b.fill else []
        if not alike:
            continue
        where = f"{locator.path}:{':'.join(map(str, locator.at(('terrain', 'kinds', ib), key=True)))}: " if locator else ""
        seen = ", ".join(f"{v} ΔE {d:.1f}" for v, d in alike)
        mark = f"the mark {a.mark!r} on both" if a.mark != "none" else "no mark on either"
        lines.append(f"{where}colour-vision: map terrain {ia!r} ({a.fill}, {pick(a.name, lang)}) and {ib!r} "
                     f"({b.fill}, {pick(b.name, lang)}) differ by colour alone ({mark}) and look alike under {seen} "
                     f"(ΔE76 under {threshold:g}); give one of them another `mark` in map.yaml or colours further apart")
    return lines


def _pairs(cid: str, key: str, by_value: dict[str, list[Sample]], threshold: float) -> Iterator[str]:
    for (va, sa), (vb, sb) in itertools.combinations(sorted(by_value.items()), 2):
        pair = next(((a, b) for a in sa for b in sb if a[0] != b[0] and a[2] == b[2]), None)
        if pair is None:  # the same colour, or something besides colour tells them apart
            continue
        (ca, na, _), (cb, nb, _) = pair
        alike = alike_under(ca, cb, threshold)
        if alike:
            seen = ", ".join(f"{v} ΔE {d:.1f}" for v, d in alike)
            what = f"`{key}` {va!r} ({ca}, e.g. {na}) and {vb!r} ({cb}, e.g. {nb})"
            blank = "; these faces show nothing but their colour (harmless only if no player reads them in play, " \
                    "e.g. a back the rules leave unused)" if len(pair[0][2]) == 1 else ""
            yield (f"colour-vision: {cid}: {what} are told apart by colour alone and look alike under {seen} "
                   f"(ΔE76 under {threshold:g}){blank}; give them a second cue in layouts.yaml (a letter or symbol "
                   f"from `{key}`) or colours further apart")


def _samples(game: Game, comp: Component, drawer: FaceDrawer) -> Iterator[tuple[str, str, Sample]]:
    """(colour key, its value, sample) for every colour rule drawn on every face of the component."""
    from .cards.deck import DEFAULT_CARD, DEFAULT_COUNTER, choose, layouts_for, printable_items, sheet_of
    from .cards.facedata import FaceData
    from .pieces.punch import DEFAULT_LAYOUT, default_layout

    printer = sheet_of(drawer.layouts, comp)
    default = {"cards": DEFAULT_CARD, "counters": DEFAULT_COUNTER}.get(printer)
    if default is None and printer not in DEFAULT_LAYOUT:
        return
    cl = layouts_for(drawer.layouts, comp, default or default_layout(comp, printer))
    lang = game.meta.source_language
    for item in printable_items(comp):
        where = f"{game.id}/{comp.id}/{item.id}"
        front = FaceData(item, comp, item.front, lang, where)
        chosen = choose(cl, front)
        if chosen is None:
            continue
        name = pick(item.name, lang) if item.name else item.id
        yield from _face(drawer, chosen[0], front, name)
        back_face = item.back or comp.back or (item.front if printer == "counters" else None)
        if chosen[1]:
            yield from _face(drawer, chosen[1], FaceData(item, comp, back_face, lang, where), f"{name} (back)")


def _face(drawer: FaceDrawer, lid: str, data: FaceData, name: str) -> Iterator[tuple[str, str, Sample]]:
    """(key, value, sample) of each colour rule on one face: a `by` attribute or a template's key."""
    _, bg, fields = drawer.resolved(lid)
    drawn = [f for f in fields if not f.where or data.matches(f.where)]
    shown = frozenset(_shown(drawn, data, lid))
    seen: set[str] = set()
    for spec in [bg] + [s for f in drawn for s in (f.fill, f.stroke, f.colour)]:
        key = spec.by if isinstance(spec, ByAttr) else next(iter(_keys(spec)), None) if isinstance(spec, str) else None
        if key is None or key in seen:
            continue
        seen.add(key)
        colour, value = drawer.colour(spec, data), data.lookup(key)
        if colour and HEX_COLOUR.match(colour) and value:
            yield key, value, (colour, name, shown)


def _shown(fields: list[Field_], data: FaceData, layout: str) -> Iterator[tuple[str, str]]:
    """What a face shows besides colour: its layout and the content of its text, symbol and image
    fields (a card's rule text left out: it does not set one kind of piece apart at a glance)."""
    yield "layout", layout
    for i, f in enumerate(fields):
        if f.kind not in CUE_KINDS:
            continue
        template = f.symbol if f.kind == "symbol" else f.src if f.kind == "image" else \
            f.text if isinstance(f.text, str) else pick(f.text, data.lang) if f.text else ""
        if template and not set(_keys(template)) & _SILENT:
            yield f"{i}:{f.kind}", data.fill(template)


def _keys(template: str) -> list[str]:
    return [alt.strip() for k in TEMPLATE_KEY.findall(template) for alt in k.split("|")]
