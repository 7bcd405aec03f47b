"""A table's board kept for the next phones' polls (bunco_night/play/boards.py).

The first render of a table's new board (a tap's answer or a poll's) is kept with the
version it claims; a poll from htmx at an older version gets it from the middleware.
It must always be the board the view would draw at that moment.
"""

import pytest
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco_night.nights.models import Table
from bunco_night.play import pages
from bunco_night.play.boards import TEMPLATE
from bunco_night.play.models import Board, Entry
from bunco_night.play.polls import UnchangedPollMiddleware
from bunco_night.play.services import bell_ring, entry_undo
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    night = make_night(make_group(), sets=1)
    start_night(night)
    return night


def version(t: Table) -> str:
    t = Table.objects.select_related("night").get(pk=t.pk)
    return f"{t.night.version}.{t.version}"


def post_tap(client, t, tap="points:1", seat="1"):
    nonce = f"kb{Entry.objects.count():09d}x"
    return client.post(
        reverse("play:table_entry", args=[t.token]),
        {"nonce": nonce, "seat": seat, "tap": tap, "round": "1"},
        HTTP_ACCEPT="application/json",
    )


def poll_without_view(t: Table, v: str, htmx=True):
    """A poll answered by the middleware alone (None when it would go on to the view)."""

    def view(request):
        return HttpResponse(status=418)

    headers = {"HX-Request": "true"} if htmx else {}
    request = RequestFactory().get(
        reverse("play:table_state", args=[t.token]), {"v": v}, headers=headers
    )
    response = UnchangedPollMiddleware(view)(request)
    return None if response.status_code == 418 else response


def fresh_board(t: Table) -> str:
    """What the view would draw for ``t`` now, without keeping it."""
    t = Table.objects.select_related("night__group").get(pk=t.pk)
    return render_to_string(TEMPLATE, {"page": pages.table_page(t), "token": t.token})


def test_a_tap_keeps_its_board_and_the_other_phones_get_it_without_the_view(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    board = post_tap(client, t).json()["board"]
    response = poll_without_view(t, before)
    assert response.status_code == 200
    assert response.content.decode() == board == fresh_board(t)
    assert f"?v={version(t)}" in board
    assert "no-store" in response.headers["Cache-Control"]
    assert response.cookies == {} and "Set-Cookie" not in response.headers
    # At the board's own version the poll is unchanged, as before.
    assert poll_without_view(t, version(t)).status_code == 204


def test_a_poll_keeps_the_board_it_drew(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    tap(t, 1, "points", 1)  # through the service: nothing kept
    assert poll_without_view(t, before) is None
    drawn = client.get(reverse("play:table_state", args=[t.token]), {"v": before})
    assert drawn.status_code == 200
    assert poll_without_view(t, before).content == drawn.content
    assert Board.objects.get(table=t).version == version(t)


def test_a_kept_board_is_not_sent_once_the_table_or_the_night_moved_on(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    post_tap(client, t)
    kept = Board.objects.get(table=t)
    tap(t, 2, "points", 2)  # the table moves on; its kept board is older
    assert poll_without_view(t, before) is None
    assert Board.objects.get(table=t).version == kept.version != version(t)
    response = client.get(reverse("play:table_state", args=[t.token]), {"v": before})
    assert response.content.decode() == fresh_board(t) != kept.html
    # The host rings the bell: the night's version moves, every kept board is stale.
    post_tap(client, t)
    bell_ring(night=night)
    assert poll_without_view(t, before) is None
    assert "BELL!" in fresh_board(t)


def test_a_kept_board_goes_only_to_htmx(client, night):
    t = night.tables.get(number=2)
    before = version(t)
    post_tap(client, t)
    assert poll_without_view(t, before, htmx=False) is None
    assert poll_without_view(t, before).status_code == 200


def test_a_timed_round_s_board_is_not_kept(client):
    group = make_group(regulars=12, substitutes=0, round_minutes=10)
    night = make_night(group, sets=1)
    start_night(night)
    t = night.tables.get(number=2)
    assert post_tap(client, t).json()["ok"]
    assert not Board.objects.filter(table=t).exists()
    client.get(reverse("play:table_state", args=[t.token]), {"v": "0.0"})
    assert not Board.objects.filter(table=t).exists()


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["tap", "tap_unseen", "undo", "poll", "bell"]),
        st.integers(1, 3),  # the table
        st.sampled_from(["points:1", "points:3", "miss", "bunco", "mini"]),
    ),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS)
def test_whatever_happens_a_kept_board_sent_is_the_board_drawn_afresh(client, night, actions):
    """Taps answered with their board, taps no phone saw (the host's), undos, polls that
    draw and keep, the host's bell, in any order: whenever the middleware sends a kept
    board, it is what the view would draw."""
    tables = {t.number: t for t in night.tables.all()}
    for action, number, what in actions:
        t = tables[number]
        if action == "tap":
            post_tap(client, t, tap=what, seat=str(number))
        elif action == "tap_unseen":
            kind, _, count = what.partition(":")
            tap(t, 1, kind, int(count or 0), rnd=night.current_round, by_host=True)
        elif action == "undo":
            last = Entry.objects.filter(table=t, undone_at=None).order_by("pk").last()
            if last is not None:
                entry_undo(table=t, entry_id=last.pk, by_host=True)
        elif action == "poll":
            client.get(reverse("play:table_state", args=[t.token]), {"v": "0.0"})
        elif night.current_round.bell_at is None and not night.current_round.bell_by_host:
            bell_ring(night=night)
        for other in tables.values():
            response = poll_without_view(other, "0.0")
            if response is not None:
                assert response.content.decode() == fresh_board(other), (action, number, what)
