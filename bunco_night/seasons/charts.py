"""Charts drawn on the server as SVG that scales (``viewBox``); colours are attributes, not
``style``, for the content security policy. Pages put a table beside each."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 360
INK = "#1b1b2f"
MUTED = "#5c5c70"
LINE = "#d9d6cc"
WINS = "#c2185b"
BUNCOS = "#1552a0"


def _svg(chart_id: str, title: str, height: int, body: list[str]) -> SafeString:
    return mark_safe(
        f'<svg class="chart-svg" id="{escape(chart_id)}" viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-labelledby="{escape(chart_id)}-title" '
        f'font-family="system-ui, sans-serif" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>' + "".join(body) + "</svg>"
    )


def _legend(series: Sequence[tuple[str, str]], y: int) -> list[str]:
    parts, x = [], 8
    for name, colour in series:
        parts.append(f'<rect x="{x}" y="{y - 11}" width="14" height="14" rx="2" fill="{colour}"/>')
        parts.append(
            f'<text x="{x + 20}" y="{y}" font-size="15" fill="{INK}">{escape(name)}</text>'
        )
        x += 30 + 9 * len(name)
    return parts


# A bar chart's labels: their size, the height of each line, and the room a line has.
LABEL_SIZE = 16
LABEL_LINE = 19
LABEL_ROOM = WIDTH - 16
# Letter widths guessed wide (as DejaVu Sans Bold): a name wraps rather than overflows.
NARROW = set("iljtfrI.,:;'!|() ")
WIDEST = set("mwMW@%")


def text_width(text: str, size: float = LABEL_SIZE) -> float:
    """About how wide ``text`` is at ``size``, never less than it is."""
    return size * sum(
        0.4 if c in NARROW else 1.05 if c in WIDEST else 0.8 if c.isupper() else 0.68 for c in text
    )


def label_lines(label: str, room: float = LABEL_ROOM) -> list[str]:
    """``label`` in lines that fit ``room``, broken at words, hyphens, or where it must."""
    lines, line = [], ""
    for spaced, word in re.findall(r"(\s*)([^\s-]*-|[^\s-]+)", label):
        joined = f"{line}{' ' if spaced and line else ''}{word}"
        if text_width(joined) <= room or not line:
            line = joined
        else:
            lines.append(line)
            line = word
        while text_width(line) > room:  # one word wider than a line
            cut = max(n for n in range(1, len(line) + 1) if text_width(line[:n]) <= room)
            lines.append(line[:cut])
            line = line[cut:]
    return [*lines, line] if line else lines or [""]


@dataclass(frozen=True)
class Bar:
    """A labelled row of a bar chart: one value per series."""

    label: str
    values: tuple[int, ...]


def bar_chart(
    chart_id: str, title: str, bars: Sequence[Bar], series: Sequence[tuple[str, str]]
) -> SafeString:
    """Horizontal bars, a row per label (name above), one bar per series with its value."""
    if not bars:
        return mark_safe("")
    top = max([1, *(v for b in bars for v in b.values)])
    room = WIDTH - 16 - 36  # bar length at the top value; the number goes after it
    bar_h, gap = 15, 4
    body = _legend(series, 18)
    y = 32
    for bar in bars:
        lines = label_lines(bar.label)
        spans = "".join(
            f'<tspan x="8" dy="{LABEL_LINE if n else 0}">{escape(line)}</tspan>'
            for n, line in enumerate(lines)
        )
        body.append(
            f'<text x="8" y="{y + 16}" font-size="{LABEL_SIZE}" font-weight="600" '
            f'fill="{INK}">{spans}</text>'
        )
        by = y + 22 + LABEL_LINE * (len(lines) - 1)
        row_h = by - y + len(series) * (bar_h + gap) + 8
        for value, (_, colour) in zip(bar.values, series, strict=True):
            length = max(round(room * value / top), 2 if value else 0)
            body.append(
                f'<rect x="8" y="{by}" width="{length}" height="{bar_h}" rx="2" fill="{colour}"/>'
            )
            body.append(
                f'<text x="{8 + length + 6}" y="{by + bar_h - 2}" font-size="14" '
                f'fill="{INK}">{value}</text>'
            )
            by += bar_h + gap
        y += row_h
    return _svg(chart_id, title, y + 4, body)


@dataclass(frozen=True)
class Column:
    """A night on a night-by-night chart: a short label and one value per series."""

    label: str
    values: tuple[int, ...]


def column_chart(
    chart_id: str, title: str, columns: Sequence[Column], series: Sequence[tuple[str, str]]
) -> SafeString:
    """Columns night by night, per series, with a scale on the left."""
    if not columns:
        return mark_safe("")
    top = max([1, *(v for c in columns for v in c.values)])
    step = max(1, math.ceil(top / 4))
    top = step * math.ceil(top / step)
    left, right, plot_top, plot_h = 30, 8, 44, 160
    base = plot_top + plot_h
    slot = (WIDTH - left - right) / len(columns)
    bar_w = min(slot * 0.8 / len(series), 26)
    every = max(1, math.ceil(len(columns) / 8))  # at most eight labels under the axis
    body = _legend(series, 18)
    for tick in range(0, top + 1, step):
        ty = base - plot_h * tick / top
        body.append(
            f'<line x1="{left}" y1="{ty:.1f}" x2="{WIDTH - right}" y2="{ty:.1f}" '
            f'stroke="{LINE}" stroke-width="1"/>'
        )
        body.append(
            f'<text x="{left - 6}" y="{ty + 4:.1f}" font-size="13" text-anchor="end" '
            f'fill="{MUTED}">{tick}</text>'
        )
    for i, column in enumerate(columns):
        x0 = left + slot * i + (slot - bar_w * len(series)) / 2
        for j, (value, (_, colour)) in enumerate(zip(column.values, series, strict=True)):
            h = plot_h * value / top
            x = x0 + j * bar_w
            body.append(
                f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{bar_w * 0.9:.1f}" '
                f'height="{h:.1f}" fill="{colour}"/>'
            )
            if slot >= 24 and value:
                body.append(
                    f'<text x="{x + bar_w * 0.45:.1f}" y="{base - h - 3:.1f}" font-size="12" '
                    f'text-anchor="middle" fill="{INK}">{value}</text>'
                )
        if i % every == 0:
            body.append(
                f'<text x="{left + slot * (i + 0.5):.1f}" y="{base + 17}" font-size="13" '
                f'text-anchor="middle" fill="{INK}">{escape(column.label)}</text>'
            )
    return _svg(chart_id, title, base + 24, body)
