"""reportlab's formatting of a PDF's many small objects, the same bytes at less CPU (issue 26).

When a document is saved, reportlab formats every object through three module functions of
reportlab.pdfbase.pdfdoc, once per number, name and string of every dictionary and array: a cold
`build --all` makes some 200,000 such calls (page dictionaries, links, outline entries, forms).

    pdfdocEnc(x)     a str through the `extpdfdoc` codec (a codec lookup and a charmap per call);
                     for ASCII text that codec is the identity, but for 0x18-0x1f, which it refuses
    PDFName(s)       a name, escaped character by character in Python; the same few dozen names
                     again and again ("Type", "Font", "F1+0")
    format(x, doc)   which kind of element: four isinstance tests before a number or a string

`install()` replaces them in pdfdoc (whose own objects look them up there as globals) by versions
that answer the frequent cases first and hand every other to reportlab's own function, so every
result (or error) is reportlab's: tests/test_pdfformat.py formats elements and whole documents
both ways. About 0.3 CPU-s less over a cold `build --all`. pyproject admits any reportlab 4: the
replacements go in only where the installed one's three functions give, on a
sample of the cases answered here, what ours give (`_agree`); elsewhere reportlab's stay.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from reportlab.pdfbase import pdfdoc

# reportlab's own functions, before install()
ORIGINAL = {name: getattr(pdfdoc, name) for name in ("pdfdocEnc", "PDFName", "format")}
# the ASCII characters `extpdfdoc` does not map to themselves (it has no code for them)
_NOT_PDFDOC = re.compile("[\x18-\x1f]")


def pdfdoc_enc(x: Any, _odd: Any = _NOT_PDFDOC.search, _own: Any = ORIGINAL["pdfdocEnc"]) -> Any:
    # printable ASCII (a name, a number: nearly every call) holds no 0x18-0x1f: no search for them
    if type(x) is str and x.isascii() and (x.isprintable() or not _odd(x)):
        return x.encode("ascii")
    return _own(x)


# the names of a process's documents are a few hundred (keys, fonts, forms, images): bounded all
# the same, since a form's or an image's name is made of its content's digest
pdf_name = lru_cache(maxsize=4096)(ORIGINAL["PDFName"])


def format_element(element: Any, document: Any, toplevel: int = 0, _own: Any = ORIGINAL["format"],
                   _fp_str: Any = pdfdoc.fp_str) -> Any:
    kind = type(element)
    if kind is bytes:
        return element
    if kind is str:
        return pdfdoc_enc(element)
    if kind is int or kind is float:
        return pdfdoc_enc(_fp_str(element))
    return _own(element, document, toplevel)


# the cases answered here without reportlab, each kind once (names: a key, a font's, a subset's)
_SAMPLE = ("Type", "F1+0", "Noto Sans JP", "0.25", "~[]")
_NUMBERS = (0, 7, -3, 0.5, 419.52756, 1e-7)


def _agree() -> bool:
    """Whether the installed reportlab's functions give what ours give on `_SAMPLE` and `_NUMBERS`."""
    try:
        return (all(pdfdoc_enc(t) == ORIGINAL["pdfdocEnc"](t) and pdf_name(t) == ORIGINAL["PDFName"](t)
                    and format_element(t, None) == ORIGINAL["format"](t, None) for t in _SAMPLE)
                and all(format_element(n, None) == ORIGINAL["format"](n, None) for n in _NUMBERS)
                and format_element(b"raw", None) == ORIGINAL["format"](b"raw", None))
    except Exception:  # a reportlab whose functions take other arguments: its own stay
        return False


def install() -> None:
    """Use the functions above in reportlab's pdfdoc where they agree with its own (again: no change)."""
    if pdfdoc.format is format_element or not _agree():
        return
    pdfdoc.pdfdocEnc = pdfdoc_enc
    pdfdoc.PDFName = pdf_name
    pdfdoc.format = format_element
