"""A night played before its date is a past night: the group page lists it under "Past
nights", and the groups page does not offer it as the next night."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from tests.factories import make_night
from tests.seasons.helpers import play_night

pytestmark = pytest.mark.django_db


def section(page: str, heading_id: str) -> str:
    found = re.search(rf'<section aria-labelledby="{heading_id}">(.*?)</section>', page, re.S)
    return found[1] if found else ""


def test_a_night_finished_before_its_date_is_a_past_night(client, group):
    today = timezone.localdate()
    early = make_night(group, date=today + dt.timedelta(days=10), sets=1)
    play_night(early, winners=[["Regular 1"]])
    later = make_night(group, date=today + dt.timedelta(days=40), sets=1)
    page = client.get(group.get_absolute_url()).content.decode()
    assert early.get_absolute_url() in section(page, "past")
    assert early.get_absolute_url() not in section(page, "upcoming")
    assert later.get_absolute_url() in section(page, "upcoming")
    tiles = client.get("/groups/").content.decode()
    assert later.date.strftime("Next night: %a %b ") + str(later.date.day) in tiles
