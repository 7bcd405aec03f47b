"""Turning a template into PDF bytes with WeasyPrint.

``render_pdf`` is a plain function: views only set the response headers. The
print stylesheet is linked from the template with ``{% static %}``; WeasyPrint
reads it (and any other static file) straight from disk through ``StaticFetcher``,
which refuses every other address, so rendering never touches the network.
"""

from __future__ import annotations

import contextlib
import gc
import mimetypes
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader import render_to_string
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

# Any absolute address will do: only its path is read, to find a static file.
DEFAULT_BASE_URL = "http://localhost/"


def static_file(path: str) -> Path | None:
    """The file on disk behind a static URL path such as ``/static/css/print.css``."""
    prefix = urlsplit(settings.STATIC_URL).path
    prefix = prefix if prefix.startswith("/") else f"/{prefix}"
    if not path.startswith(prefix):
        return None
    name = unquote(path.removeprefix(prefix))
    if ".." in Path(name).parts:
        return None
    # Collected (and possibly hashed) files first, as served in production; then the sources.
    try:
        collected = Path(staticfiles_storage.path(name))
    except NotImplementedError:
        collected = None
    if collected is not None and collected.is_file():
        return collected
    found = finders.find(name)
    return Path(found) if found else None


class StaticFetcher(URLFetcher):
    """Serves static files from disk; every other URL is refused."""

    def __init__(self):
        super().__init__(fail_on_errors=True)

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise ValueError(f"Refused to fetch {url}: only static files are read.")
        path = static_file(parts.path)
        if path is None:
            raise ValueError(f"No static file at {url}.")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})


_gc_lock = threading.Lock()
_gc_pauses = 0


@contextlib.contextmanager
def gc_paused():
    """Pause Python's cycle collector while WeasyPrint builds a document.

    A big document is millions of long-lived objects with few cycles, and the
    collector keeps rescanning them: pausing it makes 500 tally sheets about a
    quarter faster (bench/print_bench.py). Concurrent renders share one pause.
    """
    global _gc_pauses
    with _gc_lock:
        # Leave the collector alone if something else turned it off.
        ours = _gc_pauses > 0 or gc.isenabled()
        if ours:
            _gc_pauses += 1
            gc.disable()
    try:
        yield
    finally:
        if ours:
            with _gc_lock:
                _gc_pauses -= 1
                if _gc_pauses == 0:
                    gc.enable()


def render_pdf(template_name: str, context: dict, base_url: str | None = None) -> bytes:
    """Render ``template_name`` with ``context`` and return the PDF's bytes."""
    html = render_to_string(template_name, context)
    document = HTML(string=html, base_url=base_url or DEFAULT_BASE_URL, url_fetcher=StaticFetcher())
    with gc_paused():
        return document.write_pdf()
