"""``{{ 754|clock_text }}`` shows "12:34": the time left in a timed round;
``{% every_poll %}`` is the htmx trigger of a page that asks for news (settings.POLL_SECONDS)."""

from django import template
from django.conf import settings

register = template.Library()


@register.filter
def clock_text(seconds) -> str:
    """Whole seconds as minutes and seconds, as the countdown shows them."""
    try:
        seconds = max(0, int(seconds))
    except (TypeError, ValueError):
        return ""
    return f"{seconds // 60}:{seconds % 60:02d}"


@register.simple_tag
def every_poll(times=1):
    """``every <n>ms``: how often a live page polls, ``times`` the settings' pace."""
    return f"every {round(settings.POLL_SECONDS * times * 1000)}ms"
