"""How an SVG page is written (render/svg.py draws it): the text ElementTree.tostring would make
of the svgwrite element tree the backend once built, character for character (attributes sorted,
empty ones left out, a childless element closed as ` />`), without building either tree (only
ElementTree's own escaping is used).

An element whose attributes and children are all known when it is drawn (a rectangle, a line, a
line of text with its glyphs' `<use>`, a glyph's outline) is written to its string at once
(`leaf`, `element`); only the containers that are filled as the drawing goes on (the page, its
`<defs>`, a symbol, a clipped group) stay `Node`s until the page ends (`page_xml`). A sheet of
counters has tens of thousands of elements: svgwrite's element objects, and then writing each
from its object, were most of the SVG backend's time."""
from __future__ import annotations

from typing import Any, Union
from xml.etree import ElementTree

_esc_attr = ElementTree._escape_attrib  # type: ignore[attr-defined]  # ElementTree's own escaping
_esc_text = ElementTree._escape_cdata  # type: ignore[attr-defined]


def attrs_xml(attribs: dict[str, Any]) -> str:
    """The attributes as ElementTree writes svgwrite's: sorted by name, each value as `str` gives
    it, None and empty values left out."""
    out = []
    for k, v in sorted(attribs.items()):
        if v is not None and (text := str(v)):
            out.append(f' {k}="{_esc_attr(text)}"')
    return "".join(out)


def leaf(name: str, attribs: dict[str, Any]) -> str:
    """An element without children."""
    return f"<{name}{attrs_xml(attribs)} />"


def element(name: str, attribs: dict[str, Any], title: str | None, children: str) -> str:
    """An element with its (already written) children; `title`, when not None, is its first child
    (a line of text's string, kept for search and accessibility)."""
    if title is None and not children:
        return leaf(name, attribs)
    head = f"<{name}{attrs_xml(attribs)}>"
    if title is not None:
        head += f"<title>{_esc_text(title)}</title>" if title else "<title />"
    return f"{head}{children}</{name}>"


class Node:
    """A container element being filled while the page is drawn: its children are written
    elements (strings) and other containers."""
    __slots__ = ("name", "attribs", "children")

    def __init__(self, name: str, attribs: dict[str, Any]) -> None:
        self.name, self.attribs = name, attribs
        self.children: list[Union[str, Node]] = []


def page_xml(root: Node) -> str:
    """The page `root` (its `svg` element) as text."""
    out: list[str] = []
    _node_xml(root, out)
    return "".join(out)


def _node_xml(node: Node, out: list[str]) -> None:
    if not node.children:
        out.append(leaf(node.name, node.attribs))
        return
    out.append(f"<{node.name}{attrs_xml(node.attribs)}>")
    for child in node.children:
        if isinstance(child, str):
            out.append(child)
        else:
            _node_xml(child, out)
    out.append(f"</{node.name}>")
