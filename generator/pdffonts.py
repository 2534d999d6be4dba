"""The fonts a PDF's pages and forms use without a font file, read from the file's objects alone.

Preflight asks this of every PDF a build writes (some 200). pypdf answered it by parsing every
object it reached whole, the fonts' width arrays number by number: about 0.4 CPU-s a build. The
answer needs only the page tree, the resource dictionaries, the fonts and their descriptors, so
this reads just those objects, through the file's cross-reference table, skipping a run of numbers
(a /Widths or /W array) in one step. Files it does not read so (a cross-reference stream, object
streams, encryption, anything malformed) are read with pypdf as before: `Unsupported` says so.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator


class Unsupported(Exception):
    """The file is not one this reader follows; read it with pypdf."""


class Ref(tuple):
    """An indirect reference: (object number, generation)."""


class Name(str):
    """A name object, kept with its leading slash, #xx escapes decoded (as pypdf does)."""


_WS = rb"(?:[\x00\t\n\x0c\r ]|%[^\r\n]*)*"
_SKIP = re.compile(_WS)
_TOKEN = re.compile(_WS + rb"""(?:
    (?P<numarray>\[(?:[\x00\t\n\x0c\r ]|[-+.0-9])*\])      # an array of numbers only: skipped whole
  | (?P<ref>[0-9]+)[\x00\t\n\x0c\r ]+(?P<gen>[0-9]+)[\x00\t\n\x0c\r ]+R(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])
  | (?P<open><<|\[)
  | (?P<close>>>|\])
  | (?P<name>/[^\x00\t\n\x0c\r ()<>\[\]{}/%]*)
  | (?P<hex><[^>]*>)
  | (?P<str>\()
  | (?P<word>[^\x00\t\n\x0c\r ()<>\[\]{}/%]+)
)""", re.X)
_OBJ = re.compile(_WS + rb"([0-9]+)[\x00\t\n\x0c\r ]+([0-9]+)[\x00\t\n\x0c\r ]+obj")
_SUBSECTION = re.compile(_WS + rb"([0-9]+)[ \t]+([0-9]+)")
_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_PAREN = re.compile(rb"\\.|[()]", re.S)
_CLOSE = object()


_NAMES: dict[bytes, Name] = {}  # a file's names are few and repeat (/Type, /F1...): each decoded once


def _skip(data: bytes, pos: int) -> int:
    """The position after the white space and comments at `pos`."""
    m = _SKIP.match(data, pos)
    return pos if m is None else m.end()


def _name(raw: bytes) -> Name:
    name = _NAMES.get(raw)
    if name is None:
        text = _ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), raw)
        try:
            name = Name(text.decode("utf-8"))
        except UnicodeDecodeError:
            name = Name(text.decode("latin-1"))
        if len(_NAMES) < 10000:
            _NAMES[raw] = name
    return name


def _string_end(data: bytes, pos: int) -> int:
    """The position after a literal string whose "(" ends at `pos` (parentheses nest)."""
    depth = 1
    for m in _PAREN.finditer(data, pos):
        c = m.group()
        if c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
            if not depth:
                return m.end()
    raise Unsupported("an unterminated string")


def parse(data: bytes, pos: int) -> tuple[Any, int]:
    """The object at `pos` and the position after it. Numbers, booleans and hex strings are kept as
    their bytes, literal strings and a run of numbers in brackets as None: nothing here needs them."""
    m = _TOKEN.match(data, pos)
    if m is None:
        raise Unsupported(f"no object at {pos}")
    kind, end = m.lastgroup, m.end()
    if kind == "gen":
        return Ref((int(m.group("ref")), int(m.group("gen")))), end
    if kind == "name":
        return _name(m.group("name")), end
    if kind == "str":
        return None, _string_end(data, end)
    if kind == "close":
        return _CLOSE, end
    if kind == "open":
        return _container(data, end, m.group("open") == b"<<")
    return (None if kind == "numarray" else m.group(kind or 0)), end


def _container(data: bytes, pos: int, is_dict: bool) -> tuple[Any, int]:
    items = []
    while True:
        value, pos = parse(data, pos)
        if value is _CLOSE:
            break
        items.append(value)
    if not is_dict:
        return items, pos
    if len(items) % 2 or not all(isinstance(k, Name) for k in items[::2]):
        raise Unsupported("a dictionary that is not name-value pairs")
    return dict(zip(items[::2], items[1::2])), pos


