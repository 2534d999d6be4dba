"""Draw one face (front or back of a card or counter) from a declarative layout.

`FaceDrawer` knows a game's layouts file, its folder (for images) and its fonts per language
(`fonts.faces`: game.yaml `fonts:`, else the script's default), and the face data (facedata.py) the language;
`draw` puts a layout's fields into a trim box on any Surface. Layout boxes are in mm for the layout's
own `size` and are scaled to the face being drawn, so a poker layout also serves bridge cards.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from solver.errors import DataError, Problem
from solver.rules.cite import Citations
from solver.rules.load import rules_of
from solver.game.components import size_mm
from solver.game.layouts import (HEX_COLOUR, INLINE_SYMBOL, TEMPLATE_KEY, ByAttr, Field_, Layout,
                                 LayoutsFile, Symbol, builtin_layouts)

from .. import catalogue, fonts
from ..geometry import MM_PER_PT, Box
from ..render.base import Surface
from ..text.typography import typeset
from ..typesize import min_type_of
from . import textfit
from .facedata import FaceData, list_text
from .images import MIN_DPI, effective_dpi, load_image, low_dpi_warning
from .symbols import SymbolDrawing

if TYPE_CHECKING:
    from solver.game.loader import Game

FALLBACK_INK = "#1a1a1a"


@dataclass
class FaceDrawer:
    layouts: LayoutsFile
    folder: Path
    warn: Callable[[str], None]
    game: Game | None = None  # whose game.yaml `fonts:` chooses the face per language (None: the defaults)
    _fields: dict[str, tuple[tuple[float, float] | None, str | ByAttr | None, list[Field_]]] = field(default_factory=dict)
    _warned: set[str] = field(default_factory=set)
    _background: str = "#ffffff"  # what 'contrast' reads against: the fill under the field being drawn
    _fills: list[tuple[Box, str, str]] = field(default_factory=list)  # (box, rect|circle, colour) drawn so far
    _symbol_draws: dict[tuple[str, str], SymbolDrawing] = field(default_factory=dict)
    _symbol_ids: frozenset[str] | None = None
    _citations: Citations | None = None
    _faces: dict[str, fonts.Faces] = field(default_factory=dict)  # per language

    def cite(self, text: str, lang: str) -> str:
        """A piece's `{ref:clause-id}` as the clause's number and heading in `lang` (solver/rules/cite.py)."""
        if self.game is None:
            return text
        if self._citations is None:
            self._citations = Citations(self.game, rules_of(self.game))
        return self._citations.resolve(text, lang, lambda number, heading: catalogue.text(
            "pieces.clause_ref" if heading else "pieces.clause_ref_untitled", lang, number=number, heading=heading))

    def note(self, message: str) -> None:
        """Warn once: the same face is drawn to PDF, SVG and PNG, the warning is said once."""
        if message not in self._warned:
            self._warned.add(message)
            self.warn(message)

    # ------------------------------------------------------------------ layouts
    def resolved(self, lid: str) -> tuple[tuple[float, float] | None, str | ByAttr | None, list[Field_]]:
        """A layout with its `extends` chain applied: (design size, background, fields)."""
        if lid not in self._fields:
            lay: Layout = self.layouts.layout(lid)
            if lay.extends:
                psize, pbg, pfields = self.resolved(lay.extends)
            else:
                psize, pbg, pfields = None, None, []
            fields = [f for f in pfields if not (f.name and f.name in lay.drop)]
            for f in lay.fields:
                idx = next((i for i, pf in enumerate(fields) if f.name and pf.name == f.name), None)
                if idx is None:
                    fields.append(f)
                else:
                    fields[idx] = f
            size = size_mm(lay.size) if lay.size else psize
            bg = lay.background if lay.background is not None else pbg
            self._fields[lid] = (size, bg, fields)
        return self._fields[lid]

    def background(self, lid: str, data: FaceData) -> str | None:
        """The colour a layout fills its trim and bleed with, for `data` (None: no fill)."""
        return self.colour(self.resolved(lid)[1], data)

    def symbol(self, sid: str) -> Symbol | None:
        return self.layouts.symbol(sid) or builtin_layouts().symbol(sid)

    def symbol_ids(self) -> frozenset[str]:
        """The symbols text may draw inline: the game's and the built-in ones."""
        if self._symbol_ids is None:
            self._symbol_ids = frozenset(s.id for s in [*self.layouts.symbols, *builtin_layouts().symbols])
        return self._symbol_ids

    # ------------------------------------------------------------------ colours
    def colour(self, spec: str | ByAttr | None, data: FaceData) -> str | None:
        if spec is None:
            return None
        if isinstance(spec, ByAttr):
            value = data.lookup(spec.by)
            c = spec.map.get(value)
            if c is None and spec.palette:
                c = self.layouts.palettes.get(spec.palette, {}).get(value)
            if c is None and value and (HEX_COLOUR.match(value) or value in self.layouts.colours):
                c = value  # the attribute holds a colour itself (a counter face's `colour`)
            if c is None:
                c = spec.default
            return self._named(c, data) if c else None
        return self._named(data.fill(spec), data)

    def _named(self, c: str, data: FaceData) -> str | None:
        if not c or c == "none":
            return None
        if c == "contrast":
            return contrast(self._background)
        if HEX_COLOUR.match(c):
            return c
        named = self.layouts.colours.get(c) or builtin_layouts().colours.get(c)
        if named:
            return named
        raise DataError([Problem(data.where, 0, 0, f"{c!r} is not a colour",
                                 "use '#rrggbb' or a name from `colours` in layouts.yaml")])

    # ------------------------------------------------------------------ drawing
    def draw(self, s: Surface, lid: str, data: FaceData, trim: Box, bleed: float) -> None:
        design, bg, fields = self.resolved(lid)
        dw, dh = design or (trim.w, trim.h)
        sx, sy = trim.w / dw, trim.h / dh
        k = min(sx, sy)
        self._background = "#ffffff"
        background = self.colour(bg, data)
        self._fills = [(trim.outset(bleed), "rect", background or "#ffffff")]
        if background:
            s.rect(trim.outset(bleed), fill=background)
        for f in fields:
            if f.where and not data.matches(f.where):
                continue
            x, y, w, h = f.box
            box = Box(trim.x + x * sx, trim.y + y * sy, w * sx, h * sy)
            if f.bleed:
                box = _to_bleed(box, trim, bleed)
            # 'contrast' reads against the fill drawn last under the field's centre: the face's
            # background, or a band, panel or disc (a rect or circle field with a fill) drawn before
            self._background = _fill_under(self._fills, box.center)
            self._field(s, f, box, k, data)
            if f.kind in ("rect", "circle"):
                fill = self.colour(f.fill, data)
                if fill:
                    self._fills.append((box, f.kind, fill))

    def _field(self, s: Surface, f: Field_, box: Box, k: float, data: FaceData) -> None:
        fill, stroke = self.colour(f.fill, data), self.colour(f.stroke, data)
        width = f.width * k
        if f.kind == "rect":
            s.rect(box, fill=fill, stroke=stroke, width=width, radius=f.radius * k)
        elif f.kind == "circle":
            cx, cy = box.center
            s.circle(cx, cy, min(box.w, box.h) / 2, fill=fill, stroke=stroke, width=width)
        elif f.kind == "line":
            s.line(box.x, box.y, box.right, box.bottom, stroke=stroke or FALLBACK_INK, width=width)
        elif f.kind == "symbol":
            sid = data.fill(f.symbol)
            if sid:
                colour = self.colour(f.colour, data) or fill or FALLBACK_INK
                self._place_symbol(s, sid, box, colour, data)
        elif f.kind == "image":
            rel = data.fill(f.src)
            if rel:
                self._image(s, rel, box, f, data)
        elif f.kind in ("text", "list"):
            text = data.fill(f.text) if f.lists is None else list_text(self.game, f.lists, f.text, data)
            if "{ref:" in text:
                text = self.cite(text, data.lang)
            if text:
                self._text(s, f, text, box, k, data)

    def _place_symbol(self, s: Surface, sid: str, box: Box, colour: str, data: FaceData) -> None:
        sym = self.symbol(sid)
        if sym is None:
            raise DataError([Problem(data.where, 0, 0, f"unknown symbol {sid!r}",
                                     "define it under `symbols` in layouts.yaml")])
        if sym.src:  # a picture of the game folder, in its own colours (an icon needs no dpi warning)
            try:
                img = load_image(self.folder, sym.src, data.where)
            except DataError as e:
                raise DataError([self._at_symbol(sid, p) for p in e.problems]) from None
            s.image(box, img, fit="fit")
            return
        name = f"{sid}@{colour}"
        sw, sh = sym.size
        if not s.has_symbol(name):
            # one drawing per symbol, colour and background (a shape may be `contrast`), its colours
            # resolved (symbols.py): the PNG backend shares a symbol's tile between the images
            # drawn with an equal one, from this drawer or any other
            key = (name, self._background)
            if key not in self._symbol_draws:
                self._symbol_draws[key] = SymbolDrawing.of(sym, colour, lambda c: self._named(c, data))
            s.define_symbol(name, sw, sh, self._symbol_draws[key])
        scale = min(box.w / sw, box.h / sh)
        s.use_symbol(name, box.x + (box.w - sw * scale) / 2, box.y + (box.h - sh * scale) / 2, scale=scale)

    def _image(self, s: Surface, rel: str, box: Box, f: Field_, data: FaceData) -> None:
        from ..render.base import place_image

        try:
            img = load_image(self.folder, rel, data.where)
        except DataError as e:
            raise DataError([self._at_field(f, p, data) for p in e.problems]) from None
        placed = place_image(box, img.aspect, f.fit)
        if img.kind == "raster":
            dpi = effective_dpi(img, placed)
            if dpi < MIN_DPI:
                self.note(low_dpi_warning(data.where, rel, dpi, img))
        s.image(box, img, fit=f.fit)

    def _at_item(self, problem: Problem, data: FaceData, chars: list[str]) -> Problem:
        """`problem` in a piece's text, at the item's field that holds one of `chars`: its CSV cell
        (`cards.csv:5:7`) or its key in components.yaml; as it was when no field does."""
        from solver.game.base import pick
        from solver.game.usage import item_cell

        item, comp = data.item, data.component
        if item is None or self.game is None or not any(it is item for it in comp.items):
            return problem
        fields = [("name", pick(item.name, data.lang)), ("text", pick(item.text, data.lang)),
                  *((k, str(v)) for k, v in item.attrs.items())]
        key = next((k for k, v in fields if any(c in v for c in chars)), None)
        if key is None:
            return problem
        path, line, col = item_cell(self.game, comp, comps_index(comp.items, item), key, data.lang)
        return Problem(path, line, col, f"{problem.what} (in the {key} of {item.id})", problem.todo)

    def _at_symbol(self, sid: str, problem: Problem) -> Problem:
        """A symbol's picture that cannot be used, at its `src:` in layouts.yaml."""
        locator = getattr(self.game, "locators", {}).get("layouts.yaml")
        index = next((i for i, sym in enumerate(self.layouts.symbols) if sym.id == sid), None)
        if locator is None or index is None:
            return problem
        line, col = locator.at(("symbols", index, "src"))
        return Problem(locator.path, line, col, f"{problem.what} (symbol {sid!r}, for {problem.path})", problem.todo)

    def _at_field(self, f: Field_, problem: Problem, data: FaceData) -> Problem:
        """`problem`, found while drawing one piece, moved to the data line that caused it (the
        piece stays named in the message): the item's attribute (its CSV cell, or its key in
        components.yaml) when the field's `src` is just `{attribute}`, else the field in
        layouts.yaml; as it was when neither is a file of this game (a built-in layout)."""
        locators = getattr(self.game, "locators", {})
        located = None
        attr = (f.src or "")[1:-1] if TEMPLATE_KEY.fullmatch(f.src or "") else None
        comps, item = getattr(self.game, "components", []), data.item
        if attr and item is not None and attr in item.attrs and self.game is not None \
                and data.component.items_file in locators:
            from solver.game.usage import item_cell  # the cell of the card list (cards.csv:5:9)

            path, line, col = item_cell(self.game, data.component, comps_index(data.component.items, item), attr)
            return Problem(path, line, col, f"{problem.what} (for {problem.path})", problem.todo)
        if attr and item is not None and attr in item.attrs and "components.yaml" in locators \
                and not data.component.items_file:
            ci = next((i for i, c in enumerate(comps) if c is data.component), None)
            ii = next((i for i, it in enumerate(data.component.items) if it is item), None)
            if ci is not None and ii is not None:
                located = locators["components.yaml"].at(("components", ci, "items", ii, "attrs", attr))
                path = locators["components.yaml"].path
        if located is None and "layouts.yaml" in locators:
            for li, lay in enumerate(self.layouts.layouts):
                fi = next((i for i, candidate in enumerate(lay.fields) if candidate is f), None)
                if fi is not None:
                    located = locators["layouts.yaml"].at(("layouts", li, "fields", fi, "src"))
                    path = locators["layouts.yaml"].path
        if located is None:
            return problem
        return Problem(path, located[0], located[1], f"{problem.what} (for {problem.path})", problem.todo)

    def _text(self, s: Surface, f: Field_, text: str, box: Box, k: float, data: FaceData) -> None:
        if data.lang not in self._faces:
            self._faces[data.lang] = fonts.faces(data.lang, self.game)
        faces = self._faces[data.lang]
        font = faces.bold if f.weight == "bold" else faces.regular
        known = self.symbol_ids()
        text, plain = _printed(text, data.lang, known)
        if not _font_has_all(plain, font):
            try:
                fonts.require_glyphs(plain, data.where, font)  # raises, naming the character and the card
            except DataError as e:  # ... moved to the cell of the CSV (or the key) that holds it
                raise DataError([self._at_item(p, data, fonts.missing_glyphs(plain, font)) for p in e.problems]) from None
        # never under the game's smallest type on a piece (6 pt unless game.yaml lowers it)
        floor = min_type_of(self.game.meta if self.game is not None else None)
        size = max(f.size_pt * k, floor)
        min_size = max((f.min_size_pt * k) if f.min_size_pt else size * 0.6, floor)
        fitted = textfit.fit(text, box.w, box.h, size, min(min_size, size), f.line_height, f.wrap, data.lang, font,
                             known)
        if not fitted.fits:
            self.note(f"{data.where}: text {text[:30]!r} of field {f.name or f.kind!r} does not fit its "
                      f"{box.w:.1f}x{box.h:.1f} mm box at {fitted.size_pt:.2f} pt, the smallest type allowed; "
                      f"shorten it (a line break or a shorter name in the data) or enlarge the box in layouts.yaml")
        em = fitted.size_pt * MM_PER_PT
        block = textfit.block_height(len(fitted.lines), fitted.size_pt, f.line_height, font)
        top = {"top": box.y, "middle": box.y + (box.h - block) / 2, "bottom": box.bottom - block}[f.valign]
        colour = self.colour(f.colour, data) or FALLBACK_INK
        ascent = fonts.font_info(font).ascent
        for i, line in enumerate(fitted.lines):
            baseline = top + ascent * em + i * em * f.line_height
            lw = textfit.line_width(line, fitted.size_pt, font)
            x = {"left": box.x, "center": box.x + (box.w - lw) / 2, "right": box.right - lw}[f.align]
            self._line(s, line, x, baseline, fitted.size_pt, colour, font, data)

    def _line(self, s: Surface, line: list[textfit.Atom], x: float, baseline: float, size_pt: float,
              colour: str, font: str, data: FaceData) -> None:
        run, run_font = "", font
        run_x = x
        for a in line:
            a_font = a.font(font) or font  # **bold**, *italic*: a run of its own in that weight
            if a.symbol or a_font != run_font:
                if run:
                    s.text(run_x, baseline, run, size_pt=size_pt, colour=colour, font=run_font)
                    run_x += textfit.line_width([textfit.Atom(run)], size_pt, run_font)
                run, run_font = "", a_font
            if a.symbol:
                em = size_pt * MM_PER_PT
                self._place_symbol(s, a.symbol, Box(run_x, baseline - 0.85 * em, em, em), colour, data)
                run_x += a.width(size_pt, font)
            else:
                run += a.text
        if run:
            s.text(run_x, baseline, run, size_pt=size_pt, colour=colour, font=run_font)


