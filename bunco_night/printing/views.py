"""The host's printed documents for a night, each a PDF, and the page that lists them.

Only a host of the night's group may print (anyone else gets a 404, as for every
host page). A view reads the night, asks ``printouts`` for the document and has
``pdf.print_pieces`` print it (a long one in pieces, in parallel). The PDFs carry the
tables' and players' secret links, so no cache may keep them.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from bunco_night.core.errors import ServiceError
from bunco_night.nights.views import night_for_host

from . import documents, printouts
from .pdf import print_pieces

MAX_BLANK_SHEETS = 200


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    """The PDF, shown in the browser, saved under ``filename``."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(False, filename)
    return response


def print_document(
    request: HttpRequest, pk: int, kind: str, options: printouts.Options
) -> HttpResponse:
    """The PDF of ``kind``."""
    night = night_for_host(request, pk)
    base_url = request.build_absolute_uri("/")
    printout = printouts.printout(kind, night, base_url=base_url, options=options)
    return pdf_response(print_pieces(printout.pieces, base_url=base_url), printout.filename)


@login_required
@require_GET
def index(request: HttpRequest, pk: int) -> HttpResponse:
    """Every document for the night, one click each."""
    night = night_for_host(request, pk)
    context = {
        "night": night,
        "tables": night.tables.filter(active=True).count(),
        "paper": night.group.get_paper_size_display(),
        "max_blank": MAX_BLANK_SHEETS,
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
    """A score pad per table per set; ``?blank=1`` for Us/Them pads without a table number."""
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
