"""Players answer for themselves and substitutes are asked to take a seat
(docs/rules.md section 8.8), through the night's own attendance services."""

import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import timezone

from bunco_night.core.errors import ServiceError
from bunco_night.groups.services import player_update, substitute_asking_set
from bunco_night.invites.messages import Links
from bunco_night.invites.models import Answer, SubstituteCall, SubstituteOffer
from bunco_night.invites.services import (
    answer_record,
    call_ask_next,
    call_start,
    call_stop,
    link_for,
    link_reset,
    offer_accept,
    offer_decline,
)
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, night_create
from tests.factories import make_group
from tests.play.helpers import start_night

pytestmark = pytest.mark.django_db

LINKS = Links(lambda path: f"https://bunco.example.com{path}")
Offer = SubstituteOffer.Status


def soon(days=10):
    return timezone.localdate() + dt.timedelta(days=days)


@pytest.fixture
def group():
    group = make_group(regulars=8, substitutes=3)
    for i in (1, 2, 3):
        sub = group.players.get(name=f"Sub {i}")
        player_update(player=sub, email=f"sub{i}@example.com")
    return group


@pytest.fixture
def night(group):
    return night_create(group=group, date=soon(), time=dt.time(19, 0), place="Kay's")


def att(night, name):
    return night.attendances.select_related("player", "substitute").get(player__name=name)


def answer(group, night, name, choice, **kw):
    return answer_record(
        player=group.players.get(name=name), night=night, choice=choice, links=LINKS, **kw
    )


def test_a_personal_link_is_a_long_secret_made_once_and_renewable(group, night):
    ann = group.players.get(name="Regular 1")
    link = link_for(ann)
    assert len(link.token) >= 22 and link_for(ann).token == link.token
    assert link_for(group.players.get(name="Regular 2")).token != link.token
    new = link_reset(player=ann, night=night)
    assert new.token != link.token


@pytest.mark.parametrize(
    ("choice", "extra", "status", "sub_name"),
    [
        ("coming", {}, Attendance.Status.COMING, None),
        ("absent", {}, Attendance.Status.ABSENT, None),
        ("sub", {"substitute": "Sub 2"}, Attendance.Status.SENT_SUB, "Sub 2"),
        (
            "sub",
            {"new_name": "Walk In", "new_phone": "555-1234"},
            Attendance.Status.SENT_SUB,
            "Walk In",
        ),
    ],
)
def test_a_regular_answers_from_her_link(group, night, choice, extra, status, sub_name):
    """Section 8.2 from the regular's own phone: coming, not coming, or sending a
    substitute she picks (or someone new, added to the roster as a substitute)."""
    if "substitute" in extra:
        extra = {**extra, "substitute": group.players.get(name=extra["substitute"])}
    result = answer(group, night, "Regular 1", choice, note="Running late", **extra)
    a = att(night, "Regular 1")
    assert a.status == status
    assert (a.substitute.name if a.substitute else None) == sub_name
    assert (result.choice, result.note) == (choice, "Running late")
    assert Answer.objects.count() == 1


@pytest.mark.parametrize(
    ("choice", "extra", "code"),
    [
        ("sub", {}, "no_substitute"),
        ("sub", {"substitute": "Regular 2"}, "already_playing"),
        ("maybe", {}, "bad_choice"),
    ],
)
def test_an_answer_that_cannot_be_is_refused_and_changes_nothing(group, night, choice, extra, code):
    if "substitute" in extra:
        extra = {**extra, "substitute": group.players.get(name=extra["substitute"])}
    with pytest.raises(ServiceError) as caught:
        answer(group, night, "Regular 1", choice, **extra)
    assert caught.value.code == code
    assert att(night, "Regular 1").is_coming and not Answer.objects.exists()


def test_nobody_answers_or_takes_a_seat_once_the_night_has_started(group, night):
    call = call_start(attendance=att(night, "Regular 1"), mode="all", links=LINKS)
    start_night(night)
    with pytest.raises(ServiceError) as caught:
        answer(group, night, "Regular 2", "absent")
    assert caught.value.code == "night_started"
    with pytest.raises(ServiceError) as caught:
        offer_accept(offer=call.offers.first(), links=LINKS)
    assert caught.value.code == "night_started"  # the host seats late arrivals


def test_asking_all_at_once_asks_every_free_substitute_usual_first(group, night):
    player_update(
        player=group.players.get(name="Regular 1"), usual_substitute=group.players.get(name="Sub 3")
    )
    attendance_set(
        attendance=att(night, "Regular 2"),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 2"),
    )
    answer(group, night, "Regular 1", "ask", note="Family visit")
    call = SubstituteCall.objects.get()
    assert att(night, "Regular 1").is_absent and call.is_open and call.by_player
    # Sub 2 already plays for Regular 2; Sub 3 is Regular 1's usual substitute.
    assert [(o.player.name, o.status) for o in call.offers.all()] == [
        ("Sub 3", Offer.ASKED),
        ("Sub 1", Offer.ASKED),
    ]


