"""Which taps wait for which on PostgreSQL, each on its own connection, committing.

Under head-table rules a phone's tap at any table but the head table changes nothing of
the round's (docs/rules.md section 3.1): it locks only its table's play, so taps at
different tables go ahead together (until each moves the night's scores version, from its
last statement to its commit), and the host's bell and the round's close, which lock
every play, still wait for them. Every tap under rules where any table can ring the bell
queues on the round (``services.locks.tap_alone``).
"""

import threading
from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection, transaction

from bunco_night.core.speed.compiled import WriteBatch
from bunco_night.nights.models import Seat, Table
from bunco_night.play import services
from bunco_night.play.models import Entry, TablePlay
from bunco_night.play.services import locks
from tests.factories import make_group, make_night
from tests.locks import held_elsewhere, host_waiting
from tests.play.helpers import play_round, start_night, tap

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time"),
    pytest.mark.django_db(transaction=True),
]


def night_in_play(rules: str, **knobs):
    night = make_night(make_group(rules=rules, regulars=12, substitutes=0, **knobs))
    start_night(night)
    return {t.number: t for t in Table.objects.select_related("night").filter(night=night)}


def tap_in_progress(table, *, whole=False, by_host=False):
    """Another tap at ``table`` in progress until the block ends: the locks a phone's tap
    takes before it writes (rolled back at the end), or (``whole``) a whole tap, its
    entry stored and the versions moved, committed at the end. ``by_host``: the host's
    correction, which queues on the round."""

    def phone():
        if whole:
            tap(table, 1, "bunco", round_number=1)
        else:
            locks.table_hold(table, WriteBatch(short=False), by_host=by_host, round_number=1)

    return held_elsewhere(phone, commit=whole)


def over_but_table_3(tables):
    """Every table is done and has a winner, table 3 by the host's word with its turn
    still open: a tap there counts while the round is played."""
    night = tables[3].night
    play_round(night, close=False)
    rnd = night.rounds.get(number=1)
    TablePlay.objects.filter(round=rnd, table=tables[3]).update(finished_turn=False)
    services.winner_set(rnd=rnd, table=tables[3], side=0)
    return rnd


@contextmanager
def waiting_at_most(ms: int):
    """A lock not had within ``ms`` fails the statement (rather than waiting)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SET lock_timeout = {ms}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


@pytest.mark.parametrize("busy", [2, 1], ids=["another table", "the head table"])
def test_under_head_table_rules_taps_at_other_tables_go_ahead_together(busy):
    tables = night_in_play("house")
    with tap_in_progress(tables[busy]), waiting_at_most(500):
        entry = tap(tables[3], 1, "points", 1, round_number=1)
    assert Entry.objects.filter(pk=entry.pk, table=tables[3]).exists()


@pytest.mark.parametrize(
    "rules, knobs",
    [("deluxe", {}), ("house", {"round_minutes": 15})],
    ids=["every table ends the round", "timed rounds"],
)
def test_where_any_table_may_ring_the_bell_taps_queue_on_the_round(rules, knobs):
    tables = night_in_play(rules, **knobs)
    with tap_in_progress(tables[2]), waiting_at_most(300), pytest.raises(OperationalError):
        tap(tables[3], 1, "points", 1, round_number=1)
    assert not Entry.objects.filter(table=tables[3]).exists()


def test_the_hosts_bell_waits_for_a_tap_in_progress():
    tables = night_in_play("house")
    night = tables[2].night
    with tap_in_progress(tables[2]), waiting_at_most(300), pytest.raises(OperationalError):
        services.bell_ring(night=night)
    assert night.rounds.get(number=1).bell_at is None


def test_the_rounds_close_waits_for_a_tap_in_progress():
    tables = night_in_play("house")
    rnd = tables[2].night.rounds.get(number=1)
    with tap_in_progress(tables[2]), waiting_at_most(300), pytest.raises(OperationalError):
        services.round_close(rnd=rnd)
    assert rnd.status == rnd.Status.PLAYING and not rnd.closed_at


@pytest.mark.parametrize("number", [1, None], ids=["round named", "round in play"])
def test_a_tap_alone_sees_the_round_as_a_close_it_waited_for_left_it(number):
    """A close that locked every play first: the tap (naming its round, or for the round
    in play, read before it waited) waits, then finds the round closed and is kept as a
    late entry (docs/rules.md section 3.5), never counted in it."""
    tables = night_in_play("house")
    rnd = over_but_table_3(tables)
    closed, release = threading.Event(), threading.Event()

    def host():
        try:
            with transaction.atomic():
                services.round_close(rnd=rnd)
                closed.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=host)
    thread.start()
    try:
        assert closed.wait(10)
        result = []
        phone = threading.Thread(
            target=lambda: (
                result.append(tap(tables[3], 1, "points", 1, round_number=number)),
                connection.close(),
            )
        )
        phone.start()
        phone.join(0.3)
        assert phone.is_alive()  # waiting for the close
        release.set()
        phone.join(10)
    finally:
        release.set()
        thread.join(10)
    entry = result[0]
    assert entry.is_late
    assert Entry.objects.get(pk=entry.pk).late_at is not None


def test_a_close_counts_a_tap_it_waited_for():
    # The close reads the round's results only once every play is locked: a bunco stored
    # by a tap in progress is in them.
    tables = night_in_play("house")
    rnd = over_but_table_3(tables)
    with (
        tap_in_progress(tables[3], whole=True) as commit,
        host_waiting(services.round_close, rnd=rnd),
    ):
        commit()
    entry = Entry.objects.get(table=tables[3], kind="bunco")
    assert entry.late_at is None
    assert Seat.objects.get(round=rnd, table=tables[3], number=1).buncos == 1


@pytest.mark.parametrize("service", ["bell_ring", "round_close"])
def test_the_host_and_a_tap_with_its_entry_stored_both_go_through(service):
    # The tap's entry points at the round: its key share on the round's row (at commit)
    # must not wait for a host holding that row while the host waits for the tap's play.
    tables = night_in_play("house")
    night = tables[3].night
    rnd = over_but_table_3(tables)
    kwargs = {"night": night} if service == "bell_ring" else {"rnd": rnd}
    with (
        tap_in_progress(tables[3], whole=True) as commit,
        host_waiting(getattr(services, service), **kwargs),
    ):
        commit()
    rnd.refresh_from_db()
    assert Entry.objects.filter(table=tables[3], kind="bunco").exists()
    assert rnd.bell_at is not None if service == "bell_ring" else rnd.closed_at is not None


def test_the_head_tables_taps_queue_on_the_round():
    # Only the head table's taps ring the bell: they wait for a write holding the round.
    tables = night_in_play("house")
    with (
        tap_in_progress(tables[2], by_host=True),
        waiting_at_most(300),
        pytest.raises(OperationalError),
    ):
        tap(tables[1], 1, "points", 1, round_number=1)
    assert not Entry.objects.filter(table=tables[1]).exists()
