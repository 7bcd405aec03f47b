"""The address phones open: table and player links, QR codes, links in e-mails.

The host's own browser may be on an address no phone can reach (``127.0.0.1`` on the
laptop that serves the night). Phone links therefore use the site's public address,
``settings.PUBLIC_URL`` (``DJANGO_PUBLIC_URL``; ``make run`` fills it with the computer's
Wi-Fi address), and only fall back to the address the host's browser used when none is set.
"""

from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest

from .address import is_loopback


def public_base() -> str:
    """The site's public address without a trailing slash, or "" when none is set."""
    return (settings.PUBLIC_URL or "").strip().rstrip("/")


def phone_url(request: HttpRequest) -> Callable[[str], str]:
    """Turns a path (``/t/<token>/``) into the full URL a phone opens. (Without a request,
    as in ``send_reminders``, links use ``settings.SITE_URL``: ``invites.messages.site_links``.)"""
    base = public_base()
    return (lambda path: base + path) if base else request.build_absolute_uri


def unreachable_host(request: HttpRequest) -> str | None:
    """The host name in phone links when no phone can open it (this computer's own
    address), else None."""
    host = urlsplit(phone_url(request)("/")).hostname or ""
    return host if is_loopback(host) else None
