"""A PDF reportlab wrote, read by its cross-reference table, and objects of it written out as pypdf's
writer writes its clones: the booklet's imposition (impose.py) without pypdf's parse and clone.

    Book(pdf)             the book's pages (contents, media box, resources) and its title; raises
                          NotPlain for anything else than reportlab writes (impose.py lets pypdf do it)
    Output(book)          the booklet's objects, numbered as pypdf numbers them: form(page), add(bytes)
    sheet(...)            a sheet's page object

pypdf's writer is the reference: for every book of the example games the bytes are the same
(tests/test_rulebook_impose.py compares the two). What is parsed is the subset of PDF syntax
reportlab writes for a book's pages and fonts: dictionaries, arrays, plain names, numbers,
references, booleans, streams with a direct /Length. A string, a name with an escape, a comment
or a stream without its length raises NotPlain, since pypdf's way of writing them back is not
repeated here; the book's title, a string, is read and written by pypdf itself.
"""
from __future__ import annotations

import io
import re
from math import log10
from typing import Any, Callable, Union

from pypdf.generic import DictionaryObject, NameObject, create_string_object, read_object

PRODUCER = "pnp-forge"


class NotPlain(Exception):
    """The file holds something this reader does not read as pypdf would."""


class Name(str):
    """A PDF name, its slash included (a value of a dictionary or an array, told from a number)."""


class Ref(int):
    """A reference to an object of the book (generation 0), by its number."""


class Flag(str):
    """true, false or null."""


Value = Union[int, float, Name, Ref, Flag, list, dict]

_TOKEN = re.compile(
    rb"[\x00\t\n\x0c\r ]*(?:"
    rb"(<<|>>|\[|\])"  # 1: a dictionary's or an array's bounds
    rb"|(/[^\x00-\x20\x7f-\xff#()<>\[\]{}/%]*)(?![#\x7f-\xff])"  # 2: a name with no escape to undo
    rb"|(\d+) 0 R(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])"  # 3: a reference
    rb"|([-+]?(?:\d+\.?\d*|\.\d+))(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])"  # 4: a number
    rb"|(true|false|null)(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])"  # 5
    rb")")
# an array of numbers only (a font's widths: hundreds), read at once
_NUMBERS = re.compile(rb"\[((?:[\t\n\x0c\r ]*[-+]?(?:\d+\.?\d*|\.\d+)(?=[\t\n\x0c\r \]]))*)[\t\n\x0c\r ]*\]")
_STREAM = re.compile(rb"[\x00\t\n\x0c\r ]*stream\r?\n")
_XREF = re.compile(rb"xref\r?\n0 (\d+)\r?\n")
_TRAILER = re.compile(rb"trailer[\s\S]*?/Info (\d+) 0 R[\s\S]*?/Root (\d+) 0 R")


def _value(data: bytes, pos: int) -> tuple[Value, int]:
    """The value at `pos` and the position after it."""
    m = _TOKEN.match(data, pos)
    if m is None:
        raise NotPlain(f"unread syntax at byte {pos}: {data[pos:pos + 20]!r}")
    bound, name, ref, number, flag = m.groups()
    end = m.end()
    if name is not None:
        return Name(name.decode("ascii")), end
    if ref is not None:
        return Ref(int(ref)), end
    if number is not None:
        return (float(number) if b"." in number else int(number)), end
    if flag is not None:
        return Flag(flag.decode("ascii")), end
    if bound == b"[":
        numbers = _NUMBERS.match(data, m.start(1))
        if numbers is not None:
            return [float(t) if b"." in t else int(t) for t in numbers.group(1).split()], numbers.end()
        items: list[Value] = []
        while True:
            m = _TOKEN.match(data, end)
            if m is not None and m.group(1) == b"]":
                return items, m.end()
            item, end = _value(data, end)
            items.append(item)
    if bound == b"<<":
        entries: dict[str, Value] = {}
        while True:
            m = _TOKEN.match(data, end)
            if m is not None and m.group(1) == b">>":
                return entries, m.end()
            key, end = _value(data, end)
            if not isinstance(key, Name):
                raise NotPlain(f"a dictionary's key is not a name at byte {end}")
            entries[key], end = _value(data, end)
    raise NotPlain(f"unexpected {bound!r} at byte {pos}")