def test_in_turn_the_next_is_asked_when_one_declines_and_nobody_left_ends_the_call(group, night):
    substitute_asking_set(group=group, mode="turn")
    answer(group, night, "Regular 1", "ask")
    call = SubstituteCall.objects.get()
    first, second, third = call.offers.all()
    assert [o.status for o in (first, second, third)] == [Offer.ASKED, Offer.WAITING, Offer.WAITING]
    with pytest.raises(ServiceError) as caught:
        offer_accept(offer=second, links=LINKS)
    assert caught.value.code == "not_asked"
    offer_decline(offer=first, links=LINKS)
    second.refresh_from_db()
    assert second.status == Offer.ASKED and second.asked_at is not None
    call_ask_next(call=call, links=LINKS)  # the host does not wait for Sub 2
    offer_decline(offer=second, links=LINKS)
    offer_decline(offer=third, links=LINKS)
    call.refresh_from_db()
    assert call.status == SubstituteCall.Status.NOBODY
    assert att(night, "Regular 1").is_absent  # still owes the dues (section 8.3)


def test_the_first_to_accept_takes_the_seat_and_the_others_hear_it_is_filled(group, night):
    answer(group, night, "Regular 1", "ask")
    call = SubstituteCall.objects.get()
    first, second, third = call.offers.all()
    assert offer_accept(offer=second, links=LINKS).status == Offer.ACCEPTED
    a = att(night, "Regular 1")
    assert a.sends_substitute and a.substitute == second.player
    call.refresh_from_db()
    assert (call.status, call.filled_by) == (SubstituteCall.Status.FILLED, second.player)
    first.refresh_from_db()
    third.refresh_from_db()
    assert first.status == third.status == Offer.FILLED
    with pytest.raises(ServiceError) as caught:
        offer_accept(offer=first, links=LINKS)
    assert caught.value.code == "seat_filled"
    assert offer_accept(offer=second, links=LINKS).status == Offer.ACCEPTED  # a second tap


def test_a_substitute_who_takes_one_seat_is_no_longer_asked_for_another(group, night):
    answer(group, night, "Regular 1", "ask")
    answer(group, night, "Regular 2", "ask")
    one, two = SubstituteCall.objects.order_by("pk")
    mine = one.offers.get(player__name="Sub 1")
    offer_accept(offer=mine, links=LINKS)
    assert two.offers.get(player__name="Sub 1").status == Offer.WITHDRAWN
    assert two.offers.filter(status=Offer.ASKED).count() == 2


def test_a_regular_who_can_come_after_all_stops_the_asking(group, night):
    answer(group, night, "Regular 1", "ask")
    call = SubstituteCall.objects.get()
    answer(group, night, "Regular 1", "coming")
    call.refresh_from_db()
    assert call.status == SubstituteCall.Status.STOPPED
    assert {o.status for o in call.offers.all()} == {Offer.WITHDRAWN}
    with pytest.raises(ServiceError) as caught:
        offer_accept(offer=call.offers.first(), links=LINKS)
    assert caught.value.code == "not_needed"


def test_a_seat_the_host_filled_meanwhile_needs_nobody(group, night):
    call = call_start(attendance=att(night, "Regular 1"), mode="all", links=LINKS)
    attendance_set(attendance=att(night, "Regular 1"), status=Attendance.Status.COMING)
    offer = offer_accept(offer=call.offers.first(), links=LINKS)
    assert offer.status == Offer.WITHDRAWN
    assert att(night, "Regular 1").is_coming


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ("has_sub", "has_substitute"),
        ("asking", "asking"),
        ("no_subs", "no_candidates"),
        ("bad_mode", "bad_mode"),
    ],
)
def test_asking_refuses_what_cannot_be(group, night, setup, code):
    a = att(night, "Regular 1")
    mode = "all"
    if setup == "has_sub":
        attendance_set(attendance=a, status="sub", substitute=group.players.get(name="Sub 1"))
    elif setup == "asking":
        call_start(attendance=a, mode="all", links=LINKS)
    elif setup == "no_subs":
        group.players.filter(kind="substitute").update(retired=True)
    else:
        mode = "whenever"
    with pytest.raises(ServiceError) as caught:
        call_start(attendance=att(night, "Regular 1"), mode=mode, links=LINKS)
    assert caught.value.code == code


def test_the_host_stops_asking(group, night):
    call = call_start(attendance=att(night, "Regular 3"), mode="turn", links=LINKS)
    call_stop(call=call, links=LINKS)
    call.refresh_from_db()
    assert call.status == SubstituteCall.Status.STOPPED
    assert att(night, "Regular 3").is_absent  # the host decides about the seat


@pytest.mark.django_db(transaction=True)
def test_two_substitutes_accept_at_the_same_moment_and_one_gets_the_seat():
    """The database decides who takes the seat: the call row is locked and one acceptance
    per call is a unique constraint, so the second hears the seat is filled."""
    group = make_group(regulars=8, substitutes=2)
    night = night_create(group=group, date=soon())
    call = call_start(attendance=att(night, "Regular 1"), mode="all", links=LINKS)
    offers = list(call.offers.all())
    barrier = threading.Barrier(len(offers))
    results = {}

    def phone(offer):
        try:
            barrier.wait()
            results[offer.player.name] = offer_accept(offer=offer, links=LINKS).status
        except ServiceError as error:
            results[offer.player.name] = error.code
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(o,)) for o in offers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results.values()) == ["accepted", "seat_filled"]
    winner = next(name for name, status in results.items() if status == "accepted")
    a = att(night, "Regular 1")
    assert a.sends_substitute and a.substitute.name == winner
    assert SubstituteOffer.objects.filter(status=Offer.ACCEPTED).count() == 1
    assert SubstituteCall.objects.get().status == SubstituteCall.Status.FILLED
