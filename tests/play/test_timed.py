"""Timed rounds on the web (docs/rules.md section 3.8): the server's clock decides, the
bell is stored at the deadline by whichever request comes first after it (a tap, a
phone's countdown at zero, a host's poll), and each table's leader wins."""

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from bunco_night.nights.models import Night, Round
from bunco_night.play.live import live_board
from bunco_night.play.pages import table_page
from bunco_night.play.player_pages import player_page
from bunco_night.play.services import round_clock, round_close, table_done
from bunco_night.play.state import round_board, round_seconds_left
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db


def timed_night(rules="house", minutes=10, **knobs):
    group = make_group(rules=rules, regulars=12, substitutes=0, round_minutes=minutes, **knobs)
    return make_night(group, sets=1)


def run_for(rnd, minutes, seconds=0):
    """Make the round look as if it started that long ago."""
    started = timezone.now() - dt.timedelta(minutes=minutes, seconds=seconds)
    Round.objects.filter(pk=rnd.pk).update(started_at=started)
    rnd.refresh_from_db()
    return started


def test_the_pages_count_down_from_the_seconds_the_server_gives():
    night = timed_night(minutes=10)
    rnd = start_night(night)
    run_for(rnd, 3)
    left = round_seconds_left(rnd, night.rules_obj)
    assert 7 * 60 - 2 <= left <= 7 * 60
    t2 = night.tables.get(number=2)
    assert abs(table_page(t2).clock - left) <= 1
    attendance = night.attendances.first()
    assert abs(player_page(attendance).clock - left) <= 1
    assert abs(live_board(night).clock - left) <= 1
    assert round_clock(night=night) == pytest.approx(left, abs=1)
    rnd.refresh_from_db()
    assert rnd.bell_at is None  # not yet


def test_no_clock_without_round_minutes(django_assert_num_queries):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night)
    # Not even a transaction: on SQLite it would wait for the writers' turn.
    with django_assert_num_queries(0):
        assert round_clock(night=night) is None
    assert table_page(night.tables.get(number=1)).clock is None


def test_time_up_rings_the_bell_once_at_the_deadline():
    """The bell is stored like any bell, so the polling pages see it (a new version)."""
    night = timed_night(minutes=10)
    rnd = start_night(night)
    started = run_for(rnd, 10, 5)
    version = Night.objects.get(pk=night.pk).version
    assert round_clock(night=night) == 0
    rnd.refresh_from_db()
    assert rnd.bell_at == started + dt.timedelta(minutes=10)
    assert not rnd.bell_by_host
    assert Night.objects.get(pk=night.pk).version == version + 1
    assert round_clock(night=night) == 0  # idempotent: nothing changes the second time
    assert Night.objects.get(pk=night.pk).version == version + 1


def test_every_table_to_its_target_stops_at_once_and_the_leader_wins():
    """Section 3.8 under section 3.2: every table with no winner yet stops at once."""
    night = timed_night(rules="deluxe", minutes=5)
    rnd = start_night(night)
    t1, t2, t3 = (night.tables.get(number=n) for n in (1, 2, 3))
    tap(t1, 1, "points", 2)
    tap(t2, 2, "points", 1)
    tap(t3, 1, "points", 1)
    tap(t3, 2, "points", 1)  # tied 1-1
    run_for(rnd, 6)
    late = tap(t1, 2, "points", 2)  # the first request after the deadline rings the bell
    assert late.is_late  # and this tap comes after the table stopped: the host decides
    board = round_board(rnd)
    assert board.bell
    assert [board.table(t.pk).winner_side for t in (t1, t2)] == [0, 1]
    assert board.table(t3.pk).outcome.needs_tiebreak  # roll-off, the Deluxe tie-break


def test_head_table_control_finishes_the_turn_and_taps_done():
    """Section 3.8 under section 3.1: every table, the head table too, taps Done."""
    night = timed_night(rules="house", minutes=5)
    rnd = start_night(night)
    tables = [night.tables.get(number=n) for n in (1, 2, 3)]
    for t in tables:
        for seat in range(1, 5):
            tap(t, seat, "miss")
        tap(t, 1, "points", 1)
    run_for(rnd, 5)
    round_clock(night=night)
    # The turn in play is finished after the bell: it counts.
    assert not tap(tables[0], 1, "points", 2).is_late
    for t in tables:
        table_done(table=t)
    board = round_board(rnd)
    assert [t.winner_side for t in board.tables] == [0, 0, 0]  # each table's leader
    assert round_close(rnd=Round.objects.get(pk=rnd.pk)).number == 2