class Book:
    """The pages of a PDF reportlab wrote: each page's dictionary; objects read as asked."""

    def __init__(self, pdf: bytes):
        self.pdf = pdf
        self.offsets = self._xref()
        at = pdf.rfind(b"trailer")
        trailer = _TRAILER.search(pdf, at) if at >= 0 and b"/Encrypt" not in pdf[at:] else None
        if trailer is None:  # (an encrypted file's strings and streams pypdf would decrypt)
            raise NotPlain("no /Info and /Root in the trailer, or an /Encrypt")
        self.info = int(trailer.group(1))
        catalog = self.object(int(trailer.group(2)))[0]
        tree = self.object(_ref(_dict(catalog).get("/Pages")))[0]
        self.pages: list[dict[str, Value]] = []
        self.boxes: list[list[float]] = []  # each page's media box
        for kid in _list(_dict(tree).get("/Kids")):
            page = _dict(self.object(_ref(kid))[0])
            if page.get("/Type") != "/Page" or not isinstance(page.get("/Contents"), Ref) \
                    or not isinstance(page.get("/Resources"), (dict, Ref)):
                raise NotPlain("a page without its own contents stream and resources")
            box = _list(page.get("/MediaBox"))
            if len(box) != 4 or not all(type(v) in (int, float) for v in box):
                raise NotPlain("a page without its own media box")
            self.pages.append(page)
            self.boxes.append([float(v) for v in box])  # type: ignore[arg-type]  # numbers, as just seen

    def _xref(self) -> list[int]:
        """Each object's offset (index: its number; 0: none), from the file's one xref table."""
        pdf = self.pdf
        tail = re.search(rb"startxref\r?\n(\d+)\r?\n%%EOF\r?\n?$", pdf[-64:])
        m = _XREF.match(pdf, int(tail.group(1))) if tail else None
        if m is None:
            raise NotPlain("no single cross-reference table")
        n, at = int(m.group(1)), m.end()
        table = pdf[at:at + 20 * n]
        rows = [table[i:i + 20] for i in range(0, len(table), 20)]
        if len(rows) != n or any(r[11:18] not in (b"00000 n", b"65535 f") for r in rows):
            raise NotPlain("a cross-reference table of other rows than reportlab's")
        return [int(r[:10]) if r[17:18] == b"n" else 0 for r in rows]

    def object(self, num: int) -> tuple[Value, bytes | None]:
        """Object `num`'s value and, for a stream, its bytes as stored (still encoded)."""
        at = self.offsets[num] if 0 < num < len(self.offsets) else 0
        head = b"%d 0 obj" % num
        if not at or not self.pdf.startswith(head, at):
            raise NotPlain(f"object {num} is not where the table says")
        value, end = _value(self.pdf, at + len(head))
        m = _STREAM.match(self.pdf, end)
        if m is None:
            return value, None
        length = _dict(value).get("/Length")
        if type(length) is not int or not self.pdf.startswith(b"endstream", m.end() + length):
            raise NotPlain(f"stream {num} without a direct length that ends it")
        return value, self.pdf[m.end():m.end() + length]

    def size(self, src: int) -> tuple[float, float]:
        """Page `src`'s (1-based) width and height, pt."""
        x0, y0, x1, y1 = self.boxes[src - 1]
        return x1 - x0, y1 - y0

    def title(self) -> str:
        """The title as pypdf's reader gives it (it decodes the string)."""
        at = self.offsets[self.info] if 0 < self.info < len(self.offsets) else 0
        stream = io.BytesIO(self.pdf)
        start = _TOKEN.match(self.pdf, at + len(b"%d 0 obj" % self.info)) if at else None
        if start is None or start.group(1) != b"<<":
            raise NotPlain("no Info dictionary")
        stream.seek(start.start(1))  # pypdf's read_object skips no white space
        info = read_object(stream, None)
        if not isinstance(info, DictionaryObject):
            raise NotPlain("the Info is not a dictionary")
        return str(info.get("/Title", ""))


