"""Layouts from data: extends/drop, colours by attribute, text that fits its box or warns,
Japanese line breaking, missing glyphs, and located errors in layouts.yaml."""
from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cards.face import FaceData, FaceDrawer
from generator.cards.textfit import fit, wrap
from generator.text.kinsoku import NOT_AT_LINE_END as NO_END, NOT_AT_LINE_START as NO_START
from generator.geometry import Box
from pdf_units import MM_PER_PT
from generator import fonts
from generator.render.base import text_width
from solver.errors import DataError
from solver.game.components import Component, Item, size_mm
from solver.game.layouts import LayoutsFile
from solver.game.loader import load_game

FIXTURE = Path(__file__).parent / "fixtures" / "cards-with-images"


class Recorder:
    """A Surface that records what is drawn (text with its extents in mm)."""

    def __init__(self):
        self.texts: list[tuple[str, Box]] = []
        self.rects: list[tuple[Box, str | None]] = []
        self.symbols: dict[str, tuple] = {}

    def text(self, x, y, s, *, size_pt, colour="#000000", align="left", font=None):
        w = text_width(s, size_pt, font)
        x0 = {"left": x, "center": x - w / 2, "right": x - w}[align]
        em = size_pt * MM_PER_PT
        info = fonts.font_info(font or fonts.register())
        self.texts.append((s, Box(x0, y - info.ascent * em, w, (info.ascent + info.descent) * em)))

    def rect(self, box, *, fill=None, stroke=None, width=0.25, radius=0.0):
        self.rects.append((box, fill))

    def has_symbol(self, name):
        return name in self.symbols

    def define_symbol(self, name, w, h, draw):
        self.symbols[name] = (w, h)

    def use_symbol(self, name, x, y, *, scale=1.0):
        pass

    def line(self, *a, **k): pass
    def polyline(self, *a, **k): pass
    def polygon(self, *a, **k): pass
    def circle(self, *a, **k): pass
    def image(self, *a, **k): pass

    @contextmanager
    def group(self, **k):
        yield


def layouts(data: dict) -> LayoutsFile:
    return LayoutsFile.model_validate(data)


POKER = size_mm("poker")  # the layouts below are poker-sized and drawn at that trim


def comp(text: str, **attrs) -> tuple[Component, Item]:
    item = Item(id="c1", name={"en": "Card", "ja": "カード"}, text={"en": text, "ja": text}, attrs=attrs)
    return Component(id="deck", kind="deck", name={"en": "Deck"}, items=[item]), item


def draw(lf: LayoutsFile, lid: str, text: str, warnings: list, **attrs) -> Recorder:
    c, item = comp(text, **attrs)
    rec = Recorder()
    FaceDrawer(lf, FIXTURE, warnings.append).draw(rec, lid, FaceData(item, c, None, "en", "g/deck/c1"),
                                                    Box(10, 20, *POKER), 3.0)
    return rec


BODY = {"layouts": [{"id": "t", "size": "poker", "fields": [
    {"name": "body", "kind": "text", "box": [5, 10, 40, 20], "text": "{text}", "size_pt": 12, "min_size_pt": 6,
     "align": "left", "valign": "top"}]}]}


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="あいうえお カード、。「」abc Wizard 12", min_size=1, max_size=80))
def test_text_that_fits_stays_inside_its_box(text):
    warnings: list = []
    rec = draw(layouts(BODY), "t", text, warnings)
    box = Box(15, 30, 40, 20)
    if not warnings:
        for s, ext in rec.texts:
            assert box.contains(ext, tol=0.01), (s, ext)


def test_long_text_shrinks_then_warns_naming_the_card():
    warnings: list = []
    draw(layouts(BODY), "t", "Draw two cards and discard one. " * 3, warnings)
    assert warnings == []
    draw(layouts(BODY), "t", "Draw two cards and discard one. " * 30, warnings)
    assert len(warnings) == 1 and "g/deck/c1" in warnings[0] and "does not fit" in warnings[0]


def test_japanese_wrapping_keeps_kinsoku():
    text = "財宝の鉱山。上で移動を終えたら「残っていれば」対応する財宝カードを1枚取る、そして(次へ)。"
    for width in (12, 17, 23, 31):
        for line in wrap(text, width, 9):
            s = "".join(a.text for a in line)
            assert s[:1] not in NO_START and s[-1:] not in NO_END, (width, s)


def test_fit_picks_the_largest_size_that_fits():
    f = fit("one two three four five six", 20, 10, 12, 4, 1.2)
    assert f.fits
    bigger = fit("one two three four five six", 20, 10, f.size_pt + 0.25, f.size_pt + 0.25, 1.2)
    assert not bigger.fits


