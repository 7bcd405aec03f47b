"""``{% glyph "bell" %}``: small decorative icons as inline SVG (no emoji fonts needed). In a PDF
name the colour: ``{% glyph "bell" colour="#fff" %}``."""

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()

SHAPES = {
    "bell": (
        '<path d="M12 2a1.5 1.5 0 0 0-1.5 1.5v.7A6 6 0 0 0 6 10v5l-2 2v1h16v-1l-2-2v-5'
        'a6 6 0 0 0-4.5-5.8v-.7A1.5 1.5 0 0 0 12 2zm-2.2 17a2.2 2.2 0 0 0 4.4 0z"/>'
    ),
    "dice": (
        '<rect x="3.5" y="3.5" width="17" height="17" rx="3.5" fill="none" '
        'stroke="currentColor" stroke-width="2"/>'
        '<circle cx="8.2" cy="8.2" r="1.9"/><circle cx="12" cy="12" r="1.9"/>'
        '<circle cx="15.8" cy="15.8" r="1.9"/>'
    ),
    "trophy": (
        '<path d="M7 3h10v2h3v3a4 4 0 0 1-4 4h-.4A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1'
        "A5 5 0 0 1 8.4 12H8a4 4 0 0 1-4-4V5h3zm0 4H6v1a2 2 0 0 0 1.2 1.8A5 5 0 0 1 7 9zm10 "
        '0v2a5 5 0 0 1-.2.8A2 2 0 0 0 18 8V7z"/>'
    ),
    "ghost": (
        '<path d="M12 2a7 7 0 0 0-7 7v12l2.3-1.8L9.7 21l2.3-1.8 2.3 1.8 2.4-1.8L19 21V9a7 7 0 '
        "0 0-7-7zM9.5 8a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm5 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 "
        '0 1 0-3z" fill-rule="evenodd"/>'
    ),
    "clock": (
        '<rect x="10" y="1.5" width="4" height="2.5" rx="1"/>'
        '<circle cx="12" cy="13.5" r="7.5" fill="none" stroke="currentColor" stroke-width="2"/>'
        '<path d="M12 9.5v4.5l3 2" fill="none" stroke="currentColor" stroke-width="2" '
        'stroke-linecap="round"/>'
    ),
    "tick": (
        '<path d="M4.5 12.5l4.8 4.8L19.5 7" fill="none" stroke="currentColor" '
        'stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>'
    ),
}


@register.simple_tag
def glyph(name: str, colour: str = "currentColor") -> str:
    """The named shape as an ``<svg>`` one text line high, hidden from screen readers."""
    return format_html(
        '<svg class="glyph glyph-{}" viewBox="0 0 24 24" width="1em" height="1em" '
        'fill="{}" aria-hidden="true" focusable="false">{}</svg>',
        name,
        colour,
        # our own constant markup, in the one colour
        mark_safe(SHAPES[name].replace('"currentColor"', f'"{escape(colour)}"')),
    )
