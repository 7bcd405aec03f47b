"""HTML to PDF, and PDFs joined: what print workers run. No Django, no database."""

from __future__ import annotations

import contextlib
import gc
import io
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from pypdf import PdfReader, PdfWriter
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from bunco_night.core import qr


@dataclass(frozen=True)
class Piece:
    """A whole HTML document to print, with every file it may read, by URL."""

    html: str
    base_url: str
    files: Mapping[str, tuple[bytes, str]] = field(default_factory=dict)  # (content, type)


@dataclass(frozen=True)
class Rendered:
    pdf: bytes
    pages: int


class MemoryFetcher(URLFetcher):
    """Serves a piece's files and its ``qr:`` codes; refuses every other URL."""

    def __init__(self, files: Mapping[str, tuple[bytes, str]]):
        super().__init__(fail_on_errors=True)
        self.files = files

    def fetch(self, url, headers=None):
        if url.startswith(qr.QR_SCHEME):
            png = qr.png_image(qr.url_of(url))
            return URLFetcherResponse(url, png, {"Content-Type": "image/png"})
        if url not in self.files:
            raise ValueError(f"Refused to fetch {url}: only the document's static files are read.")
        content, content_type = self.files[url]
        return URLFetcherResponse(url, content, {"Content-Type": content_type})


_gc_lock = threading.Lock()
_gc_pauses = 0


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cycle collector while WeasyPrint builds a document (much faster;
    bench/print_bench.py). Concurrent renders share one pause."""
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


def render_piece(piece: Piece) -> Rendered:
    """The piece as PDF bytes, and how many pages it has."""
    html = HTML(string=piece.html, base_url=piece.base_url, url_fetcher=MemoryFetcher(piece.files))
    with gc_paused():
        document = html.render()
        rendered = Rendered(document.write_pdf(), len(document.pages))
    del html, document
    # The boxes' cycles are all young: collect now, or a worker grows by MBs a piece.
    if gc.isenabled():
        gc.collect(0)
    return rendered


class Joiner:
    """PDFs joined in order as they are added, with their outlines and the first's title."""

    def __init__(self):
        self.count = 0
        self._first: bytes | None = None
        self._writer: PdfWriter | None = None

    def add(self, pdf: bytes) -> None:
        if self.count == 0:
            self._first = pdf  # one alone is the whole document, as it is
        else:
            if self._writer is None:
                self._writer = PdfWriter()
                self._append(self._first, first=True)
            self._append(pdf)
        self.count += 1

    def _append(self, pdf: bytes, *, first: bool = False) -> None:
        reader = PdfReader(io.BytesIO(pdf))
        if first and reader.metadata:
            self._writer.add_metadata(dict(reader.metadata))
        self._writer.append(reader, import_outline=True)

    def pdf(self) -> bytes:
        """The joined document."""
        if self._writer is None:
            if self._first is None:
                raise ValueError("nothing to join")
            return self._first
        out = io.BytesIO()
        self._writer.write(out)
        return out.getvalue()


def overlay(pdf: bytes, stamps: bytes) -> bytes:
    """Each page of ``stamps`` drawn over the same page of ``pdf`` (page numbers)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    stamp_pages = PdfReader(io.BytesIO(stamps)).pages
    if len(stamp_pages) != len(writer.pages):
        raise ValueError(f"{len(stamp_pages)} stamps for {len(writer.pages)} pages")
    for page, stamp in zip(writer.pages, stamp_pages, strict=True):
        page.merge_page(stamp)
        page.compress_content_streams()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
