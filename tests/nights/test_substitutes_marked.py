"""A substitute is marked as one on the room screen ("Sub 1" with a "sub" tag; regulars
without one). The night page's chart and the seating TV say whose seat a substitute takes:
tests/nights/test_seat_tags.py."""

import re

import pytest
from django.urls import reverse

from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, seating_draw
from tests.factories import make_night

pytestmark = pytest.mark.django_db

TAG = (
    '<span class="tag sub-tag"><span aria-hidden="true">sub</span>'
    '<span class="visually-hidden">substitute</span></span>'
)


@pytest.fixture
def seated(group):
    night = make_night(group)
    regular = night.attendances.get(player__name="Regular 2")
    attendance_set(
        attendance=regular,
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 1"),
    )
    seating_draw(night=night, seed=4)
    return night


def tagged(page: str) -> list[str]:
    """The names shown with the substitute's tag right after them."""
    return re.findall(r">([^<>]+?)\s*(?:</span>\s*)?" + re.escape(TAG), page)


@pytest.mark.parametrize("screen", ["play:room"])
def test_a_substitute_is_marked_on_the_seating(client, host, seated, screen):
    page = client.get(reverse(screen, args=[seated.pk])).content.decode()
    assert "Sub 1" in page
    assert tagged(page) == ["Sub 1"], screen
    assert page.count(TAG) == 1
