"""A regular who is not coming and sends nobody owes the night's dues (docs/rules.md
section 8.3); once she has paid, her attendance row no longer says she owes, on the page
and in the answer to the payment (htmx), which redraws the row's notes out of band."""

import re

import pytest
from django.urls import reverse

from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, payment_record
from tests.factories import make_night
from tests.play.helpers import nonce

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(group):
    night = make_night(group)
    ann = night.attendances.get(player__name="Regular 3")
    attendance_set(attendance=ann, status=Attendance.Status.ABSENT)
    return ann


def notes_of(page: str, ann) -> str:
    found = re.search(rf'<p class="att-notes" id="att-notes-{ann.pk}"[^>]*>(.*?)</p>', page, re.S)
    return found[1] if found else ""


def test_an_absent_regular_who_has_not_paid_still_owes(client, ann):
    page = client.get(ann.night.get_absolute_url()).content.decode()
    assert "Still owes dues" in notes_of(page, ann)


def test_a_paid_absent_regular_does_not_owe(client, ann):
    payment_record(attendance=ann, amount_cents=ann.night.dues_cents)
    page = client.get(ann.night.get_absolute_url()).content.decode()
    row = page[page.index(f'id="att-{ann.pk}"') :]
    row = row[: row.index("</li>")]
    assert "Still owes dues" not in row
    assert "Dues paid" in notes_of(page, ann)


def test_paying_redraws_her_notes(client, ann):
    url = reverse("nights:pay", args=[ann.night.pk, ann.pk])
    response = client.post(url, {"nonce": nonce(), "last_seen": 0}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert re.search(rf'id="att-notes-{ann.pk}"[^>]*hx-swap-oob="true"', page)
    assert "Dues paid" in notes_of(page, ann) and "Still owes" not in page
