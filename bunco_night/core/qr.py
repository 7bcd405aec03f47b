"""QR codes: ``qr_svg`` inline on pages, ``qr_image`` (a ``qr:`` PNG the PDF engine makes)
on paper. No Django settings: print workers import it. Why: docs/architecture.md, Design notes."""

import io
from functools import lru_cache
from urllib.parse import quote, unquote

import qrcode

QR_SCHEME = "qr:"


def _modules(url: str) -> list[list[bool]]:
    """The code's modules, dark ones True, with a border of two light modules."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    code.add_data(url)
    code.make(fit=True)
    return code.get_matrix()


@lru_cache(maxsize=4096)
def svg_markup(url: str) -> str:
    """``url`` as an ``<svg class="qr">`` element, made once per process and link."""
    modules = _modules(url)
    size = len(modules)
    return (
        f'<svg class="qr" role="img" aria-label="QR code" viewBox="0 0 {size} {size}" '
        f'xmlns="http://www.w3.org/2000/svg"><path d="{module_path(modules)}" '
        'stroke="#000" fill="none"/></svg>'
    )


@lru_cache(maxsize=4096)
def png_image(url: str) -> bytes:
    """``url`` as a grey-scale PNG, one pixel a module; cached per process."""
    from PIL import Image  # WeasyPrint's own dependency; the web pages do not need it

    modules = _modules(url)
    size = len(modules)
    image = Image.new("L", (size, size))
    image.putdata([0 if dark else 255 for row in modules for dark in row])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def qr_svg(url: str):
    """``url`` as an inline ``<svg class="qr">`` for a page; its size comes from CSS."""
    from django.utils.safestring import mark_safe

    # Made from the modules only (the URL is never written into it): safe.
    return mark_safe(svg_markup(url))


def qr_image(url: str):
    """``url`` as an ``<img class="qr">`` for a printed document (see the module's doc)."""
    from django.utils.html import format_html

    return format_html('<img class="qr" alt="QR code" src="{}">', image_address(url))


def image_address(url: str) -> str:
    return QR_SCHEME + quote(url, safe="")


def url_of(address: str) -> str:
    """The link a ``qr:`` address stands for."""
    return unquote(address.removeprefix(QR_SCHEME))


def module_path(modules: list[list[bool]]) -> str:
    """The dark modules as an SVG path: one stroke per run of dark modules (few commands)."""
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
