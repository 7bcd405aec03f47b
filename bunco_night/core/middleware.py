"""Middleware for htmx requests."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url


class HtmxLoginRedirectMiddleware:
    """An htmx request whose login has expired goes to the login page as a whole page.

    Without this, htmx would swap the login form into a section of the page.
    """

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
