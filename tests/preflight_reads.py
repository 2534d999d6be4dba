"""Preflight's findings of a file from a record of its drawing or read back, for the tests of the
records (tests/test_preflight_record.py, tests/test_preflight_sheetrecord.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import generator.preflight as pf


def judged(monkeypatch: pytest.MonkeyPatch, path: Path, record: Any, **options: Any) -> tuple[list[str], int]:
    """The findings of `path`, from its record (None: read back) and how many pages were read back."""
    calls = []
    read = pf._read_sheet

    def counted(page):
        calls.append(page)
        return read(page)
    monkeypatch.setattr(pf, "_read_sheet", counted)
    pf._CHECKED.clear()
    findings = [str(f) for f in pf.preflight_pdf(path, path.name, record=record, **options)]
    monkeypatch.setattr(pf, "_read_sheet", read)
    return findings, len(calls)
