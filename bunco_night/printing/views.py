"""The host's printed documents for a night, each a PDF, and the page that lists them.

Only a host of the night's group may print (anyone else gets a 404, as for every
host page). A view reads the night, asks ``documents`` what to print, has
``pdf.render_pdf`` make the bytes and sets the headers. The PDFs carry the
tables' and players' secret links, so no cache may keep them.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from bunco_night.core.errors import ServiceError
from bunco_night.groups.selectors import season_for_host
from bunco_night.nights.models import Night
from bunco_night.nights.selectors import night_for_host

from . import documents
from .pdf import render_pdf

MAX_BLANK_SHEETS = 200


def pdf_response(
    request: HttpRequest, night: Night, *, slug: str, title: str, template: str, context: dict
) -> HttpResponse:
    """Render ``template`` as a PDF named after the group, the date and ``slug``."""
    context = {
        "night": night,
        "group": night.group,
        "paper": documents.paper(night.group),
        "title": title,
        **context,
    }
    pdf = render_pdf(template, context, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"{night.group.slug}-{night.date:%Y-%m-%d}-{slug}.pdf"
    response["Content-Disposition"] = content_disposition_header(False, filename)
    return response


def links_for(request: HttpRequest) -> documents.PlayLinks:
    return documents.PlayLinks(request.build_absolute_uri)


@login_required
@require_GET
def index(request: HttpRequest, pk: int) -> HttpResponse:
    """Every document for the night, one click each."""
    night = night_for_host(request.user, pk)
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
    night = night_for_host(request.user, pk)
    tent = request.GET.get("fold") == "tent"
    cards = documents.table_cards(night=night, links=links_for(request))
    return pdf_response(
        request,
        night,
        slug="table-cards-tent" if tent else "table-cards",
        title="Table cards",
        template="printing/table_cards.html",
        context={"cards": cards, "tent": tent},
    )


@login_required
@require_GET
@never_cache
def tally_sheets(request: HttpRequest, pk: int) -> HttpResponse:
    """A tally sheet per player playing tonight, and ``?blank=N`` blank ones."""
    night = night_for_host(request.user, pk)
    try:
        blank = documents.check_blank_count(request.GET.get("blank"), limit=MAX_BLANK_SHEETS)
    except ServiceError as error:
        return HttpResponseBadRequest(error.message)
    doc = documents.tally_sheets(night=night, links=links_for(request), blank=blank)
    return pdf_response(
        request,
        night,
        slug="tally-sheets",
        title="Tally sheets",
        template="printing/tally_sheets.html",
        context={"doc": doc},
    )


@login_required
@require_GET
@never_cache
def score_pads(request: HttpRequest, pk: int) -> HttpResponse:
    """A score pad per table per set; ``?blank=1`` for Us/Them pads without a table number."""
    night = night_for_host(request.user, pk)
    blank = request.GET.get("blank") == "1"
    pads = documents.score_pads(night=night, blank=blank)
    return pdf_response(
        request,
        night,
        slug="score-pads-blank" if blank else "score-pads",
        title="Score pads",
        template="printing/score_pads.html",
        context={"pads": pads},
    )


@login_required
@require_GET
@never_cache
def master_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Every player's win or loss and buncos in every round, and their totals."""
    night = night_for_host(request.user, pk)
    return pdf_response(
        request,
        night,
        slug="master-score-sheet",
        title="Master score sheet",
        template="printing/master_sheet.html",
        context={"doc": documents.master_sheet(night=night)},
    )


@login_required
@require_GET
@never_cache
def prizes(request: HttpRequest, pk: int) -> HttpResponse:
    """The prizes, who wins them and for how much, and the ranked standings."""
    night = night_for_host(request.user, pk)
    return pdf_response(
        request,
        night,
        slug="prizes",
        title="Prizes and standings",
        template="printing/prizes.html",
        context={"doc": documents.prize_sheet(night=night)},
    )


@login_required
@require_GET
@never_cache
def roster(request: HttpRequest, pk: int) -> HttpResponse:
    """Who came, substitutes, who is absent, who paid and who owes, and the pot."""
    night = night_for_host(request.user, pk)
    return pdf_response(
        request,
        night,
        slug="roster-and-dues",
        title="Roster and dues",
        template="printing/roster.html",
        context={"doc": documents.roster_sheet(night=night)},
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
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"{season.group.slug}-season-{slugify(season.name) or season.pk}.pdf"
    response["Content-Disposition"] = content_disposition_header(False, filename)
    return response
