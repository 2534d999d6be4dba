"""Card lists kept in spreadsheets: one XLSX sheet per component, a column per field."""
from __future__ import annotations

from pathlib import Path

from .errors import DataError, Problem, display_path
from .yamlsrc import Locator


def load_xlsx(path: Path, sheet: str) -> tuple[list[dict[str, str]], Locator]:
    from openpyxl import load_workbook

    shown = display_path(path)
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except FileNotFoundError:
        raise DataError([Problem(shown, 0, 0, "file not found", "create it or fix items_file")])
    except Exception as e:  # openpyxl raises several unrelated types for a bad file
        raise DataError([Problem(shown, 0, 0, f"not a readable XLSX workbook ({type(e).__name__})",
                                 "save it again as .xlsx")])
    if sheet not in wb.sheetnames:
        raise DataError([Problem(shown, 0, 0, f"no sheet named {sheet!r} (sheets: {', '.join(wb.sheetnames)})",
                                 "name the sheet after the component id")])
    ws = wb[sheet]
    locator = Locator(f"{shown}[{sheet}]")
    rows_iter = ws.iter_rows(values_only=True)
    header = [str(h).strip() if h is not None else "" for h in next(rows_iter, [])]
    locator.columns = header
    rows = []
    for n, values in enumerate(rows_iter, start=2):
        if all(v is None or str(v).strip() == "" for v in values):
            continue
        locator.positions[(len(rows),)] = (n, 1)
        rows.append({h: _text(v) for h, v in zip(header, values) if h or _text(v)})
    return rows, locator


def _text(v: object) -> str:
    """A cell as the text a CSV would hold: spreadsheets store 3 as 3.0, which reads back as 3."""
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip()
