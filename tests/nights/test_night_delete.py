"""Deleting a night that will not happen: planned by mistake, or called off."""

import datetime as dt

import pytest
from django.db import connection
from django.urls import reverse

from bunco_night.core.errors import Gone, ServiceError
from bunco_night.games.services import bonanza_step_record, bonanza_table_create
from bunco_night.invites.models import Answer
from bunco_night.nights.models import Attendance, Night, Round, Seat, Table
from bunco_night.nights.services import night_delete, payment_record, payment_undo, seating_draw
from bunco_night.play.services import night_finish, round_start
from tests.factories import make_group, make_night, make_user
from tests.locks import held_elsewhere
from tests.play.helpers import nonce

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


def test_a_night_called_off_with_end_the_night_can_still_go(night):
    night_finish(night=night)  # the live board's End the night, before any round
    night_delete(night=night)
    assert not Night.objects.filter(pk=night.pk).exists()


def test_a_night_with_chips_dealt_in_its_bonanza_ledger_is_refused(night):
    players = list(night.group.players.values_list("pk", flat=True)[:4])
    ledger = bonanza_table_create(night=night, player_ids=players, start_chips=50)
    bonanza_step_record(table=ledger, nonce=nonce(), action="deal")
    with pytest.raises(ServiceError) as refused:
        night_delete(night=night)
    assert refused.value.code == "night_ledger"
    assert Night.objects.filter(pk=night.pk).exists()


def test_a_night_deleted_meanwhile_is_said_to_be_gone(night):
    night_delete(night=night)
    with pytest.raises(Gone):
        night_delete(night=night)


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


def test_delete_says_that_players_who_answered_are_not_told(client, night):
    for name in ("Regular 1", "Regular 2"):
        Answer.objects.create(attendance=att(night, name), choice=Answer.Choice.COMING)
    page = client.post(delete_url(night)).content.decode()
    assert "So do the answers 2 players have sent from their own links." in page
    assert "Nobody is told: let them know it is off." in page


def test_a_night_that_cannot_go_is_said_so_before_yes(client, night):
    payment_record(attendance=att(night, "Regular 1"), amount_cents=500)
    edit = client.get(reverse("nights:edit", args=[night.pk])).content.decode()
    assert "Dues have been taken for this night: take those payments back first." in edit
    assert "Delete this night" not in edit
    # A page from before the payment still asks, and then says why not, with no Yes.
    page = client.post(delete_url(night)).content.decode()
    assert "take those payments back first" in page
    assert "Yes, delete it" not in page
    assert f'href="{night.get_absolute_url()}#dues"' in page


def test_yes_deletes_and_the_group_page_says_so(client, night):
    response = client.post(delete_url(night), {"confirmed": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == night.group.get_absolute_url()
    page = response.content.decode()
    assert "The night of Saturday, December 5 is deleted." in page
    assert reverse("nights:detail", args=[night.pk]) not in page
    assert not Night.objects.filter(pk=night.pk).exists()


def test_a_table_s_link_to_a_deleted_night_says_what_may_have_happened(client, night):
    seating_draw(night=night, seed=1)
    table = night.tables.first()
    client.post(delete_url(night), {"confirmed": "1"})
    response = client.get(reverse("play:table", args=[table.token]))
    assert response.status_code == 404
    assert "A link to a night that was called off leads here too" in response.content.decode()


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
    assert "Dues have been taken for this night: take those payments back first." in (
        response.content.decode()
    )
    assert Night.objects.filter(pk=night.pk).exists()


def test_a_night_of_another_host_is_not_found(client, night, django_user_model):
    client.force_login(django_user_model.objects.create_user("stranger"))
    assert client.post(delete_url(night), {"confirmed": "1"}).status_code == 404
    assert Night.objects.filter(pk=night.pk).exists()


def test_a_night_never_there_is_not_found_as_another_host_s_is(client, night):
    missing = Night.objects.order_by("-pk").first().pk + 100
    assert (
        client.post(reverse("nights:delete", args=[missing]), {"confirmed": "1"}).status_code == 404
    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_a_delete_gives_way_to_a_change_holding_the_night_s_rows():
    """A payment holds its attendance, then moves the night: a delete that held the night
    and waited for the attendance would deadlock with it. The delete gives up instead."""
    night = make_night(make_group(user=make_user()))
    # A payment in progress: its attendance locked.
    payment = Attendance.objects.select_for_update(no_key=True).filter(night=night).first
    with held_elsewhere(payment), pytest.raises(ServiceError) as busy:
        night_delete(night=night)
    assert busy.value.code == "night_busy"
    night_delete(night=night)  # once the other change is done
    assert not Night.objects.filter(pk=night.pk).exists()
