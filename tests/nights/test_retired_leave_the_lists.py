"""docs/rules.md section 8.1: a player who stops coming is retired and leaves the lists of
the nights not started yet; brought back, a regular is on them again."""

import datetime as dt

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.groups.services import player_retire
from bunco_night.nights.models import Attendance, RetiredPlace, Seat
from bunco_night.nights.selectors import dues_summary
from bunco_night.nights.services import (
    attendance_set,
    guest_add,
    payment_record,
    prepayment_record,
    seating_draw,
    seating_draw_undo,
)
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def on_list(night, player) -> bool:
    return night.attendances.filter(player=player).exists()


def test_a_retired_regular_leaves_the_nights_to_come_and_owes_nothing_for_them(group):
    started = make_night(group, date=dt.date(2026, 12, 5))
    start_night(started, seed=1)
    planned = make_night(group, date=dt.date(2027, 1, 2))
    later = make_night(group, date=dt.date(2027, 2, 6))
    ann = group.players.get(name="Regular 1")

    player_retire(player=ann)

    assert on_list(started, ann)  # in play: the host settles it between rounds
    assert not on_list(planned, ann) and not on_list(later, ann)
    assert all(r.attendance.player != ann for r in dues_summary(planned).rows)

    player_retire(player=ann, retired=False)  # Bring back, after a mis-tap
    assert night_status(planned, ann) == Attendance.Status.COMING
    assert night_status(later, ann) == Attendance.Status.COMING
    assert started.attendances.filter(player=ann).count() == 1


def night_status(night, player):
    return night.attendances.get(player=player).status


def test_a_place_with_dues_taken_stays_for_the_host_to_settle(group):
    night = make_night(group, date=dt.date(2027, 1, 2))
    ann = group.players.get(name="Regular 1")
    payment_record(attendance=night.attendances.get(player=ann), amount_cents=500)
    player_retire(player=ann)
    assert on_list(night, ann)
    player_retire(player=ann, retired=False)
    assert night.attendances.filter(player=ann).count() == 1


def test_a_retired_substitute_sent_for_tonight_stays_in_the_regular_s_place(group):
    """The place is the regular's who sent them: the host changes it on the night page."""
    night = make_night(group, date=dt.date(2027, 1, 2))
    bea, sub = group.players.get(name="Regular 2"), group.players.get(name="Sub 1")
    place = night.attendances.get(player=bea)
    attendance_set(attendance=place, status=Attendance.Status.SENT_SUB, substitute=sub)
    player_retire(player=sub)
    place.refresh_from_db()
    assert place.substitute == sub and place.status == Attendance.Status.SENT_SUB


def test_a_regular_who_sends_a_substitute_keeps_the_place_for_the_host(group):
    night = make_night(group, date=dt.date(2027, 1, 2))
    bea, sub = group.players.get(name="Regular 2"), group.players.get(name="Sub 1")
    place = night.attendances.get(player=bea)
    attendance_set(attendance=place, status=Attendance.Status.SENT_SUB, substitute=sub)
    player_retire(player=bea)
    place.refresh_from_db()
    assert place.status == Attendance.Status.SENT_SUB and place.substitute == sub


def test_a_ghost_for_a_retired_regular_stands_for_nobody_and_a_draw_taken_back_is_gone():
    """Regular 1 sends nobody and a ghost takes the seat; the draw is made again (it can be
    taken back); then Regular 1 retires. Taking the draw back would bring back a seating
    with a ghost for a place that is gone: there is nothing to take back any more."""
    group = make_group(regulars=11, substitutes=0, fill="ghosts")
    night = make_night(group, date=dt.date(2027, 1, 2))
    ann = group.players.get(name="Regular 1")
    attendance_set(attendance=night.attendances.get(player=ann), status=Attendance.Status.ABSENT)
    seating_draw(night=night, seed=1)
    seating_draw(night=night, seed=2)
    assert Seat.objects.filter(round__night=night, ghost_for__player=ann).exists()
    player_retire(player=ann)
    assert not on_list(night, ann)
    ghosts = Seat.objects.filter(round__night=night, player__isnull=True)
    assert ghosts.exists() and not ghosts.filter(ghost_for__isnull=False).exists()
    with pytest.raises(ServiceError) as nothing:
        seating_draw_undo(night=night)
    assert nothing.value.code == "nothing_to_undo"


def test_the_seating_drawn_for_a_night_to_come_loses_the_retired_player(group):
    night = make_night(group, date=dt.date(2027, 1, 2))
    seating_draw(night=night, seed=1)
    ann = group.players.get(name="Regular 1")
    assert Seat.objects.filter(round__night=night, player=ann).exists()
    player_retire(player=ann)
    assert not Seat.objects.filter(round__night=night, player=ann).exists()
    seated = Seat.objects.filter(round__night=night, player__isnull=False).count()
    assert seated == night.attendances.count() == 11


