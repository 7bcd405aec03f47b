"""Fetching a printed document in a test, and the HTML its PDF is made from."""

import html
import re

from django.template.loader import render_to_string
from django.urls import reverse

from bunco_night.nights.models import Attendance, Night
from bunco_night.printing import printouts


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


def sheet_html(night: Night, kind: str) -> str:
    """The HTML a one-piece document's PDF is made from."""
    printout = printouts.printout(
        kind, night, base_url="http://testserver", options=printouts.Options()
    )
    (context,) = printout.pieces.contexts
    return render_to_string(printout.pieces.template, context())


def words(markup: str) -> str:
    """What some HTML says, without its tags, in one line of words."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def prize_rows(night: Night) -> dict[str, tuple[str, str]]:
    """Each prize's row of the prizes sheet, by the prize's title: (winner, amount), each
    cell's words as printed (the details under a name or an amount included)."""
    grid = re.search(
        r'<table class="grid list prize-grid">(.*?)</table>', sheet_html(night, "prizes"), re.S
    )
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", grid.group(1), re.S):
        cells = dict(re.findall(r'<td class="(\w+)">(.*?)</td>', row, re.S))
        if cells:
            title = words(re.sub(r'<span class="detail">.*?</span>', "", cells["prize"]))
            rows[title] = (words(cells["winner"]), words(cells["amount"]))
    return rows
