"""A co-host deletes a night while another request about it is on its way: the request
finds the night gone and is answered as any link to a deleted night is, 404 Not Found
(a host's page says so, host.js), never with a server error."""

import pytest
from django.urls import reverse

from bunco_night.core.errors import Gone
from bunco_night.games import views as games_views
from bunco_night.games.services import bonanza_table_create
from bunco_night.nights import attendance_views, services, views
from bunco_night.nights.models import Night
from bunco_night.play import live_views
from bunco_night.play.services import door_prize_draw, round_start
from tests.factories import make_night

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def night(group):
    return make_night(group)


def regular(night):
    return night.attendances.select_related("night").get(player__name="Regular 1")


def gone(night):
    Night.objects.filter(pk=night.pk).delete()


# The services, given what a request looked up before the night went ------------------------


def test_a_change_to_the_list_finds_the_night_gone(night):
    attendance = regular(night)
    player = night.group.players.get(name="Regular 2")
    gone(night)
    with pytest.raises(Gone):
        services.attendance_set(attendance=attendance, status="absent")
    with pytest.raises(Gone):
        services.attendance_leave(attendance=attendance)
    with pytest.raises(Gone):
        services.guest_add(night=night, player=player)
    with pytest.raises(Gone):
        services.guest_add(night=night, name="Someone new")
    # The new substitute is not left on the roster by a change that did not happen.
    assert not night.group.players.filter(name="Someone new").exists()


def test_dues_taken_for_a_deleted_night_are_not_recorded(night):
    attendance = regular(night)
    gone(night)
    with pytest.raises(Gone):
        services.payment_record(attendance=attendance, amount_cents=500)


def test_a_draw_a_swap_and_a_start_find_the_night_gone(night):
    services.seating_draw(night=night, seed=1)
    seat_a, seat_b = list(night.rounds.get().seats.order_by("pk")[:2])
    gone(night)
    for change in (
        lambda: services.seating_draw(night=night, seed=2),
        lambda: services.seating_draw_undo(night=night),
        lambda: services.seating_swap(seat_a=seat_a, seat_b=seat_b),
        lambda: round_start(night=night),
        lambda: door_prize_draw(night=night),
        lambda: bonanza_table_create(night=night, player_ids=[seat_a.player_id, seat_b.player_id]),
    ):
        with pytest.raises(Gone):
            change()


# The pages: the night goes just after the view found what the request names ------------------


@pytest.fixture
def deleted_after(monkeypatch, night):
    """Delete the night as soon as ``module.name`` (a lookup of the view's) has returned."""

    def patch(module, name):
        found = getattr(module, name)

        def then_gone(*args, **kwargs):
            result = found(*args, **kwargs)
            gone(night)
            return result

        monkeypatch.setattr(module, name, then_gone)

    return patch


@pytest.mark.parametrize("headers", [HTMX, {}], ids=["htmx", "plain"])
@pytest.mark.parametrize(
    ("name", "data"), [("nights:attendance", {"status": "absent"}), ("nights:pay", {})]
)
def test_a_list_change_is_not_found_when_the_night_went_meanwhile(
    client, night, deleted_after, headers, name, data
):
    attendance = regular(night)
    deleted_after(attendance_views, "attendance_of")
    response = client.post(reverse(name, args=[night.pk, attendance.pk]), data, **headers)
    assert response.status_code == 404
    if not headers:
        assert "A link to a night that was called off leads here too" in response.content.decode()
    assert not Night.objects.filter(pk=night.pk).exists()


def test_the_seating_draw_is_not_found_when_the_night_went_meanwhile(client, night, deleted_after):
    deleted_after(views, "night_for_host")
    response = client.post(reverse("nights:draw", args=[night.pk]), {"seed": "1"}, **HTMX)
    assert response.status_code == 404


def test_the_live_board_s_draw_is_not_found_when_the_night_went_meanwhile(
    client, night, deleted_after
):
    deleted_after(live_views, "night_for_host")
    response = client.post(reverse("play:live_action", args=[night.pk]), {"action": "draw"}, **HTMX)
    assert response.status_code == 404


def test_a_bonanza_ledger_is_not_started_for_a_night_gone_meanwhile(client, night, deleted_after):
    players = list(night.group.players.values_list("pk", flat=True)[:2])
    deleted_after(games_views, "night_for_host")
    response = client.post(
        reverse("games:bonanza_new", args=[night.pk]),
        {"players": players, "start_chips": "0"},
    )
    assert response.status_code == 404
