"""Deleting a night that will not happen: planned by mistake, or called off."""

import datetime as dt

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Attendance, Night, Round, Seat, Table
from bunco_night.nights.services import night_delete, payment_record, payment_undo, seating_draw
from bunco_night.play.services import round_start
from tests.factories import make_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(group):
    return make_night(group)


def delete_url(night):
    return reverse("nights:delete", args=[night.pk])


def att(night, name):
    return night.attendances.get(player__name=name)


# The service ------------------------------------------------------------------------------


def test_a_planned_night_goes_with_its_list_and_seating_and_nothing_else(group, night):
    other = make_night(group, date=dt.date(2027, 1, 2))
    seating_draw(night=night, seed=1)
    players = group.players.count()

    night_delete(night=night)

    assert list(Night.objects.all()) == [other]
    assert not Attendance.objects.filter(night_id=night.pk).exists()
    assert not Round.objects.filter(night_id=night.pk).exists()
    assert not Table.objects.filter(night_id=night.pk).exists()
    assert not Seat.objects.filter(round__night_id=night.pk).exists()
    # The roster and the other night are as they were.
    assert group.players.count() == players
    assert other.attendances.count() == 12


def test_a_started_night_is_refused(night):
    seating_draw(night=night, seed=1)
    round_start(night=night)
    with pytest.raises(ServiceError) as refused:
        night_delete(night=night)
    assert refused.value.code == "night_started"
    assert Night.objects.filter(pk=night.pk).exists()


def test_a_night_with_dues_taken_is_refused_until_they_are_undone(night):
    payment = payment_record(attendance=att(night, "Regular 1"), amount_cents=500)
    with pytest.raises(ServiceError) as refused:
        night_delete(night=night)
    assert refused.value.code == "night_paid"
    assert Night.objects.filter(pk=night.pk).exists()

    payment_undo(payment=payment)
    night_delete(night=night)
    assert not Night.objects.filter(pk=night.pk).exists()


# The pages --------------------------------------------------------------------------------


def test_the_edit_page_offers_delete_only_before_the_night_starts(client, night):
    edit = reverse("nights:edit", args=[night.pk])
    assert "Delete this night" in client.get(edit).content.decode()
    seating_draw(night=night, seed=1)
    round_start(night=night)
    assert "Delete this night" not in client.get(edit).content.decode()


def test_delete_asks_first_and_says_what_goes_with_the_night(client, night):
    seating_draw(night=night, seed=1)
    page = client.post(delete_url(night)).content.decode()
    assert "Delete the night of Saturday, December 5?" in page
    assert "Its list of 12 players" in page
    assert "the seating drawn for it" in page
    assert "Yes, delete it" in page
    assert Night.objects.filter(pk=night.pk).exists()


def test_yes_deletes_and_the_group_page_says_so(client, night):
    response = client.post(delete_url(night), {"confirmed": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == night.group.get_absolute_url()
    page = response.content.decode()
    assert "The night of Saturday, December 5 is deleted." in page
    assert reverse("nights:detail", args=[night.pk]) not in page
    assert not Night.objects.filter(pk=night.pk).exists()


def test_yes_sent_twice_is_not_an_error(client, night):
    client.post(delete_url(night), {"confirmed": "1"})
    response = client.post(delete_url(night), {"confirmed": "1"}, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse("groups:index")
    assert "That night is already deleted." in response.content.decode()


def test_a_refusal_is_a_message_on_the_edit_page(client, night):
    payment_record(attendance=att(night, "Regular 1"), amount_cents=500)
    response = client.post(delete_url(night), {"confirmed": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("nights:edit", args=[night.pk])
    assert "Dues have been taken for this night: undo those payments first." in (
        response.content.decode()
    )
    assert Night.objects.filter(pk=night.pk).exists()


def test_a_night_of_another_host_is_not_found(client, night, django_user_model):
    client.force_login(django_user_model.objects.create_user("stranger"))
    assert client.post(delete_url(night), {"confirmed": "1"}).status_code == 404
    assert Night.objects.filter(pk=night.pk).exists()
