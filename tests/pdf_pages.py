"""One-page PDFs drawn through the project's own surface for tests that read pages back
(tests/test_preflight_*.py): each test draws what it judges, then reads it with pdfium."""
from __future__ import annotations

from pathlib import Path

from generator.render import open_surface

A4 = (210.0, 297.0)


def page_pdf(tmp_path: Path, draw, size: tuple[float, float] = A4) -> Path:
    """A PDF of one page of `size` mm drawn by `draw(surface)`, in a new file under `tmp_path`."""
    s = open_surface("pdf", title="t")
    s.begin_page(*size)
    draw(s)
    s.end_page()
    (path,) = s.save(tmp_path / f"p{len(list(tmp_path.iterdir()))}.pdf")
    return path
