"""A phone's tap alone at its table on PostgreSQL, in two round trips.

In a short ``write_transaction`` (``core/speed/compiled.py``) the tap takes the same lock,
makes the same reads and the same write as in ``transaction.atomic``, with BEGIN sent
with the reads and COMMIT with the write. These tests commit, as a web request does: a
test's own transaction would take the atomic block.
"""

import threading
from contextlib import contextmanager, nullcontext

import pytest
from django.db import OperationalError, connection, transaction

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Table
from bunco_night.play import services
from bunco_night.play.models import Entry
from bunco_night.play.services import taps
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import nonce, play_round, start_night, tap, tap_result
from tests.play.test_tap_locks import tap_in_progress, waiting_at_most

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's short taps"),
    pytest.mark.django_db(transaction=True),
]


def idle() -> bool:
    """The connection is outside any transaction."""
    from psycopg.pq import TransactionStatus

    return connection.connection.info.transaction_status == TransactionStatus.IDLE


@pytest.fixture
def shorts(monkeypatch):
    """How many taps took the short way (a short ``write_transaction``)."""
    calls = []
    real = taps.write_transaction

    @contextmanager
    def counted(*, short=False):
        with real(short=short) as batch:
            if batch.short:
                calls.append(batch)
            yield batch

    monkeypatch.setattr(taps, "write_transaction", counted)
    return calls


def twin_nights():
    """Two nights seated alike (the same seed), round 1 started: table 3 of each."""
    found = []
    for name in ("Maple Street", "Oak Street"):
        host = make_user(username=name.split()[0].lower())
        night = make_night(make_group(user=host, name=name, regulars=12, substitutes=0))
        start_night(night, seed=7)
        found.append(Table.objects.select_related("night").get(night=night, number=3))
    return found


def what(done) -> tuple:
    """What a tap's answer says of its entry and its table, whatever the night."""
    entry, after = done.entry, done.table_after
    return (
        entry.seat,
        entry.roller.name,
        entry.kind,
        entry.count,
        entry.points,
        entry.is_late,
        entry.extra_pass,
        done.late_waiting,
        after and (after.scores, after.outcome.done, [e.points for e in after.entries]),
    )


# Points, a miss, a mini bunco, a bunco past the target; then, once the bell has rung
# and the table pressed Done, a tap that is late (docs/rules.md sections 3.1 and 3.5).
TAPS = [(1, "points", 2), (2, "miss", 0), (3, "mini", 0), (4, "points", 1), (1, "bunco", 0)]
TAPS += [(2, "points", 1), "done", (3, "points", 1)]


def test_a_short_tap_stores_and_answers_as_a_tap_in_a_transaction_block(shorts):
    short_table, atomic_table = twin_nights()
    answers = {"short": [], "atomic": []}
    for step in TAPS:
        if step == "done":
            for table in (short_table, atomic_table):
                services.bell_ring(night=table.night)
                services.table_done(table=table)
            continue
        seat, kind, count = step
        answers["short"].append(what(tap_result(short_table, seat, kind, count, round_number=1)))
        with transaction.atomic():  # a test's own transaction, say
            answers["atomic"].append(
                what(tap_result(atomic_table, seat, kind, count, round_number=1))
            )
        assert idle()
    taps = len(TAPS) - 1
    assert len(shorts) == taps  # every tap at short_table went the short way
    assert answers["short"] == answers["atomic"]
    assert answers["short"][-1][5] is True and answers["short"][-1][7] is True  # late, waits
    stored = [
        [(e.seat, e.kind, e.points, e.is_late) for e in Entry.objects.filter(table=t)]
        for t in (short_table, atomic_table)
    ]
    assert stored[0] == stored[1] and len(stored[0]) == taps
    versions = [Table.objects.get(pk=t.pk).version for t in (short_table, atomic_table)]
    assert versions[0] == versions[1] == short_table.version


def test_a_short_tap_is_two_queries(shorts, django_assert_num_queries):
    short_table, _ = twin_nights()
    tap(short_table, 1, "miss", round_number=1)  # SQL written for this thread
    with django_assert_num_queries(2) as queries:
        tap(short_table, 2, "points", 1, round_number=1)
    assert len(shorts) == 2
    # From a statement's second run on the connection, prepared (core/speed/compiled.py).
    lock_and_reads, write = (q["sql"] for q in queries.captured_queries)
    assert lock_and_reads.startswith("BEGIN; EXECUTE bunco_")
    assert lock_and_reads.count("EXECUTE bunco_") == 3
    assert write.startswith("EXECUTE bunco_") and write.endswith("; COMMIT")


