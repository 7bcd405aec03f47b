"""QR codes as inline SVG paths, the same markup on screen and on paper; CSS sizes them."""

import re

import qrcode
import qrcode.image.svg
from django.utils.safestring import SafeString, mark_safe

_SIZE = re.compile(r'^<svg width="[^"]*" height="[^"]*"')
# qrcode names its path "qr-path": many codes in one document would repeat the id.
_ID = re.compile(r' id="qr-path"')
_PATH = re.compile(r' d="([^"]*)"')
# SvgPathImage draws every dark module as its own unit square: "M4,4H5V5H4z".
_SQUARE = re.compile(r"M(\d+),(\d+)H(\d+)V(\d+)H\1z")


def qr_svg(url: str) -> SafeString:
    """``url`` as an ``<svg class="qr">`` element; its size comes from CSS, not from qrcode."""
    image = qrcode.make(
        url,
        image_factory=qrcode.image.svg.SvgPathImage,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        border=2,
    )
    svg = _ID.sub("", image.to_string(encoding="unicode"), count=1)
    svg = _PATH.sub(lambda m: f' d="{join_squares(m[1])}"', svg, count=1)
    # The markup is qrcode's own (the URL is encoded as squares, never as text), so it is safe.
    return mark_safe(_SIZE.sub('<svg class="qr" role="img" aria-label="QR code"', svg, count=1))


def join_squares(path: str) -> str:
    """The same shape with each row's touching squares joined into one rectangle.

    WeasyPrint parses and draws every subpath; a printed night has hundreds of codes,
    and joining the squares makes each code about three times cheaper to print.
    A path that is not made of unit squares is returned unchanged.
    """
    squares = _SQUARE.findall(path)
    if not squares or sum(len(m[0]) for m in _SQUARE.finditer(path)) != len(path):
        return path
    rows: dict[int, list[int]] = {}
    for x, y, right, bottom in squares:
        x, y = int(x), int(y)
        if int(right) != x + 1 or int(bottom) != y + 1:
            return path
        rows.setdefault(y, []).append(x)
    parts = []
    for y in sorted(rows):
        xs = sorted(rows[y])
        start = end = xs[0]
        for x in xs[1:] + [None]:
            if x == end + 1:
                end = x
                continue
            parts.append(f"M{start},{y}H{end + 1}V{y + 1}H{start}z")
            if x is not None:
                start = end = x
    return "".join(parts)
