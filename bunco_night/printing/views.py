"""The host's printed documents (``registry``) as PDFs, hosts only; a long one becomes a
background job (``jobs``). PDFs carry secret links: never cached."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from bunco_night.core.errors import ServiceError
from bunco_night.core.links import phone_url, unreachable_host
from bunco_night.groups.selectors import group_for_host, season_for_host
from bunco_night.nights.models import Night
from bunco_night.nights.selectors import night_for_host

from . import jobs, parallel, printouts, registry
from .documents.parts import Options, Sizes, Source
from .documents.tally import MAX_BLANK_SHEETS
from .models import PrintJob
from .pdf import print_pieces


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """The PDF, shown in the browser, saved under ``filename``."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(False, filename)
    return response


def background_pages() -> int:
    """Documents longer than this are printed in the background (``PRINT_BACKGROUND_PAGES``)."""
    return settings.PRINT_BACKGROUND_PAGES


def document_url(night: Night, kind: str, options: Options) -> str:
    """The address that prints ``kind`` with ``options``."""
    query = options.as_query()
    url = reverse(f"printing:{kind}", args=[night.pk])
    return f"{url}?{urlencode(query)}" if query else url


def print_now(printout: printouts.Printout, base_url: str) -> HttpResponse:
    """The printout as a PDF, printed now."""
    return pdf_response(print_pieces(printout.pieces, base_url=base_url), printout.filename)


@login_required
@require_safe
@never_cache
def night_document(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    """The night's document ``name`` as a PDF, or a long one's job page; bad options: 400."""
    try:
        options = registry.document(name).read_options(request.GET)
    except ServiceError as error:
        return HttpResponseBadRequest(error.message)
    night = night_for_host(request.user, pk)
    # The QR codes' links: the site's public address, as every phone link (core.links).
    base_url = phone_url(request)("/")
    document = registry.document(name, night)
    if document.background:
        pages = document.pages(Sizes(night), options)
        if pages > background_pages():
            job = jobs.job_start(
                night=night,
                kind=name,
                options=options,
                base_url=base_url,
                user=request.user,
                pages=pages,
            )
            return redirect("printing:job", pk=night.pk, job_id=job.pk)
    source = printouts.night_source(night, base_url=base_url, options=options)
    return print_now(printouts.printout_of(document, source), base_url)


@login_required
@require_safe
def index(request: HttpRequest, pk: int) -> HttpResponse:
    """Every document for the night, one click each."""
    night = night_for_host(request.user, pk)
    tables = night.tables.filter(active=True).count()
    if printouts.prints_in_pieces(night, tables):
        parallel.warm()
    context = {
        "night": night,
        "tables": tables,
        "paper": night.group.get_paper_size_display(),
        "max_blank": MAX_BLANK_SHEETS,
        "unreachable": unreachable_host(request),
    }
    return render(request, "printing/index.html", context)


def job_for_host(request: HttpRequest, pk: int, job_id) -> PrintJob:
    """The print job ``job_id`` of night ``pk``, if the user hosts the night's group."""
    night = night_for_host(request.user, pk)
    return get_object_or_404(
        PrintJob.objects.select_related("night__group"), pk=job_id, night=night
    )


@login_required
@require_safe
@never_cache
def job(request: HttpRequest, pk: int, job_id) -> HttpResponse:
    """A long document being printed: its progress, then its download link."""
    print_job = jobs.job_refresh(job_for_host(request, pk, job_id))
    night = print_job.night
    context = {
        "night": night,
        "job": print_job,
        "title": registry.document(print_job.kind, night).title,
        "again_url": document_url(night, print_job.kind, Options(**print_job.options)),
    }
    template = "printing/job.html#status" if request.htmx else "printing/job.html"
    return render(request, template, context)


@login_required
@require_safe
@never_cache
def job_pdf(request: HttpRequest, pk: int, job_id) -> FileResponse:
    """The finished PDF of a background job."""
    print_job = job_for_host(request, pk, job_id)
    path = jobs.job_file(print_job)
    if path is None:
        raise Http404("This PDF is not ready, or is no longer kept.")
    return FileResponse(
        path.open("rb"), content_type="application/pdf", filename=print_job.filename
    )


@login_required
@require_safe
@never_cache
def season_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """A season's year-end prizes, who wins them and for how much, and its standings."""
    season = season_for_host(request.user, pk)
    source = Source(season.group, season=season)
    printout = printouts.printout_of(registry.document("season"), source)
    return print_now(printout, request.build_absolute_uri("/"))


@login_required
@require_safe
def group_rules_card(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's rules card, as its rules stand today."""
    group = group_for_host(request.user, slug)
    printout = printouts.printout_of(registry.document("rules_card"), Source(group))
    return print_now(printout, request.build_absolute_uri("/"))
