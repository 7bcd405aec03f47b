"""A regular's own page once her night has started says what happened, not "Not answered
yet": she plays, or left after a round (docs/rules.md section 10), and the night is on."""

import pytest
from django.urls import reverse
from django.utils import timezone

from bunco_night.invites.services import link_for
from bunco_night.nights.services import attendance_leave
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    night = make_night(make_group(regulars=12), date=timezone.localdate(), sets=1)
    start_night(night)
    play_round(night)
    return night


def mine(client, night, name) -> str:
    token = link_for(night.group.players.get(name=name)).token
    return client.get(reverse("invites:mine", args=[token])).content.decode()


def test_a_leaver_reads_after_which_round_she_left(client, night):
    attendance_leave(attendance=night.attendances.get(player__name="Regular 1"))
    page = mine(client, night, "Regular 1")
    assert "You left after round 1." in page
    assert "The night is on." in page
    assert "Not answered yet" not in page and "not coming" not in page


def test_a_player_at_the_tables_reads_that_she_plays(client, night):
    page = mine(client, night, "Regular 2")
    assert "You are playing tonight." in page
    assert "Not answered yet" not in page
