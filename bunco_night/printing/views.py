"""The host's printed documents for a night, each a PDF, and the page that lists them.

Only a host of the night's group may print (anyone else gets a 404, as for every
host page). A view reads the night and asks ``printouts`` for the document. A short
one is printed at once (``pdf.print_pieces``) and sent back; a long one would hold a
web worker for many seconds, so it becomes a background job (``jobs``): the host is
sent to the job's page, which shows the progress and then the download link. The PDFs
carry the tables' and players' secret links, so no cache may keep them.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from bunco_night.core.errors import ServiceError
from bunco_night.core.links import phone_url, unreachable_host
from bunco_night.groups.selectors import group_for_host, season_for_host
from bunco_night.nights.models import Night
from bunco_night.nights.selectors import night_for_host

from . import documents, jobs, parallel, printouts
from .models import PrintJob
from .pdf import print_pieces, render_pdf

MAX_BLANK_SHEETS = 200


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """The PDF, shown in the browser, saved under ``filename``."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(False, filename)
    return response


def background_pages() -> int:
    """Documents longer than this are printed in the background (``PRINT_BACKGROUND_PAGES``).

    About 60 pages print in 2 to 3 seconds here (bench/README.md): as long as a host
    should wait for a page, and as long as a web worker should be held. A monthly group's
    documents are a dozen pages; a hall of 500 players has 500 tally sheets.
    """
    return settings.PRINT_BACKGROUND_PAGES


def document_url(night: Night, kind: str, options: printouts.Options) -> str:
    """The address that prints ``kind`` with ``options``."""
    query = {}
    if options.blank:
        query["blank"] = options.blank
    if options.tent:
        query["fold"] = "tent"
    if options.blank_pads:
        query["blank"] = 1
    url = reverse(f"printing:{kind}", args=[night.pk])
    return f"{url}?{urlencode(query)}" if query else url


def print_document(
    request: HttpRequest, pk: int, kind: str, options: printouts.Options
) -> HttpResponse:
    """The PDF of ``kind`` now, or, for a long one, the page of its background job."""
    night = night_for_host(request.user, pk)
    # The QR codes' links: the site's public address, as every phone link (core.links).
    base_url = phone_url(request)("/")
    pages = printouts.estimated_pages(kind, night, options)
    if pages > background_pages():
        job = jobs.job_start(
            night=night,
            kind=kind,
            options=options,
            base_url=base_url,
            user=request.user,
            pages=pages,
        )
        return redirect("printing:job", pk=night.pk, job_id=job.pk)
    printout = printouts.printout(kind, night, base_url=base_url, options=options)
    return pdf_response(print_pieces(printout.pieces, base_url=base_url), printout.filename)


@login_required
@require_GET
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


@login_required
@require_GET
@never_cache
def table_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """A card per table: its number, big, and the QR code of its phone page.

    ``?fold=tent`` prints each card twice on a half page, to fold into a tent.
    """
    tent = request.GET.get("fold") == "tent"
    return print_document(request, pk, "table_cards", printouts.Options(tent=tent))


@login_required
@require_GET
@never_cache
def tally_sheets(request: HttpRequest, pk: int) -> HttpResponse:
    """A tally sheet per player playing tonight, and ``?blank=N`` blank ones."""
    try:
        blank = documents.check_blank_count(request.GET.get("blank"), limit=MAX_BLANK_SHEETS)
    except ServiceError as error:
        return HttpResponseBadRequest(error.message)
    return print_document(request, pk, "tally_sheets", printouts.Options(blank=blank))


@login_required
@require_GET
@never_cache
def score_pads(request: HttpRequest, pk: int) -> HttpResponse:
    """A score pad per table per set; ``?blank=1`` for Us/Them pads without a table number.
    A Buck Dice night has its own pad: a game per page, a column per player."""
    blank = request.GET.get("blank") == "1"
    return print_document(request, pk, "score_pads", printouts.Options(blank_pads=blank))


@login_required
@require_GET
@never_cache
def master_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Every player's win or loss and buncos in every round, and their totals."""
    return print_document(request, pk, "master_sheet", printouts.Options())


@login_required
@require_GET
@never_cache
def prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """The prizes, who wins them and for how much, and the ranked standings."""
    return print_document(request, pk, "prizes", printouts.Options())


@login_required
@require_GET
@never_cache
def roster(request: HttpRequest, pk: int) -> HttpResponse:
    """Who came, substitutes, who is absent, who paid and who owes, and the pot."""
    return print_document(request, pk, "roster", printouts.Options())


def job_for_host(request: HttpRequest, pk: int, job_id) -> PrintJob:
    """The print job ``job_id`` of night ``pk``, if the user hosts the night's group."""
    night = night_for_host(request.user, pk)
    return get_object_or_404(
        PrintJob.objects.select_related("night__group"), pk=job_id, night=night
    )


@login_required
@require_GET
@never_cache
def job(request: HttpRequest, pk: int, job_id) -> HttpResponse:
    """A long document being printed: its progress, then its download link.

    With htmx the status polls itself every second; without JavaScript the page
    reloads itself, and has a link to check again.
    """
    print_job = jobs.job_refresh(job_for_host(request, pk, job_id))
    night = print_job.night
    context = {
        "night": night,
        "job": print_job,
        "title": printouts.kind_of(print_job.kind, night).title,
        "again_url": document_url(night, print_job.kind, printouts.Options(**print_job.options)),
    }
    template = "printing/job.html#status" if request.htmx else "printing/job.html"
    return render(request, template, context)


@login_required
@require_GET
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
@require_GET
@never_cache
def season_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """A season's year-end prizes, who wins them and for how much, and its standings."""
    season = season_for_host(request.user, pk)
    context = {
        "season": season,
        "group": season.group,
        "paper": documents.paper(season.group),
        "title": f"Season {season.name}",
        "doc": documents.season_sheet(season=season),
    }
    pdf = render_pdf("printing/season.html", context, base_url=request.build_absolute_uri("/"))
    return pdf_response(pdf, f"{season.group.slug}-season-{slugify(season.name) or season.pk}.pdf")


@login_required
@require_GET
@never_cache
def rules_card(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's rules in words on one page, to leave on the tables."""
    return print_document(request, pk, "rules_card", printouts.Options())


@login_required
@require_GET
def group_rules_card(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's rules card, as its rules stand today."""
    group = group_for_host(request.user, slug)
    context = {
        "night": None,
        "group": group,
        "paper": documents.paper(group),
        "title": "How we play",
        "doc": documents.rules_card(group=group),
    }
    pdf = render_pdf("printing/rules_card.html", context, base_url=request.build_absolute_uri("/"))
    return pdf_response(pdf, f"{group.slug}-rules-card.pdf")
