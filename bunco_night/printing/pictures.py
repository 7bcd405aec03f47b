"""Parts of the tally sheets drawn once as PNGs in DejaVu Sans: ``header_png``, ``sets_png``
and ``wins_png``. The first two are None when they cannot be drawn (the sheet prints
text). Why: docs/architecture.md, Design notes."""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from collections.abc import Sequence

from .grid import TallyGrid

FAMILY = "DejaVu Sans"
DPI = 400
FONT_PT = 10.5  # table.grid thead th
BORDER_PT = 1.0
UNDER_PT = 3.0  # table.tally-grid's bottom border
ROW_PT = 16.075  # 2 pt padding, a line of 1.15 x 10.5 pt, 2 pt padding
BASELINE_PT = 12.67  # from the top: border, padding, half-leading, DejaVu's ascent (0.928 em)
HEIGHT_PT = BORDER_PT + ROW_PT + UNDER_PT
GREY = 0xD6

# DejaVu Sans's ascent and descent (em), to place a baseline as WeasyPrint does.
ASCENT, DESCENT = 1901 / 2048, 483 / 2048
SET_NUMBER_PT = 18.0  # print.css: .tg .set-no
TOTALS_ROW_PT = 28.0  # print.css: .tgt
INSET_PT = 1.0  # print.css: .tg, .tgt { margin: 0 1pt }
SET_GAP_PT = 3.0  # print.css: .tg .tset + .tset, .tg's padding under the sets


def _baseline(top: float, line: float, size: float) -> float:
    return top + (line - (ASCENT + DESCENT) * size) / 2 + ASCENT * size


Rounds = tuple[tuple[int, int | None], ...]  # a set's rows: round and mark (None: none)


def sets_drawable() -> bool:
    """Whether ``sets_png`` can draw its picture: fontconfig has DejaVu Sans, regular and bold."""
    return font_file() is not None and font_file(REGULAR) is not None


def sets_png(grid: TallyGrid, sets: Sequence[tuple[int, Rounds]], height: float) -> bytes | None:
    """The sets' numbers, rounds and marks and "Totals" as a transparent PNG ``height``
    points high; None without the fonts."""
    return _sets_png(grid, tuple(sets), height)


@functools.lru_cache(maxsize=16)
def _sets_png(grid: TallyGrid, sets: tuple[tuple[int, Rounds], ...], height: float) -> bytes | None:
    if not sets_drawable():
        return None
    from PIL import Image, ImageDraw, ImageFont  # WeasyPrint's own dependency

    scale = DPI / 72
    width = INSET_PT + grid.wl_left_pt
    image = Image.new("LA", (round(width * scale), round(height * scale)))
    draw = ImageDraw.Draw(image)

    def write(x: float, baseline: float, text: str, font) -> None:
        draw.text((x * scale, baseline * scale), text, fill=(0, 255), font=font, anchor="ms")

    numbers = ImageFont.truetype(font_file(), SET_NUMBER_PT * scale)
    regular = ImageFont.truetype(font_file(REGULAR), grid.font * scale)
    bold = ImageFont.truetype(font_file(), grid.font * scale)
    # The columns' middles: the grid's text is set in from the frame as the picture is.
    round_x = INSET_PT + (grid.set + grid.round / 2) * grid.digit
    mark_x = INSET_PT + grid.mark_centre * grid.digit
    top = 0.0
    for number, rounds in sets:
        tall = grid.set_height(len(rounds))
        write(INSET_PT + grid.set_pt / 2, _baseline(top, tall, SET_NUMBER_PT), str(number), numbers)
        for i, (round_number, mark) in enumerate(rounds):
            baseline = _baseline(top + i * grid.pitch, grid.pitch, grid.font)
            write(round_x, baseline, str(round_number), regular)
            if grid.has_mark and mark is not None:
                write(mark_x, baseline, str(mark), bold)
        top += tall + SET_GAP_PT
    # The totals' row is under the sets' box and its padding.
    top = top if sets else SET_GAP_PT
    write(INSET_PT + grid.wl_left_pt / 2, _baseline(top, TOTALS_ROW_PT, grid.font), "Totals", bold)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def wins_png(pitch: int, rows: int, wins: Sequence[int]) -> bytes:
    """A set's rows ``wins`` (from 0) shaded, as a PNG a pixel wide and a pixel a point."""
    from PIL import Image  # WeasyPrint's own dependency

    image = Image.new("L", (1, rows * pitch - 1), 255)
    for row in wins:
        image.paste(GREY, (0, row * pitch, 1, (row + 1) * pitch - 1))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


REGULAR = "Book"  # DejaVu Sans's name for its regular style


@functools.cache
def font_file(style: str = "Bold") -> str | None:
    """DejaVu Sans Bold's file (or ``style``'s) if fontconfig has it, not a stand-in."""
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return None
    try:
        found = subprocess.run(
            [fc_match, "-f", "%{family[0]}\n%{style[0]}\n%{file}", f"{FAMILY}:style={style}"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return None
    if len(found) != 3 or found[0] != FAMILY or found[1] != style:
        return None
    return found[2]


@functools.cache
def _characters(path: str) -> frozenset[int]:
    from fontTools.ttLib import TTFont  # WeasyPrint's own dependency

    with TTFont(path, lazy=True) as font:
        return frozenset(font.getBestCmap())


def header_edges(grid: TallyGrid) -> list[float]:
    """The header's column border centres, points from the grid's left edge."""
    widths = grid.col_widths
    fixed = sum(w for w in widths if w is not None) * grid.digit
    shared = sum(w is None for w in widths)
    rest = (grid.width - BORDER_PT - fixed) / shared if shared else 0.0
    edges = [BORDER_PT / 2]
    for width in widths:
        edges.append(edges[-1] + (rest if width is None else width * grid.digit))
    return edges


def header_png(grid: TallyGrid, labels: Sequence[str], *, padding: float) -> bytes | None:
    """The header row with ``labels`` as a PNG (``padding``: each cell's, points), or None."""
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