def test_retire_on_the_roster_takes_them_off_the_night_page(client, group):
    night = make_night(group, date=dt.date(2027, 1, 2))
    ann = group.players.get(name="Regular 1")
    url = reverse("groups:player_retire", args=[group.slug, ann.pk])
    assert "Retire Regular 1?" in client.post(url, **HX).content.decode()
    assert on_list(night, ann)  # asked, not yet retired
    roster = client.post(url, {"confirmed": "1"}, **HX)
    assert "They are off the lists of the nights not started yet" in roster.content.decode()
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Regular 1<" not in page and "Regular 10" in page
    client.post(url, {"retired": "0"}, **HX)
    assert "Regular 1<" in client.get(night.get_absolute_url()).content.decode()


def test_brought_back_a_player_s_place_says_again_what_it_said_before(group):
    """Retiring keeps what each place it takes off said; bringing back puts it back as
    it was, with its link, and never marks coming someone who said they were not."""
    night = make_night(group, date=dt.date(2027, 1, 2))
    ann, cid = group.players.get(name="Regular 1"), group.players.get(name="Regular 3")
    place = night.attendances.get(player=ann)
    attendance_set(attendance=place, status=Attendance.Status.ABSENT)
    player_retire(player=ann)
    player_retire(player=cid)
    assert not on_list(night, ann) and not on_list(night, cid)
    assert all(r.attendance.player != ann for r in dues_summary(night).rows)

    player_retire(player=ann, retired=False)
    player_retire(player=cid, retired=False)
    back = night.attendances.get(player=ann)
    assert back.status == Attendance.Status.ABSENT and back.token == place.token
    assert night_status(night, cid) == Attendance.Status.COMING
    assert not RetiredPlace.objects.exists()


def test_a_night_planned_while_retired_has_a_regular_brought_back_as_coming(group):
    ann = group.players.get(name="Regular 1")
    player_retire(player=ann)
    night = make_night(group, date=dt.date(2027, 1, 2))
    assert not on_list(night, ann)
    player_retire(player=ann, retired=False)
    assert night_status(night, ann) == Attendance.Status.COMING


def test_a_substitute_on_a_list_as_a_guest_is_on_it_again_when_brought_back(group):
    night = make_night(group, date=dt.date(2027, 1, 2))
    sub, other = group.players.get(name="Sub 1"), group.players.get(name="Sub 2")
    guest_add(night=night, player=sub)
    player_retire(player=sub)
    player_retire(player=other)
    assert not on_list(night, sub)
    player_retire(player=sub, retired=False)
    player_retire(player=other, retired=False)
    assert night_status(night, sub) == Attendance.Status.COMING
    assert not on_list(night, other)  # never on it: still offered, not added


def test_a_regular_brought_back_who_sends_a_substitute_still_sends_them(group):
    night = make_night(group, date=dt.date(2027, 1, 2))
    bea, sub = group.players.get(name="Regular 2"), group.players.get(name="Sub 1")
    place = night.attendances.get(player=bea)
    attendance_set(attendance=place, status=Attendance.Status.SENT_SUB, substitute=sub)
    player_retire(player=bea)
    player_retire(player=bea, retired=False)
    place.refresh_from_db()
    assert place.status == Attendance.Status.SENT_SUB and place.substitute == sub
    assert night.attendances.filter(player=bea).count() == 1


def test_dues_taken_ahead_stay_with_a_retired_player_and_pay_again_when_brought_back(group):
    """docs/rules.md section 8.6: the prepayment is the player's, not the place's."""
    night = make_night(group, date=dt.date(2027, 1, 2))
    ann = group.players.get(name="Regular 1")
    prepayment_record(player=ann, amount_cents=2000, starts=dt.date(2027, 1, 1))
    player_retire(player=ann)
    assert ann.prepayments.get().amount_cents == 2000
    player_retire(player=ann, retired=False)
    row = next(r for r in dues_summary(night).rows if r.attendance.player == ann)
    assert row.prepaid_cents == row.owes_cents == 500


def test_a_player_retired_while_seated_at_a_night_in_play_keeps_their_seat_and_dues(client, group):
    night = make_night(group, date=dt.date(2026, 12, 5))
    start_night(night, seed=1)
    ann = group.players.get(name="Regular 1")
    place = night.attendances.get(player=ann)
    payment_record(attendance=place, amount_cents=500)
    url = reverse("groups:player_retire", args=[group.slug, ann.pk])
    assert client.post(url, {"confirmed": "1"}).status_code == 302
    assert Seat.objects.filter(round__night=night, player=ann).exists()
    assert night.attendances.get(player=ann).payments.get().amount_cents == 500
    page = client.get(night.get_absolute_url())
    assert page.status_code == 200 and "Regular 1<" in page.content.decode()
    client.post(url, {"retired": "0"})
    assert night.attendances.filter(player=ann).count() == 1
