"""``{{ 500|cents }}`` shows "$5.00"."""

from django import template

from bunco_night.core.money import format_cents

register = template.Library()


@register.filter
def cents(value) -> str:
    """Whole cents as dollars: 500 is "$5.00"."""
    try:
        return format_cents(value)
    except (TypeError, ValueError):
        return ""
