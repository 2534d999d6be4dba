"""The fonts a PDF uses, read with pypdf for the tests, apart from the project's own reader
(generator/pdfread.py), so that a test's oracle is not the code it checks."""
from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def fonts_of(pdf: Path) -> dict[str, bool]:
    """Base font name (subset prefix dropped) -> embedded (a font file in its descriptor, a Type0
    font's in its descendant's), over every page's resources and the forms (symbols) they use."""
    found: dict[str, bool] = {}
    seen: set[int] = set()

    def walk(resources) -> None:
        resources = resources.get_object() if resources is not None else {}
        for ref in (resources.get("/Font") or {}).values():
            font = ref.get_object()
            face = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
            desc = face.get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            found[str(font["/BaseFont"]).split("+")[-1]] = any(k in desc for k in FONT_FILES)
        for ref in (resources.get("/XObject") or {}).values():
            key = getattr(ref, "idnum", id(ref))
            if key not in seen:
                seen.add(key)
                walk(ref.get_object().get("/Resources"))

    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return found
