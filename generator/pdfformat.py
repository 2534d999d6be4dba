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
both ways. About 0.3 CPU-s less over a cold `build --all`.
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


def install() -> None:
    """Use the functions above in reportlab's pdfdoc (again: no change)."""
    pdfdoc.pdfdocEnc = pdfdoc_enc
    pdfdoc.PDFName = pdf_name
    pdfdoc.format = format_element
