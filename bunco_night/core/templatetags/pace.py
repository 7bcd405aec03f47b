"""``{% every_poll %}`` (POLL_SECONDS) and ``{% page_turn_ms %}`` (PAGE_TURN_SECONDS)."""

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def every_poll(times=1):
    """``every <n>ms``: how often a live page polls, ``times`` the settings' pace."""
    return f"every {round(settings.POLL_SECONDS * times * 1000)}ms"


@register.simple_tag
def page_turn_ms():
    return str(round(settings.PAGE_TURN_SECONDS * 1000))
