"""The tally sheet's column headings as one picture, the same on every sheet of a night.

WeasyPrint lays out and draws every piece of text on every page: the header row of a
tally sheet (seven headings in a table's cells) cost about a tenth of the sheet's print
time. The same row as a picture costs next to nothing: WeasyPrint puts a PNG into the PDF
once per piece and every sheet draws it by reference. Drawn at 600 dots an inch (a laser
printer's), the headings are as sharp on paper as type. Their words are the picture's
text alternative.

The picture is the row as the sheet's table drew it (print.css, ``table.grid``): a grey
row 16 points high inside 1-point borders, the thick 3-point line under it, each heading
in DejaVu Sans Bold at 10.5 points centred in its column. DejaVu Sans is the stylesheet's
font; the file is the one fontconfig names for it. Where fontconfig has no DejaVu Sans
Bold, where a heading has a character it lacks (a group mark's name in another script),
or where a heading would not fit on one line, ``header_png`` gives None and the sheet
prints its headings as a table, which wraps them.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from collections.abc import Sequence

from .grid import TallyGrid

FAMILY = "DejaVu Sans"
DPI = 600
FONT_PT = 10.5  # table.grid thead th
BORDER_PT = 1.0
UNDER_PT = 3.0  # table.tally-grid's bottom border
ROW_PT = 16.075  # 2 pt padding, a line of 1.15 x 10.5 pt, 2 pt padding
BASELINE_PT = 12.67  # from the top: border, padding, half-leading, DejaVu's ascent (0.928 em)
HEIGHT_PT = BORDER_PT + ROW_PT + UNDER_PT
GREY = 0xD6


@functools.cache
def font_file() -> str | None:
    """DejaVu Sans Bold's file, if fontconfig has it (not a font standing in for it)."""
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return None
    try:
        found = subprocess.run(
            [fc_match, "-f", "%{family[0]}\n%{style[0]}\n%{file}", f"{FAMILY}:bold"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return None
    if len(found) != 3 or found[0] != FAMILY or found[1] != "Bold":
        return None
    return found[2]


@functools.cache
def _characters(path: str) -> frozenset[int]:
    from fontTools.ttLib import TTFont  # WeasyPrint's own dependency

    with TTFont(path, lazy=True) as font:
        return frozenset(font.getBestCmap())


def header_edges(grid: TallyGrid) -> list[float]:
    """Where the header's column borders are centred, points from the grid's left edge:
    as a table with collapsed borders places them, its first and last on the frame's
    centre line, the columns without a width sharing what is left equally."""
    widths = grid.col_widths
    fixed = sum(w for w in widths if w is not None) * grid.digit
    shared = sum(w is None for w in widths)
    rest = (grid.width - BORDER_PT - fixed) / shared if shared else 0.0
    edges = [BORDER_PT / 2]
    for width in widths:
        edges.append(edges[-1] + (rest if width is None else width * grid.digit))
    return edges


def header_png(grid: TallyGrid, labels: Sequence[str], *, padding: float) -> bytes | None:
    """The header row with ``labels`` in its columns as a PNG (``padding``: each cell's
    on the left and the right, points), or None (see the module's doc). Made once for
    every piece of a document."""
    return _header_png(grid, tuple(labels), padding)


@functools.lru_cache(maxsize=16)
def _header_png(grid: TallyGrid, labels: tuple[str, ...], padding: float) -> bytes | None:
    path = font_file()
    if path is None or len(labels) != grid.columns:
        return None
    characters = _characters(path)
    if any(ord(c) not in characters for label in labels for c in label):
        return None

    from PIL import Image, ImageDraw, ImageFont  # WeasyPrint's own dependency

    scale = DPI / 72
    font = ImageFont.truetype(path, FONT_PT * scale)
    edges = header_edges(grid)
    for label, left, right in zip(labels, edges, edges[1:], strict=False):
        if font.getlength(label) / scale > right - left - BORDER_PT - 2 * padding:
            return None

    def px(points: float) -> int:
        return round(points * scale)

    image = Image.new("L", (px(grid.width), px(HEIGHT_PT)), 0)  # black: the borders
    draw = ImageDraw.Draw(image)
    for left, right in zip(edges, edges[1:], strict=False):
        inside = (px(left + BORDER_PT / 2), px(BORDER_PT), px(right - BORDER_PT / 2) - 1)
        draw.rectangle((*inside[:2], inside[2], px(BORDER_PT + ROW_PT) - 1), fill=GREY)
    baseline = BASELINE_PT * scale
    for label, left, right in zip(labels, edges, edges[1:], strict=False):
        draw.text(((left + right) / 2 * scale, baseline), label, fill=0, font=font, anchor="ms")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
