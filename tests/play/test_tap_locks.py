"""Which taps wait for which on PostgreSQL, each on its own connection, committing.

Under head-table rules a phone's tap at any table but the head table changes nothing of
the round's (docs/rules.md section 3.1): it locks only its table's play, so taps at
different tables go ahead together, and the host's bell and the round's close, which lock
every play, still wait for them. Every tap under rules where any table can ring the bell
queues on the round (``services._tap_alone``).
"""

import threading
from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection, transaction

from bunco_night.nights.models import Table
from bunco_night.play import services
from bunco_night.play.models import Entry
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time"),
    pytest.mark.django_db(transaction=True),
]


def night_in_play(rules: str, **knobs):
    night = make_night(make_group(rules=rules, regulars=12, substitutes=0, **knobs))
    start_night(night)
    return {t.number: t for t in Table.objects.select_related("night").filter(night=night)}


@contextmanager
def tap_in_progress(table):
    """Another phone's tap at ``table`` holding the locks a tap takes, until the block
    ends (its transaction is then rolled back)."""
    held, release, failed = threading.Event(), threading.Event(), []

    def phone():
        try:
            with transaction.atomic():
                if services._tap_alone(table, by_host=False):
                    services._lock_play_alone(table, None, 1)
                else:
                    rnd, locked = services._round_for_tap(table, 1)
                    services._lock_play(rnd, table, locked=locked)
                held.set()
                release.wait(10)
                transaction.set_rollback(True)
        except Exception as error:  # noqa: BLE001 - reported below
            failed.append(error)
            held.set()
        finally:
            connection.close()

    thread = threading.Thread(target=phone)
    thread.start()
    try:
        assert held.wait(10) and not failed, failed
        yield
    finally:
        release.set()
        thread.join(10)


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


def test_a_tap_alone_sees_the_round_as_a_close_it_waited_for_left_it():
    """A close that locked every play first: the tap waits, then finds the round closed
    and is kept as a late entry (docs/rules.md section 3.5), never counted in it."""
    tables = night_in_play("house")
    night = tables[2].night
    play_round(night, close=False)
    rnd = night.rounds.get(number=1)
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
                result.append(tap(tables[3], 1, "points", 1, round_number=1)),
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
