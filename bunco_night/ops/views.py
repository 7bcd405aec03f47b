"""A host's downloads: a group's data as zipped CSVs, a night's results as CSV (the rows come
from each app's ``exports``)."""

from __future__ import annotations

import io
import zipfile

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from bunco_night.core.csvfile import csv_bytes, csv_download, csv_text
from bunco_night.groups import exports as group_exports
from bunco_night.groups.models import Group
from bunco_night.groups.selectors import group_for_host
from bunco_night.nights import exports as night_exports
from bunco_night.nights.selectors import night_for_host
from bunco_night.play import exports as play_exports


def group_files(group: Group) -> dict[str, str]:
    """The CSV files of a group's download, by file name."""
    return {
        "roster.csv": csv_text(group_exports.ROSTER_HEADER, group_exports.roster_rows(group)),
        "nights.csv": csv_text(night_exports.NIGHTS_HEADER, night_exports.night_rows(group)),
        "attendance.csv": csv_text(
            night_exports.ATTENDANCE_HEADER, night_exports.attendance_rows(group)
        ),
        "payments.csv": csv_text(night_exports.PAYMENTS_HEADER, night_exports.payment_rows(group)),
        "rounds.csv": csv_text(night_exports.ROUNDS_HEADER, night_exports.round_rows(group)),
        "seats.csv": csv_text(night_exports.SEATS_HEADER, night_exports.seat_rows(group)),
        "entries.csv": csv_text(play_exports.ENTRIES_HEADER, play_exports.entry_rows(group)),
    }


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@login_required
@require_safe
@never_cache
def group_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The group's roster, nights, attendance, payments, rounds, seats and entries."""
    group = group_for_host(request.user, slug)
    buffer = io.BytesIO()
    folder = f"{group.slug}-{timezone.localdate():%Y-%m-%d}"
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in group_files(group).items():
            archive.writestr(f"{folder}/{name}", csv_bytes(text))
    return _download(buffer.getvalue(), "application/zip", f"{folder}.zip")


@login_required
@require_safe
@never_cache
def night_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's standings and prizes as one CSV file."""
    night = night_for_host(request.user, pk)
    text = csv_text(play_exports.RESULTS_HEADER, play_exports.result_rows(night))
    return csv_download(text, f"{night.group.slug}-{night.date:%Y-%m-%d}-results.csv")
