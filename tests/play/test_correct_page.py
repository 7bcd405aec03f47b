"""The host's Correct page for a table (docs/rules.md section 6.2)."""

import re

import pytest
from django.urls import reverse

from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    night = make_night(make_group(), sets=1)
    start_night(night)
    return night


def rolled_for(page: str) -> str:
    """The seat the "Rolled for" choice starts on."""
    select = re.search(r"<select id=\"seat\"[^>]*>(.*?)</select>", page, re.S).group(1)
    return re.search(r'<option value="(\d)" selected>', select).group(1)


def test_rolled_for_follows_the_dice_as_the_table_phone_does(client, night):
    """Section 2.2: a roll that scores keeps the dice, a miss passes them to the left; the
    host adding a table's rolls one after another need not pick the seat each time."""
    client.login(username="host", password="bunco")
    url = reverse("play:table_fix", args=[night.pk, 2]) + "?round=1"
    assert rolled_for(client.get(url).content.decode()) == "1"  # the scorekeeper starts
    t2 = night.tables.get(number=2)
    tap(t2, 1, "points", 2)
    assert rolled_for(client.get(url).content.decode()) == "1"
    tap(t2, 1, "miss")
    page = client.get(url).content.decode()
    assert rolled_for(page) == "2"
    assert "It starts on the seat that rolls next" in page
