"""Turning a template into PDF bytes with WeasyPrint (``render_pdf``, ``print_pieces``);
static files only from disk, never the network. How: docs/architecture.md, Design notes."""

from __future__ import annotations

import html as html_lib
import mimetypes
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader import render_to_string
from weasyprint.urls import URLFetcher, URLFetcherResponse

from bunco_night.core.qr import QR_SCHEME

from . import engine, parallel

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
    # The sources first (STATIC_ROOT may be stale), then STATIC_ROOT for hashed names.
    found = finders.find(name)
    if found:
        return Path(found)
    try:
        collected = Path(staticfiles_storage.path(name))
    except NotImplementedError:
        return None
    return collected if collected.is_file() else None


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


_LINK = re.compile(r'<(?:link|img)\b[^>]*?\b(?:href|src)="([^"]+)"')


def piece(
    html: str, base_url: str | None = None, files: Mapping[str, tuple[bytes, str]] | None = None
) -> engine.Piece:
    """``html`` with the static files it links, read now, and ``files`` made for it."""
    base_url = base_url or DEFAULT_BASE_URL
    fetcher = StaticFetcher()
    files = dict(files or {})
    for link in _LINK.findall(html):
        url = urljoin(base_url, html_lib.unescape(link))
        if url not in files and not url.startswith(QR_SCHEME):
            response = fetcher.fetch(url)
            files[url] = (response.read(), response.content_type)
    return engine.Piece(html, base_url, files)


def render_pdf(template_name: str, context: dict, base_url: str | None = None) -> bytes:
    """Render ``template_name`` with ``context`` and return the PDF's bytes."""
    return engine.render_piece(piece(render_to_string(template_name, context), base_url)).pdf


@dataclass(frozen=True)
class Pieces:
    """A document in pieces: the template and a context per piece; ``pages`` if known.
    ``numbered``: pages carry "Page X of Y"; ``page_class``: the ``<section>`` class of its page
    size; ``files``: images for every piece, by URL."""

    template: str
    contexts: Sequence[Callable[[], dict]]
    pages: Sequence[int] | None = None
    numbered: bool = False
    page_class: str = ""
    files: Mapping[str, tuple[bytes, str]] = field(default_factory=dict)


def print_pieces(
    pieces: Pieces,
    *,
    base_url: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """The document as one PDF, its pieces printed in parallel; ``progress(done, total)``."""
    count = len(pieces.contexts)
    numbers = None
    if pieces.numbered and count > 1:
        numbers = _predicted_numbers(pieces.pages) if pieces.pages else [{"stamp": True}] * count

    def pieces_html() -> Iterator[engine.Piece]:
        for i, context in enumerate(pieces.contexts):
            extra = {"page_numbers": numbers[i]} if numbers else {}
            html = render_to_string(pieces.template, {**context(), **extra})
            yield piece(html, base_url, pieces.files)

    # Each piece is joined to the ones before it as soon as they have all come back.
    joiner, waiting = engine.Joiner(), {}

    def arrived(i: int, rendered: engine.Rendered) -> None:
        waiting[i] = rendered
        while joiner.count in waiting:
            joiner.add(waiting.pop(joiner.count).pdf)

    rendered = parallel.render_pieces(
        pieces_html(),
        count,
        progress=(lambda done: progress(done, count)) if progress else None,
        arrived=arrived,
    )
    if numbers and pieces.pages and [r.pages for r in rendered] != list(pieces.pages):
        # A piece ran longer than foreseen: its numbers, and every later piece's, are wrong.
        return print_pieces(
            Pieces(pieces.template, pieces.contexts, None, True, pieces.page_class, pieces.files),
            base_url=base_url,
            progress=progress,
        )
    joined = joiner.pdf()
    if numbers and not pieces.pages:
        total = sum(r.pages for r in rendered)
        context = {**pieces.contexts[0](), "pages": range(total), "page_class": pieces.page_class}
        stamps = render_pdf("printing/page_numbers.html", context, base_url)
        joined = engine.overlay(joined, stamps)
    return joined


def _predicted_numbers(pages: Sequence[int]) -> list[dict]:
    total, first, numbers = sum(pages), 1, []
    for count in pages:
        numbers.append({"first": first, "total": total})
        first += count
    return numbers
