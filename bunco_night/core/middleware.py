"""Middleware: htmx login redirects, the Permissions-Policy header, a page for an address
that only takes forms; the client's address."""

import ipaddress

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render, resolve_url
from django.urls import Resolver404, resolve


class HtmxLoginRedirectMiddleware:
    """An htmx request whose login has expired goes to the login page as a whole page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            getattr(request, "htmx", False)
            and response.status_code == 302
            and response.get("Location", "").startswith(resolve_url(settings.LOGIN_URL))
        ):
            return HttpResponse(status=204, headers={"HX-Redirect": response["Location"]})
        return response


class PermissionsPolicyMiddleware:
    """Every response says which browser features the site may use (``PERMISSIONS_POLICY``)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = " ".join(settings.PERMISSIONS_POLICY.split())

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.policy)
        return response


class FormOnlyAddressMiddleware:
    """A browser's GET of a form-only address gets a page with a link up, not a bare 405."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code != 405
            or request.method != "GET"
            or getattr(request, "htmx", False)
            or response.content
        ):
            return response
        friendly = render(request, "405.html", {"back": _page_above(request.path)}, status=405)
        friendly["Allow"] = response["Allow"]
        return friendly


def _page_above(path: str) -> str:
    """The nearest address above ``path`` that the site has, else the home page."""
    parts = path.strip("/").split("/")
    while parts:
        parts.pop()
        above = "/" + "/".join(parts) + ("/" if parts else "")
        try:
            resolve(above)
        except Resolver404:
            continue
        return above
    return "/"


def client_ip(request: HttpRequest) -> str | None:
    """The address a request came from (None if unknown); behind ``BEHIND_PROXY`` the last
    X-Forwarded-For entry, the only one the proxy vouches for."""
    candidates = [request.META.get("REMOTE_ADDR", "")]
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        candidates.insert(0, forwarded.rsplit(",", 1)[-1].strip())
    for candidate in candidates:
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            continue
    return None
