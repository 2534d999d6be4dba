"""How an SVG page is written (render/svg.py draws it): the text ElementTree.tostring would make of
svgwrite's element tree, character for character, without building that tree; and the light
elements the SVG backend makes instead of svgwrite's for what a sheet has thousands of (a glyph's
`<use>`, a line of text's group, a rectangle, a line), written here in their parent's loop."""
from __future__ import annotations

from functools import lru_cache
from typing import Any
from xml.etree import ElementTree


class _GlyphUse:
    """A glyph's `<use>` in a line of text, written as svgwrite writes a `use` with `x` and
    `xlink:href` (attributes sorted, `x` left out at 0) but made without its element machinery:
    a page of counters places tens of thousands of them, and svgwrite's elements were a fifth of
    the card and counter stages' time. `_element_xml` writes it in its parent's loop."""
    elementname = "use"
    __slots__ = ("href", "x")

    def __init__(self, href: str, x: int) -> None:
        self.href, self.x = href, x

    def get_xml(self) -> ElementTree.Element:
        el = ElementTree.Element("use")
        if self.x:
            el.set("x", str(self.x))
        el.set("xlink:href", self.href)
        return el


class _Light:
    """An element written as svgwrite writes one with the same attributes (sorted, empty ones left
    out) and children, made without its element machinery: a sheet has thousands of lines of
    text, rectangles and crop marks, and making each as an svgwrite element cost more than writing
    it. A line of text is a `g` with its `title` (the string) first, then its glyphs' `<use>` (or
    a `g` per run of another face); a rectangle or a line has neither."""
    __slots__ = ("elementname", "attribs", "elements", "title")

    def __init__(self, elementname: str, attribs: dict[str, Any], title: str | None = None) -> None:
        self.elementname, self.attribs, self.title = elementname, attribs, title
        self.elements: list[Any] = []

    def get_xml(self) -> ElementTree.Element:
        """The element svgwrite would make (for a tree written by svgwrite itself)."""
        el = ElementTree.Element(self.elementname)
        for k, v in sorted(self.attribs.items()):
            if v is not None and (v := str(v)):
                el.set(k, v)
        if self.title is not None:
            ElementTree.SubElement(el, "title").text = self.title
        for child in self.elements:
            el.append(child.get_xml())
        return el


def _page_xml(dwg: Any) -> str:
    """A page as ElementTree.tostring(dwg.get_xml()) writes it, character for character, without
    building the element tree (a page of counters has tens of thousands of elements): each svgwrite
    element written as its own get_xml would make it, attributes sorted and empty ones left out."""
    # svgwrite's Drawing.get_xml names its namespaces and profile; it also declares an XML Events
    # namespace we never use, which the SVG 1.1 DTD does not allow: left out
    dwg.attribs.update({"xmlns": "http://www.w3.org/2000/svg", "xmlns:xlink": "http://www.w3.org/1999/xlink",
                        "baseProfile": dwg.profile, "version": dwg.version})
    dwg.attribs.pop("xmlns:ev", None)
    out: list[str] = []
    _element_xml(dwg, out)
    return "".join(out)


@lru_cache(maxsize=1)
def _svgwrite_classes() -> tuple[Any, ...]:
    from svgwrite import Drawing
    from svgwrite.base import BaseElement, Title
    from svgwrite.container import Use
    from svgwrite.path import Path as SvgPath
    from svgwrite.shapes import Polyline
    from svgwrite.utils import strlist

    return Drawing, BaseElement, Title, Use, SvgPath, Polyline, strlist


def _element_xml(el: Any, out: list[str]) -> None:
    Drawing, BaseElement, Title, Use, SvgPath, Polyline, strlist = _svgwrite_classes()
    kind = type(el)
    if kind is _Light:
        _light_xml(el, out)
        return
    if isinstance(el, Title) and not len(el.xml) and not el.xml.attrib:  # <title>, <desc>: text alone
        text = el.xml.text
        out.append(f"<{el.elementname}>{_esc_text(text)}</{el.elementname}>" if text else f"<{el.elementname} />")
        return
    if isinstance(el, SvgPath):  # what their own get_xml does before BaseElement's
        el.attribs["d"] = str(strlist(el.commands, " "))
    elif isinstance(el, Polyline):
        el.attribs["points"] = el.points_to_string(el.points)
    elif isinstance(el, Use):
        el.update_id()
    elif kind.get_xml is not BaseElement.get_xml and kind is not Drawing or el.debug or el.profile == "tiny":
        out.append(ElementTree.tostring(el.get_xml(), encoding="unicode"))  # any other: as svgwrite writes it
        return
    _tree_xml(el.elementname, el.attribs, None, el.elements, out)


def _light_xml(el: _Light, out: list[str]) -> None:
    """A `_Light` as `_element_xml` writes an svgwrite element with the same attributes and children."""
    _tree_xml(el.elementname, el.attribs, el.title, el.elements, out)


def _tree_xml(name: str, attribs: dict[str, Any], title: str | None, elements: list[Any], out: list[str]) -> None:
    """An element as svgwrite writes it: attributes sorted, empty ones left out; its `title` (a
    `_Light`'s) first among its children."""
    out.append("<" + name)
    for k, v in sorted(attribs.items()):
        if v is not None and (v := str(v)):
            out.append(f' {k}="{_esc_attr(v)}"')
    if title is None and not elements:
        out.append(" />")
        return
    out.append(">")
    if title is not None:
        out.append(f"<title>{_esc_text(title)}</title>" if title else "<title />")
    for child in elements:
        if type(child) is _GlyphUse:  # the most frequent element by far: written here, not by a call
            out.append(f'<use x="{child.x}" xlink:href="{_esc_attr(child.href)}" />' if child.x
                       else f'<use xlink:href="{_esc_attr(child.href)}" />')
        else:
            _element_xml(child, out)
    out.append(f"</{name}>")


_esc_attr = ElementTree._escape_attrib  # type: ignore[attr-defined]  # ElementTree's own escaping
_esc_text = ElementTree._escape_cdata  # type: ignore[attr-defined]