class Output:
    """The booklet's objects by number, as pypdf's writer holds them: 1 Info, 2 Pages, 3 Catalog,
    then each object as it is added or cloned; a clone of a book's object is numbered before the
    objects it refers to (pypdf's order: depth first, in the order of the keys)."""

    def __init__(self, book: Book):
        self.book = book
        self.objects: list[bytes | None] = [None, None, None]
        self.clones: dict[int, int] = {}

    def add(self, data: bytes) -> int:
        self.objects.append(data)
        return len(self.objects)

    def _clone(self, num: int) -> int:
        if num in self.clones:
            return self.clones[num]
        self.objects.append(None)
        self.clones[num] = mine = len(self.objects)
        value, stream = self.book.object(num)
        self.objects[mine - 1] = self._object(value, stream)
        return mine

    def _object(self, value: Value, stream: bytes | None) -> bytes:
        if stream is None:
            return self.write(value)
        entries = dict(_dict(value))
        entries.pop("/Length", None)  # pypdf writes the length last
        entries["/Length"] = len(stream)
        return self.write(entries) + b"\nstream\n" + stream + b"\nendstream"

    def form(self, src: int) -> int:
        """A page as a form XObject (impose.py's `_form`): its contents stream with the form's
        entries added, its resources cloned; `src` from 1."""
        page = self.book.pages[src - 1]
        value, stream = self.book.object(_ref(page["/Contents"]))
        if stream is None:
            raise NotPlain("a page's contents are not a stream")
        self.objects.append(None)
        self.clones[_ref(page["/Contents"])] = mine = len(self.objects)
        entries = dict(_dict(value))
        entries.pop("/Length", None)
        entries.update({"/Type": Name("/XObject"), "/Subtype": Name("/Form"),
                        "/BBox": self.book.boxes[src - 1], "/Resources": page["/Resources"]})
        self.objects[mine - 1] = self._object(entries, stream)
        return mine

    def write(self, value: Value) -> bytes:
        """`value` as pypdf writes it, each reference to the book's objects to its clone's number."""
        write = _WRITERS.get(type(value))
        if write is None:
            raise NotPlain(f"no writing of {type(value).__name__}")
        return write(self, value)

    def finish(self, kids: list[int]) -> bytes:
        """The file: header, objects, cross-reference table, trailer, as pypdf's writer ends it."""
        info = DictionaryObject({NameObject("/Producer"): create_string_object(PRODUCER),
                                 NameObject("/Title"): create_string_object(self.book.title())})
        written = io.BytesIO()
        info.write_to_stream(written)
        self.objects[0] = written.getvalue()
        self.objects[1] = b"<<\n/Type /Pages\n/Count %d\n/Kids [%s ]\n>>" % (
            len(kids), b"".join(b" %d 0 R" % k for k in kids))
        self.objects[2] = b"<<\n/Type /Catalog\n/Pages 2 0 R\n>>"
        parts = [b"%PDF-1.3\n%\xE2\xE3\xCF\xD3\n"]
        at, offsets = len(parts[0]), []
        for num, data in enumerate(self.objects, start=1):
            assert data is not None, "an object numbered and never written"
            offsets.append(at)
            obj = b"%d 0 obj\n%s\nendobj\n" % (num, data)
            parts.append(obj)
            at += len(obj)
        size = len(self.objects) + 1
        parts.append(b"xref\n0 %d\n0000000000 65535 f \n" % size)
        parts.extend(b"%010d 00000 n \n" % o for o in offsets)
        parts.append(b"trailer\n<<\n/Size %d\n/Root 3 0 R\n/Info 1 0 R\n>>\nstartxref\n%d\n%%%%EOF\n" % (size, at))
        return b"".join(parts)


def sheet(xobjects: list[bytes], content: int, size: tuple[float, float]) -> bytes:
    """A sheet's page object: its forms (`/Pn m 0 R` each), its contents stream, its size (pt),
    as pypdf's blank page with the resources and contents set is written."""
    entries = b"".join(x + b"\n" for x in xobjects)
    return (b"<<\n/Type /Page\n/Resources <<\n/XObject <<\n%s>>\n>>\n/MediaBox [ 0.0 0.0 %s %s ]\n"
            b"/Contents %d 0 R\n/Parent 2 0 R\n>>" % (entries, _float(size[0]), _float(size[1]), content))


def _float(v: float) -> bytes:
    """pypdf's FloatObject as it writes itself (8 significant digits before the point's place)."""
    if v == 0:
        return b"0.0"
    return f"{v:.{max(1, 8 - int(log10(abs(v))))}f}".rstrip("0").rstrip(".").encode("ascii")


def _write_dict(out: Output, value: dict) -> bytes:
    return b"<<\n" + b"".join(k.encode("ascii") + b" " + out.write(v) + b"\n" for k, v in value.items()) + b">>"


def _write_list(out: Output, value: list) -> bytes:
    return b"[" + b"".join(b" " + out.write(v) for v in value) + b" ]"


_WRITERS: dict[type, Callable[[Output, Any], bytes]] = {
    dict: _write_dict,
    list: _write_list,
    Name: lambda out, v: v.encode("ascii"),
    Flag: lambda out, v: v.encode("ascii"),
    Ref: lambda out, v: b"%d 0 R" % out._clone(v),
    int: lambda out, v: b"%d" % v,
    float: lambda out, v: _float(v),
}


def _dict(value: Value | None) -> dict[str, Value]:
    if not isinstance(value, dict):
        raise NotPlain("a dictionary expected")
    return value


def _list(value: Value | None) -> list[Value]:
    if not isinstance(value, list):
        raise NotPlain("an array expected")
    return value


def _ref(value: Value | None) -> int:
    if not isinstance(value, Ref):
        raise NotPlain("a reference expected")
    return int(value)
