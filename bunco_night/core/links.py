"""The address phones open: ``settings.PUBLIC_URL`` if set, else the host's browser's
(which may be one no phone can reach, such as 127.0.0.1)."""

from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest

from .address import is_loopback


def public_base() -> str:
    """The site's public address without a trailing slash, or "" when none is set."""
    return (settings.PUBLIC_URL or "").strip().rstrip("/")


def phone_url(request: HttpRequest) -> Callable[[str], str]:
    """A function turning a path (``/t/<token>/``) into the full URL a phone opens."""
    base = public_base()
    return (lambda path: base + path) if base else request.build_absolute_uri


def unreachable_host(request: HttpRequest) -> str | None:
    """The host name in phone links when no phone can open it, else None."""
    host = urlsplit(phone_url(request)("/")).hostname or ""
    return host if is_loopback(host) else None
