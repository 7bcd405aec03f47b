"""CSV files for spreadsheets: one header row, then the rows, in UTF-8.

A cell that starts with = + - @ (or a tab or carriage return) would be read as a
formula by a spreadsheet, so text like that (a player named "=HYPERLINK(...)") is
written with a leading apostrophe. Numbers are written as they are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value) -> str | int:
    """One cell: None is empty, text that a spreadsheet would run is quoted."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_text(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    """The CSV text of ``header`` and ``rows``."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows([cell(v) for v in row] for row in rows)
    return out.getvalue()
