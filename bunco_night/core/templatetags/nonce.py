"""``{% new_nonce %}``: a fresh id for a form, so submitting it twice changes nothing twice."""

import secrets

from django import template

register = template.Library()


@register.simple_tag
def new_nonce() -> str:
    """A random id (128 bits) for one rendering of a form."""
    return secrets.token_urlsafe(16)
