"""Someone who has played a round tonight can leave early, and nothing else: not "not
coming", not a substitute in her place (docs/rules.md section 10: a leaver keeps her
rounds and owes the dues, section 8.3). The services refuse the rest in words, and the
night page between rounds offers only what applies.

The night: Regular 12 sends Sub 2; round 1 is played by the twelve at the tables; round 2
is seated, not started.
"""

import re

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import (
    attendance_leave,
    attendance_send_new_substitute,
    attendance_set,
)
from tests.factories import make_night
from tests.nights.helpers import tables_of
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db

Status = Attendance.Status


@pytest.fixture
def night(group):
    night = make_night(group, sets=1)
    attendance_set(
        attendance=night.attendances.get(player__name="Regular 12"),
        status=Status.SENT_SUB,
        substitute=group.players.get(name="Sub 2"),
    )
    start_night(night)
    play_round(night)
    return night


def att(night, name) -> Attendance:
    return night.attendances.select_related("player", "substitute").get(player__name=name)


def refused(night, name, status, substitute=None) -> str:
    """``attendance_set`` is refused for ``name``'s row and changes nothing: its code."""
    place, seats = att(night, name), tables_of(night.rounds.get(number=2))
    with pytest.raises(ServiceError) as refusal:
        attendance_set(attendance=place, status=status, substitute=substitute)
    after = att(night, name)
    assert (after.status, after.substitute_id) == (place.status, place.substitute_id)
    assert tables_of(night.rounds.get(number=2)) == seats
    return refusal.value


@pytest.mark.parametrize(("status", "sub"), [(Status.ABSENT, None), (Status.SENT_SUB, "Sub 1")])
def test_a_regular_who_played_is_not_made_not_coming_or_sent_a_substitute(night, status, sub):
    substitute = night.group.players.get(name=sub) if sub else None
    error = refused(night, "Regular 1", status, substitute)
    assert error.code == "has_played"
    assert error.message == (
        "Regular 1 has played tonight: they can only leave early (their rounds and dues stay)."
    )


def test_a_new_substitute_for_a_regular_who_played_is_refused_and_not_added(night):
    with pytest.raises(ServiceError) as refusal:
        attendance_send_new_substitute(attendance=att(night, "Regular 1"), name="Nora New")
    assert refusal.value.code == "has_played"
    assert not Player.objects.filter(name="Nora New").exists()


@pytest.mark.parametrize(
    ("status", "sub"), [(Status.ABSENT, None), (Status.COMING, None), (Status.SENT_SUB, "Sub 1")]
)
def test_a_substitute_who_played_is_not_replaced_but_leaves(night, status, sub):
    substitute = night.group.players.get(name=sub) if sub else None
    error = refused(night, "Regular 12", status, substitute)
    assert error.code == "has_played" and error.message.startswith("Sub 2 has played tonight")


def test_saying_again_what_the_row_says_is_no_change(night):
    attendance_set(attendance=att(night, "Regular 1"), status=Status.COMING)
    sub2 = night.group.players.get(name="Sub 2")
    attendance_set(attendance=att(night, "Regular 12"), status=Status.SENT_SUB, substitute=sub2)
    assert att(night, "Regular 12").substitute == sub2


def test_a_leaver_who_played_comes_back_but_is_not_made_not_coming(night):
    attendance_leave(attendance=att(night, "Regular 1"))
    assert refused(night, "Regular 1", Status.ABSENT).code == "has_played"
    sub1 = night.group.players.get(name="Sub 1")
    assert refused(night, "Regular 1", Status.SENT_SUB, sub1).code == "has_played"
    attendance_set(attendance=att(night, "Regular 1"), status=Status.COMING)
    assert att(night, "Regular 1").is_coming


def test_a_regular_who_has_not_played_still_changes_her_answer(group):
    night = make_night(group, sets=1)
    attendance_set(attendance=att(night, "Regular 12"), status=Status.ABSENT)
    start_night(night)
    play_round(night)
    sub1 = group.players.get(name="Sub 1")
    attendance_set(attendance=att(night, "Regular 12"), status=Status.SENT_SUB, substitute=sub1)
    assert att(night, "Regular 12").substitute == sub1


def row_of(client, night, name) -> str:
    page = client.get(reverse("nights:detail", args=[night.pk])).content.decode()
    pk = att(night, name).pk
    row = re.search(rf'<li class="att-row[^"]*" id="att-{pk}".*?</li>', page, re.S)
    assert row, name
    return row[0]


def test_the_night_page_offers_only_leaving_to_someone_who_played(client, night):
    for name, leave in (("Regular 1", "Leaves early"), ("Regular 12", "Sub 2 leaves early")):
        row = row_of(client, night, name)
        assert leave in row, name
        for offer in ('value="absent"', 'value="coming"', "Sub…", 'value="sub"'):
            assert offer not in row, (name, offer)


def test_the_night_page_still_offers_everything_to_a_regular_who_has_not_played(client, group):
    night = make_night(group, sets=1)
    attendance_set(attendance=att(night, "Regular 12"), status=Status.ABSENT)
    start_night(night)
    play_round(night)
    row = row_of(client, night, "Regular 12")
    for offer in ('value="absent"', 'value="coming"', "Sub…"):
        assert offer in row, offer


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    ("action", "post"),
    [
        ("attendance", {"status": "absent"}),
        ("attendance", {"status": "sub", "substitute": "Sub 1"}),
        ("new_substitute", {"name": "Nora New"}),
    ],
)
def test_a_refused_post_says_why_in_the_row(client, night, action, post, htmx):
    """A page drawn before the round closed still has the buttons: what they post is
    refused, said in the player's row (where the substitute picker is no more)."""
    place = att(night, "Regular 1")
    if "substitute" in post:
        post = {**post, "substitute": night.group.players.get(name=post["substitute"]).pk}
    url = reverse(f"nights:{action}", args=[night.pk, place.pk])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(url, post, follow=True, **headers)
    assert response.status_code == 200
    row = row_of_markup(response.content.decode(), place.pk)
    assert 'class="error" role="alert">Regular 1 has played tonight: they can only leave' in row
    assert att(night, "Regular 1").is_coming
    assert not Player.objects.filter(name="Nora New").exists()


def row_of_markup(markup, pk) -> str:
    row = re.search(rf'<li class="att-row[^"]*" id="att-{pk}".*?</li>', markup, re.S)
    assert row, pk
    return row[0]