def comps_index(items: list, item: object) -> int:
    """The position of `item` (this very object) in its component's items."""
    return next(i for i, it in enumerate(items) if it is item)


@lru_cache(maxsize=8192)
def _printed(text: str, lang: str, known: frozenset[str]) -> tuple[str, str]:
    """A field's text as printed, and its characters the font must have; cached, for a deck and a
    counter sheet repeat their strings. Printed: the language's punctuation (quotes, dashes, minus),
    inline :symbols: kept as typed, and a field of numbers alone a factor line (4-3), not a range.
    A `:name:` with no such symbol (not in `known`) prints as typed (solver/game/usage.py warns)."""
    text = typeset(text, lang, [m.span() for m in INLINE_SYMBOL.finditer(text)], factors=True)
    return text, textfit.unmarked(INLINE_SYMBOL.sub(lambda m: "" if m.group(1) in known else m.group(0), text))


@lru_cache(maxsize=8192)
def _font_has_all(text: str, font: str) -> bool:
    """The glyph check of a card's text, cached: a deck repeats its strings."""
    return not fonts.missing_glyphs(text, font)


def _fill_under(fills: list[tuple[Box, str, str]], point: tuple[float, float]) -> str:
    """The colour of the last of `fills` (box, rect or circle, colour) that covers `point`."""
    px, py = point
    for box, kind, colour in reversed(fills):
        if kind == "circle":
            cx, cy = box.center
            if (px - cx) ** 2 + (py - cy) ** 2 <= (min(box.w, box.h) / 2) ** 2:
                return colour
        elif box.x <= px <= box.right and box.y <= py <= box.bottom:
            return colour
    return "#ffffff"


def contrast(background: str) -> str:
    """Near-black or white, whichever reads better on `background` (WCAG relative luminance)."""
    c = background.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    lum = 0.2126 * lin(int(c[0:2], 16)) + 0.7152 * lin(int(c[2:4], 16)) + 0.0722 * lin(int(c[4:6], 16))
    return FALLBACK_INK if lum > 0.18 else "#ffffff"


def _to_bleed(box: Box, trim: Box, bleed: float) -> Box:
    """Grow each side of `box` that touches (or passes) the trim edge out to the bleed edge."""
    eps = 1e-6
    x0 = trim.x - bleed if box.x <= trim.x + eps else box.x
    y0 = trim.y - bleed if box.y <= trim.y + eps else box.y
    x1 = trim.right + bleed if box.right >= trim.right - eps else box.right
    y1 = trim.bottom + bleed if box.bottom >= trim.bottom - eps else box.bottom
    return Box(x0, y0, x1 - x0, y1 - y0)

