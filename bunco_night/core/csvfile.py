"""CSV files for spreadsheets, UTF-8 with a byte-order mark (for Excel), via ``csv_bytes``. Text
starting with = + - @, a tab or CR gets a leading apostrophe (no formulas)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from django.http import HttpResponse
from django.utils.http import content_disposition_header

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"


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


def csv_bytes(text: str) -> bytes:
    """``text`` as a CSV file's bytes: UTF-8, starting with one byte-order mark."""
    return (BOM + text.lstrip(BOM)).encode("utf-8")


def csv_download(text: str, filename: str) -> HttpResponse:
    """A CSV file to download, as ``csv_bytes`` writes it."""
    response = HttpResponse(csv_bytes(text), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response
