"""A finished night's page says what happened and offers nothing the night refuses
(docs/rules.md section 10): no draw, no comings and goings; everyone who played is
counted, a late arrival and a leaver too."""

import pytest
from django.urls import reverse

from bunco_night.nights.services import attendance_leave, guest_add
from bunco_night.play.services import night_finish, round_start
from tests.factories import make_night
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(group):
    """12 regulars play round 1; Sub 1 arrives late and Regular 1 leaves before round 2;
    the night ends after round 2: 13 played."""
    night = make_night(group, sets=1)
    start_night(night)
    play_round(night)
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    attendance_leave(attendance=night.attendances.get(player__name="Regular 1"))
    round_start(night=night)
    play_round(night)
    night_finish(night=night)
    return night


def page_of(client, night) -> str:
    return client.get(reverse("nights:detail", args=[night.pk])).content.decode()


def test_a_finished_night_offers_no_change_it_would_refuse(client, night):
    page = page_of(client, night)
    for offer in (
        "Draw seating",
        "Draw again",
        "Leaves early",
        'value="coming"',
        'value="absent"',
        "Someone else arrived",
        reverse("nights:guest_add", args=[night.pk]),
        reverse("nights:draw", args=[night.pk]),
        "Sub…",
    ):
        assert offer not in page, offer


def test_a_finished_night_counts_everyone_who_played(client, night):
    page = page_of(client, night)
    assert "13 played" in page
    assert "12 playing" not in page and "12 players tonight" not in page
