"""``{{ 754|clock_text }}`` shows "12:34": the time left in a timed round."""

from django import template

register = template.Library()


@register.filter
def clock_text(seconds) -> str:
    """Whole seconds as minutes and seconds, as the countdown shows them."""
    try:
        seconds = max(0, int(seconds))
    except (TypeError, ValueError):
        return ""
    return f"{seconds // 60}:{seconds % 60:02d}"