def test_extends_replaces_by_name_keeps_order_and_drops():
    lf = layouts({"layouts": [
        {"id": "base", "size": "poker", "background": "#ffffff", "fields": [
            {"name": "a", "kind": "rect", "box": [0, 0, 10, 10], "fill": "#111111"},
            {"name": "b", "kind": "rect", "box": [0, 0, 20, 20], "fill": "#222222"},
            {"name": "c", "kind": "rect", "box": [0, 0, 30, 30], "fill": "#333333"}]},
        {"id": "child", "extends": "base", "drop": ["c"], "fields": [
            {"name": "a", "kind": "rect", "box": [0, 0, 11, 11], "fill": "#444444"},
            {"name": "d", "kind": "rect", "box": [0, 0, 5, 5], "fill": "#555555"}]}]})
    rec = draw(lf, "child", "", [])
    assert [fill for _, fill in rec.rects] == ["#ffffff", "#444444", "#222222", "#555555"]


def test_colour_by_attribute_from_a_palette_with_default():
    lf = layouts({"palettes": {"suits": {"ruby": "#c0283c"}}, "layouts": [{"id": "t", "size": "poker", "fields": [
        {"kind": "rect", "box": [0, 0, 63, 10], "fill": {"by": "suit", "palette": "suits", "default": "#999999"}}]}]})
    assert draw(lf, "t", "", [], suit="ruby").rects[0][1] == "#c0283c"
    assert draw(lf, "t", "", [], suit="coin").rects[0][1] == "#999999"


def test_bleed_field_reaches_the_bleed_edge_only_where_it_touches_the_trim():
    lf = layouts({"layouts": [{"id": "t", "size": "poker", "fields": [
        {"kind": "rect", "box": [0, 0, POKER[0], 15], "bleed": True, "fill": "#123456"}]}]})
    (box, _), = draw(lf, "t", "", []).rects
    assert box.rounded(2) == (7.0, 17.0, POKER[0] + 6, 18.0)


def test_missing_glyph_is_an_error_naming_the_character_and_the_card():
    with pytest.raises(DataError) as e:
        draw(layouts(BODY), "t", "Roll \U0001F3B2 now", [])
    msg = str(e.value)
    assert "U+1F3B2" in msg and "g/deck/c1" in msg and len(msg.splitlines()) == 1


def test_unknown_layout_and_symbol_are_located_errors(tmp_path):
    dest = tmp_path / "g"
    shutil.copytree(FIXTURE, dest)
    text = (dest / "layouts.yaml").read_text()
    text = text.replace("front: art-front", "front: art-frnt").replace("symbol: shield, colour", "symbol: shild, colour")
    (dest / "layouts.yaml").write_text(text)
    with pytest.raises(DataError) as e:
        load_game(dest)
    lines = str(e.value).splitlines()
    assert len(lines) == 2
    assert any("layouts.yaml:" in ln and "unknown layout 'art-frnt'" in ln for ln in lines)
    assert any("layouts.yaml:" in ln and "unknown symbol 'shild'" in ln for ln in lines)
    for ln in lines:
        path, line, col = ln.split(":")[:3]
        assert int(line) > 0 and int(col) > 0


def test_extends_cycle_is_reported(tmp_path):
    dest = tmp_path / "g"
    shutil.copytree(FIXTURE, dest)
    text = (dest / "layouts.yaml").read_text().replace("  - id: art-front\n", "  - id: art-front\n    extends: art-fit\n")
    (dest / "layouts.yaml").write_text(text)
    with pytest.raises(DataError) as e:
        load_game(dest)
    assert "extends itself" in str(e.value)


def test_face_data_answers_each_where_and_template_alone_and_compares_by_its_data():
    """FaceData keeps what it answered (a face is drawn for every copy, its PNG and its back): a
    `where` mapping is told apart by identity even when a freed one's id comes back, and equal
    data stays equal whatever either was asked."""
    c, item = comp("Hello", colour="red", rank="3")
    data = FaceData(item, c, None, "en", "g/deck/c1")
    other = FaceData(item, c, None, "en", "g/deck/c1")
    for _ in range(50):  # mappings made and freed in turn: CPython hands their ids out again
        assert data.matches({"colour": "red"}) and not data.matches({"colour": "blue"})
        assert data.matches({"rank": ["2", "3"]}) and not data.matches({"rank": "*", "colour": "green"})
    assert data.fill("{name} {rank}") == "Card 3" and data.fill({"en": "{colour}!", "ja": "x"}) == "red!"
    assert data.lookup("missing|rank") == "3" and data.fill("{missing}") == ""
    assert data == other and data != FaceData(item, c, None, "ja", "g/deck/c1")
