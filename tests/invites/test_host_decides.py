"""The host's choice on the night page is what happens (docs/rules.md section 8.8): when the
host marks a regular coming while the group's substitutes are asked for her seat, the asking
stops and those asked hear the seat is not needed; when the host picks her substitute, the
seat is filled by that one, and the others asked hear so."""

import datetime as dt

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from bunco_night.groups.services import player_update
from bunco_night.invites.messages import Links
from bunco_night.invites.models import SubstituteCall, SubstituteOffer
from bunco_night.invites.services import answer_record, call_start
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, night_create
from tests.factories import make_group, make_user

pytestmark = pytest.mark.django_db

Offer = SubstituteOffer.Status
LINKS = Links(lambda path: f"https://bunco.example.com{path}")


@pytest.fixture
def asking(client):
    """Regular 1 is not coming and both substitutes are asked for her seat at once."""
    host = make_user("host-decides")
    group = make_group(user=host, regulars=8, substitutes=2)
    for i in (1, 2):
        player_update(player=group.players.get(name=f"Sub {i}"), email=f"sub{i}@example.com")
    night = night_create(group=group, date=timezone.localdate() + dt.timedelta(days=9))
    seat = attendance_set(
        attendance=night.attendances.get(player__name="Regular 1"), status=Attendance.Status.ABSENT
    )
    call = call_start(attendance=seat, mode="all", links=LINKS)
    client.force_login(host)
    mail.outbox.clear()
    return night, seat, call


def post(client, night, seat, data, capture):
    with capture(execute=True):  # the mail goes once the change is committed
        response = client.post(reverse("nights:attendance", args=[night.pk, seat.pk]), data)
    assert response.status_code in (200, 302)


def the_panel(client, night) -> str:
    return client.get(reverse("invites:answers", args=[night.pk])).content.decode()


def test_the_host_marking_her_coming_stops_the_asking(
    client, asking, django_capture_on_commit_callbacks
):
    night, seat, call = asking
    post(client, night, seat, {"status": "coming"}, django_capture_on_commit_callbacks)
    call.refresh_from_db()
    assert call.status == SubstituteCall.Status.STOPPED
    assert set(call.offers.values_list("status", flat=True)) == {Offer.WITHDRAWN}
    assert sorted(m.to[0] for m in mail.outbox) == ["sub1@example.com", "sub2@example.com"]
    assert "Stop asking" not in the_panel(client, night)


def test_the_host_picking_one_of_those_asked_fills_the_seat_with_her(
    client, asking, django_capture_on_commit_callbacks
):
    night, seat, call = asking
    sub2 = night.group.players.get(name="Sub 2")
    post(
        client,
        night,
        seat,
        {"status": "sub", "substitute": sub2.pk},
        django_capture_on_commit_callbacks,
    )
    call.refresh_from_db()
    assert call.status == SubstituteCall.Status.FILLED and call.filled_by == sub2
    offers = dict(call.offers.values_list("player__name", "status"))
    assert offers == {"Sub 1": Offer.FILLED, "Sub 2": Offer.ACCEPTED}
    assert [m.to[0] for m in mail.outbox] == ["sub1@example.com"]  # told who took it
    assert "Sub 2" in mail.outbox[0].body
    assert "Stop asking" not in the_panel(client, night)


def test_the_host_marking_her_absent_again_keeps_the_asking(
    client, asking, django_capture_on_commit_callbacks
):
    night, seat, call = asking
    post(client, night, seat, {"status": "absent"}, django_capture_on_commit_callbacks)
    call.refresh_from_db()
    assert call.status == SubstituteCall.Status.OPEN


def test_a_regular_who_names_one_of_those_asked_fills_the_seat_with_her(
    asking, django_capture_on_commit_callbacks
):
    """She asked the group's substitutes, then, from her own link, names one of them as
    her substitute: that one has the seat, as if she had accepted, and the others asked
    are told who took it (not that the seat is no longer needed)."""
    night, seat, call = asking
    sub2 = night.group.players.get(name="Sub 2")
    with django_capture_on_commit_callbacks(execute=True):
        answer_record(player=seat.player, night=night, choice="sub", substitute=sub2, links=LINKS)
    call.refresh_from_db()
    assert call.status == SubstituteCall.Status.FILLED and call.filled_by == sub2
    offers = dict(call.offers.values_list("player__name", "status"))
    assert offers == {"Sub 1": Offer.FILLED, "Sub 2": Offer.ACCEPTED}
    assert [m.to[0] for m in mail.outbox] == ["sub1@example.com"]