class Objects:
    """A PDF's objects by number, each parsed when first asked for, found by its cross-reference table."""

    def __init__(self, data: bytes):
        self.data = data
        self.offsets: dict[int, int] = {}
        self.trailer: dict = {}
        self._parsed: dict[int, Any] = {}
        tail = data.rfind(b"startxref")
        if tail < 0:
            raise Unsupported("no startxref")
        pos = int(data[tail + 9:tail + 40].split()[0])
        seen: set[int] = set()
        while pos not in seen:  # the newest table first, then each /Prev: the first offset of a number wins
            seen.add(pos)
            trailer = self._table(pos)
            for key, value in trailer.items():
                self.trailer.setdefault(key, value)
            if "/Prev" not in trailer:
                break
            pos = int(trailer["/Prev"])
        if "/Encrypt" in self.trailer or "/XRefStm" in self.trailer:
            raise Unsupported("encrypted, or with a cross-reference stream")

    def _table(self, pos: int) -> dict:
        """Read one classic cross-reference table at `pos` into `offsets`; its trailer dictionary."""
        data = self.data
        pos = _skip(data, pos)
        if not data.startswith(b"xref", pos):
            raise Unsupported("not a classic cross-reference table")
        pos += 4
        while True:
            head = _SUBSECTION.match(data, pos)
            if head is None:
                break
            first, count = int(head.group(1)), int(head.group(2))
            pos = _skip(data, head.end())
            for i in range(count):
                entry = data[pos:pos + 20]
                if len(entry) < 18 or entry[17:18] not in (b"n", b"f"):
                    raise Unsupported("a malformed cross-reference entry")
                if entry[17:18] == b"n":
                    self.offsets.setdefault(first + i, int(entry[:10]))
                pos = _skip(data, pos + 18)
        pos = _skip(data, pos)
        if not data.startswith(b"trailer", pos):
            raise Unsupported("no trailer")
        trailer, _ = parse(data, pos + 7)
        if not isinstance(trailer, dict):
            raise Unsupported("a trailer that is not a dictionary")
        return trailer

    def get(self, value: Any) -> Any:
        """`value`, or the object it refers to."""
        if not isinstance(value, Ref):
            return value
        num = value[0]
        if num not in self._parsed:
            offset = self.offsets.get(num)
            head = None if offset is None else _OBJ.match(self.data, offset)
            if head is None or int(head.group(1)) != num:  # pypdf reads a missing object as null
                raise Unsupported(f"object {num} is not where the table says")
            self._parsed[num] = parse(self.data, head.end())[0]
        return self._parsed[num]


def _pages(objs: Objects) -> Iterator[dict]:
    """Each page dictionary, in order, with /Resources inherited from its ancestors where it has none."""
    root = objs.get(objs.trailer.get("/Root"))
    if not isinstance(root, dict):
        raise Unsupported("no catalogue")
    stack: list[tuple[Any, Any, int]] = [(root.get("/Pages"), None, 0)]
    while stack:
        ref, inherited, depth = stack.pop()
        node = objs.get(ref)
        if not isinstance(node, dict) or depth > 100:
            raise Unsupported("a page tree this reader does not follow")
        resources = node.get("/Resources", inherited)
        kind = node.get("/Type")
        if kind == "/Pages" or (kind is None and "/Kids" in node):
            kids = objs.get(node.get("/Kids"))
            if not isinstance(kids, list):
                raise Unsupported("a /Pages node without kids")
            stack += [(kid, resources, depth + 1) for kid in reversed(kids)]
        elif kind == "/Page":
            yield {**node, "/Resources": resources}
        else:
            raise Unsupported(f"a page tree node of type {kind}")


def _met_before(obj: Any, met: set[Any]) -> bool:
    """Whether `obj` is a reference already in `met` (one not yet there is added): a direct object
    is never met before, as it is no other's."""
    if not isinstance(obj, Ref):
        return False
    if obj in met:
        return True
    met.add(obj)
    return False


def unembedded(path: Path) -> list[str]:
    """BaseFont names of the fonts used by pages or forms that carry no font file."""
    objs = Objects(path.read_bytes())
    bad: set[str] = set()
    seen: set[Any] = set()
    # the font dictionaries and fonts met by reference, each judged once (reportlab gives every page
    # of a book the same /Font dictionary, by reference); apart from the forms, as an object met one
    # way is still read the other way in a file that misuses it
    font_dicts: set[Any] = set()
    fonts_met: set[Any] = set()

    def walk(resources: Any) -> Iterator[dict]:
        if resources is None:
            return
        resources = _dict(objs.get(resources))
        fonts = resources.get("/Font", {})
        if not _met_before(fonts, font_dicts):
            for ref in _dict(objs.get(fonts)).values():
                if not _met_before(ref, fonts_met):
                    yield _dict(objs.get(ref))
        for ref in _dict(objs.get(resources.get("/XObject", {}))).values():
            if ref in seen:
                continue
            seen.add(ref)
            x = _dict(objs.get(ref))
            if x.get("/Subtype") == "/Form":
                yield from walk(x.get("/Resources"))

    for page in _pages(objs):
        for font in walk(page["/Resources"]):
            f = _dict(objs.get(objs.get(font["/DescendantFonts"])[0])) if font.get("/Subtype") == "/Type0" else font
            desc = _dict(objs.get(f.get("/FontDescriptor", {})))
            if not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                base = font.get("/BaseFont", "?")
                if not isinstance(base, str):
                    raise Unsupported("a /BaseFont that is not a name")
                bad.add(base.lstrip("/"))
    return sorted(bad)


def _dict(value: Any) -> dict:
    if not isinstance(value, dict):
        raise Unsupported("a dictionary expected")
    return value
