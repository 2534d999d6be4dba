"""Card lists kept in spreadsheets: one XLSX sheet per component, a column per field."""
from __future__ import annotations

from pathlib import Path

from . import limits
from ..errors import DataError, Problem, display_path
from .yamlsrc import Locator, check_size, header_problems, too_many_rows


def load_xlsx(path: Path, sheet: str) -> tuple[list[dict[str, str]], Locator]:
    from openpyxl import load_workbook

    shown = display_path(path)
    check_size(path, shown)
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises several unrelated types for a bad file
        raise DataError([Problem(shown, 1, 1, f"not a readable XLSX workbook ({type(e).__name__})",
                                 "save it again as .xlsx")])
    if sheet not in wb.sheetnames:
        raise DataError([Problem(shown, 1, 1, f"no sheet named {sheet!r} (sheets: {', '.join(wb.sheetnames)})",
                                 "name the sheet after the component id")])
    ws = wb[sheet]
    locator = Locator(f"{shown}[{sheet}]")
    rows: list[dict[str, str]] = []
    try:  # a damaged sheet inside a valid zip fails only while its rows are read
        rows_iter = ws.iter_rows(values_only=True)
        header = [str(h).strip() if h is not None else "" for h in next(rows_iter, [])]
        locator.columns = header
        problems = header_problems(header, locator, 1)
        if problems:
            raise DataError(problems)
        for n, values in enumerate(rows_iter, start=2):
            if all(v is None or str(v).strip() == "" for v in values):
                continue
            if len(rows) >= limits.MAX_ITEMS:
                raise too_many_rows(locator, n)
            locator.positions[(len(rows),)] = (n, 1)
            # a value under no header is kept, for solver/game/columns.py to report at its column
            rows.append({h: _text(v) for h, v in zip(header, values) if h or _text(v)})
    except DataError:
        raise
    except Exception as e:
        raise DataError([Problem(locator.path, len(rows) + 2, 1, f"unreadable row ({type(e).__name__})",
                                 "save the workbook again as .xlsx")]) from None
    return rows, locator


def _text(v: object) -> str:
    """A cell as the text a CSV would hold: spreadsheets store 3 as 3.0, which reads back as 3."""
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip()
