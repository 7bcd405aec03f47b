"""How often live pages change by themselves, from the settings: ``{% every_poll %}`` is
the htmx trigger of a page that asks for news (POLL_SECONDS), ``{% page_turn_ms %}`` how
long a TV shows each page of tables (PAGE_TURN_SECONDS, read by js/pages.js)."""

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
