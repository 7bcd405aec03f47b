"""Site-wide pages, and what makes the site an app on a phone: its manifest."""

import hashlib
import re

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from bunco_night.core.converters import TokenConverter

# A table's or a player's page: the only start pages a phone's home-screen icon may name.
PHONE_PAGE = re.compile(rf"/[tp]/{TokenConverter.regex}/")
THEME = "#1b1b2f"


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The welcome page."""
    return render(request, "core/home.html")


@require_safe
@cache_control(no_cache=True)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest; ``?start=`` a phone page's address (else the welcome page)."""
    start = request.GET.get("start", "")
    data = {
        "name": "Bunco Night",
        "short_name": "Bunco",
        "description": "Runs a group's Bunco party night: seating, scores, the bell, prizes.",
        "start_url": start if PHONE_PAGE.fullmatch(start) else reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#fffdf7",
        "theme_color": THEME,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


def static_build(storage=None) -> str:
    """A short hash naming this release's static files, or "dev" without a manifest."""
    storage = storage if storage is not None else staticfiles_storage
    hashed = getattr(storage, "hashed_files", None)
    if not hashed:
        return "dev"
    names = "\n".join(f"{k}={v}" for k, v in sorted(hashed.items()))
    return hashlib.sha256(names.encode()).hexdigest()[:12]


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The phones' service worker, from the site's root to cover /t/ and /p/; its cache
    is named by ``static_build``."""
    return render(
        request,
        "core/sw.js",
        {"static_url": settings.STATIC_URL, "static_build": static_build()},
        content_type="application/javascript; charset=utf-8",
    )
