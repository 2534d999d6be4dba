"""The model of a game's `layouts.yaml`: how its cards and counters look, as data.

A layout is a list of fields in boxes given in mm from the card's trim top-left (negative or
beyond-trim values reach into the bleed). Fields draw rectangles, circles, symbols, images or
text from a template (`"{name}"`, `"{attrs.rank}"` or `"{rank}"`, `"{attrs.1}"` the first attribute
written, `"{attrs.1-}"` every value joined by '-' (a counter's `4-3`), `"{attrs}"` every attribute as
`name value`, `"{face.values}"`, localised dicts). Layouts
extend one another: a child inherits its parent's fields, a child field with the same `name`
replaces the parent's, and `drop` leaves inherited fields out. The file also says which layout each component uses (front and back,
with item layouts chosen by item attributes), its colours and palettes (colour by attribute value),
and its symbols (small vector drawings in a unit box, usable inline in text as `:name:`).

This module only describes and validates; generator/cards/ draws.
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Union

from pydantic import Field, field_validator, model_validator

from ..errors import Problem
from .base import Id, Model, check_local
from .components import Scalar, SizeSpec

HEX_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
TEMPLATE_KEY = re.compile(r"\{([A-Za-z0-9_.|\-]+)\}")
INLINE_SYMBOL = re.compile(r":([a-z0-9]+(?:-[a-z0-9]+)*):")
ATTR_SPAN = re.compile(r"^(\d+)(-(\d*))?$")  # `attrs.1`, `attrs.1-`, `attrs.2-3`: attributes by position


class ByAttr(Model):
    """A colour chosen by an attribute value: `{by: suit, palette: suits, default: '#888888'}`: the
    first of `map[value]`, the palette's colour for the value, the value itself when it is a colour
    ('#rrggbb' or a name in `colours`), `default` (docs/vocabulary.md, ColourSpec)."""
    by: str = Field(description="attribute to look up, e.g. 'suit' or 'face.colour'")
    palette: str | None = Field(None, description="a palette name from `palettes`")
    map: dict[str, str] = Field(default_factory=dict, description="value -> colour, checked before the palette")
    default: str | None = None


ColourSpec = Union[str, ByAttr]
"""A colour: '#rrggbb', a name from `colours`, 'none', 'contrast' (black or white, whichever reads
on the fill under the field: the last rect or circle drawn before it that covers its centre, else the
layout's background), a template such as '{face.colour}', or a `ByAttr` lookup."""


# A length on a face, mm. Bounded like a component's size (1200 mm): a value past it is a typo, and
# drawing it would overflow the renderers' integer coordinates.
Mm = Annotated[float, Field(ge=-1200, le=1200)]


class ListSpec(Model):
    """The items a `list` field prints, one line each, its `text` the template of a line."""
    of: str = Field(description="the component whose items it lists: an id, or a template of the sheet's "
                                "attributes ('{lists}')")
    where: dict[str, Union[Scalar, list[Scalar]]] = Field(
        default_factory=dict, description="only items whose attrs match; a value may be a template of the "
                                          "sheet's attributes ('{side}'), and one that comes out empty filters nothing")


class Field_(Model):
    """One thing drawn on a face."""
    name: str | None = Field(None, description="lets a layout that extends this one replace the field")
    kind: Literal["rect", "circle", "text", "symbol", "image", "line", "list"] = Field(
        description="line: from (x, y) to (x + w, y + h); circle: the largest circle inside the box; "
                    "list: a line of `text` per item of another component (`lists`), e.g. a card list")
    box: list[Mm] = Field(min_length=4, max_length=4, description="[x, y, w, h] mm from the trim top-left")
    bleed: bool = Field(False, description="grow to the bleed edge on every side that touches the trim")
    fill: ColourSpec | None = None
    stroke: ColourSpec | None = None
    width: float = Field(0.3, ge=0, le=10, description="stroke width, mm")
    radius: float = Field(0.0, ge=0, le=1200, description="corner radius of a rect, mm")
    text: Union[str, dict[str, str], None] = Field(None, description=(
        "template: '{name}', '{text}', an attribute '{value}', '{attrs.1}' (the first attribute), "
        "'{attrs.1-}' (every value, 4-3), '{attrs}' (every attribute, named), '{component}'; "
        "`:sym:` draws a symbol inline"))
    size_pt: float = Field(9.0, gt=0, le=200)
    min_size_pt: float | None = Field(None, gt=0, le=200, description="smallest size when shrinking to fit (default 60% of size_pt)")
    weight: Literal["regular", "bold"] = Field("regular", description=(
        "bold: the bold of the language's face (names, titles); a face without one (IPAex Gothic) prints its regular"))
    align: Literal["left", "center", "right"] = "center"
    valign: Literal["top", "middle", "bottom"] = "middle"
    colour: ColourSpec | None = None
    line_height: float = Field(1.25, ge=0.8, le=3)
    wrap: bool = True
    symbol: str | None = Field(None, description="symbol id or template, e.g. '{attrs.suit}'")
    src: str | None = Field(None, description="image path inside the game folder (template allowed)")
    lists: ListSpec | None = Field(None, description="a list field's items: `{of: action-cards, where: {side: allied}}`")
    fit: Literal["fit", "fill", "crop"] = "fit"
    where: dict[str, Union[Scalar, list[Scalar]]] = Field(
        default_factory=dict, description="draw only for items whose attrs match (value or list of values); "
                                          "the value '*' means the key is present and not empty; was `when`")

    _t = field_validator("text", mode="before")(classmethod(lambda cls, v: v if v is None or isinstance(v, str) else check_local(v)))

    @model_validator(mode="after")
    def _needs(self) -> "Field_":
        needs = {"text": ["text"], "symbol": ["symbol"], "image": ["src"], "list": ["lists", "text"]}.get(self.kind, [])
        for need in needs:
            if getattr(self, need) is None:
                raise ValueError(f"a {self.kind} field needs `{need}`")
        if self.kind != "line" and (self.box[2] <= 0 or self.box[3] <= 0):
            raise ValueError("box width and height must be positive")
        return self


class Shape(Model):
    """A part of a symbol, in the symbol's own units (its `size`, origin top-left, y down)."""
    kind: Literal["polygon", "polyline", "circle", "rect"]
    points: list[list[Mm]] = []
    cx: Mm = 0
    cy: Mm = 0
    r: Mm = 0
    box: list[Mm] | None = None
    fill: str | None = Field(None, description="'#rrggbb', a named colour, or 'current' (the field's colour)")
    stroke: str | None = None
    width: float = 1.0


class Symbol(Model):
    """A symbol drawn by a `symbol` field or inline in text (`:id:`, one em wide): vector `shapes`,
    or a picture file of the game folder (`src`: PNG, JPG or SVG, checked as images are)."""
    id: Id
    size: list[float] = Field(default_factory=lambda: [10.0, 10.0], min_length=2, max_length=2)
    shapes: list[Shape] = []
    src: str | None = Field(None, description="a PNG, JPG or SVG file of the game folder, instead of shapes, "
                                              "e.g. icons/lamp.png")

    @model_validator(mode="after")
    def _one_drawing(self) -> "Symbol":
        if bool(self.shapes) == bool(self.src):
            raise ValueError("a symbol needs either `shapes` or `src` (a PNG, JPG or SVG file), not both")
        return self


class Layout(Model):
    id: Id
    extends: Id | None = None
    size: SizeSpec | None = Field(None, description="the face size this layout is drawn for (default: the component's)")
    background: ColourSpec | None = Field(None, description="fills trim and bleed")
    drop: list[str] = Field(default_factory=list, description="names of inherited fields to leave out")
    fields: list[Field_] = []


class ItemLayout(Model):
    """Items whose attrs match `where` use these layouts instead of the component's default."""
    where: dict[str, Union[Scalar, list[Scalar]]]
    front: Id | None = None
    back: Id | None = None
    skip: bool = Field(False, description="do not print these items (e.g. entries standing for cards the source never names)")


class ComponentLayout(Model):
    front: Id | None = Field(None, description="layout of the front (default: the built-in one for its sheet)")
    print_as: Literal["cards", "counters", "tokens", "tiles", "standees", "boards", "dice", "none"] | None = Field(
        None, description="which printer prints it; default by kind: deck -> cards, counters/chits -> counters, "
                          "tokens -> tokens, tiles -> tiles, pieces -> standees, board/sheet -> boards, dice -> dice (a "
                          "net when it has faces); map and booklet have their own stages; box and other are left out with a reason. "
                          "'none' leaves it out (say why in components.yaml `left_out`)")
    back: Id | None = Field(None, description="layout of the back; none: backs pages are left out")
    item_layouts: list[ItemLayout] = Field([], description="layouts for some items by attribute; was `variants`")
    gutter_mm: float | None = Field(None, ge=0, le=20, description="space between counters' trims, mm (counters only; default 3 with "
                                      "1.5 mm bleed each side; 0 lays them edge to edge without bleed)")


class LayoutsFile(Model):
    colours: dict[str, str] = Field(default_factory=dict, description="named colours, name -> '#rrggbb'")
    palettes: dict[str, dict[str, str]] = Field(default_factory=dict, description="palette -> value -> colour")
    symbols: list[Symbol] = []
    layouts: list[Layout] = []
    components: dict[str, ComponentLayout] = Field(default_factory=dict, description="component id -> layouts")

    @field_validator("colours")
    @classmethod
    def _hex(cls, v: dict[str, str]) -> dict[str, str]:
        for name, c in v.items():
            if not HEX_COLOUR.match(c):
                raise ValueError(f"colour {name!r}: {c!r} is not '#rrggbb'")
        return v

    # ------------------------------------------------------------------ lookups
    def layout(self, lid: str) -> Layout:
        for lay in self.layouts:
            if lay.id == lid:
                return lay
        for lay in builtin_layouts().layouts:
            if lay.id == lid:
                return lay
        raise KeyError(lid)

    def symbol(self, sid: str) -> Symbol | None:
        for s in self.symbols:
            if s.id == sid:
                return s
        if self is not _BUILTIN.get("file"):
            return builtin_layouts().symbol(sid)
        return None

    # ------------------------------------------------------------------ cross-file checks
    def check_references(self, components: list, locator) -> list[Problem]:
        """Every component, layout, palette, colour and symbol named here must exist."""
        problems: list[Problem] = []
        known_layouts = {lay.id for lay in self.layouts} | _builtin_ids()
        by_id = {c.id: c for c in components}
        for cid, cl in self.components.items():
            here = ("components", cid)
            if cid not in by_id:
                problems.append(locator.problem(here, f"unknown component {cid!r}",
                                                "use a component id from components.yaml", key=True))
                continue
            refs: list[tuple[Any, str | None]] = [("front", cl.front), ("back", cl.back)]
            refs += [(("item_layouts", vi, side), getattr(v, side)) for vi, v in enumerate(cl.item_layouts)
                     for side in ("front", "back")]
            for where, lid in refs:
                if lid and lid not in known_layouts:
                    loc = here + (where if isinstance(where, tuple) else (where,))
                    problems.append(locator.problem(loc, f"unknown layout {lid!r}",
                                                    f"define it under `layouts` (known: {', '.join(sorted(known_layouts))})"))
        for li, lay in enumerate(self.layouts):
            if lay.extends and lay.extends not in known_layouts:
                problems.append(locator.problem(("layouts", li, "extends"), f"unknown layout {lay.extends!r}",
                                                "extend a layout defined in this file or a built-in one"))
            for fi, f in enumerate(lay.fields):
                problems += self._check_colours(f, ("layouts", li, "fields", fi), locator)
                if f.kind == "symbol" and f.symbol and "{" not in f.symbol and not self._has_symbol(f.symbol):
                    problems.append(locator.problem(("layouts", li, "fields", fi, "symbol"),
                                                    f"unknown symbol {f.symbol!r}", "define it under `symbols`"))
                for t in _texts(f.text):
                    for sym in INLINE_SYMBOL.findall(t):
                        if not self._has_symbol(sym):
                            problems.append(locator.problem(("layouts", li, "fields", fi, "text"),
                                                            f"unknown inline symbol ':{sym}:'",
                                                            "define it under `symbols`"))
            problems += self._check_colours(lay, ("layouts", li), locator, attrs=("background",))
        problems += self._check_cycles(locator)
        return problems

    def _has_symbol(self, sid: str) -> bool:
        return self.symbol(sid) is not None or builtin_layouts().symbol(sid) is not None

    def _check_colours(self, obj: Any, loc: tuple, locator, attrs=("fill", "stroke", "colour")) -> list[Problem]:
        problems = []
        for a in attrs:
            spec = getattr(obj, a, None)
            if isinstance(spec, ByAttr):
                if spec.palette and spec.palette not in self.palettes:
                    problems.append(locator.problem(loc + (a, "palette"), f"unknown palette {spec.palette!r}",
                                                    "define it under `palettes`"))
                for c in list(spec.map.values()) + ([spec.default] if spec.default else []):
                    if not self._colour_ok(c):
                        problems.append(locator.problem(loc + (a,), f"{c!r} is not a colour",
                                                        "write '#rrggbb' or a name from `colours`"))
            elif isinstance(spec, str) and "{" not in spec and not self._colour_ok(spec):
                problems.append(locator.problem(loc + (a,), f"{spec!r} is not a colour",
                                                "write '#rrggbb' or a name from `colours`"))
        return problems

    def _colour_ok(self, c: str) -> bool:
        return bool(HEX_COLOUR.match(c)) or c in self.colours or c in ("none", "current", "contrast")

    def _check_cycles(self, locator) -> list[Problem]:
        parents = {lay.id: lay.extends for lay in self.layouts}
        problems = []
        for li, lay in enumerate(self.layouts):
            seen, cur = {lay.id}, lay.extends
            while cur in parents:
                if cur in seen:
                    problems.append(locator.problem(("layouts", li, "extends"), f"layout {lay.id!r} extends itself",
                                                    "break the cycle of `extends`"))
                    break
                seen.add(cur)
                cur = parents[cur]
        return problems


def _texts(t: Union[str, dict[str, str], None]) -> list[str]:
    if t is None:
        return []
    return [t] if isinstance(t, str) else list(t.values())


def _builtin_ids() -> set[str]:
    return {lay.id for lay in builtin_layouts().layouts}


# Layouts every game may use or extend. Boxes are drawn for the layout's `size` and scaled to
# the component's size, so one generic card layout serves poker, bridge and mini cards alike.
BUILTIN_YAML = """
colours:
  ink: "#1a1a1a"
  paper: "#fbf8f0"
  frame: "#5a4a3a"
symbols:
  - id: dot
    shapes: [{kind: circle, cx: 5, cy: 5, r: 4, fill: current}]
  - id: diamond
    shapes: [{kind: polygon, points: [[5, 0.5], [9.5, 5], [5, 9.5], [0.5, 5]], fill: current}]
  - id: star
    shapes:
      - kind: polygon
        fill: current
        points: [[5, 0.3], [6.2, 3.6], [9.7, 3.7], [6.9, 5.9], [7.9, 9.4], [5, 7.3], [2.1, 9.4], [3.1, 5.9], [0.3, 3.7], [3.8, 3.6]]
layouts:
  - id: card-basic
    size: poker
    background: paper
    # What a card shows with no layout of its own: its name, its first attribute large in the
    # corner (a plain CSV's `value`), every attribute named in a line, and its text, fitted.
    fields:
      - {name: frame, kind: rect, box: [3, 3, 57, 82], stroke: frame, width: 0.6, radius: 3}
      - {name: title, kind: text, box: [6, 6, 51, 12], text: "{name}", weight: bold, size_pt: 12, colour: ink, where: {attrs.1: ""}}
      - {name: corner-ring, kind: circle, box: [5.5, 5.5, 12, 12], stroke: frame, width: 0.5, where: {attrs.1: "*"}}
      - {name: corner, kind: text, box: [6, 6, 11, 11], text: "{attrs.1}", size_pt: 14, min_size_pt: 6, colour: ink, wrap: false, where: {attrs.1: "*"}}
      - {name: title-beside-corner, kind: text, box: [19, 6, 38, 12], text: "{name}", weight: bold, size_pt: 12, colour: ink, where: {attrs.1: "*"}}
      - {name: rule, kind: line, box: [8, 19, 47, 0], stroke: frame, width: 0.3}
      - {name: attrs, kind: text, box: [7, 20.5, 49, 5], text: "{attrs}", size_pt: 7, min_size_pt: 6, align: left, colour: frame}
      - {name: body, kind: text, box: [7, 27, 49, 50], text: "{text}", size_pt: 9, align: left, valign: top, colour: ink}
      - {name: footer, kind: text, box: [6, 78, 51, 5], text: "{component}", size_pt: 6, colour: frame}
  - id: back-basic
    size: poker
    background: frame
    fields:
      - {name: frame, kind: rect, box: [4, 4, 55, 80], stroke: paper, width: 0.8, radius: 3}
      - {name: inner, kind: rect, box: [7, 7, 49, 74], stroke: paper, width: 0.3, radius: 2}
      - {name: title, kind: text, box: [7, 34, 49, 20], text: "{face.label|component}", weight: bold, size_pt: 16, colour: paper}
  - id: counter-basic
    size: half-inch
    background: {by: face.colour, default: paper}
    fields:
      - {name: label, kind: text, box: [1.3, 1.3, 10.1, 5.2], text: "{face.label|name}", size_pt: 6, min_size_pt: 6, colour: ink}
      - {name: values, kind: text, box: [1.3, 6.8, 10.1, 4.6], text: "{face.values|attrs.1-}", size_pt: 7, min_size_pt: 6, colour: ink}
  # Tokens, chips and tiles with no layout of their own: the name, then the values or attributes,
  # inside the circle a round token is cut to; the background from the face's colour.
  - id: token-basic
    size: {width_mm: 20, height_mm: 20}
    background: {by: face.colour, default: paper}
    fields:
      - {name: label, kind: text, box: [3.5, 5, 13, 6], text: "{face.label|name}", size_pt: 7, min_size_pt: 6, colour: contrast}
      - {name: values, kind: text, box: [4, 11.5, 12, 4], text: "{face.values|attrs.1-}", size_pt: 7, min_size_pt: 6, colour: contrast}
  - id: tile-basic
    size: {width_mm: 30, height_mm: 30}
    background: {by: face.colour, default: paper}
    fields:
      - {name: frame, kind: rect, box: [1.5, 1.5, 27, 27], stroke: contrast, width: 0.4, radius: 1.5}
      - {name: label, kind: text, box: [3, 4, 24, 12], text: "{face.label|name}", weight: bold, size_pt: 9, min_size_pt: 6, colour: contrast}
      - {name: values, kind: text, box: [3, 17, 24, 9], text: "{face.values|attrs}", size_pt: 7, min_size_pt: 6, colour: contrast}
  # A standee's face (each panel of the fold-over pawn): a frame, the name at the foot.
  - id: standee-basic
    size: {width_mm: 25, height_mm: 40}
    background: {by: face.colour, default: paper}
    fields:
      - {name: frame, kind: rect, box: [1.5, 1.5, 22, 37], stroke: contrast, width: 0.4, radius: 2}
      - {name: figure, kind: circle, box: [6, 5, 13, 13], stroke: contrast, width: 0.6}
      - {name: body, kind: rect, box: [5, 19, 15, 10], stroke: contrast, width: 0.6, radius: 4}
      - {name: label, kind: text, box: [3.5, 30, 18, 6.5], text: "{face.label|name}", size_pt: 7, min_size_pt: 6, colour: contrast}
  # A board or sheet: its name, its attributes and its note; boxes and tracks come from a layout.
  - id: board-basic
    size: {width_mm: 210, height_mm: 297}
    background: paper
    fields:
      - {name: frame, kind: rect, box: [8, 8, 194, 281], stroke: frame, width: 0.6, radius: 3}
      - {name: title, kind: text, box: [14, 14, 182, 16], text: "{name}", weight: bold, size_pt: 20, min_size_pt: 8, colour: ink}
      - {name: attrs, kind: text, box: [14, 34, 182, 40], text: "{attrs}", size_pt: 10, min_size_pt: 6, align: left, valign: top, colour: frame}
      - {name: note, kind: text, box: [14, 78, 182, 60], text: "{note}", size_pt: 10, min_size_pt: 6, align: left, valign: top, colour: ink}
  # A face of a die printed as a net: its label or values, large.
  - id: die-face-basic
    size: {width_mm: 16, height_mm: 16}
    background: {by: face.colour, default: "#ffffff"}
    fields:
      - {name: value, kind: text, box: [1.5, 1.5, 13, 13], text: "{face.label|face.values}", weight: bold, size_pt: 14, min_size_pt: 6, colour: contrast, wrap: false}
  # A tuck box's front and back: the deck's name (its back art is the deck's own back layout).
  - id: tuck-basic
    size: poker
    background: paper
    fields:
      - {name: frame, kind: rect, box: [3, 3, 57.5, 82.9], stroke: frame, width: 0.6, radius: 3}
      - {name: title, kind: text, box: [6, 30, 51.5, 20], text: "{component}", weight: bold, size_pt: 14, min_size_pt: 6, colour: ink}
"""
_BUILTIN: dict[str, "LayoutsFile"] = {}


def builtin_layouts() -> LayoutsFile:
    """The built-in layouts (parsed once)."""
    if "file" not in _BUILTIN:
        import yaml
        # libyaml's safe loader where installed: the same data as yaml.safe_load, a tenth of its time
        _BUILTIN["file"] = LayoutsFile.model_validate(yaml.load(BUILTIN_YAML, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    return _BUILTIN["file"]
