"""Fetching a printed document in a test."""

from django.urls import reverse

from bunco_night.nights.models import Attendance, Night


def url(name: str, night: Night) -> str:
    return reverse(f"printing:{name}", args=[night.pk])


def get_pdf(client, night: Night, name: str, **query) -> bytes:
    """GET a document and check it is a PDF with a sensible file name."""
    response = client.get(url(name, night), query)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    disposition = response["Content-Disposition"]
    assert disposition.startswith('inline; filename="')
    assert f"{night.group.slug}-{night.date:%Y-%m-%d}-" in disposition
    assert response.content.startswith(b"%PDF-")
    return response.content


def playing(night) -> list[Attendance]:
    """Tonight's players in the order their sheets print: by name."""
    rows = [a for a in night.attendances.select_related("player", "substitute") if a.plays]
    return sorted(rows, key=lambda a: a.plays.name.casefold())