def test_a_table_that_won_before_the_time_keeps_its_winner():
    night = timed_night(rules="deluxe", minutes=5)
    rnd = start_night(night)
    t2 = night.tables.get(number=2)
    for _ in range(11):
        tap(t2, 2, "points", 2)  # Them reach 21 (22) before the time
    assert round_board(rnd).table(t2.pk).winner_side == 1
    run_for(rnd, 7)
    round_clock(night=night)
    assert round_board(rnd).table(t2.pk).winner_side == 1


def test_a_closed_timed_round_keeps_its_outcome():
    """A closed round is read with the time it was closed, not with the clock of now."""
    night = timed_night(rules="deluxe", minutes=5)
    rnd = start_night(night)
    t1, t2, t3 = (night.tables.get(number=n) for n in (1, 2, 3))
    for t in (t1, t2, t3):
        tap(t, 1, "points", 1)
    run_for(rnd, 6)
    round_clock(night=night)
    round_close(rnd=Round.objects.get(pk=rnd.pk))
    rnd.refresh_from_db()
    assert rnd.is_closed
    assert all(t.winner_side == 0 for t in round_board(rnd).tables)


def test_the_phone_asks_the_clock_at_zero(client):
    night = timed_night(minutes=5)
    rnd = start_night(night)
    t2 = night.tables.get(number=2)
    url = reverse("play:table_clock", args=[t2.token])
    answer = json.loads(client.post(url).content)
    assert answer["seconds_left"] > 290
    run_for(rnd, 5, 1)
    assert json.loads(client.post(url).content) == {"seconds_left": 0}
    rnd.refresh_from_db()
    assert rnd.bell_at is not None
    page = client.get(reverse("play:table", args=[t2.token])).content.decode()
    assert "Time's up!" in page and 'data-seconds-left="0"' in page
    attendance = night.attendances.first()
    url = reverse("play:player_clock", args=[attendance.token])
    assert json.loads(client.post(url).content) == {"seconds_left": 0}
    assert client.get(url).status_code == 405
    assert client.post(reverse("play:table_clock", args=["nosuchtoken"])).status_code == 404


def test_the_host_s_poll_rings_the_bell_when_no_phone_asks(client, host):
    group = make_group(user=host, regulars=12, substitutes=0, round_minutes=5, name="Timed")
    night = make_night(group, sets=1)
    rnd = start_night(night)
    run_for(rnd, 6)
    version = Night.objects.get(pk=night.pk).version
    response = client.get(reverse("play:live_state", args=[night.pk]) + f"?v={version}.1")
    assert response.status_code == 200  # the clock changed the night: a new board
    rnd.refresh_from_db()
    assert rnd.bell_at is not None
    assert "Time's up" in response.content.decode()
    room = client.get(reverse("play:room", args=[night.pk])).content.decode()
    assert "TIME&#x27;S UP!" in room or "TIME'S UP!" in room


def test_the_countdown_shows_on_every_page(client, host):
    group = make_group(user=host, regulars=12, substitutes=0, round_minutes=12, name="Clock")
    night = make_night(group, sets=1)
    start_night(night)
    t1 = night.tables.get(number=1)
    attendance = night.attendances.first()
    pages = [
        reverse("play:table", args=[t1.token]),
        reverse("play:player", args=[attendance.token]),
        reverse("play:live", args=[night.pk]),
        reverse("play:room", args=[night.pk]),
    ]
    for url in pages:
        page = client.get(url).content.decode()
        assert 'role="timer"' in page and "data-seconds-left=" in page, url
        assert "12:00" in page or "11:59" in page, url
        assert "js/clock.js" in page, url


def test_when_time_is_up_the_head_table_is_not_told_it_rang_the_bell(client):
    night = timed_night(rules="deluxe", minutes=5)
    rnd = start_night(night)
    t1 = night.tables.get(number=1)
    tap(t1, 1, "points", 2)
    run_for(rnd, 6)
    round_clock(night=night)
    assert round_board(rnd).table(t1.pk).outcome.done
    html = client.get(reverse("play:table", args=[t1.token])).content.decode()
    assert "Time&#x27;s up. Round over at this table." in html or (
        "Time's up. Round over at this table." in html
    )
    assert "Your table rang the bell" not in html
