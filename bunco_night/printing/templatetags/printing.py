"""Filters for the printed documents: ``{{ 500|dollars }}`` is "$5.00"."""

from django import template

register = template.Library()


@register.filter
def dollars(cents) -> str:
    """Whole cents as dollars: 500 is "$5.00", 150000 is "$1,500.00", -250 is "-$2.50"."""
    if cents is None or cents == "":
        return ""
    cents = int(cents)
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{rest:02d}"
