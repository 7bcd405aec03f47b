"""Numbers read from query strings: ASCII whole numbers, or ignored, never a 500."""

import pytest
from django.urls import reverse

from bunco_night.core.forms import whole_number
from tests.factories import make_night
from tests.play.helpers import start_night

pytestmark = pytest.mark.django_db

ODD = ["²", "٣", "1" * 40, "-1", "1e3", "x", "%00"]


@pytest.mark.parametrize(
    "text, number",
    [("7", 7), (" 7 ", 7), ("007", 7), ("²", None), ("٣", None), ("1" * 19, None)]
    + [("-1", None), ("1e3", None), ("", None), (None, None)],
)
def test_whole_number(text, number):
    assert whole_number(text) == number


@pytest.mark.parametrize("value", ODD)
def test_host_pages_ignore_numbers_they_cannot_read(client, group, value):
    night = make_night(group, sets=1)
    start_night(night)
    player = group.players.first()
    assert client.get(night.get_absolute_url(), {"pick": value}).status_code == 200
    seating = client.get(reverse("nights:seating", args=[night.pk]), {"pick": value})
    assert seating.status_code == 302 and "pick" not in seating["Location"]
    answers = reverse("invites:answers", args=[night.pk])
    assert client.get(answers, {"v": value}, HTTP_HX_REQUEST="true").status_code == 200
    history = reverse("seasons:history", args=[group.slug, player.pk])
    assert client.get(history, {"season": value}).status_code == 200
