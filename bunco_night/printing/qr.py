"""QR codes as inline SVG paths (STYLE.md habit 9): the print stylesheet sizes them."""

from functools import lru_cache

import qrcode
from django.utils.safestring import SafeString, mark_safe


@lru_cache(maxsize=4096)
def qr_svg(url: str) -> SafeString:
    """``url`` as an ``<svg class="qr">`` element; its size comes from CSS, not from qrcode.

    A night prints the same links again and again (table cards, tally sheets, the host's
    page), so each code is made once per process.
    """
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    code.add_data(url)
    code.make(fit=True)
    modules = code.get_matrix()
    size = len(modules)
    # The markup is made here from the code's modules (the URL is never written into it),
    # so it is safe.
    return mark_safe(
        f'<svg class="qr" role="img" aria-label="QR code" viewBox="0 0 {size} {size}" '
        f'xmlns="http://www.w3.org/2000/svg"><path d="{module_path(modules)}" '
        'stroke="#000" fill="none"/></svg>'
    )


def module_path(modules: list[list[bool]]) -> str:
    """The dark modules as an SVG path: one horizontal stroke, a module thick, per run
    of dark modules in a row.

    WeasyPrint parses and draws every command of a path, and a printed night has
    hundreds of codes: a run as "move, line" is two commands, where a filled square
    per module was five, and a filled rectangle per run still five.
    """
    parts = []
    for y, row in enumerate(modules):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            parts.append(f"M{start} {y}.5h{x - start}")
    return "".join(parts)