def test_head_table_taps_and_taps_without_a_round_take_the_transaction_block(shorts):
    short_table, _ = twin_nights()
    head = Table.objects.select_related("night").get(night=short_table.night, number=1)
    tap(head, 1, "points", 1, round_number=1)
    tap(short_table, 1, "points", 1)  # a phone that named no round
    tap(short_table, 1, "points", 1, round_number=1)
    assert len(shorts) == 1


@pytest.mark.parametrize(
    "seat, round_number, code",
    [(9, 1, "bad_seat"), (1, 2, "no_round"), (1, 40, "no_round")],
    ids=["a seat not at the table", "a round not started", "no such round"],
)
def test_a_refused_short_tap_stores_nothing_and_leaves_no_transaction(
    shorts, seat, round_number, code
):
    short_table, _ = twin_nights()
    with pytest.raises(ServiceError) as refused:
        tap(short_table, seat, "points", 1, round_number=round_number)
    assert refused.value.code == code and shorts
    assert idle()
    assert not Entry.objects.filter(table=short_table).exists()
    assert tap(short_table, 1, "points", 1, round_number=1).pk  # the connection works


def test_a_retried_short_tap_is_answered_as_its_stored_entry(shorts):
    short_table, atomic_table = twin_nights()
    sent = nonce()
    first = services.entry_record(
        table=short_table, nonce=sent, seat=1, kind="points", count=1, round_number=1
    )
    again = services.entry_record(
        table=short_table, nonce=sent, seat=1, kind="points", count=1, round_number=1
    )
    assert again.entry.pk == first.entry.pk and idle()
    assert Entry.objects.filter(table=short_table).count() == 1
    with pytest.raises(ServiceError) as forged:  # the nonce of another table's entry
        services.entry_record(
            table=atomic_table, nonce=sent, seat=1, kind="points", count=1, round_number=1
        )
    assert forged.value.code == "forged_nonce" and idle()
    assert len(shorts) == 3  # each went the short way; the retries found the nonce stored


def test_a_short_tap_counts_after_a_tap_it_waited_for(shorts):
    """The reads go after the lock in the same round trip: a tap that waited for another
    at its table counts after that tap's entry (here a bunco)."""
    short_table, _ = twin_nights()
    result = []

    def phone():
        try:
            result.append(tap_result(short_table, 2, "points", 1, round_number=1))
        finally:
            connection.close()

    with tap_in_progress(short_table, whole=True):
        waiting = threading.Thread(target=phone)
        waiting.start()
        waiting.join(0.3)
        assert waiting.is_alive()  # waiting for the tap in progress
    waiting.join(10)
    done = result[0]
    assert shorts and not done.entry.is_late
    assert [e.kind for e in done.table_after.entries] == ["bunco", "points"]
    assert done.table_after.scores == (21, 1)


def test_a_short_tap_that_cannot_have_its_lock_in_time_leaves_no_transaction(shorts):
    """A lock not had in time (a statement timeout, a lock timeout, a deadlock found)
    fails the first round trip: nothing is stored, and the connection is outside any
    transaction for the phone's next tap."""
    short_table, _ = twin_nights()
    with (
        tap_in_progress(short_table),
        waiting_at_most(300),
        pytest.raises(OperationalError),
    ):
        tap(short_table, 1, "points", 1, round_number=1)
    assert idle() and shorts
    assert not Entry.objects.filter(table=short_table).exists()
    assert tap(short_table, 1, "points", 1, round_number=1).pk


def test_a_short_tap_for_a_closed_round_is_late_and_answers_no_board(shorts):
    """A tap queued offline that names a round closed since is kept for the host
    (docs/rules.md section 3.5), as the tap in a transaction block keeps it."""
    short_table, atomic_table = twin_nights()
    answers = []
    for table in (short_table, atomic_table):
        play_round(table.night)
        with transaction.atomic() if table is atomic_table else nullcontext():
            done = tap_result(table, 2, "points", 1, round_number=1)
        answers.append((done.entry.is_late, done.table_after, done.late_waiting))
    assert answers[0] == answers[1] == (True, None, True)
    assert len(shorts) == 1 and idle()
